"""Lights for the piece to swap (Gryphon: a piece turns into another where it lands, and the
player must put the new piece there), on every board that has announced lights, and never on
one that has not. The service runs in this process on a real pty with a board emulator or our
simulated board; a ping after the status was shown is the barrier (the lights were sent before
it, on the same line), and what the board received is read off the board itself."""

from __future__ import annotations

import queue
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import engine
from controller.board_map import SensorMap
from controller.config import Config, GpioConfig
from controller.core_types import StatusKind
from controller.inference import Status
from controller.service import Service
from controller.store import GameStore
from firmware_bridge.board_link import BoardKind
from firmware_bridge.boards.emulators import DgtEmulator, MillenniumEmulator
from firmware_bridge.firmware import protocol as P
from firmware_bridge.script import parse_script
from firmware_bridge.simboard import SimBoard

TIMEOUT = 10.0
GRYPHON = engine.find_variant("gryphon")
F3 = GRYPHON.geometry.index("f3")
G1 = GRYPHON.geometry.index("g1")


def wire(cell: int) -> int:
    """A DGT/Millennium square number (a8 = 0) of an 8x8 cell."""
    return 8 * (7 - cell // 8) + cell % 8


def corner_leds(square: int) -> set[int]:
    """The Millennium's four LEDs (of 9x9, column-major from the a8 corner) around a square."""
    file, row = square % 8, square // 8
    return {f * 9 + r for f in (file, file + 1) for r in (row, row + 1)}


class Refereed:
    """The service on ``board`` (started), with each shown status on ``shown``."""

    def __init__(self, tmp_path: Path, board: Any, kind: BoardKind) -> None:
        self.board = board
        self.store = GameStore(tmp_path / "games.sqlite3")
        config = Config(port=(board.path,), board=kind, gpio=GpioConfig(enabled=False))
        self.service = Service(config, GRYPHON, self.store, SensorMap(GRYPHON), print_moves=False)
        self.shown: queue.Queue[Status] = queue.Queue()
        self.service.on_show = self.shown.put

    def wait_for(self, kind: StatusKind, text: str) -> Status:
        while True:
            status = self.shown.get(timeout=TIMEOUT)
            if status.kind == kind and text in status.message:
                return status

    def settled(self) -> None:
        """Every light command the service sent so far has reached the board."""
        self.service.links[0].ping(TIMEOUT)


@pytest.fixture
def refereed(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Refereed]:
    kind, board = request.param
    board.start()
    run = Refereed(tmp_path, board, kind)
    try:
        run.service.start()
        yield run
    finally:
        run.service.stop()
        board.stop()
        run.store.close()


@pytest.mark.parametrize("refereed", [("millennium", MillenniumEmulator("gryphon"))], indirect=True)
def test_millennium_blinks_the_square_whose_piece_must_be_swapped(refereed: Refereed) -> None:
    """The knight goes g1-f3 and must become a bishop there. Put down as a knight, the board
    blinks f3's corners (and only them); once the bishop stands there the move is taken and f3
    and g1 light steadily as the last move."""
    board: MillenniumEmulator = refereed.board
    board.play("lift g1\nplace f3 N\nsleep 200", timeout=TIMEOUT)
    status = refereed.wait_for(StatusKind.FIX, "replace the knight on f3 with a bishop")
    assert [f.cell for f in status.fixes] == [F3]
    refereed.settled()
    lit = {led: pattern for led, pattern in enumerate(board.led_patterns) if pattern}
    assert set(lit) == corner_leds(wire(F3)) and set(lit.values()) == {0xF0}  # blinking, f3 alone
    board.play("lift f3\nplace f3 B\nsleep 200", timeout=TIMEOUT)
    refereed.wait_for(StatusKind.IDLE, "White played g1f3")
    refereed.settled()
    lit = {led: pattern for led, pattern in enumerate(board.led_patterns) if pattern}
    assert set(lit) == corner_leds(wire(F3)) | corner_leds(wire(G1)) and set(lit.values()) == {0xFF}


@pytest.mark.parametrize("refereed", [("dgt", DgtEmulator("gryphon"))], indirect=True)
def test_a_dgt_board_without_lights_is_sent_no_light_for_a_swap(refereed: Refereed) -> None:
    """The same swap on a DGT board that is no Revelation II: the screen says it, the board is
    sent not a single light command, then or after the move."""
    board: DgtEmulator = refereed.board
    board.play("lift g1\nplace f3 N\nsleep 400", timeout=TIMEOUT)
    refereed.wait_for(StatusKind.FIX, "replace the knight on f3 with a bishop")
    board.play("lift f3\nplace f3 B\nsleep 400", timeout=TIMEOUT)
    refereed.wait_for(StatusKind.IDLE, "White played g1f3")
    refereed.settled()
    assert board.led_commands == 0


@pytest.mark.parametrize("refereed", [("chessery", SimBoard(GRYPHON))], indirect=True)
def test_our_occupancy_board_blinks_the_cell_until_the_piece_is_swapped(refereed: Refereed) -> None:
    """An occupancy board cannot tell a knight from a bishop: the move is taken at once and the
    status line names the swap; the cell blinks until a piece is put down there again (the
    swap), then every light is off."""
    board: SimBoard = refereed.board
    board.play(parse_script("lift g1\nplace f3\n", GRYPHON), timeout=TIMEOUT)
    refereed.wait_for(StatusKind.IDLE, "White played g1f3: replace the knight on f3 with a bishop")
    refereed.settled()
    leds = board.leds()
    assert {c for c in range(64) if leds[c]} == {F3} and leds[F3] == P.LED_BLINK
    board.play(parse_script("lift f3\nplace f3\n", GRYPHON), timeout=TIMEOUT)
    refereed.service.finish_when_at_rest()  # every event of the swap handled, the last frame shown
    assert refereed.service.finished.wait(TIMEOUT)
    refereed.settled()
    assert not any(board.leds())
    record = refereed.store.latest()
    assert record is not None and record.moves == ("g1f3",)
