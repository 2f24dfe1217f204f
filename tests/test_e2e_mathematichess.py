"""A whole Mathematichess game on the simulated board (the reference firmware's code behind a
real pty) into the service: all 162 placements, both terminators, then board moves of every
shape (pushes of whole lines, king swaps, queen substitutions, steps). Every move the service
records must be the source game's, and the final scores the engine's.

Two boards, two ways of playing:

* an identity board (it reads which piece stands where) plays the whole script, 40 board moves,
  by itself into ``chessery run --headless`` in its own process; only the two terminators are
  asked about (answered from the script's ``choose`` lines, ``--answers``);
* an occupancy board, into the service in this process with its GPIO panel on gpiozero's
  MockFactory: every placement (while the hand holds two kinds or more) and both terminators
  are asked about and answered by touching the screen's button; the players wait where the
  referee will ask, and before touching pieces the last move moved until it is taken. After 24
  board moves, the menu button and two confirms end the game by agreement.

Why the occupancy board does not play by itself: a script on its own clock must leave a margin
for every answer after the referee's settle time; with 60 ms per answer the whole game took 28 s
on the development machine, and less margin fails on a loaded one. Playing on the referee's
answers takes 12-13 s for 188 moves and needs no margin. Both boards debounce 3 ms (the
reference firmware's default is 10): the same code, a board with cleaner contacts, and 400 lifts
and placements pass the pty in a third of the time.
"""

from __future__ import annotations

import io
import queue
import time
from pathlib import Path

import pygame

import engine
from controller.board_map import SensorMap
from controller.config import Config
from controller.core_types import PromptKind
from controller.event_scripts import Style, hand_steps, placement_game, script_for_moves, shape_of
from controller.screen import score_panel
from controller.service import Service, Touch
from controller.signatures import Shape
from controller.store import GameStore
from display.render import render
from display.view import view_from_position
from display.window import ChoiceClicked
from engine.components.placement import Placement
from engine.components.territory import TerritoryRules
from firmware_bridge.script import parse_script
from firmware_bridge.simboard import SimBoard
from tests.pty_games import latest_game, play_game, replay_stream

MATH = engine.find_variant("mathematichess")
RULES = MATH.rules.get(TerritoryRules)
PLACEMENT = MATH.rules.get(Placement)
TIMEOUT = 30.0
DEBOUNCE_MS = 3
MOVES = placement_game(MATH, seed=3, board_plies=40)


def final_position():
    pos = engine.start_position(MATH)
    for text in MOVES:
        pos.push_text(text)
    return pos


def test_the_source_game_has_every_kind_of_move() -> None:
    pos = engine.start_position(MATH)
    shapes = []
    longest = 0
    for text in MOVES:
        move = pos.parse_move(text)
        shapes.append(shape_of(move))
        longest = max(longest, len(move.changes))
        pos.push(move)
    assert shapes[:162] == ["drop"] * 162 and shapes[162:164] == ["removal"] * 2
    assert min(shapes.count(s) for s in ("line", "swap", "step")) >= 12
    assert min(shapes[164:188].count(s) for s in ("line", "swap", "step")) >= 7  # the occupancy game's part
    assert longest >= 6  # a line of five pieces or more pushed at once
    assert RULES.stage(pos) == 2 and not RULES.agreement_refusal(pos)


def test_whole_game_on_an_identity_board_through_chessery_run(tmp_path: Path) -> None:
    style = Style(think_ms=0, hand_ms=30, castle="alternate", identity=True, answer_ms=20)
    lines = script_for_moves(MATH, MOVES, style)
    script = tmp_path / "game.txt"
    script.write_text("\n".join(lines) + "\n", encoding="utf-8")
    board = SimBoard(MATH, identity=True, debounce_ms=DEBOUNCE_MS).start()
    game = play_game(tmp_path, board, parse_script("\n".join(lines), MATH), MOVES, "--variant", "mathematichess",
                     "--answers", str(script))
    final = final_position()
    record = game.record
    assert record.variant == "mathematichess"
    assert record.result == "*"  # nobody has ended it
    stored = engine.start_position(MATH)
    for text in record.moves:
        stored.push_text(text)
    assert RULES.score(stored) == RULES.score(final)
    err = game.err
    assert "Take the " in err and err.count("off for good") == 2  # the terminators, asked and answered
    # The last frame shows the final territories and their values: the board part of the PNG is
    # exactly the board of the expected view (the panel's status line may word things its way).
    image = pygame.image.load(str(game.frame))
    expected = pygame.Surface(image.get_size())
    layout = render(view_from_position(final, scores=score_panel(final)), expected)
    box = layout.board
    got = image.subsurface(box)
    want = expected.subsurface(box)
    diff = sum(1 for x in range(0, box.w, 2) for y in range(0, box.h, 2)
               if tuple(got.get_at((x, y)))[:3] != tuple(want.get_at((x, y)))[:3])
    assert diff == 0


def test_whole_game_on_an_occupancy_board_asked_and_ended_by_agreement(tmp_path: Path, mock_pins) -> None:
    moves = MOVES[:162 + 2 + 24]  # the identity board plays all 40 board moves
    board = SimBoard(MATH, debounce_ms=DEBOUNCE_MS).start()
    store = GameStore(tmp_path / "games.sqlite3")
    out, err = io.StringIO(), io.StringIO()
    seen: queue.Queue[tuple] = queue.Queue()
    service = Service(Config(port=(board.path,)), MATH, store, SensorMap(MATH), out=out, err=err)
    service.on_update = lambda update: seen.put(("update", update))
    service.on_show = lambda status: seen.put(("show", status))
    style = Style(think_ms=0, hand_ms=20, castle="alternate", answer_ms=0)
    game: list[str] = []          # what the service has committed, as it reports it
    asked: list[tuple[PromptKind, str]] = []
    answered: dict[int, object] = {}  # the prompts answered, kept alive so that no id is reused

    def until(done) -> tuple:
        """Read the controller thread's reports until ``done(kind, item)``. A question about a
        move on the board not yet taken is answered by touching its button, as a player at
        the screen would."""
        end = time.monotonic() + TIMEOUT
        last = None
        while True:
            if time.monotonic() > end:
                raise AssertionError(f"waited {TIMEOUT} s at move {len(game)} of {len(moves)}: {last}")
            kind, item = seen.get(timeout=TIMEOUT)
            last = item if kind == "show" else last
            if kind == "update":
                game[:] = replay_stream([f"undo {t}" for t in item.undone] + list(item.accepted), game)
            elif item.prompt is not None and id(item.prompt) not in answered and len(game) < len(moves):
                waiting = moves[len(game)]
                for i, opt in enumerate(item.prompt.options):
                    if opt.texts == (waiting,):
                        answered[id(item.prompt)] = item.prompt
                        asked.append((item.prompt.kind, waiting))
                        service.inputs.put(Touch(ChoiceClicked(i, opt.key)))
                        break
            if done(kind, item):
                return kind, item

    pos = engine.start_position(MATH)
    try:
        service.start()
        for n, text in enumerate(moves):
            move = pos.parse_move(text)
            last = pos.move_stack[-1] if pos.move_stack else None
            if last is not None and {c for c, _b, _a in last.changes} & {c for c, _b, _a in move.changes}:
                until(lambda kind, item, n=n: len(game) >= n)  # its pieces moved last: wait for that move
            board.play(parse_script("\n".join(hand_steps(pos, move, style, n)), MATH), timeout=TIMEOUT)
            if asks(pos, move):  # the next placement must wait for the answer
                until(lambda kind, item, n=n, text=text: len(game) > n or (bool(asked) and asked[-1][1] == text))
            pos.push(move)
        until(lambda kind, item: len(game) == len(moves))
        assert game == moves
        # Both players end the game: menu, "End the game by agreement", then the other confirms.
        menu, confirm = mock_pins.pin(22), mock_pins.pin(17)
        menu.drive_low()
        _kind, shown = until(lambda kind, item: kind == "show" and item.prompt is not None)
        menu.drive_high()
        assert [o.key for o in shown.prompt.options] == ["agree", "yes", "no"]
        confirm.drive_low()
        _kind, shown = until(lambda kind, item: kind == "show" and item.prompt is not None
                             and item.prompt.kind == PromptKind.AGREEMENT)
        confirm.drive_high()
        confirm.drive_low()
        until(lambda kind, item: kind == "show" and item.message.startswith("Game over"))
        confirm.drive_high()
    finally:
        service.stop()
        board.stop()
    totals = RULES.score(pos).totals
    result = RULES.agreement_outcome(pos).result(2)
    assert shown.prompt.question == f"Both agree to end? {result}, {totals[0]} to {totals[1]}"
    record = latest_game(store)
    store.close()
    assert record.moves == tuple(moves)
    assert (record.result, record.termination) == (result, "agreement")
    assert replay_stream(out.getvalue().splitlines()) == moves
    assert f"Game over: {result} (agreement)" in err.getvalue()
    kinds = [kind for kind, _text in asked]
    assert kinds.count(PromptKind.WHICH_PIECE) == sum(asks(p, p.parse_move(t)) for p, t in _positions(moves[:162]))
    assert kinds.count(PromptKind.REMOVAL) == 2


def asks(pos, move) -> bool:
    """Whether an occupancy board must ask about ``move``: a placement while the hand holds
    more than one kind, a terminator, or a move another legal move looks exactly like."""
    shape = shape_of(move)
    if shape == "drop":
        return len(PLACEMENT.remaining(pos, pos.side)) > 1
    if shape == "removal":
        return True
    mine = Shape(move, False)
    return any(m != move and (s := Shape(m, False)).sig == mine.sig and s.hidden <= mine.cells
               for m in pos.legal_moves())


def _positions(moves):
    pos = engine.start_position(MATH)
    for text in moves:
        yield pos, text
        pos = pos.copy()
        pos.push_text(text)
