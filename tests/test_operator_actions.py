"""The arbiter's work at the kiosk, all by taps at the buttons' pixels on a real headless window
(SDL's dummy driver), on a service refereeing the simulated board (real pty) with a real SQLite
file: the event, round and board number and a name with a hyphen and an apostrophe typed on the
touch keyboard; the settings in force highlighted; a time control typed in; a clock corrected and
both clocks paused; a forfeit and an adjourned game recorded; a chosen game and the whole event
exported; the kiosk shut down, asked twice. The frames of the main flows are kept as PNGs
(``CHESSERY_DOC_IMAGES=docs/images`` writes them for docs/kiosk.md)."""

from __future__ import annotations

import io
import os
from pathlib import Path

import chess.pgn
import pygame
import pytest

import engine
from controller import operator_actions
from controller.board_map import SensorMap
from controller.config import Config, GpioConfig
from controller.service import Service
from controller.session import Phase
from controller.store import GameStore
from firmware_bridge.script import parse_script
from firmware_bridge.simboard import SimBoard
from tests.menu_screen import Screen
from tests.usb_stick import fake_usb

CHESS = engine.find_variant("chess")
KEY_LABELS = {" ": "Space"}


def type_text(screen: Screen, text: str) -> None:
    """Tap the keys that type ``text`` (names capitalise themselves), then OK."""
    for ch in text:
        screen.tap(key_label(screen, ch))
    screen.tap("OK")


def key_label(screen: Screen, ch: str) -> str:
    """The key that types ``ch``: letters are on upper-case keys (the time keyboard's d and b
    are its own)."""
    if ch in KEY_LABELS:
        return KEY_LABELS[ch]
    screen.pump(lambda: bool(screen.buttons()), "the keyboard")
    return ch if ch in screen.buttons() else ch.upper()


def keep(screen: Screen, tmp_path: Path, name: str) -> Path:
    """The frame on the screen now, as a PNG (also in $CHESSERY_DOC_IMAGES when set)."""
    surface = pygame.display.get_surface()
    assert surface is not None
    path = tmp_path / f"{name}.png"
    pygame.image.save(surface, str(path))
    target = os.environ.get("CHESSERY_DOC_IMAGES")
    if target:
        pygame.image.save(surface, str(Path(target) / f"{name}.png"))
    return path


def selected_label(screen: Screen) -> str:
    menu = screen.view().menu
    assert menu is not None and menu.selected is not None
    return menu.choices[menu.selected].label


@pytest.fixture
def kiosk(tmp_path: Path):
    """A timed chess game (5+0) after 1. e4 on the simulated board, its service and screen."""
    board = SimBoard(CHESS).start()
    store = GameStore(tmp_path / "games.sqlite3")
    config = Config(port=(board.path,), gpio=GpioConfig(enabled=False), time_control="5+0")
    service = Service(config, CHESS, store, SensorMap(CHESS), out=io.StringIO(), err=io.StringIO())
    screen = Screen(service, (800, 480))
    root, stick = fake_usb(tmp_path)
    service.usb_root = str(root)
    service.start()
    try:
        board.start_script(parse_script("lift e2\nplace e4\n", CHESS))
        screen.pump(lambda: len(service.session.position.move_stack) == 1, "1. e4")
        yield service, screen, stick
    finally:
        service.stop()
        screen.close()
        board.stop()
        store.close()


def test_event_round_board_and_names_typed_then_exported(kiosk, tmp_path: Path) -> None:
    _service, screen, stick = kiosk
    screen.tap("Menu")
    keep(screen, tmp_path, "kiosk-menu")
    screen.tap("Settings")
    screen.tap("Event")
    type_text(screen, "Club Open 2026, Rapid")  # the menu stays on Settings, the value beside "Event"
    screen.tap("Round")
    type_text(screen, "3.1")
    screen.tap("Board")
    type_text(screen, "12")
    screen.tap("White's name")
    for ch in "Jean-Paul O'Neill":
        screen.tap(key_label(screen, ch))
    assert screen.title() == "White's name: Jean-Paul O'Neill_"
    keep(screen, tmp_path, "kiosk-keyboard")
    screen.tap("OK")
    labels = [c.label for c in screen.view().menu.choices]  # type: ignore[union-attr]
    assert {"Event: Club Open 2026, Rapid", "Round: 3.1", "Board: 12", "White's name: Jean-Paul O'Neill",
            "Time control: 5+0", "Variant: Chess", "Black's name"} <= set(labels)
    keep(screen, tmp_path, "kiosk-settings")
    screen.tap("Back")
    screen.tap("Close")
    screen.pump(lambda: screen.view().players == "Jean-Paul O'Neill - ?", "the name on the panel")
    # a chosen game to the USB stick: the list, newest first
    screen.tap("Menu")
    screen.tap("Export to USB")
    screen.tap("Choose a game")
    assert screen.title() == "Which game? (newest first)"
    keep(screen, tmp_path, "kiosk-export-list")
    screen.tap("Game 1: Jean-Paul O'Neill - ?, *")
    screen.pump(lambda: screen.title().startswith("Game 1 saved to"), "the export")
    screen.tap("OK")
    screen.tap("Menu")
    screen.tap("Export to USB")
    screen.tap("The whole event")
    screen.pump(lambda: screen.title().startswith("The whole event saved to"), "the event's export")
    game_file = next(stick.glob("chessery-game1-*.pgn"))
    event_file = next(stick.glob("chessery-event-*.pgn"))
    for path in (game_file, event_file):
        pgn = chess.pgn.read_game(io.StringIO(path.read_text(encoding="utf-8")))
        assert pgn is not None and not pgn.errors
        assert (pgn.headers["Event"], pgn.headers["Round"], pgn.headers["Board"], pgn.headers["White"]) == (
            "Club Open 2026, Rapid", "3.1", "12", "Jean-Paul O'Neill")


def test_time_control_typed_and_the_one_in_force_highlighted(kiosk, tmp_path: Path) -> None:
    service, screen, _stick = kiosk
    screen.tap("Menu")
    screen.tap("Settings")
    screen.tap("Time control: 5+0")
    assert selected_label(screen) == "5+0"  # the control in force
    screen.tap("Other...")
    type_text(screen, "3++2")
    assert screen.title().startswith("time control '3++2': cannot read")  # said, nothing changed
    screen.tap("OK")
    assert service.clock is not None and service.clock.control is not None
    assert service.clock.control.text == "5+0"
    screen.tap("Menu")
    screen.tap("Settings")
    screen.tap("Time control: 5+0")
    screen.tap("Other...")
    type_text(screen, "40/90+30,30+30")
    assert screen.title() == "Time control 40/90+30,30+30 from the next game"
    screen.tap("OK")
    assert service.clock.control.text == "40/90+30,30+30"
    screen.tap("Menu")
    screen.tap("Settings")
    screen.tap("Time control: 40/90+30,30+30")
    assert selected_label(screen) == "40/90+30,30+30"
    keep(screen, tmp_path, "kiosk-time-control")
    screen.tap("15+10")
    assert screen.title() == "Time control 15+10 from the next game"


def test_a_clock_corrected_and_both_clocks_paused(kiosk) -> None:
    service, screen, _stick = kiosk
    clock = service.clock.clock
    assert clock is not None and clock.turn == 1
    screen.tap("Menu")
    screen.tap("Clocks")
    white, black = clock.seconds(service.now())
    screen.tap("White +1 min")
    screen.tap("Black −10 s")
    assert clock.seconds(service.now()) == (white + 60, black - 10)  # the menu stops the clock: exact
    screen.tap("Pause both clocks")
    assert screen.title() == "Clocks: paused by the arbiter"
    screen.tap("Back")
    screen.tap("Close")
    screen.pump(lambda: screen.view().menu is None, "the menu to close")
    assert not clock.running  # still stopped after the menu closed
    screen.tap("Menu")
    screen.tap("Clocks")
    screen.tap("Run both clocks")
    screen.tap("Back")
    screen.tap("Close")
    screen.pump(lambda: clock.running, "Black's clock to run again")


@pytest.mark.parametrize(("button", "stored", "shown"), [
    ("White wins by forfeit", ("1-0", "forfeit"), "1-0 forfeit"),
    ("Adjourned", ("*", "adjourned"), "* adjourned"),
])
def test_the_arbiter_records_a_result(kiosk, button: str, stored: tuple[str, str], shown: str) -> None:
    service, screen, _stick = kiosk
    screen.tap("Menu")
    screen.tap("Arbiter's result")
    screen.tap(button)
    screen.pump(lambda: service.session.phase == Phase.OVER, "the game to end")
    screen.pump(lambda: screen.view().result == shown, f"the result {shown!r} on the panel")
    game = service.store.latest()
    assert game is not None and (game.result, game.termination) == stored


def test_shut_down_is_asked_twice_then_switches_the_kiosk_off(kiosk, monkeypatch, tmp_path: Path) -> None:
    service, screen, _stick = kiosk
    ran: list[tuple[str, ...]] = []
    monkeypatch.setattr(operator_actions, "run_command", ran.append)  # never this machine's poweroff
    screen.tap("Menu")
    screen.tap("Restart or shut down")
    screen.tap("Shut down the kiosk")
    assert screen.title() == "Shut the kiosk down now? Switch it on again to play"
    keep(screen, tmp_path, "kiosk-shutdown")
    screen.tap("Cancel")
    assert ran == [] and screen.title() == "Operator menu"
    screen.tap("Restart or shut down")
    screen.tap("Shut down the kiosk")
    screen.tap("Shut down the kiosk")
    screen.pump(lambda: service.stopping.is_set(), "the service to stop")
    assert ran == [operator_actions.SHUTDOWN_COMMAND]
    game = service.store.latest()
    assert game is not None and game.moves == ("e2e4",)  # stored, nothing lost


def test_restart_stops_the_service_for_systemd_to_start_again(kiosk, monkeypatch) -> None:
    service, screen, _stick = kiosk
    ran: list[tuple[str, ...]] = []
    monkeypatch.setattr(operator_actions, "run_command", ran.append)
    screen.tap("Menu")
    screen.tap("Restart or shut down")
    screen.tap("Restart Chessery")
    assert screen.title() == "Restart Chessery now? The game under way is kept"
    screen.tap("Restart Chessery")
    screen.pump(lambda: service.stopping.is_set(), "the service to stop")
    assert ran == [] and service.error is None  # a clean stop: exit status 0, Restart=always
