"""The steps the screen gives for a computer's move (controller/computer_move.py), from the
move's own effects, in several games."""

from __future__ import annotations

import pytest

from controller.computer_move import board_steps
from engine import find_variant, parse_fen, start_position


def steps(name: str, fen: str | None, text: str) -> tuple[tuple[str, ...], set[str], set[str], set[str]]:
    v = find_variant(name)
    pos = parse_fen(v, fen) if fen else start_position(v)
    move = pos.parse_move(text)
    got = board_steps(v, move)
    names = v.geometry.names
    return (got.steps, {names[c] for c in got.lift}, {names[c] for c in got.put}, {names[c] for c in got.remove})


CASES = [
    ("chess", "r3k2r/8/8/3pP3/8/8/1p6/R3K2R w KQkq d6 0 1", "e1g1",
     ("lift the white king on e1, put it on g1", "lift the white rook on h1, put it on f1"),
     {"e1", "h1"}, {"g1", "f1"}, set()),
    ("chess", "r3k2r/8/8/3pP3/8/8/1p6/R3K2R w KQkq d6 0 1", "e5d6",
     ("take off the black pawn on d5", "lift the white pawn on e5, put it on d6"), {"e5"}, {"d6"}, {"d5"}),
    ("chess", "r3k2r/8/8/3pP3/8/8/1p6/R3K2R w KQkq d6 0 1", "a1a8",
     ("take off the black rook on a8", "lift the white rook on a1, put it on a8"), {"a1"}, {"a8"}, {"a8"}),
    ("chess", "r3k2r/8/8/3pP3/8/8/1p6/R3K2R b KQkq - 0 1", "b2b1n",
     ("lift the black pawn on b2, put it on b1 as a black knight",), {"b2"}, {"b1"}, set()),
    ("gryphon", None, "b1c3", ("lift the white knight on b1, put it on c3 as a white bishop",), {"b1"}, {"c3"}, set()),
    ("alice", None, "b1c3", ("lift the white knight on b1, put it on c3'",), {"b1"}, {"c3'"}, set()),
    ("mathematichess", None, "K@a1", ("put a white king on a1",), set(), {"a1"}, set()),
    ("royal-fury", "1gh1f1chg1/2Ad3xm1/maa3a1a1/5f1a2/10/8c1/2A2A4/2AA1ADAxM/1MXDJJHX2/1GHC1FC1G1 b - - 1 7", "i5i4",
     ("take off the white mimotaur on j3", "take off the white advancer on h3",
      "lift the black capricorn on i5, put it on i4"), {"i5"}, {"i4"}, {"j3", "h3"}),
]


@pytest.mark.parametrize(("name", "fen", "text", "want", "lift", "put", "remove"), CASES,
                         ids=[f"{c[0]}-{c[2]}" for c in CASES])
def test_the_steps_follow_the_moves_effects(name: str, fen: str | None, text: str, want: tuple[str, ...],
                                            lift: set[str], put: set[str], remove: set[str]) -> None:
    assert steps(name, fen, text) == (want, lift, put, remove)
