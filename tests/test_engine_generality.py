"""The model says boards and pieces no chess library has: proofs on small custom variants
declared only as data (TOML text), so no game-specific code is involved."""

from __future__ import annotations

import pytest

from engine import parse_fen
from engine.variant import variant_from_toml
from tests.unshipped_variants import ALICE


def moves_from(pos, cell_name: str) -> set[str]:
    g = pos.variant.geometry
    cell = g.index(cell_name)
    return {pos.move_text(m) for m in pos.legal_moves() if m.frm == cell}


def test_ten_by_ten_custom_pieces_from_data_only() -> None:
    v = variant_from_toml("sq10", """
        title = "10x10 with semi-queens"
        geometry = { type = "rectangle", files = 10, ranks = 10 }
        sides = ["white", "black"]
        start = "10/10/10/10/10/10/10/10/10/10 w - - 0 1"
        [pieces.K]
        betza = "K"
        royal = true
        [pieces.O]
        name = "biok"
        betza = "mBcR"
        [pieces.S]
        name = "roshop"
        betza = "mRcB"
        [pieces.C]
        name = "camel"
        betza = "(1,3)"
    """)
    # Biok on e5; enemy roshops on e8 (file: a rook-wise capture) and h8 (diagonal: no capture).
    pos = parse_fen(v, "k9/10/4s2s2/10/10/4O5/10/10/10/9K w - - 0 1")
    got = moves_from(pos, "e5")
    assert "e5e8" in got  # captures along the file, rook-wise
    assert "e5h8" not in got  # no capture along the diagonal...
    assert "e5g7" in got  # ...where it moves without capturing, stopping short of h8
    assert not {"e5e6", "e5f5", "e5d5", "e5e4"} & got  # never a quiet orthogonal move
    # quiet diagonal moves: NE f6 g7, NW d6..a9, SE f4..i1, SW d4..a1; plus the capture on e8
    assert len(got) == 2 + 4 + 4 + 4 + 1
    camel = parse_fen(v, "10/10/10/10/10/4C5/10/10/10/K8k w - - 0 1")
    assert moves_from(camel, "e5") == {"e5" + t for t in
                                       ("f8", "d8", "f2", "d2", "h6", "b6", "h4", "b4")}


def test_rectangle_with_two_holes_cuts_a_slider() -> None:
    v = variant_from_toml("holes", """
        inherits = "chess"
        geometry = { type = "rectangle", files = 8, ranks = 8, holes = ["d4", "e5"] }
        castling = false
        start = "4k3/8/8/4*3/3*4/8/8/4K3 w - - 0 1"
    """)
    pos = parse_fen(v, "4k3/8/8/4*3/R2*4/8/8/4K3 w - - 0 1")
    assert {m for m in moves_from(pos, "a4") if m[3] == "4"} == {"a4b4", "a4c4"}
    bishop = parse_fen(v, "4k3/8/8/4*3/3*4/8/1B6/4K3 w - - 0 1")
    # the b2 bishop's long diagonal stops at c3: d4 is a hole
    assert {m for m in moves_from(bishop, "b2")} >= {"b2c3", "b2a1", "b2a3", "b2c1"}
    assert not {"b2d4", "b2e5", "b2f6"} & moves_from(bishop, "b2")
    assert bishop.fen() == "4k3/8/8/4*3/3*4/8/1B6/4K3 w - - 0 1"
    with pytest.raises(ValueError, match="hole"):
        parse_fen(v, "4k3/8/8/8/8/8/8/4K3 w - - 0 1")
    # a two-step straight or diagonal move leaps over the cell between; over a hole, or any
    # other move, it leaps over none
    g = v.geometry
    over = {(a, b): g.passed_over(g.index(a), g.index(b)) for a, b in
             (("b2", "b4"), ("d3", "d5"), ("c3", "a5"), ("f7", "f5"), ("g1", "f3"), ("a1", "a4"), ("a1", "b1"))}
    assert {k: (g.names[c] if c >= 0 else None) for k, c in over.items()} == {
        ("b2", "b4"): "b3", ("d3", "d5"): None, ("c3", "a5"): "b4", ("f7", "f5"): "f6",
        ("g1", "f3"): None, ("a1", "a4"): None, ("a1", "b1"): None}


RING = """
    title = "ring test"
    geometry = { type = "ring", cells = 48 }
    sides = ["white", "black"]
    forward = [[1, 0], [-1, 0]]
    start = "6/6/6/6/6/6/6/6 w - - 0 1"
    royalty = "none"
    [pieces.R]
    betza = "WW(24,0)"
    [pieces.P]
    betza = "W"
"""


def test_ring_rook_slides_round_and_jumps_to_the_opposite_cell() -> None:
    v = variant_from_toml("ring", RING)
    g = v.geometry
    empty = parse_fen(v, "R5/6/6/6/6/6/6/6 w - - 0 1")
    assert len(moves_from(empty, "A1")) == 47  # every other cell, round the ring
    # blockers: an enemy on A4 and a friend on H4 (cells 4 and 46 of 48)
    blocked = parse_fen(v, "R2p2/6/6/6/6/6/6/3P2 w - - 0 1")
    got = moves_from(blocked, "A1")
    assert got == {"A1A2", "A1A3", "A1A4", "A1H6", "A1H5", "A1E1"}  # E1 is the opposite cell
    assert g.names[g.step((24, 0))[0]] == "E1"
    assert g.step((1, 0))[47] == 0  # the ring wraps


def test_two_boards_move_lands_on_the_other_board() -> None:
    v = ALICE
    from engine import start_position
    pos = start_position(v)
    g = v.geometry
    move = pos.parse_move("e2e4")
    assert move.changes == ((g.index("e2"), v.parse_symbol("P"), 0), (g.index("e4'"), 0, v.parse_symbol("P")))
    pos.push(move)
    assert pos.board[g.index("e4'")] == v.parse_symbol("P") and pos.board[g.index("e4")] == 0
    # The booklet's examples: after 1. d4 d5 the white queen takes the black queen and, now on
    # the other board, does not check the king next to her square.
    pos = start_position(v)
    for text in ("d2d4", "d7d5", "d1d8"):
        pos.push_text(text)
    assert not pos.is_check()
    assert pos.board[g.index("d8'")] == v.parse_symbol("Q")
    # 1. h4 Nf6 2. Rxh7 Nxh7: the knight on the other board guards the square the rook lands on.
    pos = start_position(v)
    # (our move text names each cell with its board: f6' is f6 on the second board)
    for text in ("h2h4", "g8f6", "h1h7", "f6'h7'"):
        pos.push_text(text)
    assert pos.board[g.index("h7")] == v.parse_symbol("n")
    # Fool's mate in Alice style: 1. e4 d5 2. Be2 dxe4 3. Bb5 mates.
    pos = start_position(v)
    for text in ("e2e4", "d7d5", "f1e2", "d5'e4'", "e2'b5'"):
        pos.push_text(text)
    outcome = pos.outcome()
    assert outcome is not None and outcome.termination == "checkmate" and outcome.winner == 0


def test_cells_near_a_cell_count_king_steps_on_its_own_board() -> None:
    g = ALICE.geometry
    near = g.near(1)
    assert {g.names[c] for c in near[g.index("a1")]} == {"a1", "a2", "b1", "b2"}
    # e4 on the first board is not near the second board's cells at the same coordinates
    assert {g.names[c] for c in near[g.index("e4'")]} == {f"{f}{r}'" for f in "def" for r in "345"}
    assert len(g.near(2)[g.index("e4")]) == 25


def test_position_text_round_trips_on_every_geometry() -> None:
    ring = variant_from_toml("ring", RING)
    alice = ALICE
    big = variant_from_toml("big", """
        geometry = { type = "rectangle", files = 13, ranks = 13, holes = ["a1", "m13"] }
        sides = ["white", "black"]
        start = "12*/13/13/13/13/13/13/13/13/13/13/13/*12 w - - 0 1"
        royalty = "none"
        [pieces.P]
        betza = "mW"
    """)
    cases = [
        (ring, "R2p2/6/6/6/6/6/6/3P2 b - - 7 9"),
        (alice, "rnbqkbnr/ppp1pppp/8/8/8/8/PPP1PPPP/RNBQKBNR/8/8/8/3p4/3P4/8/8/8 w - - 0 2"),
        (big, "P11*/13/13/10ppp/13/13/13/13/13/13/13/13/*PP10 w - - 0 1"),
    ]
    for variant, fen in cases:
        assert parse_fen(variant, fen).fen() == fen
