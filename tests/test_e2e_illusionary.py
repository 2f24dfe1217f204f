"""Illusionary Piece Chess played whole on the simulated board (the reference firmware's code
behind a real pty) into ``chessery run --headless --variant illusionary`` in its own process: the
four choices are lifts and put-backs of the chosen men, the game goes on to the demo's checkmate,
and the last frame marks the illusionary men still on the board.

And the same game with the four choices made by touching the men on the screen: the service and
its window run in this process (a touch can only reach a window the test can post events to),
the window on SDL's dummy driver turned round through its own operator menu, each touch a mouse
event at the pixel where the man is drawn; then the board plays the rest of the game."""

from __future__ import annotations

import io
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pygame

import engine
from controller.board_map import SensorMap
from controller.config import Config, GpioConfig
from controller.core_types import PromptKind
from controller.demo_games import DEMO_GAMES
from controller.event_scripts import Style, script_for_moves
from controller.service import Service, Touch
from controller.session import Phase, Update
from controller.store import GameStore
from display import theme
from display.window import Window
from firmware_bridge.script import parse_script
from firmware_bridge.simboard import SimBoard
from tests.demo_game_runs import HANDS, play_demo_through_pty, run_demo_without_a_port, script_lines
from tests.pty_games import TIMEOUT, latest_game, replay_stream

ILL = engine.find_variant("illusionary")


def test_whole_illusionary_game_through_the_pty_into_chessery_run(tmp_path: Path) -> None:
    lines = script_lines("illusionary")
    # each choice is a lift and a put-back on one cell
    assert lines[1:4] == ["sleep 60", "lift d7", "place d7"]
    game = play_demo_through_pty(tmp_path, "illusionary", seed=5, answers=True)
    assert sum(line.startswith("choose yes") for line in lines) == 4  # each choice confirmed
    assert (game.record.result, game.record.termination) == ("0-1", "checkmate")
    assert "Game over: 0-1 (checkmate)" in game.err
    image = pygame.image.load(str(game.frame))
    colours = {image.get_at((x, y))[:3] for x in range(0, 480, 2) for y in range(0, 480, 2)}
    assert set(theme.SQUARES) <= colours
    assert theme.MARK in colours  # the amazon on g7 still wears its mark


def test_whole_illusionary_game_on_an_identity_board(tmp_path: Path) -> None:
    # The identity board reads an illusionary man as the regular man it physically is.
    style = Style(capture="alternate", slide=True, think_ms=300, hand_ms=30, identity=True)
    lines = script_for_moves(engine.find_variant("illusionary"), list(DEMO_GAMES["illusionary"]), style)
    assert lines[2:4] == ["lift d7", "place d7 p"]
    assert not any("~" in line for line in lines if not line.startswith("#"))
    game = play_demo_through_pty(tmp_path, "illusionary", seed=3, lines=lines, faults=None, identity=True,
                                 answers=True)
    assert (game.record.result, game.record.termination) == ("0-1", "checkmate")


def test_illusionary_demo_plays_by_itself_with_no_port(tmp_path: Path) -> None:
    err, frame = run_demo_without_a_port(tmp_path, "illusionary")
    assert "Game over: 0-1 (checkmate)" in err
    assert frame.exists()


def pump(window: Window, done: Callable[[], bool], what: str) -> None:
    """Run the window's loop (it waits in SDL's event wait) until ``done()``."""
    end = time.monotonic() + TIMEOUT
    while not done():
        assert time.monotonic() < end, f"never got there: {what}; the screen says {window.view and window.view.status}"
        window.step(timeout=0.05)


def touch(window: Window, pos: tuple[int, int]) -> None:
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))


def mark_pixels(window: Window, cell: int) -> int:
    assert window.layout is not None
    surface = pygame.display.get_surface()
    rect = window.layout.cells[cell]
    return sum(1 for x in range(rect.left, rect.right) for y in range(rect.top, rect.bottom)
               if surface.get_at((x, y))[:3] == theme.MARK)


def test_the_four_choices_touched_on_the_screen_then_the_game_on_the_board(tmp_path: Path) -> None:
    moves = list(DEMO_GAMES["illusionary"])
    choices, rest = moves[:4], moves[4:]
    board = SimBoard(ILL, faults="bounce", seed=7).start()
    store = GameStore(tmp_path / "games.sqlite3")
    out, err = io.StringIO(), io.StringIO()
    service = Service(Config(port=(board.path,), gpio=GpioConfig(enabled=False)), ILL, store, SensorMap(ILL),
                      out=out, err=err)
    window = Window("headless", (800, 480), snapshot=tmp_path / "frame.png",
                    on_input=lambda ev: service.inputs.put(Touch(ev)))
    service.window = window
    committed: list[str] = []
    lock = threading.Lock()

    def on_update(update: Update) -> None:
        with lock:
            committed[:] = replay_stream([f"undo {t}" for t in update.undone] + list(update.accepted), committed)

    def game() -> list[str]:
        with lock:
            return list(committed)

    def shown(text: str) -> Callable[[], bool]:
        return lambda: window.view is not None and text in window.view.status

    service.on_update = on_update
    at = ILL.geometry.index
    window.open()
    try:
        service.start()
        pump(window, lambda: window.view is not None and window.view.phase == "playing", "the game starts")
        # Turn the screen round with its own menu: Black chooses first, from the far side.
        assert window.layout is not None and window.layout.menu_button is not None
        touch(window, window.layout.menu_button.center)
        pump(window, lambda: window.view is not None and window.view.menu is not None, "the menu opens")
        assert window.view is not None and window.view.menu is not None
        flip = [c.key for c in window.view.menu.choices].index("flip")
        touch(window, window.layout.choices[flip].center)
        pump(window, lambda: window.view is not None and window.view.flipped and window.view.menu is None,
             "the board turned round")
        layout = window.layout
        assert layout.flip and layout.cells[at("d7")].centery > layout.cells[at("d2")].centery  # Black below
        touch(window, layout.cells[at("e4")].center)  # an empty cell: nothing to choose there
        pump(window, shown("Nothing to choose on e4"), "the empty cell refused")
        assert game() == []
        told = ("Black made the pawn on d7 an illusionary pawn", "White made the pawn on d2 an illusionary pawn",
                "White made the queen on d1 an illusionary queen", "Black made the bishop on f8 an illusionary bishop")
        for n, (text, words) in enumerate(zip(choices, told, strict=True)):
            cell = at(text[:2])
            assert window.layout is not None
            touch(window, window.layout.cells[cell].center)
            told_now = shown(words)

            def chosen(n: int = n, told_now: Callable[[], bool] = told_now) -> bool:
                return len(game()) > n and told_now()

            pump(window, chosen, f"the choice {text}")
            assert game() == choices[:n + 1]
            assert mark_pixels(window, cell) > 20, text  # drawn in its ring from now on
        assert mark_pixels(window, at("e7")) == 0 and mark_pixels(window, at("g1")) == 0
        assert window.view is not None and not window.view.status.startswith("White chooses")
        # The rest of the game on the board, from the position the touches made.
        fen = service.session.position.fen()
        commands = parse_script("\n".join(script_for_moves(ILL, rest, HANDS, fen=fen)), ILL)
        board.start_script(commands)
        pump(window, lambda: len(game()) == len(moves) and service.session.phase == Phase.OVER, "the game's end")
        assert board.done.wait(TIMEOUT) and board.error is None
        pump(window, shown("Game over: 0-1 (checkmate)"), "the result on the screen")
        assert mark_pixels(window, at("g7")) > 20  # the amazon still wears its ring
        assert all(mark_pixels(window, at(name)) == 0 for name in ("c1", "h8", "e1", "g8"))
    finally:
        service.stop()
        window.close()
        board.stop()
    assert game() == moves
    assert replay_stream(out.getvalue().split()) == moves  # printed as played
    record = latest_game(store)
    store.close()
    assert record.moves == tuple(moves) and (record.result, record.termination) == ("0-1", "checkmate")
    assert "Nothing to choose on e4" in err.getvalue() and "Black made the pawn on d7" in err.getvalue()
    image = pygame.image.load(str(tmp_path / "frame.png"))  # the last frame, as written for the operator
    assert theme.MARK in {image.get_at((x, y))[:3] for x in range(0, 480, 2) for y in range(0, 480, 2)}


def test_a_touch_after_a_choice_made_on_the_board_is_clocked_from_that_choice(rig) -> None:
    """Black chooses on the board (lift, put back, answer yes), White by a touch 400 ms later:
    White's clock pays for those 400 ms. The service used to time a move from its last placement
    on the board, Black's put-back, and charged White nothing."""
    from display.window import CellClicked, ChoiceClicked

    r = rig(variant=ILL, time_control="5")
    r.wait(lambda: r.service.session.phase == Phase.PLAY and r.service.clock is not None)
    r.board.start_script([c for c in parse_script("lift d7\nplace d7\nsleep 5\nlift d7\nsleep 5\nplace d7", ILL)])
    r.wait(lambda: bool(r.statuses) and r.statuses[-1].prompt is not None)
    prompt = r.statuses[-1].prompt
    assert prompt is not None and prompt.kind == PromptKind.CONFIRM
    yes = [o.key for o in prompt.options].index("yes")
    r.service.inputs.put(Touch(ChoiceClicked(yes, "yes")))
    r.wait(lambda: len(r.accepted) == 1)
    threading.Event().wait(0.4)  # White thinks: time passing, not waiting for a thread
    touched_at = r.service.now()
    r.service.inputs.put(Touch(CellClicked(ILL.geometry.index("d2"))))
    r.wait(lambda: len(r.accepted) == 2)
    assert [m for _g, m in r.accepted] == ["d7d7~p", "d2d2~p"]
    # The clock is saved after the update is handed out: a touch on an empty cell, answered on
    # the same thread, is shown only after it.
    r.service.inputs.put(Touch(CellClicked(ILL.geometry.index("e4"))))
    r.wait(lambda: "Nothing to choose on e4" in r.statuses[-1].message)
    game_id = r.service.session.game_id
    assert game_id is not None and r.service.clock is not None
    _black, white = r.service.clock.extras.ply_clocks(game_id, 2)
    thought = touched_at - r.accepted_at[0]
    assert thought >= 400
    assert white is not None and 300_000 - white >= thought - 5  # charged up to the touch
