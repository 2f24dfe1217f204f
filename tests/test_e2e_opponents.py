"""Games against the computer at the board: the service (real, in this process) refereeing the
simulated board behind a real pty, the computer our own engine in its own process. The test is
the human at the board: it plays the human's moves with its hands (events on the simulated
board) and carries out the computer's moves the service announces (read from what the status
file shows), and checks that only the computer's own move is accepted on its turn.

The hands, and the waits for the computer's move, are tests/opponent_moves.py's (shared with
the remote games' tests): they press the clock button after each move."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from gpiozero.pins.mock import MockPin

import engine
from controller.core_types import StatusKind
from controller.session import Phase
from engine import Position, start_position
from tests.opponent_moves import accepted, announced, clocked, hands, losing_move
from tests.service_rig import TIMEOUT, Rig

#: Fast and deterministic: a one-ply search.
GO = "go depth 1"


def human_move(pos: Position, rng: random.Random) -> str:
    """A seeded random move, a capture when there is one (so the game ends sooner)."""
    moves = pos.legal_moves()  # a question (which piece? promotion?) is answered: see accepted()
    captures = [m for m in moves if m.victims]
    return pos.move_text(rng.choice(captures or moves))


def play_game(rig: Rig, variant: engine.Variant, humans: set[int], plies: int, seed: int,
              clock: MockPin | None = None,
              human: Callable[[Position, random.Random], str] = human_move) -> Position:
    pos = start_position(variant)
    rng = random.Random(seed)
    rig.wait(lambda: rig.service.session.phase == Phase.PLAY)
    while len(pos.move_stack) < plies and pos.outcome() is None:
        n = len(pos.move_stack)
        if pos.side in humans:
            text = human(pos, rng)
        else:
            shown = announced(rig, n)
            text = shown["move"]
            assert shown["side"] == variant.sides[pos.side]
            assert "lift" in shown["say"] or "put" in shown["say"]
        hands(rig, pos, text, clock)
        accepted(rig, n + 1, text)
        assert rig.accepted[n][1] == text
        pos.push_text(text)
    return pos


def played_to_its_end(rig: Rig, pos: Position) -> None:
    """The game ``pos`` ended, the service accepted each of its moves and stored them with the
    game's result."""
    outcome = pos.outcome()
    assert outcome is not None  # the game was played to its end
    texts = tuple(pos.move_text(m) for m in pos.move_stack)
    assert tuple(text for _game, text in rig.accepted) == texts
    rig.wait(lambda: rig.service.session.phase == Phase.OVER)
    moves, result, _termination = rig.games()[-1]
    assert moves == texts
    sides = pos.variant.sides
    assert result == outcome.result(len(sides), sides)


def test_chess_a_whole_game_human_against_the_computer_on_the_board(rig, mock_pins) -> None:
    r, clock = clocked(rig, mock_pins, players=(("black", "computer"),), engine_go="go depth 2")
    pos = play_game(r, engine.find_variant("chess"), {0}, plies=400, seed=3, clock=clock)
    played_to_its_end(r, pos)


def test_only_the_computers_move_is_accepted_and_a_different_one_is_guided_back(rig) -> None:
    r = rig(players=(("black", "computer:0"),), engine_go=GO)
    chess = engine.find_variant("chess")
    pos = play_game(r, chess, {0}, plies=1, seed=1)
    shown = announced(r, 1)
    wrong = next(pos.move_text(m) for m in pos.legal_moves()
                 if pos.move_text(m) != shown["move"] and not m.victims and len(m.relocations) == 1)
    hands(r, pos, wrong)
    r.wait(lambda: r.service.session.status.kind == StatusKind.FIX)
    assert len(r.accepted) == 1  # the other move was not taken
    src, dst = wrong[:2], wrong[2:4]
    r.board.start_script(f"lift {dst}\nplace {src}\n")  # put back as the screen says
    assert r.board.done.wait(TIMEOUT)
    r.wait(lambda: r.service.session.status.kind != StatusKind.FIX)
    hands(r, pos, shown["move"])
    accepted(r, 2, shown["move"])
    assert r.accepted[1][1] == shown["move"]


def test_the_computer_starts_thinking_on_a_provisional_reading(rig) -> None:
    """A pawn's step that could still go on stays provisional until the hand has let go (no clock
    here: the referee's quiet); the engine starts on it meanwhile and its search is the answer
    once the move is final, so its move shows at once. It is not shown before."""
    r = rig(players=(("black", "computer"),), engine_go=GO)
    pos = start_position(engine.find_variant("chess"))
    r.wait(lambda: r.service.session.phase == Phase.PLAY)
    turns = r.service.opponents.turns
    assert turns is not None
    hands(r, pos, "e2e3")
    r.wait(lambda: turns.foreseen is not None or len(r.accepted) > 0)
    early = turns.foreseen
    assert early is not None and not r.accepted  # started while the reading was provisional
    assert r.service.opponents.guide is None  # nothing shown while the human's move may go on
    accepted(r, 1, "e2e3")
    shown = announced(r, 1)
    pos.push_text("e2e3")
    assert turns.request is early and early.move is not None and shown["move"] == pos.move_text(early.move)


@pytest.mark.parametrize(("name", "plies"), [("alice", 400), ("royal-fury", 400), ("mathematichess", 8)])
def test_variant_human_against_the_computer(rig, mock_pins, name: str, plies: int) -> None:
    variant = engine.find_variant(name)
    r, clock = clocked(rig, mock_pins, variant=variant, players=((variant.sides[1], "computer"),),
                       engine_go="go depth 2")
    pos = play_game(r, variant, {0}, plies=plies, seed=5, clock=clock)
    assert [text for _game, text in r.accepted] == [pos.move_text(m) for m in pos.move_stack]
    if plies > 100:  # played to its end (alice: 18 plies, royal-fury: 12 with these seeds)
        assert pos.outcome() is not None
        r.wait(lambda: r.service.session.phase == Phase.OVER)
        assert r.games()[-1][0] == tuple(pos.move_text(m) for m in pos.move_stack)


def test_triscacia_a_whole_game_one_human_against_two_computers(rig, mock_pins) -> None:
    variant = engine.find_variant("triscacia")
    r, clock = clocked(rig, mock_pins, variant=variant,
                       players=((variant.sides[1], "computer"), (variant.sides[2], "computer")), engine_go=GO)
    # A human who plays his worst move (by the engine's evaluation) against two one-ply
    # computers: with this seed Red mates Blue soon after the thirty placements. (Random moves
    # against two-ply computers ran 274 plies to a fifty-move draw: three minutes.)
    pos = play_game(r, variant, {0}, plies=400, seed=7, clock=clock, human=losing_move)
    played_to_its_end(r, pos)


BROKEN_ENGINE = """import sys
for line in sys.stdin:
    word = line.split()[:1]
    if word == ["uci"]:
        print("id name broken", flush=True)
        print("uciok", flush=True)
    elif word == ["isready"]:
        print("readyok", flush=True)
    elif word == ["go"]:
        print("bestmove a1a1", flush=True)
    elif word == ["quit"]:
        break
"""


def test_an_engine_that_answers_nonsense_leaves_its_move_to_the_players(rig, tmp_path) -> None:
    import sys

    script = tmp_path / "broken_engine.py"
    script.write_text(BROKEN_ENGINE, encoding="utf-8")
    r = rig(players=(("black", f"uci:{sys.executable} {script}"),), engine_go=GO)
    chess = engine.find_variant("chess")
    pos = play_game(r, chess, {0}, plies=1, seed=1)
    r.wait(lambda: (g := r.service.opponents.guide) is not None and "failed" in g.line)
    guide = r.service.opponents.guide
    assert guide is not None and "answered 'a1a1', not a legal move" in guide.line
    hands(r, pos, "e7e5")  # made by hand for the engine: taken
    accepted(r, 2, "e7e5")
    assert [t for _g, t in r.accepted] == [pos.move_text(pos.move_stack[0]), "e7e5"]
