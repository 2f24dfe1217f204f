"""Zeta in its five forms (Parton, "The Diversion of Zeta"): the booklet's rules pinned one by one
(queen-moving pawns without captures, the line of five by direction and half, no line of six, no
return from the enemy half, the forced first moves, the short game, advancing pawns frozen on the
far rank, the eight pieces, the king in the line), the demo games, ``chessery play`` and the
winning line on the drawn board."""

from __future__ import annotations

import subprocess
import sys

import pygame
import pytest

import engine
from controller.demo_games import DEMO_GAMES
from controller.service import demo_script
from display import theme
from display.render import cell_colour, render
from display.view import view_from_position
from engine import parse_fen, start_position
from engine.components.line import Line

ZETAS = ("zeta", "zeta-short", "zeta-advancing", "zeta-pieces", "zeta-king")


def v(name: str = "zeta") -> engine.Variant:
    return engine.find_variant(name)


def targets(pos: engine.Position, frm: str) -> set[str]:
    g = pos.variant.geometry
    return {g.names[m.to] for m in pos.legal_moves() if g.names[m.frm] == frm}


def ends(name: str, fen: str) -> tuple[str, int | None] | None:
    out = parse_fen(v(name), fen).outcome()
    return None if out is None else (out.termination, out.winner)


# -- the elementary game ---------------------------------------------------------------------------
def test_pawns_start_on_the_base_rows_and_white_must_open_into_the_enemy_half() -> None:
    pos = start_position(v())
    assert pos.fen().split()[0] == "pppppppp/8/8/8/8/8/8/PPPPPPPP"
    moves = [pos.move_text(m) for m in pos.legal_moves()]
    # every opening move lands on ranks 5-7: three up each file, plus the open diagonals
    assert all(m[3] in "567" for m in moves)
    assert len(moves) == 42
    assert targets(pos, "a1") == {"a5", "a6", "a7", "e5", "f6", "g7"}
    pos.push_text("d1d5")
    # Black's first move likewise goes into White's half
    assert all(pos.move_text(m)[3] in "234" for m in pos.legal_moves())


def test_a_pawn_moves_like_a_queen_over_empty_cells_and_never_captures() -> None:
    pos = parse_fen(v(), "8/8/8/8/2p5/8/P3p3/8 w - - 0 5")
    reach = targets(pos, "a2")
    assert {"a8", "b3", "b2", "c2", "d2", "b1"} <= reach  # queen lines, any distance
    assert "e2" not in reach and "f2" not in reach  # no capture, no passing over a man
    assert "c4" not in reach and "d5" not in reach  # the diagonal stops before c4's man
    assert all(not m.is_capture for m in pos.legal_moves())


def test_no_return_from_the_enemy_half() -> None:
    pos = parse_fen(v(), "8/8/8/3P4/8/8/8/P7 w - - 0 5")
    assert targets(pos, "d5") == {f"{f}5" for f in "abcefgh"} | {"d6", "d7", "d8", "c6", "b7", "a8", "e6", "f7",
                                                                    "g8"}
    assert "a4" in targets(pos, "a1") and "a8" in targets(pos, "a1")  # a man at home goes anywhere


@pytest.mark.parametrize("fen, wins", [
    # along a rank: only in the enemy half (Black's pawn on h3 keeps Black able to move)
    ("8/8/8/PPPPP3/8/7p/8/8 b - - 0 9", True),
    ("8/8/8/8/PPPPP3/7p/8/8 b - - 0 9", False),
    ("8/8/8/8/8/7p/8/PPPPP3 b - - 0 9", False),
    # along a file: three (or four) of the five in the enemy half
    ("8/P7/P7/P7/P7/P6p/8/8 b - - 0 9", True),
    ("P7/P7/P7/P7/P7/7p/8/8 b - - 0 9", True),
    ("8/8/P7/P7/P7/P6p/P7/8 b - - 0 9", False),
    ("8/8/8/P7/P7/P6p/P7/P7 b - - 0 9", False),
    # along a diagonal: the same
    ("8/8/4P3/3P4/2P5/1P5p/P7/8 b - - 0 9", False),
    ("8/5P2/4P3/3P4/2P5/1P5p/8/8 b - - 0 9", True),
    ("7P/6P1/5P2/4P3/3P4/7p/8/8 b - - 0 9", True),
])
def test_the_line_of_five_by_direction_and_half(fen: str, wins: bool) -> None:
    assert ends("zeta", fen) == (("line", 0) if wins else None)


def test_black_lines_count_from_blacks_side() -> None:
    assert ends("zeta", "8/8/8/8/ppppp3/8/8/8 w - - 0 9") == ("line", 1)
    assert ends("zeta", "8/8/8/ppppp3/8/8/8/7P w - - 0 9") is None  # Black's own half


def test_no_line_of_six_or_more() -> None:
    pos = parse_fen(v(), "8/8/8/PPPP1P2/8/8/8/4P3 w - - 0 9")
    assert "e5" not in targets(pos, "e1")  # would make a row of six
    pos = parse_fen(v(), "8/8/8/PP1PP3/8/8/8/2P5 w - - 0 9")
    pos.push_text("c1c5")
    outcome = pos.outcome()
    assert outcome is not None and outcome.termination == "line"  # exactly five is fine


def test_play_prints_the_line_outcome() -> None:
    done = subprocess.run([sys.executable, "-m", "controller.cli", "play", "zeta", *DEMO_GAMES["zeta"]],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0
    assert done.stdout.splitlines() == ["ppppp3/8/8/PPPPP3/6p1/5p2/7p/5PPP b - - 9 5", "1-0 line"]


# -- the short game, advancing pawns ------------------------------------------------------------------
def test_the_short_game_wins_with_four() -> None:
    assert ends("zeta-short", "8/8/8/PPPP4/8/7p/8/8 b - - 0 9") == ("line", 0)
    assert ends("zeta", "8/8/8/PPPP4/8/7p/8/8 b - - 0 9") is None
    # on a diagonal, three of the four in the enemy half (one at home) are enough, two are not
    assert ends("zeta-short", "8/6P1/5P2/4P3/3P4/7p/8/8 b - - 0 9") == ("line", 0)
    assert ends("zeta-short", "8/8/5P2/4P3/3P4/2P4p/8/8 b - - 0 9") is None


def test_advancing_pawns_go_straight_or_diagonally_forward_and_stay_on_the_far_rank() -> None:
    pos = parse_fen(v("zeta-advancing"), "3P4/8/8/8/3P4/8/8/P7 w - - 0 9")
    assert targets(pos, "d4") == {"d5", "d6", "d7", "c5", "b6", "a7", "e5", "f6", "g7", "h8"}
    assert targets(pos, "d8") == set()  # on the far rank for good
    assert targets(pos, "a1") == {"a2", "a3", "a4", "a5", "a6", "a7", "a8", "b2", "c3"}  # d4 blocks the diagonal


# -- pieces, king ---------------------------------------------------------------------------------------
def test_pieces_white_opens_with_the_queen_black_with_bishop_rook_or_queen() -> None:
    pos = start_position(v("zeta-pieces"))
    assert sorted(pos.move_text(m) for m in pos.legal_moves()) == ["d1d5", "d1d6", "d1d7", "d1h5"]
    pos.push_text("d1d5")
    kinds = {pos.variant.kinds[pos.variant.kind_at[m.piece]].letter for m in pos.legal_moves()}
    assert kinds == {"B", "R", "Q"}
    assert all(pos.move_text(m)[3] in "1234" for m in pos.legal_moves())


def test_pieces_move_as_in_chess_without_capturing_and_the_king_is_no_royal() -> None:
    pos = parse_fen(v("zeta-pieces"), "8/4k3/8/3r4/8/N7/8/3RK3 w - - 0 9")
    assert targets(pos, "d1") == {"d2", "d3", "d4", "a1", "b1", "c1"}  # d5 is an enemy: no taking
    assert "e2" in targets(pos, "e1") and "d2" in targets(pos, "e1")  # no check in Zeta


def test_king_form_needs_the_king_in_the_line() -> None:
    without = "8/4k3/8/3QNBBR/8/8/8/4K3 b - - 0 9"
    assert ends("zeta-pieces", without) == ("line", 0)
    assert ends("zeta-king", without) is None
    assert ends("zeta-king", "8/4k3/8/3QKBBR/8/8/8/8 b - - 0 9") == ("line", 0)


# -- demo games and the drawn line ----------------------------------------------------------------------
@pytest.mark.parametrize("name", ZETAS)
def test_demo_game_ends_in_a_white_line_and_is_what_chessery_run_plays(name: str) -> None:
    variant = v(name)
    pos = start_position(variant)
    for text in DEMO_GAMES[name][:-1]:
        pos.push_text(text)
        assert pos.outcome() is None
    pos.push_text(DEMO_GAMES[name][-1])
    outcome = pos.outcome()
    assert outcome is not None and (outcome.termination, outcome.winner) == ("line", 0)
    lines = demo_script(variant, None, watched=False)
    assert [line.split()[-1] for line in lines if line.startswith("# ")] == list(DEMO_GAMES[name])


def test_the_view_marks_the_winning_line_and_the_board_shows_it() -> None:
    pos = start_position(v("zeta-king"))
    for text in DEMO_GAMES["zeta-king"]:
        pos.push_text(text)
    g = pos.variant.geometry
    line = pos.variant.rules.get(Line).line_cells(pos, 0)
    assert sorted(g.names[c] for c in line) == ["d5", "e5", "f5", "g5", "h5"]
    view = view_from_position(pos)
    assert set(view.highlights.line) == set(line)
    assert view.result == "1-0 line"
    surface = pygame.Surface((800, 480))
    layout = render(view, surface)
    marked = theme.LINE[0]
    for c in range(g.size):
        rect = layout.cells[c]
        corner = surface.get_at((rect.x + 2, rect.y + 2))[:3]  # the frame colour on the edge
        assert (corner == marked) == (c in line), g.names[c]
        if c in line:
            assert cell_colour(view, c) != theme.SQUARES[g.colors[c]]
