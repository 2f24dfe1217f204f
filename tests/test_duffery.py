"""The three Duffery games (V. R. Parton, "Chessery for Duffer and Master"): each rule the text
states, pinned on the shipped variants (docs/rules/duffery-*.md give our readings)."""

from __future__ import annotations

import chess
import pytest

import engine
from engine import parse_fen, start_position
from engine.errors import VariantError
from engine.variant import variant_from_toml

SIMPLE = engine.find_variant("duffery-simpletons")
ADVANCING = engine.find_variant("duffery-advancing")
CAPTURING = engine.find_variant("duffery-capturing")


def legal(variant: engine.Variant, fen: str | None = None, *moves: str) -> set[str]:
    pos = parse_fen(variant, fen) if fen else start_position(variant)
    for text in moves:
        pos.push_text(text)
    return {pos.move_text(m) for m in pos.legal_moves()}


def result(pos: engine.Position) -> tuple[str, int | None]:
    outcome = pos.outcome()
    assert outcome is not None
    return outcome.termination, outcome.winner


def fide(fen: str) -> set[str]:
    return {m.uci() for m in chess.Board(fen).legal_moves}


# -- Simpletons --------------------------------------------------------------------------------
def test_simpletons_opening_is_pawn_moves_only() -> None:
    # no check and no capture is possible from the setup: "he must play some pawn"
    assert legal(SIMPLE) == {f"{f}2{f}{r}" for f in "abcdefgh" for r in "34"}


def test_simpletons_a_check_comes_before_everything() -> None:
    # 1.e4 d5: Bb5+ is the only check, so it is the only move (exd5 and the rest are out)
    assert legal(SIMPLE, None, "e2e4", "d7d5") == {"f1b5"}


def test_simpletons_captures_when_no_check() -> None:
    # 1.d4 e5: no check anywhere; dxe5 is the one capture
    assert legal(SIMPLE, None, "d2d4", "e7e5") == {"d4e5"}


def test_simpletons_a_checked_king_steps_out_takes_or_a_pawn_interposes() -> None:
    fen = "1n2k3/2p4r/8/r7/B7/8/8/4K3 b - - 0 1"
    # FIDE also lets the knight (c6, d7) and the rooks (b5, d7) block; Simpletons only the pawn
    assert fide(fen) - legal(SIMPLE, fen) == {"b8c6", "b8d7", "h7d7", "a5b5"}
    assert legal(SIMPLE, fen) == {"a5a4", "c7c6", "e8f8", "e8d8", "e8e7", "e8f7"}


def test_simpletons_no_castling_and_mate_ends_it() -> None:
    pos = start_position(SIMPLE)
    assert not pos.castling
    # a fool's mate under the menu: every move below was the only kind allowed
    for text in ("f2f3", "e7e5", "g2g4", "d8h4"):
        assert text in {pos.move_text(m) for m in pos.legal_moves()}
        pos.push_text(text)
    outcome = pos.outcome()
    assert outcome is not None and (outcome.termination, outcome.winner) == ("checkmate", 1)


def test_simpletons_without_check_capture_or_pawn_any_move_goes() -> None:
    fen = "4k3/8/8/8/8/8/8/1N2K3 w - - 0 1"
    assert legal(SIMPLE, fen) == fide(fen)


# -- Advancing ---------------------------------------------------------------------------------
def test_advancing_men_move_and_take_forward_only() -> None:
    fen = "4k3/8/8/3p4/8/3Q4/8/4K3 w - - 0 1"
    # the queen: up the file to the pawn (taking it), and up both forward diagonals
    assert {m for m in legal(ADVANCING, fen) if m.startswith("d3")} == {
        "d3d4", "d3d5", "d3e4", "d3f5", "d3g6", "d3h7", "d3c4", "d3b5", "d3a6"}
    # the king: three forward steps; the knight: its four forward leaps
    assert {m for m in legal(ADVANCING, fen) if m.startswith("e1")} == {"e1d2", "e1e2", "e1f2"}
    assert legal(ADVANCING, "4k3/8/8/8/4N3/8/8/K7 w - - 0 1") >= {"e4d6", "e4f6", "e4c5", "e4g5"}
    assert not {"e4c3", "e4g3", "e4d2", "e4f2"} & legal(ADVANCING, "4k3/8/8/8/4N3/8/8/K7 w - - 0 1")
    # Black's forward is down the board
    assert {m for m in legal(ADVANCING, "4k3/8/8/8/8/8/8/K7 b - - 0 1")} == {"e8d7", "e8e7", "e8f7"}


def test_advancing_a_man_on_the_far_rank_stays() -> None:
    fen = "R3k3/P7/8/8/8/8/8/4K3 w - - 0 1"
    assert not {m for m in legal(ADVANCING, fen) if m.startswith("a8")}
    # a pawn reaching the far rank is not promoted: it arrives as a pawn and stays
    pos = parse_fen(ADVANCING, "4k3/P7/8/8/8/8/8/4K3 w - - 0 1")
    assert "a7a8" in {pos.move_text(m) for m in pos.legal_moves()}
    pos.push_text("a7a8")
    pos.push_text("e8e7")
    assert not any(pos.move_text(m).startswith("a8") for m in pos.legal_moves())


def test_advancing_taking_the_king_wins_and_both_kings_through_draw() -> None:
    pos = parse_fen(ADVANCING, "8/8/3k4/8/8/8/8/3QK3 w - - 0 1")
    pos.push_text("d1d6")
    assert result(pos) == ("king_capture", 0)
    pos = parse_fen(ADVANCING, "8/4K3/8/8/8/8/3k4/8 w - - 0 1")
    pos.push_text("e7e8")
    assert pos.outcome() is None  # the black king is not through yet
    pos.push_text("d2d1")
    assert result(pos) == ("kings_through", None)


# -- Capturing ---------------------------------------------------------------------------------
def test_capturing_pieces_move_only_to_take_pawns_also_advance() -> None:
    assert legal(CAPTURING) == {f"{f}2{f}{r}" for f in "abcdefgh" for r in "34"}
    fen = "4k3/8/8/3p4/8/8/1P6/1R2KB2 w - - 0 1"
    # no piece has a foe in reach, so only the pawn moves (the rook and bishop may not just move)
    assert legal(CAPTURING, fen) == {"b2b3", "b2b4"}
    assert legal(CAPTURING, "4k3/8/8/3p4/8/8/8/1R2KB1Q w - - 0 1") == {"h1d5"}


def test_capturing_no_take_and_no_pawn_advance_loses() -> None:
    pos = parse_fen(CAPTURING, "4k3/8/8/8/8/8/8/R3K3 w - - 0 1")
    outcome = pos.outcome()
    assert outcome is not None and outcome.winner == 1
    pos = parse_fen(CAPTURING, "4k3/8/8/8/8/8/8/4K2q w - - 0 1")
    assert legal(CAPTURING, pos.fen()) == set()  # the queen on h1 is out of the king's reach
    pos = parse_fen(CAPTURING, "4k3/8/8/8/8/8/8/4K1q1 b - - 0 1")
    pos.push_text("g1e1")
    assert result(pos) == ("king_capture", 1)


def test_kings_through_needs_one_region_per_side() -> None:
    with pytest.raises(VariantError, match="kings_through_zones needs one region per side"):
        variant_from_toml("bad-advancing",
                          'inherits = "duffery-advancing"\n[options]\nkings_through_zones = ["rank8"]\n')
