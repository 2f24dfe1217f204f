"""UCI engines the configuration names (``engines``), offered by the operator menu's player
screen: a kiosk has no keyboard to type a command. Pure menu checks, then the system's Stockfish
chosen by taps on a real (headless) screen (tests/menu_screen.py) of a service refereeing the
simulated board over a real pty, and playing Black's moves."""

from __future__ import annotations

import pytest

from controller.config import ConfigError, parse_config
from controller.menu import OperatorMenu
from controller.menu_players import REMOTES_SHOWN, listed_remotes
from controller.players import PlayerKind
from engine import start_position
from tests.menu_screen import Screen
from tests.opponent_moves import accepted, announced, hands
from tests.service_rig import Rig
from tests.system_stockfish import STOCKFISH

PRESETS = ["Human", "Computer, beginner", "Computer, casual", "Computer, club", "Computer, strongest"]


def player_labels(menu: OperatorMenu) -> list[str]:
    prompt = menu.prompt()
    assert prompt is not None
    return [c.label for c in prompt.choices]


def test_the_configured_engines_follow_the_levels_and_a_tap_chooses_one() -> None:
    config = parse_config({"engines": ["stockfish", "uci:/opt/fsf/fairy-stockfish --threads 2"]})
    assert config.engines == ("uci:stockfish", "uci:/opt/fsf/fairy-stockfish --threads 2")
    menu = OperatorMenu(["chess"], engines=config.engines)
    menu.open()
    menu.tap("settings")
    menu.tap("player1")
    assert player_labels(menu) == [*PRESETS, "Engine stockfish", "Engine fairy-stockfish --threads 2", "Back"]
    prompt = menu.prompt()
    assert prompt is not None and prompt.columns == 2  # ten buttons: two columns, as with a hall
    action = menu.tap("p:uci:/opt/fsf/fairy-stockfish --threads 2")
    assert action is not None and (action.kind, action.side, action.value) == (
        "player", 1, "uci:/opt/fsf/fairy-stockfish --threads 2")
    assert menu.screen == "settings"


def test_an_engine_chosen_on_the_command_line_stays_listed_and_selected() -> None:
    menu = OperatorMenu(["chess"], engines=("uci:a", "uci:b", "uci:c"))
    menu.current["player0"] = "uci:/usr/games/stockfish"
    menu.open()
    menu.tap("settings")
    menu.tap("player0")
    assert player_labels(menu)[len(PRESETS):] == ["Engine stockfish", "Engine a", "Engine b", "Back"]
    prompt = menu.prompt()
    assert prompt is not None and prompt.selected is not None
    assert prompt.choices[prompt.selected].key == "p:uci:/usr/games/stockfish"


def test_with_a_hall_the_engines_take_rows_from_the_boards() -> None:
    boards = [f"b{i}" for i in range(8)]
    menu = OperatorMenu(["chess"], remotes=lambda: boards, engines=("uci:stockfish", "uci:lc0"))
    menu.open()
    menu.tap("settings")
    menu.tap("player1")
    labels = player_labels(menu)
    assert labels[len(PRESETS):] == ["Engine stockfish", "Engine lc0",
                                     *[f"Board b{i}" for i in range(REMOTES_SHOWN - 2)], "Other board...", "Back"]
    assert len(labels) == 12  # six rows of two, as without engines


def test_the_board_in_force_takes_a_place_only_where_there_is_room() -> None:
    boards = ["b0", "b1", "b2"]
    assert listed_remotes(lambda: boards, "remote:far", 2) == ["far", "b0"]
    assert listed_remotes(lambda: boards, "remote:far", 0) == []


@pytest.mark.parametrize(("value", "says"), [
    ("stockfish", "expected a list"),
    (["a", "b", "c", "d"], "at most 3"),
    (["uci:"], "needs the engine's command"),
    (["'unclosed"], "No closing quotation"),
])
def test_a_bad_engines_list_names_the_key(value: object, says: str) -> None:
    with pytest.raises(ConfigError, match="engines") as caught:
        parse_config({"engines": value})
    assert says in str(caught.value)


@pytest.mark.skipif(STOCKFISH is None, reason="the system's stockfish is not installed")
def test_stockfish_chosen_on_the_screen_plays_black(tmp_path) -> None:
    assert STOCKFISH is not None
    missing = "uci:/nonexistent/engine"
    r = Rig(tmp_path, "", engines=(f"uci:{STOCKFISH}", missing), engine_go="go depth 1")
    screen = Screen(r.service, (800, 480))
    try:
        r.service.start()
        screen.tap("Menu")
        screen.tap("Settings")
        # an engine that does not start: named on the screen, and Black stays human
        screen.tap("Black plays: human")
        screen.tap("Engine engine")
        screen.pump(lambda: "Nothing changed" in screen.title(), "the engine's failure on the screen")
        assert "/nonexistent/engine" in screen.title()
        assert r.service.opponents.players[1].kind is PlayerKind.HUMAN
        screen.tap("OK")  # the message closes the menu
        screen.tap("Menu")
        screen.tap("Settings")
        screen.tap("Black plays: human")
        screen.tap("Engine stockfish")
        screen.pump(lambda: f"Black plays: uci:{STOCKFISH}" in screen.buttons(), "the setting in force")
        assert r.service.opponents.players[1].command == (STOCKFISH,)
        screen.tap("Back")
        screen.tap("Close")
        pos = start_position(r.service.variant)
        hands(r, pos, "e2e4")
        accepted(r, 1, "e2e4")
        pos.push_text("e2e4")
        shown = announced(r, 1)
        reply = shown["move"]
        assert pos.parse_move(reply) in pos.legal_moves()  # Stockfish's own choice, announced
        hands(r, pos, reply)
        accepted(r, 2, reply)
        assert [t for _g, t in r.accepted] == ["e2e4", reply]
    finally:
        r.close()
        screen.close()
