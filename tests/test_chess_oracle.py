"""FIDE chess checked ply by ply against python-chess on seeded random games: the same legal
moves, the same position text, the same check and game-end verdicts, and exact push/pop."""

from __future__ import annotations

import random

import chess
import pytest

from engine import find_variant, parse_fen, start_position

V = find_variant("chess")


def their_termination(board: chess.Board) -> str | None:
    if board.is_checkmate():
        return "checkmate"
    if board.is_stalemate():
        return "stalemate"
    if board.halfmove_clock >= 100:
        return "fifty_move"
    if board.is_repetition(3):
        return "repetition"
    if board.is_insufficient_material():
        return "insufficient_material"
    return None


@pytest.mark.parametrize("seed", range(12))
def test_random_games_agree_with_python_chess(seed: int) -> None:
    rng = random.Random(seed)
    ours = start_position(V)
    theirs = chess.Board()
    fens = [ours.fen()]
    for _ply in range(300):
        our_moves = {ours.move_text(m): m for m in ours.legal_moves()}
        assert set(our_moves) == {m.uci() for m in theirs.legal_moves}, theirs.fen()
        assert ours.fen() == theirs.fen(), f"after {[m.uci() for m in theirs.move_stack]}"
        assert ours.is_check() == theirs.is_check()
        outcome = ours.outcome()
        assert (outcome.termination if outcome else None) == their_termination(theirs), theirs.fen()
        if outcome:
            break
        # favour captures and promotions a little so games reach endings
        texts = sorted(our_moves)
        captures = [t for t in texts if our_moves[t].is_capture]
        text = rng.choice(captures) if captures and rng.random() < 0.5 else rng.choice(texts)
        ours.push(our_moves[text])
        theirs.push_uci(text)
        fens.append(ours.fen())
        assert parse_fen(V, ours.fen()).fen() == ours.fen()
    while ours.move_stack:
        ours.pop()
        fens.pop()
        assert ours.fen() == fens[-1]


def test_outcome_kinds_from_known_positions() -> None:
    cases = {
        "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1": ("checkmate", 0),
        "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1": ("stalemate", None),
        "8/8/4k3/8/8/3BK3/8/8 w - - 0 1": ("insufficient_material", None),
        "4k3/8/8/8/8/8/4P3/4K3 w - - 100 80": ("fifty_move", None),
    }
    for fen, (termination, winner) in cases.items():
        outcome = parse_fen(V, fen).outcome()
        assert outcome is not None and (outcome.termination, outcome.winner) == (termination, winner), fen


def test_threefold_repetition() -> None:
    pos = start_position(V)
    for text in ["g1f3", "g8f6", "f3g1", "f6g8"] * 2:
        assert pos.outcome() is None
        pos.push_text(text)
    outcome = pos.outcome()
    assert outcome is not None and outcome.termination == "repetition" and outcome.winner is None
