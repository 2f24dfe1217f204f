"""Views built from engine positions: pieces, move list, highlights, result, legend."""

from __future__ import annotations

from dataclasses import replace

from display.view import STANDARD_GLYPHS, Highlights, PieceView, piece_view, view_from_position
from engine import find_variant, parse_fen, start_position


def test_start_position_view() -> None:
    chess = find_variant("chess")
    view = view_from_position(start_position(chess))
    g = view.geometry
    assert view.title == "Chess" and view.sides == ("white", "black") and view.side_to_move == 0
    assert view.pieces[g.index("e1")] == PieceView(0, "king", "K", "king")
    assert view.pieces[g.index("d8")] == PieceView(1, "queen", "Q", "queen")
    assert view.pieces[g.index("e4")] is None
    assert sum(p is not None for p in view.pieces) == 32
    assert view.moves == () and view.result == "" and view.highlights == Highlights()
    assert view.legend == ()  # chess has no fairy pieces to explain
    assert all(p.glyph in STANDARD_GLYPHS for p in view.pieces if p)


def test_moves_last_move_and_castling_cells() -> None:
    pos = start_position(find_variant("chess"))
    for text in ("e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "e1g1"):
        pos.push_text(text)
    view = view_from_position(pos, phase="playing")
    g = view.geometry
    assert view.moves == ("e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "e1g1")
    assert view.first_move_number == 1 and view.first_side == 0
    # Castling moves two pieces: all four cells are the last move.
    assert set(view.highlights.last_move) == {g.index(n) for n in ("e1", "f1", "g1", "h1")}
    assert view.side_to_move == 1 and view.phase == "playing"


def test_numbering_starts_where_the_position_did() -> None:
    pos = parse_fen(find_variant("chess"), "4k3/8/8/8/8/8/4P3/4K3 b - - 0 17")
    pos.push_text("e8d8")
    pos.push_text("e2e4")
    view = view_from_position(pos)
    assert view.first_move_number == 17 and view.first_side == 1
    assert view.moves == ("e8d8", "e2e4")


def test_check_and_result() -> None:
    chess = find_variant("chess")
    mate = parse_fen(chess, "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3")
    view = view_from_position(mate)
    assert view.highlights.check == (view.geometry.index("e1"),)
    assert view.result == "0-1 checkmate" and view.side_to_move is None and view.phase == "game over"
    check = parse_fen(chess, "4k3/8/8/8/8/8/4r3/4K3 w - - 0 1")
    view = view_from_position(check)
    assert view.highlights.check == (view.geometry.index("e1"),) and view.result == ""


def test_parts_override_the_defaults() -> None:
    pos = start_position(find_variant("chess"))
    view = view_from_position(pos, status="Set up the pieces", clocks=(600.0, 600.0))
    assert view.status == "Set up the pieces" and view.clocks == (600.0, 600.0)
    assert replace(view, status="x") != view and replace(view) == view


def test_piece_view_of_every_code() -> None:
    chess = find_variant("chess")
    for code in chess.all_codes():
        p = piece_view(chess, code)
        kind = chess.kinds[chess.kind_of(code)]
        assert p.side == chess.side_of(code) and p.glyph == kind.glyph and p.letter == kind.letter
