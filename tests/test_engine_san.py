"""SAN from engine/san.py against python-chess: every move of the 60 historical games and of
seeded random games (which reach promotions, en passant, castling both ways, disambiguation and
mates), parsed back both ways; and the readable long form of moves SAN cannot write."""

from __future__ import annotations

import random
from pathlib import Path

import chess
import chess.pgn
import pytest

import engine
from engine.san import parse_san, san, san_line

V = engine.find_variant("chess")
PGN = Path(__file__).parent / "data" / "pgn" / "historical-games.pgn"


def historical_games() -> list[chess.pgn.Game]:
    games = []
    with PGN.open(encoding="utf-8") as f:
        while (game := chess.pgn.read_game(f)) is not None:
            games.append(game)
    return games


GAMES = historical_games()


def test_the_data_holds_60_games() -> None:
    assert len(GAMES) == 60
    assert sum(len(list(g.mainline_moves())) for g in GAMES) == 4460


@pytest.mark.parametrize("index", range(60))
def test_historical_game_san_matches_python_chess(index: int) -> None:
    board = chess.Board()
    pos = engine.start_position(V)
    for move in GAMES[index].mainline_moves():
        expected = board.san(move)
        ours = pos.parse_move(move.uci())
        assert san(pos, ours) == expected, f"{board.fen()} {move.uci()}"
        assert parse_san(pos, expected) == ours
        board.push(move)
        pos.push(ours)


@pytest.mark.parametrize("seed", range(40))
def test_random_game_san_matches_python_chess(seed: int) -> None:
    rng = random.Random(seed)
    board = chess.Board()
    pos = engine.start_position(V)
    for _ply in range(400):
        moves = pos.legal_moves()
        if not moves:
            break
        for m in moves:  # every legal move, not only the one played: disambiguation of rivals
            assert san(pos, m, legal=moves) == board.san(chess.Move.from_uci(pos.move_text(m))), board.fen()
        m = rng.choice(moves)
        board.push_uci(pos.move_text(m))
        pos.push(m)


def test_display_marks_en_passant_and_pgn_does_not() -> None:
    pos = engine.parse_fen(V, "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2")
    move = pos.parse_move("e5d6")
    assert san(pos, move) == "exd6"
    assert san(pos, move, display=True) == "exd6 e.p."
    assert parse_san(pos, "exd6 e.p.") == move


@pytest.mark.parametrize(("fen", "uci", "text"), [
    ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1c1", "O-O-O"),
    ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1", "O-O"),
    ("3k4/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7e8q", "e8=Q+"),
    ("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4", "h5f7", "Qxf7#"),
    ("4k3/8/8/8/8/8/8/N3K2N w - - 0 1", "a1b3", "Nb3"),
    ("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1", "b1d2", "Nbd2"),
    ("4k3/8/8/8/8/R7/8/R3K3 w - - 0 1", "a1a2", "R1a2"),
])
def test_named_cases(fen: str, uci: str, text: str) -> None:
    pos = engine.parse_fen(V, fen)
    assert san(pos, pos.parse_move(uci)) == text


def test_san_line_leaves_the_start_alone() -> None:
    pos = engine.start_position(V)
    moves = [pos.push_text(t) for t in ("g1f3", "d7d5", "e1e1")[:2]]
    start = engine.start_position(V)
    assert san_line(start, moves) == ["Nf3", "d5"]
    assert start.fen() == engine.start_position(V).fen()


def test_mathematichess_moves_are_readable_and_parse_back() -> None:
    v = engine.find_variant("mathematichess")
    pos = engine.start_position(v)
    rng = random.Random(3)
    seen: set[str] = set()
    for _ply in range(300):
        moves = pos.legal_moves()
        if not moves:
            break
        m = rng.choice(moves)
        text = san(pos, m)
        seen.add(text[0] if text[0] in "-" else ("drop" if "@" in text else "move"))
        assert " " not in text
        assert parse_san(pos, text) == m
        if m.tag == "drop":
            assert text == pos.move_text(m)  # K@c9 already reads well
        pos.push(m)
    assert {"drop", "move"} <= seen
