"""Illusionary Piece Chess (docs/rules/illusionary.md): each statement of the text, pinned."""

from __future__ import annotations

import subprocess
import sys

import pytest

from engine import Position, Variant, find_variant, start_position
from engine.position import parse_fen
from engine.san import parse_san, san
from tests.demo_game_runs import played_demo


def v() -> Variant:
    return find_variant("illusionary")


def at(fen: str) -> Position:
    return parse_fen(v(), fen)


def targets(pos: Position, cell: str) -> set[str]:
    names = pos.variant.geometry.names
    return {names[m.to] for m in pos.legal_moves() if names[m.frm] == cell}


def texts(pos: Position) -> set[str]:
    return {pos.move_text(m) for m in pos.legal_moves()}


def chosen(*choices: str) -> Position:
    pos = start_position(v())
    for text in choices:
        pos.push(parse_san(pos, text))
    return pos


# -- the selection before the first move -------------------------------------------------------------
def test_black_chooses_a_pawn_first_then_white_a_pawn_and_a_piece_then_black_a_piece() -> None:
    pos = start_position(v())
    assert pos.variant.sides[pos.side] == "black"
    assert {san(pos, m) for m in pos.legal_moves()} == {f"{f}7=I" for f in "abcdefgh"}
    pos.push(parse_san(pos, "e7=I"))
    assert pos.variant.sides[pos.side] == "white"
    assert {san(pos, m) for m in pos.legal_moves()} == {f"{f}2=I" for f in "abcdefgh"}
    pos.push(parse_san(pos, "d2=I"))
    assert pos.variant.sides[pos.side] == "white"  # White chooses twice in a row
    # any piece but the king
    assert {san(pos, m) for m in pos.legal_moves()} == {"Ra1=IR", "Nb1=IN", "Bc1=IB", "Qd1=IQ", "Bf1=IB",
                                                        "Ng1=IN", "Rh1=IR"}
    pos.push(parse_san(pos, "Ng1=IN"))
    assert pos.variant.sides[pos.side] == "black"
    assert len(pos.legal_moves()) == 7
    pos.push(parse_san(pos, "Qd8=IQ"))
    # then White makes the first move of the game, move number 1
    assert pos.fen() == "rnb~qkbnr/pppp~pppp/8/8/8/8/PPP~PPPPP/RNBQKB~NR w KQkq - 0 1"
    assert pos.variant.sides[pos.side] == "white"
    assert "e2e4" in texts(pos)
    assert pos.variant.rules.turn_note is not None and pos.variant.rules.turn_note.turn_note(pos) == ""


def test_the_choices_are_moves_that_change_the_man_where_it_stands() -> None:
    pos = start_position(v())
    move = pos.parse_move("e7e7~p")
    e7 = pos.variant.geometry.index("e7")
    (cell, before, after), = move.changes
    assert (cell, pos.variant.symbol(before), pos.variant.symbol(after)) == (e7, "p", "~p")
    assert move.relocations == () and move.victims == ()
    note = pos.variant.rules.turn_note
    assert note is not None
    assert note.turn_note(pos) == "Black chooses a pawn to make illusionary: lift it and put it back"
    pos.push(move)
    assert note.turn_note(pos) == "White chooses a pawn to make illusionary: lift it and put it back"
    pos.pop()
    assert pos.fen() == v().start


def test_a_position_owing_a_choice_from_the_wrong_side_is_refused() -> None:
    with pytest.raises(ValueError, match="black chooses next"):
        at("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 select=4")


# -- the illusionary men's moves -----------------------------------------------------------------------
def test_illusionary_knight_is_a_squirrel_every_cell_two_away() -> None:
    ring = {f"{f}{r}" for f in "bcdef" for r in "23456"} - {f"{f}{r}" for f in "cde" for r in "345"}
    assert targets(at("7k/8/8/8/3~N4/8/8/K7 w - - 0 1"), "d4") == ring


def test_illusionary_bishop_rook_queen_are_cardinal_chancellor_amazon() -> None:
    knight = {"b3", "b5", "c2", "c6", "e2", "e6", "f3", "f5"}
    bishop = {"a1", "b2", "c3", "e5", "f6", "g7", "c5", "b6", "a7", "e3", "f2", "g1"}
    rook = {f"d{r}" for r in "1235678"} | {f"{f}4" for f in "abcefgh"}
    assert targets(at("7k/8/8/8/3~B4/8/7K/8 w - - 0 1"), "d4") == bishop | knight
    assert targets(at("7k/8/8/8/3~R4/8/7K/8 w - - 0 1"), "d4") == rook | knight
    assert targets(at("8/7k/8/8/3~Q4/8/7K/8 w - - 0 1"), "d4") == rook | bishop | knight | {"h8"}


def test_illusionary_pawn_moves_and_takes_in_its_three_forward_directions() -> None:
    pos = at("7k/8/2p1p3/3~P4/8/8/8/K7 w - - 0 1")
    assert targets(pos, "d5") == {"c6", "d6", "e6"}
    pos = at("7k/8/3p4/3~P4/8/8/8/K7 w - - 0 1")
    assert targets(pos, "d5") == {"c6", "d6", "e6"}  # d6 taken straight ahead


def test_illusionary_pawn_double_steps_in_three_directions_from_its_start_without_jumping() -> None:
    assert targets(at("7k/8/8/8/8/8/3~P4/K7 w - - 0 1"), "d2") == {"c3", "d3", "e3", "b4", "d4", "f4"}
    # a man on the passed cell blocks the double step that way (and is taken or not, as it is)
    assert targets(at("7k/8/8/8/8/2P1n3/3~P4/K7 w - - 0 1"), "d2") == {"d3", "e3", "d4"}
    # never a capturing double step, and none off the start rank
    assert targets(at("7k/8/8/8/1n1n1n2/8/3~P4/K7 w - - 0 1"), "d2") == {"c3", "d3", "e3"}
    assert targets(at("7k/8/8/8/8/3~P4/8/K7 w - - 0 1"), "d3") == {"c4", "d4", "e4"}
    # Black's from the seventh rank
    assert targets(at("k7/3~p4/8/8/8/8/8/7K b - - 0 1"), "d7") == {"c6", "d6", "e6", "b5", "d5", "f5"}


def test_illusionary_pawn_takes_a_regular_pawn_en_passant() -> None:
    pos = at("4k3/8/8/8/3~p4/8/4P3/4K3 w - - 0 1")
    pos.push_text("e2e4")
    assert pos.fen() == "4k3/8/8/8/3~pP3/8/8/4K3 b - e3 0 1"
    # the capture and the plain diagonal step to e3 are two moves; the capture's text says so
    capture = pos.parse_move("d4e3ep")
    assert san(pos, capture, display=True) == "Idxe3 e.p."
    assert san(pos, pos.parse_move("d4e3")) == "Ie3"
    pos.push(capture)
    assert pos.fen() == "4k3/8/8/8/8/4~p3/8/4K3 w - - 0 2"


def test_illusionary_pawn_takes_en_passant_from_straight_behind_the_passed_cell_too() -> None:
    # the regular pawn passes d3; the illusionary pawn on c4 reaches d3 diagonally
    pos = at("4k3/8/8/8/2~p5/8/3P4/4K3 w - - 0 1")
    pos.push_text("d2d4")
    assert "c4d3ep" in texts(pos)


def test_illusionary_pawn_cannot_be_taken_en_passant() -> None:
    for step in ("e2e4", "e2c4", "e2g4"):
        pos = at("4k3/8/8/8/3p1p2/8/4~P3/4K3 w - - 0 1")
        pos.push_text(step)
        assert pos.ep < 0 and not any(m.tag == "ep" for m in pos.legal_moves()), step


def test_regular_pawn_may_be_taken_en_passant_by_a_regular_pawn_as_usual() -> None:
    pos = at("4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1")
    pos.push_text("e2e4")
    assert "d4e3" in texts(pos) and pos.parse_move("d4e3").tag == "ep"


def test_illusionary_pawn_promotes_to_illusionary_pieces_only() -> None:
    pos = at("1n2k3/2~P5/8/8/8/8/P7/4K3 w - - 0 1")
    assert {san(pos, m) for m in pos.legal_moves() if pos.variant.geometry.names[m.frm] == "c7"} == {
        f"I{t}={p}" for t in ("c8", "d8", "cxb8") for p in ("IQ", "IR", "IB", "IN")}
    pos = at("4k3/P7/8/8/8/8/8/4K3 w - - 0 1")
    assert {san(pos, m) for m in pos.legal_moves() if m.promotion} == {"a8=Q+", "a8=R+", "a8=B", "a8=N"}


# -- no check by illusionary men ------------------------------------------------------------------------
def test_illusionary_men_never_give_check_nor_take_the_king() -> None:
    pos = at("4k3/p7/4~Q3/8/8/8/8/R3K3 b - - 0 1")
    assert not pos.is_check()
    assert pos.outcome() is None
    # the king may stay, and step onto cells only the illusionary queen attacks
    assert targets(pos, "e8") == {"d7", "d8", "e7", "f7", "f8"}
    pos.push_text("e8e7")
    assert "e6e7" not in texts(pos)  # it can never take the king standing next to it


def test_a_king_surrounded_by_illusionary_attacks_is_not_mated() -> None:
    # Every cell round the black king is attacked by illusionary men only: no check, no mate.
    pos = at("7k/p4~R2/6~N1/8/8/8/8/R3K3 b - - 0 1")
    assert not pos.is_check() and pos.outcome() is None
    assert targets(pos, "h8") == {"g8", "g7", "h7"}


def test_a_man_between_an_illusionary_piece_and_its_own_king_is_not_pinned() -> None:
    pos = at("4k3/4n3/8/8/8/8/8/R3~RK2 b - - 0 1")
    assert {"e7c6", "e7g6"} <= texts(pos)


def test_castling_through_and_onto_cells_attacked_only_by_illusionary_men() -> None:
    pos = at("4k3/8/8/8/8/5~n2/8/4K2R w K - 0 1")  # the squirrel reaches f1 and g1, the king passes
    assert "e1g1" in texts(pos)
    pos = at("4k3/8/8/8/8/5n2/8/4K2R w K - 0 1")  # a regular knight on f3 does forbid it (g1)
    assert "e1g1" not in texts(pos)


def test_the_illusionary_rook_castles_and_keeps_the_right_when_chosen() -> None:
    pos = chosen("e7=I", "e2=I", "Rh1=IR", "Nb8=IN")
    assert "KQkq" in pos.fen()
    for text in ("Nf3", "a6", "g3", "b6", "Bg2", "c6"):
        pos.push(parse_san(pos, text))
    pos.push(parse_san(pos, "O-O"))
    assert pos.fen() == "r~nbqkbnr/3p~pppp/ppp5/8/8/5NP1/PPPP~PPBP/RNBQ1~RK1 b kq - 1 4"


# -- a bare king loses ----------------------------------------------------------------------------------
def test_a_side_left_with_its_king_and_illusionary_men_loses_at_once() -> None:
    pos = at("4k3/8/8/8/8/2~n5/3p4/2B1K3 w - - 0 1")
    pos.push_text("c1d2")  # White takes Black's last regular man
    outcome = pos.outcome()
    assert outcome is not None and (outcome.termination, outcome.winner) == ("bare_king", 0)


def test_a_regular_pawn_keeps_its_side_alive_an_illusionary_one_does_not() -> None:
    assert at("4k3/p7/8/8/8/2~n5/8/4K1R1 b - - 0 1").outcome() is None
    outcome = at("4k3/~p7/8/8/8/2~n5/8/4K1R1 b - - 0 1").outcome()
    assert outcome is not None and (outcome.termination, outcome.winner) == ("bare_king", 0)


def test_a_lone_king_loses_even_against_a_lone_illusionary_man() -> None:
    outcome = at("4k3/8/8/8/8/8/8/~N3K3 b - - 0 1").outcome()
    # Black has just a king: Black loses (White's own army is illusionary too, but the side to
    # move was bared by the last move; mutual baring cannot arise in play)
    assert outcome is not None and (outcome.termination, outcome.winner) == ("bare_king", 0)


def test_checkmate_by_regular_men_still_wins() -> None:
    pos = at("6k1/5ppp/8/8/8/8/8/~N2RK3 w - - 0 1")
    pos.push_text("d1d8")
    outcome = pos.outcome()
    assert outcome is not None and (outcome.termination, outcome.winner) == ("checkmate", 0)


# -- notation ------------------------------------------------------------------------------------------
def test_san_writes_the_i_prefix_and_reads_it_back() -> None:
    pos = at("4k3/8/8/8/3~N4/8/8/4K3 w - - 0 1")
    move = parse_san(pos, "INf5")
    assert san(pos, move) == "INf5" and pos.move_text(move) == "d4f5"
    pos = at("4k3/8/8/3p4/4~P3/8/8/4K3 w - - 0 1")
    assert san(pos, pos.parse_move("e4d5")) == "Iexd5"
    assert san(pos, pos.parse_move("e4f5")) == "If5"


def test_play_prints_the_outcome() -> None:
    from controller.demo_games import DEMO_GAMES

    done = subprocess.run([sys.executable, "-m", "controller.cli", "play", "illusionary", "e7e7~p", "d2d2~p",
                           "g1g1~n", "b8b8~n"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0
    assert done.stdout.splitlines() == ["r~nbqkbnr/pppp~pppp/8/8/8/8/PPP~PPPPP/RNBQKB~NR w KQkq - 0 1", "*"]
    done = subprocess.run([sys.executable, "-m", "controller.cli", "play", "illusionary", *DEMO_GAMES["illusionary"]],
                          capture_output=True, text=True, timeout=60)
    assert done.stdout.splitlines() == ["2bqk1nr/1pp1pp~Qp/n7/8/8/P7/1P2PPPP/RNr1KBNR w KQk - 0 7", "0-1 checkmate"]


def test_demo_game_ends_in_checkmate_and_is_what_chessery_run_plays() -> None:
    from controller.demo_games import DEMO_GAMES

    outcome = played_demo("illusionary").outcome()
    assert outcome is not None and (outcome.termination, outcome.winner) == ("checkmate", 1)
    # the amazon stood next to the black king on d7 without giving check
    assert "d1d7" in DEMO_GAMES["illusionary"]


def test_pgn_numbers_the_choices_before_white_s_first_move() -> None:
    from controller.demo_games import DEMO_GAMES
    from controller.pgn import export_pgn
    from controller.store import GameRecord

    game = GameRecord(1, "illusionary", v().start, "2026-01-01", "2026-01-01", "0-1", "checkmate",
                      DEMO_GAMES["illusionary"])
    body = " ".join(export_pgn(game).split("\n\n")[1].split())
    assert body.startswith("1... d7=I 1. d2=I 1. Qd1=IQ Bf8=IB 1. Ib4 a5 2. Ibxa5 Rxa5 3. IQxd7 ")
    assert body.endswith("6. IQxg7 Rxc1# 0-1")
