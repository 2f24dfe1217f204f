"""Royal Fury's leaping chains and the swapped Advancer, as issue 27 found them against
implementations written from the text alone (docs/rules/royal-fury.md, "Dragon", "Advancer")."""

from __future__ import annotations

import pytest

import engine
from controller.cli import main
from engine import parse_fen

RF = engine.find_variant("royal-fury")
G = RF.geometry

#: c1 over c2 to c3, over d3 to e3, then back west across c3 (where it landed before) over b3 to a3.
CROSSING = "7aff/7aaa/10/10/10/10/2A7/1a1a1A4/2a4AAA/2D1J2AFF w - - 0 1"
#: j3 over g3 to f3, over g4 to i6, over f6 to b6, over e3 to f2: with f6 gone and f3 left
#: behind, the Gorgon on f8 looks down the open f-file at f2.
PETRIFIED = "7aff/7aaa/5g4/10/5a4/10/6a3/4a1a2D/4a2AAA/7AFF w - - 0 1"


def texts(fen: str, frm: str) -> set[str]:
    pos = parse_fen(RF, fen)
    return {pos.move_text(m) for m in pos.legal_moves() if G.names[m.frm] == frm}


def test_a_chain_may_cross_and_land_on_cells_it_landed_on_before() -> None:
    moves = texts(CROSSING, "c1")
    assert "c1a3:c3:e3" in moves
    assert "c1e3:c3:a3" in moves  # the same three victims the other way round: another end cell
    pos = parse_fen(RF, CROSSING)
    assert {G.names[c] for c in pos.parse_move("c1a3:c3:e3").victims} == {"c2", "d3", "b3"}


def test_a_chain_stops_where_an_emptied_line_lets_a_gaze_reach_the_leaper() -> None:
    moves = texts(PETRIFIED, "j3")
    assert "j3f2:f3:i6:b6" in moves  # landing on f2 is fine...
    assert "j3d2:f3:i6:b6:f2" not in moves  # ...going on from there is not: she is petrified
    # At f3 (first landing) the f-file was still shut by the Advancer on f6: she went on.
    assert "j3i6:f3" in moves


def test_a_fury_chain_crosses_its_earlier_landings_too() -> None:
    # e1 over e3 to e5, over h5 to i5, back west across e5 over b5 to a5 (no foe next to any
    # landing, so her charge takes nothing on the way).
    moves = texts("7aff/7aaa/10/10/10/1a5a2/10/4a5/10/4F4F w - - 0 1", "e1")
    assert "e1a5:e5:i5" in moves


def test_chessery_play_takes_the_crossing_chain(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "royal-fury", "--fen", CROSSING, "c1a3:c3:e3"]) == 0
    fen, outcome = capsys.readouterr().out.splitlines()
    assert fen == "7aff/7aaa/10/10/10/10/2A7/D4A4/7AAA/4J2AFF b - - 0 1" and outcome == "*"


def test_chessery_play_refuses_a_chain_going_on_from_a_petrified_cell(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "royal-fury", "--fen", PETRIFIED, "j3d2:f3:i6:b6:f2"]) == 2
    err = capsys.readouterr().err
    assert "move 1 'j3d2:f3:i6:b6:f2' is not legal" in err and len(err.splitlines()) == 1


def test_an_advancer_swapped_into_the_enemy_half_stays_an_advancer_until_its_next_step() -> None:
    # Black's Ximaera on e8 faces White's Advancer on e3 down the open file and swaps with it.
    pos = parse_fen(RF, "7aff/7aaa/4x5/10/10/10/10/4A5/10/7AFF b - - 0 1")
    pos.push_text("e8e3~")
    assert RF.symbol(pos.board[G.index("e8")]) == "A"  # carried over, not stepped: no promotion
    pos = parse_fen(RF, "7aff/7aaa/4A5/10/10/10/10/4x5/10/7AFF w - - 0 1")
    assert "e8e9j" in {pos.move_text(m) for m in pos.legal_moves()}  # its own next step promotes
    pos.push_text("e8e9j")
    assert RF.symbol(pos.board[G.index("e9")]) == "J"
