"""Sesqui-dimensional Chess: the ring, the pieces, the pawns' heading, and every statement the
source makes about its (lost) setup, proved on the shipped variant. docs/rules/sesqui.md gives
our reading; tools/sesqui_setups.py is the search that found the setup."""

from __future__ import annotations

import itertools
import math

import pytest

import engine
from engine import parse_fen, start_position
from engine.components.sesqui_pawns import SesquiPawns, headings
from engine.variant import variant_from_toml
from tests.sesqui_setup_facts import defenders, facts

SQ = engine.find_variant("sesqui")
G = SQ.geometry
START = start_position(SQ).fen()
RULES = SQ.rules
PAWNS = SQ.rules.get(SesquiPawns)
#: The same pieces with nothing royal, to show single pieces on an otherwise empty ring.
FREE = variant_from_toml("sesqui-free", 'inherits = "sesqui"\nroyalty = "none"\nstart = "6/6/6/6/6/6/6/6 w - - 0 1"\n')


def cell(name: str) -> int:
    return G.index(name)


def name(c: int) -> str:
    return G.names[c % 48]


def targets(pos, frm: str) -> set[str]:
    c = cell(frm)
    return {G.names[m.to] for m in pos.legal_moves() if m.frm == c}


def lone(letter: str, at: str, extra: str = "") -> str:
    """A position text with ``letter`` on ``at`` and ``extra`` men ("PB5 pA6")."""
    board: dict[int, str] = {cell(at): letter}
    for item in extra.split():
        board[cell(item[1:])] = item[0]
    rows = []
    for s in range(8):
        text, run = "", 0
        for c in range(6 * s, 6 * s + 6):
            if c in board:
                text += (str(run) if run else "") + board[c]
                run = 0
            else:
                run += 1
        rows.append(text + (str(run) if run else ""))
    return "/".join(rows) + " w - - 0 1"


def test_ring_of_48_named_by_sector_and_cell_counter_clockwise() -> None:
    assert G.size == 48 and G.wrap_x == 48
    assert G.names[:7] == ("A1", "A2", "A3", "A4", "A5", "A6", "B1") and G.names[-1] == "H6"
    angles = [math.atan2(y, x) % (2 * math.pi) for x, y in G.centers]
    assert all(b > a for a, b in itertools.pairwise(angles))  # counter-clockwise
    # across = the opposite cell, 24 away, same sector cell number four sectors on
    opposite = G.step((24, 0))
    assert all(opposite[c] == (c + 24) % 48 for c in range(48))
    assert name(opposite[cell("A3")]) == "E3"


def test_opposite_cells_are_always_the_same_colour() -> None:
    for c in range(48):
        o = (c + 24) % 48
        assert c % 2 == o % 2  # the cell colour a bishop is bound to
        assert G.colors[c] == G.colors[o]  # and the drawn sector colour


def test_rook_slides_one_cell_at_a_time_or_jumps_across() -> None:
    pos = parse_fen(FREE, lone("R", "B3", "PB5 pA6"))
    assert targets(pos, "B3") == {"B4", "A6", "B2", "B1", "F3"}  # own pawn on B5 stops it, takes A6
    empty = parse_fen(FREE, lone("R", "B3"))
    assert len(targets(empty, "B3")) == 47  # on an empty ring: every other cell


def test_bishop_leaps_two_at_a_time_over_anything_while_it_lands_on_empty_cells() -> None:
    pos = parse_fen(FREE, lone("B", "B3", "PB4 PB6 PD1 pB1"))
    # over B4 to B5, over B6 to C1, on to C3 and C5 until the own D1; back onto B1, taking; across
    assert targets(pos, "B3") == {"B5", "C1", "C3", "C5", "B1", "F3"}
    empty = parse_fen(FREE, lone("B", "B3"))
    got = targets(empty, "B3")
    assert len(got) == 23 and all(cell(c) % 2 == 0 for c in got)  # colour-bound, round the ring
    blocked = parse_fen(FREE, lone("B", "B3", "PB5 PB1 PF3"))
    assert targets(blocked, "B3") == set()


def test_knight_leaps_three_or_next_to_the_opposite_cell() -> None:
    pos = parse_fen(FREE, lone("N", "B3"))
    assert targets(pos, "B3") == {"B6", "A6", "F2", "F4"}


def test_queen_and_king() -> None:
    pos = parse_fen(FREE, lone("Q", "B3"))
    assert len(targets(pos, "B3")) == 47  # the rook's reach already covers the bishop's
    pos = parse_fen(FREE, "K5/6/6/6/6/6/6/6 w - - 0 1")
    assert targets(pos, "A1") == {"A2", "A3", "H6", "H5", "E1"}


def test_pawns_head_for_their_nearest_promotion_cell() -> None:
    white_zone = {c for c in range(48) if SQ.rules.promo_zone[0][c]}
    assert {G.names[c] for c in white_zone} == {"C3", "C4", "G3", "G4"}  # Black's K, Q, R start cells
    heading = headings(48, white_zone)
    assert heading[cell("B1")] == (1,) and heading[cell("H6")] == (-1,)  # the two flanks of group A
    assert heading[cell("E6")] == (1,) and heading[cell("D6")] == (-1,)
    pos = parse_fen(SQ, start_position(SQ).fen())
    for c, code in enumerate(pos.board):
        if code == SQ.parse_symbol("P"):
            for m in pos.legal_moves():
                if m.frm == c:
                    assert (m.to - c) % 48 in ((1, 2) if heading[c] == (1,) else (47, 46))


def test_pawn_step_capture_and_double_step() -> None:
    # a white pawn on B3 heads anticlockwise (towards C3): one step, or capture two on
    kings = "KD2 kG6"
    pos = parse_fen(SQ, lone("P", "B3", "nB5 " + kings))
    assert targets(pos, "B3") == {"B4", "B5"}
    pos = parse_fen(SQ, lone("P", "B3", "pB4 " + kings))
    assert targets(pos, "B3") == set()  # no capture one step on, no leap over to an empty cell
    # no double step from B3 (no white pawn starts there)...
    pos = parse_fen(SQ, lone("P", "B3", kings))
    assert targets(pos, "B3") == {"B4"}
    # ...but from B1 and A6, the start cells of white pawns, even after an earlier move
    pos = parse_fen(SQ, "PNKQN1/1P4/pnqknp/p4P/PBRRBP/P4p/pbrrbp/p4P w - - 0 1")
    assert targets(pos, "B2") == {"B3"}  # B2 is no pawn start cell
    pos = parse_fen(SQ, "PNKQN1/P5/pnqknp/p4P/PBRRBP/P4p/pbrrbp/p4P w - - 0 1")
    assert targets(pos, "B1") == {"B2", "B3"}  # an inner pawn that stepped onto B1 may leap on


def test_pawns_never_jump_across_and_promote_on_enemy_king_queen_rook_cells() -> None:
    pos = parse_fen(SQ, lone("P", "C2", "KD2 kG6"))
    assert targets(pos, "C2") == {"C3"}
    moves = {pos.move_text(m) for m in pos.legal_moves() if m.frm == cell("C2")}
    assert moves == {"C2C3q", "C2C3r", "C2C3b", "C2C3n"}  # promotion is compulsory, as in FIDE
    assert not any((m.to - m.frm) % 48 == 24 for m in pos.legal_moves() if SQ.kinds[SQ.kind_at[m.piece]].pawn)


def test_pawns_give_check_and_guard_cells_from_the_king() -> None:
    # A black pawn on H1 heads anticlockwise (A3 is its nearest promotion cell): it attacks H3.
    assert PAWNS.heading[1][cell("H1")] == (1,)
    pos = parse_fen(SQ, "6/6/5k/6/6/6/6/p1K3 w - - 0 1")
    assert pos.is_check()
    pos = parse_fen(SQ, "6/6/5k/6/6/6/6/pK4 w - - 0 1")
    assert "H3" not in targets(pos, "H2") and "H4" in targets(pos, "H2")
    # ...and never the cell behind it, nor the one across
    pos = parse_fen(SQ, "6/6/5k/6/6/6/4K1/p5 w - - 0 1")
    assert not pos.is_check()


def test_no_castling_no_en_passant() -> None:
    assert not SQ.castling and not SQ.en_passant
    assert START.split()[2:4] == ["-", "-"]


# ---- the setup ------------------------------------------------------------------------------
def groups(side: int) -> list[list[int]]:
    pos = start_position(SQ)
    own = sorted(c for c, code in enumerate(pos.board) if SQ.owner[code] == side)
    runs: list[list[int]] = []
    for c in own:
        if runs and (c - runs[-1][-1]) == 1:
            runs[-1].append(c)
        else:
            runs.append([c])
    if len(runs) > 1 and runs[0][0] == 0 and runs[-1][-1] == 47:
        runs[0] = runs.pop() + runs[0]
    return runs


def test_each_army_is_split_in_two_opposite_groups_with_the_enemy_90_degrees_round() -> None:
    white, black = groups(0), groups(1)
    assert [len(g) for g in white] == [8, 8] and [len(g) for g in black] == [8, 8]
    assert {(c + 24) % 48 for c in white[0]} == set(white[1])  # opposite each other
    for g in white:
        for turn in (12, -12):  # a quarter of the ring either way: an enemy group
            assert {(c + turn) % 48 for c in g} in [set(b) for b in black]
    king = next(c for c, code in enumerate(start_position(SQ).board) if code == SQ.parse_symbol("K"))
    assert G.names[king].startswith("A")  # the white king's sector is sector A


@pytest.mark.parametrize("side", [0, 1])
def test_exactly_14_opening_moves(side: int) -> None:
    pos = parse_fen(SQ, START if side == 0 else START.replace(" w ", " b "))
    got = sorted(pos.move_text(m) for m in pos.legal_moves())
    assert len(got) == 14
    if side == 0:
        assert got == sorted([
            "B1B2", "B1B3", "H6H5", "H6H4", "F1F2", "F1F3", "D6D5", "D6D4",  # outer pawns: 1 or 2
            "A6B2", "A1H5", "E6F2", "E1D5",  # inner pawns: the double step over the outer pawn
            "A2H5", "A5B2",  # the knights, out in front of their pawns
        ])
    assert facts(SQ, side)["S2"]


@pytest.mark.parametrize("side", [0, 1])
def test_six_of_eight_pawns_defended_and_the_other_two_safe_from_every_opening_move(side: int) -> None:
    pos = start_position(SQ)
    pawn = SQ.parse_symbol("P" if side == 0 else "p")
    pawns = [c for c, code in enumerate(pos.board) if code == pawn]
    undefended = [c for c in pawns if not defenders(SQ, side, c)]
    assert len(pawns) == 8 and len(undefended) == 2
    if side == 0:
        assert sorted(G.names[c] for c in undefended) == ["B1", "H6"]  # beside the knights
    other = parse_fen(SQ, START if side == 1 else START.replace(" w ", " b "))
    for m in other.legal_moves():
        other.push(m)
        assert not any(SQ.rules.attacked(other, c, (1 - side,)) for c in undefended), other.move_text(m)
        other.pop()


@pytest.mark.parametrize("side", [0, 1])
def test_two_pawns_defended_only_by_the_knight_across_the_board(side: int) -> None:
    pos = start_position(SQ)
    pawn = SQ.parse_symbol("P" if side == 0 else "p")
    knight = SQ.parse_symbol("N" if side == 0 else "n")
    only = []
    for c, code in enumerate(pos.board):
        if code != pawn:
            continue
        d = defenders(SQ, side, c)
        if len(d) == 1 and pos.board[d[0]] == knight:
            assert min((c - d[0]) % 48, (d[0] - c) % 48) == 23  # next to the cell opposite the knight
            only.append(c)
    assert len(only) == 2
    if side == 0:
        # the inner pawns of the bishop-and-rook group, guarded from the knights on A2 and A5
        assert sorted(G.names[c] for c in only) == ["E1", "E6"]


def test_the_setup_search_accepts_the_shipped_setup() -> None:
    for side in (0, 1):
        assert facts(SQ, side) == {"S2": True, "S3": True, "S4": True, "S5": True}



def test_a_pawn_capturing_past_its_promotion_cell_lands_on_the_next_one() -> None:
    # White pawn on G5 heads clockwise for G4; taking on G3 leaps past G4 onto G3, also a
    # promotion cell (the enemy rooks start side by side): it promotes there.
    pos = parse_fen(SQ, lone("P", "G5", "nG3 KD2 kC1"))
    moves = {pos.move_text(m) for m in pos.legal_moves() if m.frm == cell("G5")}
    assert moves == {f"G5G{n}{p}" for n in (4, 3) for p in "qrbn"}


def test_fast_legal_moves_agree_with_trying_every_move_on_the_board() -> None:
    """The pin shortcut against the plain definition (every pseudo-legal move played and the own
    king tested), over seeded random games that include checks and pins."""
    import random

    checks = 0
    for seed in range(12):
        rng = random.Random(seed)
        pos = start_position(SQ)
        for _ in range(120):
            if pos.outcome() is not None:
                break
            slow = {(m.frm, m.to, m.promotion) for m in RULES.pseudo_moves(pos)
                    if RULES.is_safe_after(pos, m, pos.side)}
            fast = {(m.frm, m.to, m.promotion) for m in pos.legal_moves()}
            assert fast == slow, pos.fen()
            checks += pos.is_check()
            pos.push(rng.choice(pos.legal_moves()))
    assert checks >= 10
