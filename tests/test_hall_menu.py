"""A remote side chosen in the operator menu: the player screen lists the boards of the hall
(learnt from the broker's retained messages) that play this variant, and any other is typed by
name. Driven by taps on a real (headless) pygame screen (tests/menu_screen.py's Screen);
two services on simulated boards (real ptys) and a Mosquitto the test starts: once Black is
"Board B" on board A, the game is played between the two boards."""

from __future__ import annotations

from functools import partial

from controller.config import Config
from controller.hall_publish import HallPublisher
from controller.menu import OperatorMenu
from controller.session import Phase
from engine import start_position
from tests.hall_rig import TIMEOUT, sample_state
from tests.menu_screen import Screen
from tests.opponent_moves import accepted, announced, hands
from tests.service_rig import Rig


def status_has(screen: Screen, text: str) -> bool:
    return text in screen.view().status


def test_the_menu_offers_the_halls_boards_and_the_game_is_played_with_the_one_chosen(tmp_path, broker) -> None:
    for name in ("A", "B"):
        (tmp_path / name).mkdir()
    a = Rig(tmp_path / "A", "", hall=broker.url, hall_board="A", operator_pin="2468")
    screen = Screen(a.service, (800, 480))
    b = Rig(tmp_path / "B", "", hall=broker.url, hall_board="B", players=(("white", "remote:A"),))
    # another board of the hall, playing Sesqui: not offered for a chess game
    other = HallPublisher(Config(hall=broker.url, hall_board="S")).start()
    other.publish_state(sample_state("sesqui", []))
    try:
        a.service.start()
        b.service.start()
        for r in (a, b):
            r.wait(lambda r=r: r.service.session.phase == Phase.PLAY)
        assert b.service.hall is not None and b.service.hall.connected.wait(TIMEOUT)
        assert other.connected.wait(TIMEOUT)
        screen.tap("Menu")
        screen.tap("Settings")
        for digit in "2468":
            screen.tap(digit)
        directory = a.service.opponents.directory
        assert directory is not None and directory.subscribed.wait(TIMEOUT)
        # the retained messages follow the broker's SUBACK: B (chess) is known once it is listed
        screen.pump(lambda: directory.boards("chess") == ["B"], "board B in the hall's list")
        assert directory.boards("sesqui") == ["S"]
        screen.tap("Black plays: human")
        labels = set(screen.buttons())
        assert {"Board B", "Other board...", "Computer, club"} <= labels
        assert "Board S" not in labels and "Board A" not in labels  # another variant; this board
        screen.tap("Board B")
        screen.pump(lambda: "Black plays: remote:B" in screen.buttons(), "the setting in force")
        screen.tap("Back")
        screen.tap("Close")
        assert a.service.opponents.directory is None  # it listens only while the menu is open
        pos = start_position(a.service.variant)
        for n, text in enumerate(["e2e4", "e7e5", "g1f3"]):
            here, there = (a, b) if pos.side == 0 else (b, a)
            hands(here, pos, text)
            accepted(here, n + 1, text)
            shown = announced(there, n)
            assert shown["move"] == text and "lift" in shown["say"]
            if there is a:  # A's screen says who played it: the board chosen in the menu
                screen.pump(partial(status_has, screen, f"Black (B) plays {text}"), "B's move on A")
            hands(there, pos, text)
            accepted(there, n + 1, text)
            pos.push_text(text)
        assert [t for _g, t in a.accepted] == [t for _g, t in b.accepted] == ["e2e4", "e7e5", "g1f3"]
    finally:
        other.stop()
        for r in (a, b):
            r.close()
        screen.close()


def test_a_board_not_listed_is_typed_by_name_and_back_returns_to_the_players() -> None:
    menu = OperatorMenu(["chess"], remotes=lambda: ["b1", "b2"])
    menu.open()
    menu.tap("settings")
    menu.tap("player1")
    prompt = menu.prompt()
    assert prompt is not None and [c.label for c in prompt.choices][-4:] == [
        "Board b1", "Board b2", "Other board...", "Back"]
    menu.tap("remote")
    for key in ("shift", "B", "O", "A", "R", "D", "-", "1", "2"):
        menu.tap(key)
    assert menu.entry is not None and menu.entry.typed == "Board-12"
    action = menu.tap("ok")
    assert action is not None and (action.kind, action.side, action.value) == ("player", 1, "remote:Board-12")
    assert menu.screen == "settings"
    # the remote player in force is listed (and highlighted) even when the hall does not list it
    menu.current["player1"] = "remote:Board-12"
    menu.tap("player1")
    prompt = menu.prompt()
    assert prompt is not None and prompt.selected is not None
    assert prompt.choices[prompt.selected].label == "Board Board-12"
    menu.tap("remote")
    assert menu.entry is not None and menu.entry.typed == "Board-12"  # there to correct
    menu.tap("back")
    assert menu.screen == "player"


def test_without_a_hall_no_remote_side_is_offered() -> None:
    menu = OperatorMenu(["chess"])
    menu.open()
    menu.tap("settings")
    menu.tap("player1")
    prompt = menu.prompt()
    assert prompt is not None
    assert [c.label for c in prompt.choices] == ["Human", "Computer, beginner", "Computer, casual", "Computer, club",
                                                 "Computer, strongest", "Back"]
