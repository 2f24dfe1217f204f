"""Dream Chess 47: every statement the source makes about the board, the pieces and the rules,
proved on the shipped variant (docs/rules/dreamchess47.md gives our reading of each)."""

from __future__ import annotations

import pytest

import engine
from engine import parse_fen, start_position
from engine.geometry import COMPASS
from engine.variant import variant_from_toml
from tests.dreamchess47_setup_checks import sound

DC = engine.find_variant("dreamchess47")
G = DC.geometry
WHITE_SS = G.region("white_supersquare")
BLACK_SS = G.region("black_supersquare")
OVERLAP = G.region("overlap")
WHITE_CORNER = G.region("white_corner")
BLACK_CORNER = G.region("black_corner")
KNIGHT = ((1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1))


def cells(*names: str) -> frozenset[int]:
    return frozenset(G.index(n) for n in names)


def moves_from(pos, name: str) -> set[str]:
    cell = G.index(name)
    return {pos.move_text(m) for m in pos.legal_moves() if m.frm == cell}


def xy(cell: int) -> tuple[int, int]:
    return G.coords[cell]


def test_47_cells_as_a_7x7_square_without_two_opposite_corners() -> None:
    assert G.size == 47 == 7 * 7 - 2 * 1 * 1  # x^2 - 2y^2 with x = 7, y = 1
    assert not G.has_cell("g1") and not G.has_cell("a7")
    assert all(G.has_cell(n) for n in ("a1", "g7", "a6", "f1", "b7", "g2"))


def test_two_6x6_supersquares_overlapping_in_a_5x5_square() -> None:
    for region, (x0, y0) in ((WHITE_SS, (0, 0)), (BLACK_SS, (1, 1))):
        assert len(region) == 36
        assert {xy(c) for c in region} == {(x0 + i, y0 + j) for i in range(6) for j in range(6)}
    assert WHITE_SS & BLACK_SS == OVERLAP and len(OVERLAP) == 25
    assert {xy(c) for c in OVERLAP} == {(i, j) for i in range(1, 6) for j in range(1, 6)}
    assert frozenset(range(G.size)) == WHITE_SS | BLACK_SS
    assert 2 * 36 - 25 == 47  # the source's formula: twice the supersquare less one overlap
    assert WHITE_CORNER == WHITE_SS - OVERLAP and BLACK_CORNER == BLACK_SS - OVERLAP
    assert len(WHITE_CORNER) == len(BLACK_CORNER) == 11


def test_no_single_step_or_knight_leap_crosses_between_the_corner_only_regions() -> None:
    vectors = list(COMPASS.values()) + list(KNIGHT)
    crossing = []
    for vec in vectors:
        table = G.step(vec)
        for c in range(G.size):
            t = table[c]
            if t >= 0:
                assert (c in WHITE_SS and t in WHITE_SS) or (c in BLACK_SS and t in BLACK_SS)
                assert not (c in WHITE_CORNER and t in BLACK_CORNER)
    # ...although the grid itself puts such cells a king step or a knight leap apart:
    coords = {xy(c): c for c in range(G.size)}
    for c in WHITE_CORNER:
        x, y = xy(c)
        for dx, dy in vectors:
            near = coords.get((x + dx, y + dy))
            if near is not None and near in BLACK_CORNER:
                crossing.append((G.names[c], G.names[near]))
    # two diagonal steps and four knight leaps, all of them forbidden
    assert sorted(crossing) == [("a5", "b7"), ("a6", "b7"), ("a6", "c7"), ("e1", "g2"), ("f1", "g2"), ("f1", "g3")]


def test_every_step_inside_a_slide_stays_in_one_supersquare() -> None:
    for letter in "QCP":
        code = DC.code(DC.kind_index[letter], 0)
        for c in range(G.size):
            for ray, *_ in DC.rides[code][c]:
                prev = c
                for t in ray:
                    assert (prev in WHITE_SS and t in WHITE_SS) or (prev in BLACK_SS and t in BLACK_SS)
                    prev = t


def test_a_long_slide_passes_from_one_supersquare_to_the_other_through_the_overlap() -> None:
    pos = parse_fen(DC, "*6/7/7/7/7/C6/K5* w - - 0 1")
    assert "a2g2" in moves_from(pos, "a2")  # five overlap cells between a2 and g2
    queen = parse_fen(DC, "*6/7/7/7/7/7/Q4K* w - - 0 1")
    assert "a1g7" in moves_from(queen, "a1")
    # Crossing diagonals next to the missing corners pass one or two overlap cells
    # ("one or two intermediate squares"); the orthogonal crossings pass five.
    lens = set()
    q = DC.code(DC.kind_index["Q"], 0)
    for c in WHITE_CORNER:
        for ray, *_ in DC.rides[q][c]:
            for i, t in enumerate(ray):
                if t in BLACK_CORNER:
                    between = ray[:i]
                    assert between and all(b in OVERLAP for b in between)
                    lens.add(len(between))
                    break
    assert min(lens) == 1 and 2 in lens and max(lens) == 5
    # a5-b6-c7 (one overlap cell), a4-b5-c6-d7 (two); but a6-b7 is no move at all
    pos = parse_fen(DC, "*6/Q6/7/7/7/7/K5* w - - 0 1")
    assert "a6b7" not in moves_from(pos, "a6") and "a6b6" in moves_from(pos, "a6")
    pos = parse_fen(DC, "*6/7/Q6/7/7/7/K5* w - - 0 1")
    assert {"a5c7", "a5b6"} <= moves_from(pos, "a5")


def test_bishop_bindings_are_asymmetric() -> None:
    """A plain bishop on this board (the piece the Primate unbinds): the dark class (a1's, the long
    diagonal's) has 23 cells, the light 24; counted on an empty board, per colour class."""
    v = variant_from_toml("dc47-bishop", 'inherits = "dreamchess47"\n[pieces.B]\nname = "bishop"\nbetza = "B"\n')
    g = v.geometry
    code = v.code(v.kind_index["B"], 0)
    stats = {}
    for colour in (0, 1):
        own = [c for c in range(g.size) if g.colors[c] == colour]
        reach = {c: {t for ray, *_ in v.rides[code][c] for t in ray} for c in own}
        crossing = sum(1 for c in own if c in g.region("white_corner")
                       for t in reach[c] if t in g.region("black_corner"))
        stats[colour] = (len(own), sum(len(r) for r in reach.values()), min(len(r) for r in reach.values()), crossing)
    dark, light = stats[G.colors[G.index("a1")]], stats[1 - G.colors[G.index("a1")]]
    assert dark == (23, 166, 6, 5)
    assert light == (24, 172, 5, 4)
    # The Primate's orthogonal step changes colour: it reaches every cell.
    prim = DC.code(DC.kind_index["P"], 0)
    seen, todo = {0}, [0]
    while todo:
        c = todo.pop()
        for t in {t for ray, *_ in DC.rides[prim][c] for t in ray} | {t for t, *_ in DC.leaps[prim][c]}:
            if t not in seen:
                seen.add(t)
                todo.append(t)
    assert len(seen) == 47


def test_pieces_move_as_the_text_says() -> None:
    # Chatelaine: rook plus one diagonal step; Primate: bishop plus one orthogonal step.
    pos = parse_fen(DC, "*5k/7/7/3C3/7/7/K5* w - - 0 1")
    got = moves_from(pos, "d4")
    assert len(got) == 12 + 4 and {"d4c5", "d4e3"} <= got and "d4f6" not in got
    pos = parse_fen(DC, "*5k/7/7/3P3/7/7/K5* w - - 0 1")
    got = moves_from(pos, "d4")
    # diagonals d4-g7, d4-b6 (a7 is no cell), d4-f2 (g1 neither), d4-b2 (own king on a1): 3+2+2+2
    assert len(got) == 9 + 4 and {"d4d5", "d4c4", "d4f6"} <= got and "d4d6" not in got
    # Steward: quiet steps orthogonally, captures diagonally, in every direction; no double step.
    pos = parse_fen(DC, "*5k/7/7/3S3/7/7/K5* w - - 0 1")
    assert moves_from(pos, "d4") == {"d4d5", "d4d3", "d4c4", "d4e4"}
    pos = parse_fen(DC, "*5k/7/2s1s2/2sSs2/2s1s2/7/K5* w - - 0 1")
    assert moves_from(pos, "d4") == {"d4d5", "d4d3", "d4c5", "d4e5", "d4c3", "d4e3"}
    pos = parse_fen(DC, "*5k/7/7/7/7/S6/K5* w - - 0 1")
    assert "a2a4" not in moves_from(pos, "a2")
    # Knight and king as in FIDE chess (where the board allows).
    pos = parse_fen(DC, "*5k/7/7/3N3/7/7/K5* w - - 0 1")
    assert len(moves_from(pos, "d4")) == 8


def test_no_castling_no_en_passant_no_double_step() -> None:
    assert not DC.castling and not DC.en_passant
    pos = start_position(DC)
    assert pos.fen().split()[2:4] == ["-", "-"]


def test_steward_on_a_far_edge_of_the_enemy_supersquare_may_become_a_lost_piece_or_stay() -> None:
    assert DC.promotion_from_captured and DC.promotion_optional
    assert set(DC.promotion_zones) == {BLACK_CORNER, WHITE_CORNER}
    # The far edges of Black's supersquare, seen from White: rank 7 and the g-file.
    assert frozenset(c for c in BLACK_SS if xy(c)[1] == 6 or xy(c)[0] == 6) == BLACK_CORNER
    # Nothing lost yet: the Steward arrives and stays a Steward.
    pos = parse_fen(DC, "*5k/2S4/7/7/7/7/K5* w - - 0 1")
    assert {m for m in moves_from(pos, "c6") if m[2:4] == "c7"} == {"c6c7"}
    # White has lost a Chatelaine and a Knight: either, or nothing.
    pos = parse_fen(DC, "*5k/2S4/7/7/7/7/K5*[CN] w - - 0 1")
    assert {m for m in moves_from(pos, "c6") if m[2:4] == "c7"} == {"c6c7", "c6c7c", "c6c7n"}
    pos.push_text("c6c7c")
    assert pos.fen().startswith("*1C3k/7/7/7/7/7/K5*[N] b")
    # Captures feed the choice: Black's queen takes White's, so the Steward may now become a queen.
    pos = parse_fen(DC, "*5k/2S4/7/7/7/1q5/KQ4* b - - 0 1")
    pos.push_text("b2b1")
    assert pos.fen().split()[0].endswith("[Q]")
    pos.push_text("a1b1")  # the king takes the queen back
    pos.push_text("g7f7")
    assert {m for m in moves_from(pos, "c6") if m[2:4] == "c7"} == {"c6c7", "c6c7q"}


def test_promotion_happens_on_either_far_edge_only() -> None:
    pos = parse_fen(DC, "*5k/7/7/7/5S1/7/K5*[Q] w - - 0 1")
    # f3 -> g3: the g-file is a far edge of Black's supersquare
    assert {m for m in moves_from(pos, "f3") if m.startswith("f3g3")} == {"f3g3", "f3g3q"}
    # f3 -> f4 is no promotion (inside the overlap)
    assert {m for m in moves_from(pos, "f3") if m.startswith("f3f4")} == {"f3f4"}


@pytest.mark.parametrize("side", ["w", "b"])
def test_start_position_reconstruction(side: str) -> None:
    pos = parse_fen(DC, start_position(DC).fen().replace(" w ", f" {side} "))
    board = pos.board
    white = {c for c, code in enumerate(board) if DC.owner[code] == 0}
    black = {c for c, code in enumerate(board) if DC.owner[code] == 1}
    assert white == WHITE_CORNER and black == BLACK_CORNER  # each camp fills its corner-only region
    # symmetric under the half turn (x, y) -> (6 - x, 6 - y)
    coords = {xy(c): c for c in range(G.size)}
    for c in white:
        x, y = xy(c)
        twin = coords[(6 - x, 6 - y)]
        assert DC.kind_of(board[twin]) == DC.kind_of(board[c]) and DC.side_of(board[twin]) == 1
    letters = sorted(DC.kinds[DC.kind_at[board[c]]].letter for c in white)
    assert letters == sorted("KQCCPPNNSSS")
    assert not pos.is_check()
    # every capture on offer at the start loses or trades material (the setup search's test)
    for m in pos.legal_moves():
        if m.captured:
            assert DC.kinds[DC.kind_at[m.captured]].value <= DC.kinds[DC.kind_at[m.piece]].value
            pos.push(m)
            assert any(r.to == m.to for r in pos.legal_moves())
            pos.pop()


def test_the_setup_search_accepts_the_shipped_setup() -> None:
    assert sound(start_position(DC).fen().split()[0])
