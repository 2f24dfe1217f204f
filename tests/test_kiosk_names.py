"""What the kiosk's panel says about the game: the configured players' names (and the names set
in the menu over them, as the PGN has them) under the variant's title; the status line in the
move list's notation; the legend explaining the move list's letters; the variant screen listing
titles of the variants the board can play. Real services on the simulated board (real pty),
a real headless window driven by taps, real pygame surfaces."""

from __future__ import annotations

import io
from pathlib import Path

import chess.pgn
import pygame

import engine
from controller.board_map import SensorMap
from controller.config import Config, EventConfig, GpioConfig
from controller.demo_games import DEMO_GAMES
from controller.export import game_pgn
from controller.menu import OperatorMenu
from controller.names import players_line
from controller.operator import variants_that_fit
from controller.screen import NOTATION
from controller.service import Service
from controller.store import GameStore
from display.render import render
from display.view import view_from_position
from firmware_bridge.script import parse_script
from firmware_bridge.simboard import SimBoard
from tests.menu_screen import Screen, type_name

CHESS = engine.find_variant("chess")


def test_configured_names_then_a_menu_name_on_screen_and_in_the_pgn_alike(tmp_path: Path) -> None:
    board = SimBoard(CHESS).start()
    store = GameStore(tmp_path / "games.sqlite3")
    config = Config(port=(board.path,), gpio=GpioConfig(enabled=False),
                    event=EventConfig(white="Bob Player", black="Ann Other"))
    service = Service(config, CHESS, store, SensorMap(CHESS), out=io.StringIO(), err=io.StringIO())
    screen = Screen(service, (800, 480))
    service.start()
    try:
        board.start_script(parse_script("lift e2\nplace e4\nsleep 150\nlift e7\nplace e5\nsleep 150\n"
                                        "lift f1\nplace b5\n", CHESS))
        screen.pump(lambda: len(service.session.position.move_stack) == 3, "1. e4 e5 2. Bb5")
        view = screen.view()
        assert (view.title, view.players) == ("Chess", "Bob Player - Ann Other")
        drawn = [t for t, _r, _role in screen.layout().texts]
        assert "Chess" in drawn and "Bob Player - Ann Other" in drawn
        # the status line reads like the move list: "White played Bb5", not f1b5
        screen.pump(lambda: "played Bb5" in screen.view().status, "the status line naming Bb5")
        assert "f1b5" not in screen.view().status and screen.view().moves[-1] == "Bb5"
        screen.tap("Menu")
        screen.tap("Settings")
        screen.tap("White's name")
        type_name(screen, "Tal")
        screen.tap("Back")
        screen.tap("Close")
        screen.pump(lambda: screen.view().players == "Tal - Ann Other", "the new name on the panel")
        assert screen.view().title == "Chess"  # the variant stays in the title
        game = store.latest()
        assert game is not None
        pgn = chess.pgn.read_game(io.StringIO(game_pgn(store, game, config)))
    finally:
        service.stop()
        screen.close()
        board.stop()
    assert pgn is not None
    assert (pgn.headers["White"], pgn.headers["Black"]) == ("Tal", "Ann Other")
    store.close()


def test_the_legend_names_the_move_lists_letters() -> None:
    pos = engine.start_position(engine.find_variant("meddlers"))
    for text in DEMO_GAMES["meddlers"][:12]:
        pos.push_text(text)
    moves = NOTATION.texts(pos)
    assert "Sa3" in moves and "Dd2" in moves  # a queen-side knight and queen in the move list
    view = view_from_position(pos, moves=tuple(moves))
    surface = pygame.Surface((800, 480))
    drawn = [text for text, _box, _role in render(view, surface).texts]
    for label in ("S  queen-side knight", "T  queen-side rook", "D  queen-side queen", "L  queen-side bishop"):
        assert label in drawn, (label, drawn)


def test_the_ring_s_cell_names_and_pawn_letters_are_explained() -> None:
    variant = engine.find_variant("sesqui")
    pos = engine.start_position(variant)
    for text in DEMO_GAMES["sesqui"][:14]:
        pos.push_text(text)
    moves = NOTATION.texts(pos)
    assert "1D3" in moves  # a pawn move told apart by the pawn's place
    view = view_from_position(pos, moves=tuple(moves))
    drawn = " ".join(text for text, _box, _role in render(view, pygame.Surface((800, 480))).texts)
    assert "sector letter and place" in drawn and "1B3" in drawn


def test_the_variant_screen_lists_titles_of_the_variants_that_fit(tmp_path: Path) -> None:
    board = SimBoard(CHESS).start()
    store = GameStore(tmp_path / "games.sqlite3")
    service = Service(Config(port=(board.path,), gpio=GpioConfig(enabled=False)), CHESS, store, SensorMap(CHESS),
                      out=io.StringIO(), err=io.StringIO())
    try:
        service.start()
        service.links[0].wait_connected(30)
        offered = variants_that_fit(service)
    finally:
        service.stop()
        board.stop()
        store.close()
    names = [name for name, _title in offered]
    assert names and all(engine.find_variant(n).geometry.size == 64 for n in names)
    assert "mathematichess" not in names and "sesqui" not in names
    titles = dict(offered)
    assert titles["double-rettah"] == "Double Rettah" and titles["chess"] == "Chess"
    assert [t for _n, t in offered] == sorted((t for _n, t in offered), key=str.lower)
    menu = OperatorMenu(lambda: offered)
    menu.open()
    menu.tap("settings")
    menu.tap("variant")
    prompt = menu.prompt()
    assert prompt is not None
    assert [c.label for c in prompt.choices][:3] == [t for _n, t in offered[:3]]


def test_without_a_board_every_variant_is_offered_by_its_title(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "games.sqlite3")
    service = Service(Config(gpio=GpioConfig(enabled=False)), CHESS, store, SensorMap(CHESS), out=io.StringIO(),
                      err=io.StringIO())
    offered = dict(variants_that_fit(service))
    store.close()
    assert set(offered) == set(engine.variant_names())
    assert offered["dreamchess47"] == "Dream Chess 47" and offered["double-rettah"] == "Double Rettah"


def test_a_resumed_game_keeps_the_names_set_in_the_menu(tmp_path: Path) -> None:
    board = SimBoard(CHESS).start()
    store = GameStore(tmp_path / "games.sqlite3")
    config = Config(port=(board.path,), gpio=GpioConfig(enabled=False), event=EventConfig(black="Ann Other"))
    service = Service(config, CHESS, store, SensorMap(CHESS), out=io.StringIO(), err=io.StringIO())
    screen = Screen(service, (800, 480))
    service.start()
    try:
        board.start_script(parse_script("lift e2\nplace e4\n", CHESS))
        screen.pump(lambda: len(service.session.position.move_stack) == 1, "1. e4")
        screen.tap("Menu")
        screen.tap("Settings")
        screen.tap("White's name")
        type_name(screen, "Tal")
        screen.tap("Back")
        screen.tap("Close")
        screen.pump(lambda: screen.view().players == "Tal - Ann Other", "the name on the panel")
    finally:
        service.stop()
        screen.close()
    try:  # the service restarts (systemd, a power cut): the game resumes with its names
        again = Service(config, CHESS, store, SensorMap(CHESS), out=io.StringIO(), err=io.StringIO())
        assert again.session.game_id == service.session.game_id
        assert players_line(config.event, again.players, 2) == "Tal - Ann Other"
    finally:
        board.stop()
        store.close()


def test_status_lines_name_moves_as_the_move_list_does() -> None:
    from controller.screen import readable_status

    pos = engine.start_position(CHESS)
    for text in ("e2e4", "e7e5", "g1f3", "b8c6", "f1b5"):
        pos.push_text(text)
    texts = NOTATION.texts(pos)
    assert readable_status(pos, "White played f1b5", texts) == "White played Bb5"
    assert readable_status(pos, "Black played b8c6; White played f1b5", texts) == "Black played Nc6; White played Bb5"
    pos.pop()  # taken back: the move is named as it would be played again
    assert readable_status(pos, "took back f1b5", NOTATION.texts(pos)) == "took back Bb5"
    assert readable_status(pos, "Board is set up", NOTATION.texts(pos)) == "Board is set up"
