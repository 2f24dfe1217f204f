"""Gryphon Chess in its three forms (Parton, "The Idea of Gryphon Chess"): pieces change nature
on moving, the text's own counts (a pawn is a king after five moves, a rook after two), the
circular order, several kings, the limits of four rooks, bishops, knights and two queens, the
simple form's forward-only king; the swap the player must make on the physical board, as the
inference core sees it on occupancy and identity boards; the demo games and ``chessery play``."""

from __future__ import annotations

import subprocess
import sys

import pytest

import engine
from controller.core_types import StatusKind
from controller.demo_games import DEMO_GAMES
from controller.swaps import swap_text
from engine import parse_fen, start_position
from tests.core_scripts import play, told
from tests.demo_game_runs import played_demo

GRYPHONS = ("gryphon", "gryphon-circular", "gryphon-simple")


def v(name: str = "gryphon") -> engine.Variant:
    return engine.find_variant(name)


def letter_at(pos: engine.Position, name: str) -> str:
    code = pos.board[pos.variant.geometry.index(name)]
    return pos.variant.kinds[pos.variant.kind_at[code]].letter if code else ""


def targets(pos: engine.Position, frm: str) -> set[str]:
    g = pos.variant.geometry
    return {g.names[m.to] for m in pos.legal_moves() if g.names[m.frm] == frm}


def test_setups_and_opening_moves() -> None:
    basic = start_position(v())
    assert basic.fen().split()[0] == "rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR"  # no kings
    # 16 pawn moves, 4 knight moves, and the queen's step to the empty e1, where she is a king
    assert len(basic.legal_moves()) == 21
    assert "e1" in targets(basic, "d1")
    assert len(start_position(v("gryphon-circular")).legal_moves()) == 20
    simple = start_position(v("gryphon-simple"))
    assert simple.fen().split()[0] == "4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3"
    assert len(simple.legal_moves()) == 16  # the king cannot go forward: its pawns stand there


def test_a_pawn_is_a_king_after_five_moves_and_a_rook_after_two() -> None:
    pos = parse_fen(v(), "k7/8/8/8/8/8/4P3/8 w - - 0 1")
    kinds = []
    for white in ("e2e3", "e3d5", "d5f7", "f7f1", "f1h3"):
        pos.push_text(white)
        kinds.append(letter_at(pos, white[2:]))
        pos.push(pos.legal_moves()[0])  # Black's lone king steps
    assert kinds == ["N", "B", "R", "Q", "K"]
    pos.push_text("h3h4")
    assert letter_at(pos, "h4") == "K"  # a king stays a king
    rook = parse_fen(v(), "7k/8/8/8/8/8/8/R7 w - - 0 1")
    rook.push_text("a1a2")
    rook.push_text("h8h7")
    rook.push_text("a2h2")
    assert letter_at(rook, "h2") == "K"


def test_circular_order_returns_the_queen_to_a_pawn_and_kings_do_not_change() -> None:
    pos = parse_fen(v("gryphon-circular"), "4k3/8/8/8/8/8/8/Q3K3 w - - 0 1")
    pos.push_text("a1a3")
    assert letter_at(pos, "a3") == "P"
    pos.push_text("e8d8")
    assert letter_at(pos, "d8") == "K"
    pos.push_text("a3a4")
    assert letter_at(pos, "a4") == "N"


def test_the_move_says_the_swap_through_become_on_the_landing_cell() -> None:
    pos = start_position(v())
    move = pos.parse_move("g1f3")
    knight, bishop = move.piece, pos.variant.code(pos.variant.kind_index["B"], 0)
    assert set(move.changes) == {(pos.variant.geometry.index("g1"), knight, 0),
                                 (pos.variant.geometry.index("f3"), 0, bishop)}
    assert move.relocations == ((pos.variant.geometry.index("g1"), pos.variant.geometry.index("f3")),)
    assert swap_text(pos.variant, move) == "replace the knight on f3 with a bishop"
    capture = parse_fen(v(), "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1").parse_move("e4d5")
    assert capture.victims == (pos.variant.geometry.index("d5"),) and capture.is_capture


def test_limits_of_four_rooks_bishops_knights_and_two_queens() -> None:
    # four knights already: no pawn may move (it would be a fifth knight)
    pos = parse_fen(v(), "4k3/8/8/8/8/8/3P4/NN1NN1K1 w - - 0 1")
    assert targets(pos, "d2") == set()
    # two queens: a rook may not move (it would be a third)
    pos = parse_fen(v(), "4k3/8/8/8/8/8/8/QQ2R1K1 w - - 0 1")
    assert targets(pos, "e1") == set()
    assert targets(pos, "a1")  # a queen moves (and becomes a king: no limit on kings)


def test_a_queen_may_not_become_a_king_on_an_attacked_cell() -> None:
    pos = parse_fen(v(), "3r4/8/8/8/8/8/8/Q7 w - - 0 1")
    assert "d1" not in targets(pos, "a1") and "d4" not in targets(pos, "a1")
    assert "c1" in targets(pos, "a1")


def test_several_kings_checkmate_of_any_loses() -> None:
    # White's king on h1 is mated by the rooks while the king on a4 is free
    pos = parse_fen(v(), "7k/8/8/8/K7/6rr/8/7K w - - 0 1")
    assert pos.is_check()
    outcome = pos.outcome()
    assert outcome is not None and (outcome.termination, outcome.winner) == ("checkmate", 1)


def test_simple_form_king_only_forward_until_its_side_has_captured() -> None:
    pos = parse_fen(v("gryphon-simple"), "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1")
    assert targets(pos, "e1") == {"d2", "e2", "f2"}
    pos.push_text("e4d5")
    assert pos.fen().split()[-1] == "captured=w"
    pos.push_text("e8d7")  # Black has taken nothing: its king still only goes forward
    assert targets(pos, "e1") == {"d1", "d2", "e2", "f2", "f1"}
    blk = parse_fen(v("gryphon-simple"), "4k3/8/8/8/8/8/8/4K3 b - - 0 1")
    assert targets(blk, "e8") == {"d7", "e7", "f7"}
    pos.pop()
    pos.pop()
    assert "captured" not in pos.fen()  # taken back with the move


# -- the physical board -------------------------------------------------------------------------------
def test_occupancy_board_accepts_the_move_names_the_swap_and_takes_a_lift_and_place_as_it() -> None:
    r = play("lift g1\nplace f3\nsleep 1500\nlift f3\nplace f3\nsleep 3000", variant=v())
    assert r.texts() == ["g1f3"]
    assert "White played g1f3: replace the knight on f3 with a bishop. Black to move" in told(r)
    assert r.core.status.message == "Black to move"


def test_identity_board_waits_for_the_new_piece() -> None:
    r = play("lift g1\nplace f3 N\nsleep 3000", variant=v(), identity=True)
    assert r.texts() == []
    assert r.core.status.kind == StatusKind.FIX
    assert r.core.status.message == "White g1f3: replace the knight on f3 with a bishop"
    (fix,) = r.core.status.fixes
    assert (fix.want, fix.have) == (v().code(v().kind_index["B"], 0), v().code(v().kind_index["N"], 0))
    r = play("lift g1\nplace f3 N\nsleep 3000\nlift f3\nplace f3 B\nsleep 3000", variant=v(), identity=True)
    assert r.texts() == ["g1f3"]
    assert r.core.status.message == "White played g1f3. Black to move"


# -- demo games and chessery play ---------------------------------------------------------------------
@pytest.mark.parametrize("name", GRYPHONS)
def test_demo_game_ends_in_checkmate_and_is_what_chessery_run_plays(name: str) -> None:
    outcome = played_demo(name).outcome()
    assert outcome is not None and (outcome.termination, outcome.winner) == ("checkmate", 1)


def test_play_prints_the_outcome() -> None:
    done = subprocess.run([sys.executable, "-m", "controller.cli", "play", "gryphon", *DEMO_GAMES["gryphon"]],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0
    # the knight from g1 went f3 (bishop), b7 (rook), a7 (queen), a8 (king) and was mated there
    assert done.stdout.splitlines() == ["Knbq1bnr/r2p2pp/2n2n2/8/4N3/8/PPPP1PPP/RNBQ1B1R w - - 1 6",
                                        "0-1 checkmate"]
