"""The operator menu on a real (headless) pygame screen, driven by synthetic taps: pygame
MOUSEBUTTONDOWN/UP events posted at the buttons' places (and FINGERDOWN in normalised
coordinates), handled by the window loop, routed by the service to the menu. A chess game on the
simulated board (real pty) gets its players' names through the PIN pad and the keyboard, White
resigns, the game goes to a (fake) USB stick as PGN; another variant is refused by the 64-square
board, and without a board a new Mathematichess game starts from the menu."""

from __future__ import annotations

import io
from pathlib import Path

import chess.pgn
import pytest

import engine
from controller.board_map import SensorMap
from controller.config import Config, GpioConfig
from controller.service import Service
from controller.session import Phase
from controller.store import GameStore
from firmware_bridge.script import parse_script
from firmware_bridge.simboard import SimBoard
from tests.menu_screen import Screen, type_name
from tests.usb_stick import fake_usb

CHESS = engine.find_variant("chess")


@pytest.mark.parametrize("size", [(800, 480), (480, 320)])
def test_names_resign_and_export_by_taps(tmp_path: Path, size: tuple[int, int]) -> None:
    board = SimBoard(CHESS).start()
    store = GameStore(tmp_path / "games.sqlite3")
    config = Config(port=(board.path,), gpio=GpioConfig(enabled=False), operator_pin="2468")
    service = Service(config, CHESS, store, SensorMap(CHESS), out=io.StringIO(), err=io.StringIO())
    screen = Screen(service, size)
    root, stick = fake_usb(tmp_path)
    service.usb_root = str(root)
    service.start()
    try:
        board.start_script(parse_script("lift e2\nplace e4\nsleep 200\nlift e7\nplace e5\n", CHESS))
        screen.pump(lambda: len(service.session.position.move_stack) == 2, "1. e4 e5")
        screen.tap("Menu")
        assert screen.title() == "Operator menu"
        screen.tap("Settings")
        assert screen.title().startswith("Operator PIN")
        for digit in "1357":  # a wrong PIN: still asked
            screen.tap(digit)
        assert screen.title().startswith("Operator PIN")
        for digit in "2468":
            screen.tap(digit, finger=True)
        assert screen.title() == "Settings"
        screen.tap("White's name")
        type_name(screen, "Anderssen")
        screen.tap("Black's name")
        type_name(screen, "Kieseritzky")
        screen.tap("Back")
        screen.tap("Resign")
        screen.tap("White resigns")
        screen.pump(lambda: service.session.phase == Phase.OVER, "the game to end")
        assert screen.view().menu is None and screen.view().result == "0-1 resignation"
        assert (screen.view().title, screen.view().players) == ("Chess", "Anderssen - Kieseritzky")
        screen.tap("Menu")
        screen.tap("Export to USB")
        screen.tap("This game")
        screen.pump(lambda: screen.title().startswith("Game 1 saved to"), "the export")
        screen.tap("OK")
        assert screen.view().menu is None
        # the variant screen offers, by title, only the variants that fit this 64-square board
        screen.tap("Menu")
        screen.tap("Settings")  # unlocked while the menu was open before? no: asked again
        for digit in "2468":
            screen.tap(digit)
        screen.tap("Variant: Chess")
        offered: list[str] = []
        while True:
            menu = screen.view().menu
            assert menu is not None
            labels = [c.label for c in menu.choices]
            offered += [label for label in labels if label not in ("More", "Back")]
            if "More" not in labels:
                break
            screen.tap("More")
        assert "Mathematichess" not in offered and "Alice Chess" not in offered  # 169 and 128 cells
        assert {"Chess", "Double Rettah", "Meddlers Chess", "Zeta (short game)"} <= set(offered)
        assert all(engine.find_variant(n).geometry.size == 64 for n, t in service.menu.variants)
        assert service.variant is CHESS
    finally:
        service.stop()
        screen.close()
        board.stop()
    files = list(stick.glob("*.pgn"))
    assert len(files) == 1
    game = chess.pgn.read_game(io.StringIO(files[0].read_text(encoding="utf-8")))
    assert game is not None and not game.errors
    assert (game.headers["White"], game.headers["Black"], game.headers["Result"]) == ("Anderssen", "Kieseritzky",
                                                                                      "0-1")
    assert [board_move.uci() for board_move in game.mainline_moves()] == ["e2e4", "e7e5"]
    record = store.latest()
    assert record is not None
    assert record.termination == "resignation"
    store.close()


def test_new_game_of_another_variant_without_a_board(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "games.sqlite3")
    service = Service(Config(gpio=GpioConfig(enabled=False)), CHESS, store, SensorMap(CHESS), out=io.StringIO(),
                      err=io.StringIO())
    screen = Screen(service, (800, 480))
    service.start()
    try:
        screen.tap("Menu")
        screen.tap("Settings")  # no PIN configured: straight in
        screen.tap("Variant: Chess")
        screen.tap("More")  # the second page of variants
        screen.tap("Mathematichess")
        screen.pump(lambda: screen.view().geometry.size == 169, "the 13x13 board")
        assert screen.view().title == "Mathematichess" and screen.view().menu is None
        assert service.session.phase == Phase.PLAY
        # the buttons of the panel: flip board turns the board round
        first = screen.layout().cells[0].center
        screen.tap("Menu")
        screen.tap("Flip board")
        screen.pump(lambda: screen.view().flipped, "the board turned round")
        assert screen.layout().cells[0].center != first
    finally:
        service.stop()
        screen.close()
    record = store.latest()
    assert record is not None
    assert record.variant == "mathematichess"
    store.close()


@pytest.mark.parametrize(("name", "offered"), [("mathematichess", True), ("chess", False)])
def test_end_by_agreement_is_offered_where_the_rules_allow_it(tmp_path: Path, name: str, offered: bool) -> None:
    """The variant's typed capability (``rules.agreement``) decides: Mathematichess ends by
    agreement, chess does not (it has Offer draw)."""
    variant = engine.find_variant(name)
    store = GameStore(tmp_path / "games.sqlite3")
    service = Service(Config(gpio=GpioConfig(enabled=False)), variant, store, SensorMap(variant), out=io.StringIO(),
                      err=io.StringIO())
    screen = Screen(service, (800, 480))
    service.start()
    try:
        screen.tap("Menu")
        assert screen.title() == "Operator menu"
        assert ("End by agreement" in screen.buttons()) is offered
        assert "Offer draw" in screen.buttons()
        screen.tap("Close")
        assert screen.view().menu is None
    finally:
        service.stop()
        screen.close()
        store.close()
