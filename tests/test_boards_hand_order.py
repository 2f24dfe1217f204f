"""One full report of a maker board holds changes with no order of their own; the driver
delivers them in an order hands can make (``firmware_bridge.boards.hand_order``), so that the
next player's hand, at work in the scan that shows the mover's piece going on from a cell it
paused on, is not read first (issue 23: Millennium read e5-c5 as e5-d5 that way)."""

from __future__ import annotations

import engine
from controller.core_types import Event, Timing
from controller.inference import Referee
from firmware_bridge.boards.emulators import MillenniumEmulator
from firmware_bridge.boards.hand_order import hand_order
from firmware_bridge.boards.millennium import MillenniumDriver
from firmware_bridge.events import LIFT, PLACE, SensorEvent
from tests.emulated_boards import TIMEOUT, driver_on, eventually

CHESS = engine.find_variant("chess")


def board(**pieces: str) -> list[str | None]:
    cells: list[str | None] = [None] * 64
    for name, piece in pieces.items():
        cells[CHESS.geometry.index(name)] = piece
    return cells


def named(changes) -> list[str]:
    return [f"{action} {CHESS.geometry.names[cell]} {piece}" for cell, action, piece in changes]


def test_the_piece_that_goes_on_is_read_before_the_next_players_lift() -> None:
    before = board(d5="q", c2="Q")
    after = board(c5="q")
    assert named(hand_order(before, after, CHESS.geometry.index("d5"))) == [
        f"{LIFT} d5 q", f"{PLACE} c5 q", f"{LIFT} c2 Q"]
    # Square order alone would have lifted c2 first; a piece lifted and put down in one report
    # goes first even when the driver does not know where a piece was last put down.
    assert named(hand_order(before, after, None))[0] == f"{LIFT} d5 q"


def test_a_victim_comes_off_before_the_piece_lands_on_its_cell() -> None:
    before = board(d4="R", d5="b", c8="q")
    after = board(d5="R", d7="q")
    assert named(hand_order(before, after, CHESS.geometry.index("d4"))) == [
        f"{LIFT} d4 R", f"{LIFT} d5 b", f"{PLACE} d5 R", f"{LIFT} c8 q", f"{PLACE} d7 q"]


def test_a_piece_goes_down_after_its_lift_and_a_held_piece_first() -> None:
    """The king lifted a scan before goes down first; the rook lifted and put down in this
    report goes down after its lift; a lift with no placement comes after."""
    before = board(h1="R", a2="P")
    after = board(f1="R", g1="K")
    assert named(hand_order(before, after, None)) == [
        f"{PLACE} g1 K", f"{LIFT} h1 R", f"{PLACE} f1 R", f"{LIFT} a2 P"]


SCRIPT = """
lift e2
place e4 P
sleep 300
lift e7
place e5 p
sleep 300
lift g1
place f3 N
sleep 300
lift d8
place e7 q
sleep 600
lift e7
place f6 q
lift b1
sleep 300
place c3 N
sleep 300
"""


def test_a_millennium_board_reads_a_slide_going_on_as_the_next_player_starts() -> None:
    """Black's queen pauses on e7, then goes on to f6 in the very scan in which White lifts b1
    (a cell before e7 in square order): the move is d8f6, not d8e7."""
    with MillenniumEmulator("chess") as emulator, driver_on(emulator, MillenniumDriver) as link:
        emulator.start_script(SCRIPT)
        assert emulator.done.wait(TIMEOUT)
        events: list[SensorEvent] = []
        assert eventually(lambda: _drained(link, events) and len(events) >= 12)
        drag_ms = link.drag_ms
    referee = Referee(engine.start_position(CHESS), identity=True, timing=Timing(drag_ms=drag_ms))
    t0 = events[0].host_time
    played: list[str] = []
    for ev in events:
        t = int((ev.host_time - t0) * 1000)
        for move in referee.tick(t).accepted + referee.event(Event(
                ev.cell, ev.placed, t, CHESS.parse_symbol(ev.piece) if ev.piece else 0)).accepted:
            played.append(engine.move_text(CHESS, move))
    for move in referee.tick(t + 60_000).accepted:
        played.append(engine.move_text(CHESS, move))
    assert played == ["e2e4", "e7e5", "g1f3", "d8f6", "b1c3"]


def _drained(link: MillenniumDriver, into: list[SensorEvent]) -> bool:
    while not link.events.empty():
        item = link.events.get_nowait()
        if isinstance(item, SensorEvent):
            into.append(item)
    return True


def test_a_piece_held_from_before_goes_down_before_the_other_hands_whole_move() -> None:
    """Black retakes on d8 with the rook lifted a scan before, while White's queen goes d1-b1
    and Black's hand reaches e5, all in one scan: the retaking first."""
    before = board(d1="Q", e5="n")
    after = board(d8="r", b1="Q")
    assert named(hand_order(before, after, CHESS.geometry.index("d8"))) == [
        f"{PLACE} d8 r", f"{LIFT} d1 Q", f"{PLACE} b1 Q", f"{LIFT} e5 n"]
