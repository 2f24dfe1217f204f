"""Rettah Chess and Double Rettah (V. R. Parton, "Chessery for Duffer and Master"): the setup
diagram, the Rettah king, the one-step pawn, the rule of check with the text's worked position
and both of its lines move by move (docs/rules/rettah.md, docs/rules/double-rettah.md)."""

from __future__ import annotations

import engine
from engine import parse_fen, start_position

RETTAH = engine.find_variant("rettah")
DOUBLE = engine.find_variant("double-rettah")
#: White: K on KB1, R on KR4, Kts on KKt4 and KR2; Black: K on QKt5, Q on KB3, B on QR6; White to move.
WORKED = "8/8/5q2/8/1k4NR/b7/7N/5K2 w - - 0 1"


def texts(pos: engine.Position) -> set[str]:
    return {pos.move_text(m) for m in pos.legal_moves()}


def test_setup_is_the_diagram_with_the_king_in_the_left_hand_corner() -> None:
    pos = start_position(RETTAH)
    assert sum(1 for code in pos.board if code) == 32
    fen_rows = pos.fen().split()[0].split("/")
    # the diagram from the top: P P P P P P O O / P P B R H O O O / K Q B R H O O O
    assert fen_rows[5:] == ["PPPPPP2", "PPBRN3", "KQBRN3"]
    # Black's own left-hand corner is h8: the same men turned half round
    assert fen_rows[:3] == ["3nrbqk", "3nrbpp", "2pppppp"]


def test_rettah_king_moves_as_rook_bishop_and_knight() -> None:
    pos = parse_fen(RETTAH, "8/7k/8/8/3K4/8/8/8 w - - 0 1")
    targets = {t[2:] for t in texts(pos)}
    queen = {f"{f}{r}" for f in "abcdefgh" for r in "12345678"
             if (f == "d") != (r == "4") or abs("abcdefgh".index(f) - 3) == abs(int(r) - 4) != 0}
    knight = {"b3", "b5", "c2", "c6", "e2", "e6", "f3", "f5"}
    assert targets == queen | knight


def test_pawns_step_one_square_even_on_their_first_move() -> None:
    pos = start_position(RETTAH)
    moves = texts(pos)
    assert {"a3a4", "f3f4"} <= moves and not {"a3a5", "f3f5"} & moves
    assert moves == {"e1g2", "e2f4", "e2d4", "e2g3", "e2g1", "a3a4", "b3b4", "c3c4", "d3d4", "e3e4", "f3f4"}


def test_worked_position_white_must_take_the_checking_queen_two_ways() -> None:
    pos = parse_fen(RETTAH, WORKED)
    assert pos.is_check()
    assert texts(pos) == {"f1f6", "g4f6"}  # K x Q or Kt x Q, nothing else


def test_worked_line_one_king_takes_queen_and_black_wins() -> None:
    pos = parse_fen(RETTAH, WORKED)
    pos.push_text("f1f6")  # K x Q
    assert not pos.is_check() and "a3b2" in texts(pos) and len(texts(pos)) > 1  # Black chooses
    pos.push_text("a3b2")  # B - QKt7 with check again
    assert pos.is_check()
    assert texts(pos) == {"f6b2"}  # forced: only the king can take the bishop
    pos.push_text("f6b2")
    assert texts(pos) == {"b4b2"}  # the white king now checks; Black takes it
    pos.push_text("b4b2")
    outcome = pos.outcome()
    assert outcome is not None and (outcome.termination, outcome.winner) == ("king_capture", 1)


def test_worked_line_two_knight_takes_queen_and_white_wins() -> None:
    pos = parse_fen(RETTAH, WORKED)
    pos.push_text("g4f6")  # Kt x Q unmasks the rook on the black king
    assert pos.is_check()
    assert texts(pos) == {"b4h4"}  # forced: K x R
    pos.push_text("b4h4")
    assert not pos.is_check() and "h2f3" in texts(pos) and len(texts(pos)) > 1  # White chooses
    pos.push_text("h2f3")  # Kt - KB3 with check
    assert pos.is_check()
    assert texts(pos) == {"h4f3"}  # forced: K x Kt
    pos.push_text("h4f3")
    assert pos.is_check()
    assert texts(pos) == {"f1f3"}  # forced, and it takes the king
    pos.push_text("f1f3")
    outcome = pos.outcome()
    assert outcome is not None and (outcome.termination, outcome.winner) == ("king_capture", 0)


def test_rule_of_check_prefers_no_taker_and_a_double_check_takes_either() -> None:
    # a rook and a knight both check; any capture of either is legal, nothing else
    pos = parse_fen(RETTAH, "4k3/8/8/8/8/1n6/8/K2r3R w - - 0 1")
    assert texts(pos) == {"a1b3", "a1d1", "h1d1"}
    # out of check the king may even step onto an attacked square: taking it would win
    pos = parse_fen(RETTAH, "6k1/8/8/8/8/8/8/K7 b - - 0 1")
    assert not pos.is_check() and "g8a2" in texts(pos)


def test_double_rettah_setup_and_first_moves() -> None:
    pos = start_position(DOUBLE)
    rows = pos.fen().split()[0].split("/")
    assert rows[5:] == ["PPPPPPPP", "KQPBNR2", "KQPBNR2"]
    assert rows[:3] == ["2rnbpqk", "2rnbpqk", "pppppppp"]
    counts: dict[str, int] = {}
    for ch in pos.fen().split()[0]:
        if ch.isupper():
            counts[ch] = counts.get(ch, 0) + 1
    assert counts == {"P": 10, "K": 2, "Q": 2, "B": 2, "N": 2, "R": 2}  # 20 men
    # bishops on both colours, a Rettah king's knight leap out of the corner
    assert "a2b4" in texts(pos) and "a3a4" in texts(pos) and "a3a5" not in texts(pos)


def test_double_rettah_checkmate_of_either_king_wins_and_no_rule_of_check() -> None:
    # the a1 Rettah is mated by the knight (guarded by the c4 pawn); the e1 Rettah is free
    pos = parse_fen(DOUBLE, "6kk/8/8/8/2p5/1n6/NPR5/KR2K3 w - - 0 1")
    outcome = pos.outcome()
    assert outcome is not None and (outcome.termination, outcome.winner) == ("checkmate", 1)
    # no rule of check: a checked Rettah may step away instead of taking
    pos = parse_fen(DOUBLE, "3k3k/8/8/8/8/8/K7/6Kr w - - 0 1")
    assert pos.is_check() and "g1g2" in texts(pos)
