"""The computer's move and the hint on a real (headless) pygame screen: what to lift and where
to put it in the status line with its cells marked, and the operator menu's Hint, driven by taps
(tests/menu_screen.py's Screen); the simulated board on a real pty, our engine in its own
process."""

from __future__ import annotations

import io

import engine
from controller.board_map import SensorMap
from controller.config import Config, GpioConfig
from controller.service import Service
from controller.session import Phase
from controller.store import GameStore
from firmware_bridge.firmware import protocol as P
from firmware_bridge.script import parse_script
from firmware_bridge.simboard import SimBoard
from tests.menu_screen import Screen

CHESS = engine.find_variant("chess")
GO = "go depth 1"


def started(tmp_path, players: tuple[tuple[str, str], ...],
            time_control: str = "") -> tuple[SimBoard, GameStore, Service, Screen]:
    board = SimBoard(CHESS).start()
    store = GameStore(tmp_path / "games.sqlite3")
    config = Config(port=(board.path,), gpio=GpioConfig(enabled=False), players=players, engine_go=GO,
                    time_control=time_control)
    service = Service(config, CHESS, store, SensorMap(CHESS), out=io.StringIO(), err=io.StringIO())
    screen = Screen(service, (800, 480))
    service.start()
    return board, store, service, screen


def test_the_computers_move_is_shown_with_its_cells_marked(tmp_path) -> None:
    board, store, service, screen = started(tmp_path, (("black", "computer:0"),), time_control="5+0")
    try:
        board.start_script(parse_script("lift e2\nplace e4\n", CHESS))
        screen.pump(lambda: "Black (computer) plays" in screen.view().status, "the computer's move")
        guide = service.opponents.guide
        assert guide is not None and guide.steps is not None and guide.move is not None
        view = screen.view()
        assert f"plays {guide.text}: lift the black " in view.status
        assert set(guide.steps.cells) <= set(view.highlights.pending)
        # the board lights the move's cells (the simulated board's firmware shows them on)
        cells = set(guide.steps.cells)
        screen.pump(lambda: {c for c, led in enumerate(board.leds()) if led == P.LED_ON} == cells,
                    "the board lighting the computer's move")
        # the clock charged Black while it thought; carrying its move out is charged to nobody
        assert service.clock is not None and service.clock.paused_for_guide
        clock = service.clock.clock
        assert clock is not None and not clock.running
    finally:
        service.stop()
        screen.window.stop()
        board.stop()
        store.close()


def test_the_menus_hint_shows_the_computers_choice_for_the_human(tmp_path) -> None:
    board, store, service, screen = started(tmp_path, ())
    try:
        screen.pump(lambda: service.session.phase == Phase.PLAY, "the game to start")
        screen.tap("Menu")
        screen.tap("Hint")
        screen.pump(lambda: "Hint: " in screen.view().status and "thinking" not in screen.view().status,
                    "the hint")
        status = screen.view().status
        texts = {service.session.position.move_text(m) for m in service.session.position.legal_moves()}
        assert any(f"Hint: {t} (" in status for t in texts), status
        assert "lift the white" in status
        # the hint is a suggestion: the human may play another move, and the hint goes
        board.start_script(parse_script("lift a2\nplace a3\n", CHESS))
        screen.pump(lambda: len(service.session.position.move_stack) == 1 and "Hint" not in screen.view().status,
                    "a3 taken and the hint gone")
    finally:
        service.stop()
        screen.window.stop()
        board.stop()
        store.close()


def test_the_settings_choose_the_computer_for_a_side(tmp_path) -> None:
    board, store, service, screen = started(tmp_path, ())
    try:
        screen.pump(lambda: service.session.phase == Phase.PLAY, "the game to start")
        screen.tap("Menu")
        screen.tap("Settings")
        screen.tap("Black plays: human")
        screen.tap("Computer, beginner")
        screen.pump(lambda: "Black plays: computer:1" in screen.buttons(), "the setting in force")
        screen.tap("Back")
        screen.tap("Close")
        board.start_script(parse_script("lift e2\nplace e4\n", CHESS))
        screen.pump(lambda: "Black (computer) plays" in screen.view().status, "the computer's move")
        assert service.opponents.players[1].level == 1
    finally:
        service.stop()
        screen.window.stop()
        board.stop()
        store.close()
