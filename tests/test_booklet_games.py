"""The four games from Parton's "Chessery for Duffer and Master" that ship as variants: their setups
as the booklet gives them, the booklet's statements about their pieces and kings pinned move by
move, and the commands working for each. Fairy-Stockfish agreement: tests/test_fsf_agreement.py;
Alice's own examples: tests/test_alice.py."""

from __future__ import annotations

import subprocess
import sys

import pytest

from engine import Position, find_variant, parse_fen, start_position
from engine.variant import variant_from_toml

#: (name, legal opening moves, perft 2, perft 3); the 10x10 perft 3 values agree with Fairy-Stockfish.
OPENINGS = [
    ("sqchess", 24, 576, 15596),
    ("sqchess-extended", 24, 576, 17612),
    ("tweedle", 24, 576, 15740),
    ("alice", 20, 400, 9384),
]


def texts(pos: Position) -> set[str]:
    return {pos.move_text(m) for m in pos.legal_moves()}


def piece_names(pos: Position, cells: str) -> list[str]:
    v = pos.variant
    g = v.geometry
    out = []
    for name in cells.split():
        code = pos.board[g.index(name)]
        out.append(v.kinds[v.kind_of(code)].name if code else "")
    return out


def perft(pos: Position, depth: int) -> int:
    if depth == 0:
        return 1
    total = 0
    for move in pos.legal_moves():
        pos.push(move)
        total += perft(pos, depth - 1)
        pos.pop()
    return total


@pytest.mark.parametrize(("name", "opening", "depth2", "depth3"), OPENINGS)
def test_opening_move_counts(name: str, opening: int, depth2: int, depth3: int) -> None:
    pos = start_position(find_variant(name))
    assert len(pos.legal_moves()) == opening
    assert perft(pos, 2) == depth2
    if name != "alice":  # the 10x10 boards; Alice's depth 3 is pinned through the command below
        assert perft(pos, 3) == depth3


@pytest.mark.parametrize(("name", "opening", "depth2", "depth3"), OPENINGS)
def test_commands_list_and_count_each_game(name: str, opening: int, depth2: int, depth3: int) -> None:
    def run(*args: str) -> list[str]:
        out = subprocess.run([sys.executable, "-m", "controller.cli", *args], capture_output=True, text=True,
                             timeout=120)
        assert out.returncode == 0, out.stderr
        return out.stdout.splitlines()

    assert name in run("variants")
    assert len(run("moves", name)) == opening
    assert run("perft", name, "2")[-1] == str(depth2)


# -- Semi-Queen Chess ----------------------------------------------------------------------------
def test_sq_chess_setup_as_the_booklet_places_it() -> None:
    pos = start_position(find_variant("sqchess"))
    # Roshop between the queen and her bishop, Biok between the king and his bishop; two extra pawns
    assert piece_names(pos, "a1 b1 c1 d1 e1 f1 g1 h1 i1 j1") == [
        "rook", "knight", "bishop", "roshop", "queen", "king", "biok", "bishop", "knight", "rook"]
    assert piece_names(pos, "a10 d10 e10 f10 g10 j10") == ["rook", "roshop", "queen", "king", "biok", "rook"]
    assert set(piece_names(pos, "a2 b2 c2 d2 e2 f2 g2 h2 i2 j2 a9 e9 j9")) == {"pawn"}
    assert pos.fen() == "rnbsqkibnr/pppppppppp/10/10/10/10/10/10/PPPPPPPPPP/RNBSQKIBNR w KQkq - 0 1"


def test_biok_moves_as_a_bishop_and_captures_as_a_rook() -> None:
    v = find_variant("sqchess")
    # white Biok on e5; black pawns on e7 (its file) and h8 (its diagonal)
    pos = parse_fen(v, "5k4/10/7p2/4p5/10/4I5/10/10/10/K9 w - - 0 1")
    mine = {t for t in texts(pos) if t.startswith("e5")}
    assert "e5e7" in mine and "e5h8" not in mine  # takes along the file, not along the diagonal
    assert {"e5f6", "e5g7", "e5d4", "e5b2"} <= mine  # quiet moves along the diagonals
    assert not {"e5e6", "e5f5", "e5e4"} & mine  # never a quiet move along a file or rank


def test_roshop_moves_as_a_rook_and_captures_as_a_bishop_changing_colour() -> None:
    v = find_variant("sqchess")
    pos = parse_fen(v, "5k4/10/10/4p5/10/4S2p2/10/10/10/K9 w - - 0 1")
    mine = {t for t in texts(pos) if t.startswith("e5")}
    assert "e5e7" not in mine and "e5e6" in mine  # a rook's quiet move, no rook capture
    assert "e5h5" not in mine and "e5g5" in mine
    assert not {"e5f6", "e5d4"} & mine  # no quiet diagonal step
    g = v.geometry
    assert g.colors[g.index("e5")] != g.colors[g.index("e6")]  # so it changes square colour


def test_semi_queens_give_check_with_their_captures_only() -> None:
    v = find_variant("sqchess")
    assert parse_fen(v, "4k5/10/10/10/10/10/10/10/10/K3I5 b - - 0 1").is_check()  # Biok on the file
    assert not parse_fen(v, "10/10/10/10/10/k9/10/10/10/K3I5 b - - 0 1").is_check()  # Biok on a diagonal
    assert parse_fen(v, "10/10/10/10/10/k9/10/10/10/K3S5 b - - 0 1").is_check()  # Roshop on the diagonal
    assert not parse_fen(v, "4k5/10/10/10/10/10/10/10/10/K3S5 b - - 0 1").is_check()


def test_sq_chess_castles_two_squares_and_promotes_to_the_semi_queens() -> None:
    v = find_variant("sqchess")
    pos = parse_fen(v, "r4k3r/10/10/10/10/10/10/10/10/R4K3R w KQkq - 0 1")
    assert {"f1h1", "f1d1"} <= texts(pos)
    pos.push_text("f1h1")  # the king goes two cells, the rook from j1 to the cell it crossed
    assert piece_names(pos, "g1 h1 j1") == ["rook", "king", ""]
    pos.push_text("f10d10")
    assert piece_names(pos, "a10 d10 e10") == ["", "king", "rook"]
    promo = parse_fen(v, "5k4/P9/10/10/10/10/10/10/10/5K4 w - - 0 1")
    assert {"a9a10q", "a9a10r", "a9a10b", "a9a10n", "a9a10i", "a9a10s"} == {
        t for t in texts(promo) if t.startswith("a9")}
    # en passant after a double step from the pawn's first rank
    ep = parse_fen(v, "5k4/pppppppppp/10/1P8/10/10/10/10/10/5K4 b - - 0 1")
    ep.push_text("a9a7")
    assert "b7a8" in texts(ep) and ep.fen().split()[3] == "a8"
    ep.push_text("b7a8")
    assert piece_names(ep, "a7 a8") == ["", "pawn"]


def test_sq_chess_extended_setup() -> None:
    pos = start_position(find_variant("sqchess-extended"))
    assert piece_names(pos, "a1 b1 c1 d1 e1 f1 g1 h1 i1 j1") == [
        "rook", "biok", "roshop", "bishop", "queen", "king", "bishop", "roshop", "biok", "rook"]
    # eight pawns, with the two knights in the middle of that rank guarding queen and king
    assert piece_names(pos, "a2 d2 e2 f2 g2 j2") == ["pawn", "pawn", "knight", "knight", "pawn", "pawn"]
    assert piece_names(pos, "e9 f9 e10 f10") == ["knight", "knight", "queen", "king"]
    assert sum(1 for c in pos.board if c) == 40


# -- Chess Tweedle -------------------------------------------------------------------------------
def test_tweedle_setup_two_kings_two_queens() -> None:
    pos = start_position(find_variant("tweedle"))
    assert piece_names(pos, "a1 b1 c1 d1 e1 f1 g1 h1 i1 j1") == [
        "rook", "knight", "bishop", "king", "queen", "queen", "king", "bishop", "knight", "rook"]
    assert piece_names(pos, "d10 g10 e10 f10") == ["king", "king", "queen", "queen"]
    assert all(k.royal for k in pos.variant.kinds if k.name == "king")


def test_tweedle_one_piece_checking_both_kings_must_be_taken() -> None:
    v = find_variant("tweedle")
    # a white knight on e6 checks both black kings (d8, f8); a king step saves only one of them,
    # so the only answer is to take the knight: the rook on e10 can
    pos = parse_fen(v, "4r5/10/3k1k4/10/4N5/10/10/10/10/K9 b - - 0 1")
    assert pos.is_check()
    assert texts(pos) == {"e10e6"}
    # without the rook, no move saves both: checkmate
    mated = parse_fen(v, "10/10/3k1k4/10/4N5/10/10/10/10/K8R b - - 0 1")
    out = mated.outcome()
    assert out is not None and (out.termination, out.winner) == ("checkmate", 0)


def test_tweedle_no_move_may_expose_either_king() -> None:
    v = find_variant("tweedle")
    # the black bishop on g9 shields the king on h10 from the white bishop on c5; the other black
    # king (a10) is safe, but the bishop still may not leave the diagonal
    pos = parse_fen(v, "k6k2/6b3/10/10/10/2B7/10/10/10/K8K b - - 0 1")
    bishop = {t for t in texts(pos) if t.startswith("g9")}
    assert bishop == {"g9f8", "g9e7", "g9d6", "g9c5"}  # along the pin only, up to taking the pinner


def test_tweedle_checkmate_of_one_king_loses_though_the_other_is_free() -> None:
    v = find_variant("tweedle")
    # the black king on a10 is mated by the rooks on a1 and b8; black's other king on j1 would
    # have moves of its own, but none saves its partner
    pos = parse_fen(v, "k9/10/1R8/10/10/10/10/10/10/R3K4k b - - 0 1")
    out = pos.outcome()
    assert out is not None and (out.termination, out.winner) == ("checkmate", 0)
    alone = parse_fen(v, "10/10/1R8/10/10/10/10/10/10/R3K4k b - - 0 1")
    assert {"j1i1", "j1i2", "j1j2"} <= texts(alone)


def test_each_of_two_kings_could_castle_with_its_own_rook() -> None:
    # Tweedle ships without castling (the booklet is silent), but a variant of it with castling
    # switched on castles each king with the rook on its own side, and a king's move costs only
    # its own rook's right.
    v = variant_from_toml("tweedle-castling", 'inherits = "tweedle"\ncastling = true\n')
    pos = parse_fen(v, "r2k2k2r/10/10/10/10/10/10/10/10/R2K2K2R w KQkq - 0 1")
    assert {"d1b1", "g1i1"} <= texts(pos)
    pos.push_text("g1h1")
    assert pos.fen().split()[2] == "Qkq"
