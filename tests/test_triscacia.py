"""Triscacia (three players, Blue, Green, Red): the booklet's three positions on the shipped
variants, the placement phase in each player's own area, immobile pawns, the queen conversion,
and the outcome and position text through ``chessery play``. Readings: docs/rules/triscacia.md."""

from __future__ import annotations

import subprocess
import sys

import pytest

from engine import find_variant, parse_fen, start_position
from engine.components.area_placement import AreaPlacement
from tests.child import REPO

TRIS = find_variant("triscacia")
TRIS10 = find_variant("triscacia-10x10")


def texts(pos) -> set[str]:
    return {pos.move_text(m) for m in pos.legal_moves()}


def cells(v, names: str) -> set[int]:
    return {v.geometry.index(n) for n in names.split()}


# -- the booklet's three positions -------------------------------------------------------------------

def test_blue_knight_pinned_by_the_green_rook_against_the_red_king() -> None:
    # Blue knight d3, green rook h3, red king a3: the knight shields the red king and may not move.
    pos = parse_fen(TRIS, "7gK/8/8/8/8/rK2bN3gR/8/3bK4 b - - 0 1")
    assert not {m for m in texts(pos) if m.startswith("d3")}
    assert {m for m in texts(pos) if m.startswith("d1")}


def test_blue_may_not_interpose_when_that_exposes_the_red_king() -> None:
    # Blue Ka3 Bd1, green Rg1, red Ka1 Rh3: the red rook checks Blue; Bb3 would block it but open
    # the first rank from g1 to the red king, so Blue may only step out of check.
    pos = parse_fen(TRIS, "7gK/8/8/8/8/bK6rR/8/rK2bB2gR1 b - - 0 1")
    assert pos.is_check()
    assert "d1b3" not in texts(pos)
    assert texts(pos) == {"a3a4", "a3b4"}


def test_blue_king_step_mates_green_with_the_red_rook() -> None:
    # Blue Kd1; green Kh1 Nd3; red Kh3 Ra1 Rd8. Kd2 leaves the red rook's check on d1's rank and
    # uncovers the red rook a1 onto the green king: checkmate, won by Blue.
    pos = parse_fen(TRIS, "3rR4/8/8/8/8/3gN3rK/8/rR2bK3gK b - - 0 1")
    assert pos.is_check()  # the red rook a1 checks Blue along the first rank
    assert "d1d2" in texts(pos)
    pos.push_text("d1d2")
    assert pos.is_check()
    # Ne1 and Nc1 would block the rook a1 but open the d-file from d8 to the blue king (Green's
    # right-hand opponent); Kg2 and Kh2 step next to the red king.
    assert texts(pos) == set()
    pos.side = 1
    pseudo = {pos.move_text(m) for m in TRIS.rules.pseudo_moves(pos)}
    assert {"d3c1", "d3e1", "h1g2", "h1h2"} <= pseudo
    outcome = pos.outcome()
    assert outcome is not None and (outcome.termination, outcome.winner) == ("checkmate", 0)


# -- placement ----------------------------------------------------------------------------------------

@pytest.mark.parametrize(("v", "areas", "kings"), [
    (TRIS, ("a1:h3", "a4:d8", "e4:h8"), "d1 b7 g7"),
    (TRIS10, ("a1:j3", "a4:e10", "f4:j10"), "e1 b9 i9"),
])
def test_areas_and_fixed_kings(v, areas, kings) -> None:
    comp = v.rules.get(AreaPlacement)
    sizes = {"triscacia": (24, 20, 20), "triscacia-10x10": (30, 35, 35)}[v.name]
    assert tuple(len(a) for a in comp.areas) == sizes
    assert set().union(*map(set, comp.areas)) == set(range(v.geometry.size))
    pos = start_position(v)
    for side, king in enumerate(kings.split()):
        code = pos.board[v.geometry.index(king)]
        assert v.owner[code] == side and v.kinds[v.kind_at[code]].royal
        assert king in {v.geometry.names[c] for c in comp.areas[side]}
    # eleven men each: the king on the board and ten in hand (eight pieces with the king, three pawns)
    for side in range(3):
        hand = {v.kinds[k].letter: n for k, n in pos.hands[side].items()}
        assert hand == {"Q": 1, "R": 2, "B": 2, "N": 2, "P": 3}


def test_each_player_places_only_in_own_area_in_rotation() -> None:
    pos = start_position(TRIS)
    comp = TRIS.rules.get(AreaPlacement)
    for side in (0, 1, 2, 0):
        assert pos.side == side
        moves = pos.legal_moves()
        assert moves and all(m.tag == "drop" for m in moves)
        assert {m.to for m in moves} <= set(comp.areas[side])
        pos.push(next(m for m in moves if TRIS.kinds[TRIS.kind_at[m.promotion]].letter == "P"))
    # Blue's first placement: 5 kinds x 23 empty cells, less those that would check the red king
    # g7 (the right-hand one): Q on a1 b2 c3 g1 g2 g3, B on a1 b2 c3, R on g1 g2 g3.
    assert len(start_position(TRIS).legal_moves()) == 5 * 23 - 12
    assert "Q@g2" not in texts(start_position(TRIS)) and "N@g2" in texts(start_position(TRIS))


def test_placement_ends_after_thirty_men_then_pieces_move() -> None:
    pos = start_position(TRIS)
    plies = 0
    while any(any(h.values()) for h in pos.hands):
        pos.push(pos.legal_moves()[0])
        plies += 1
    assert plies == 30
    assert pos.side == 0
    assert all(m.tag != "drop" for m in pos.legal_moves())


# -- pawns and the queen ------------------------------------------------------------------------------

def test_pawns_never_move() -> None:
    pos = parse_fen(TRIS, "8/1gK4rK1/8/8/8/8/bP6bQ/3bK4 b - - 0 1")
    assert not {m for m in texts(pos) if m.startswith("a2")}


def test_a_player_without_queen_must_convert_a_pawn() -> None:
    pos = parse_fen(TRIS, "8/1gK4rK1/8/8/8/8/bP7/3bK2bPbR b - - 0 1")
    # g1 would be a queen on the red king's file (the right-hand king): only a2 may convert.
    assert texts(pos) == {"a2a2q"}
    pos.push_text("a2a2q")
    assert pos.fen().startswith("8/1gK4rK1/8/8/8/8/bQ7/3bK2bPbR")


def test_conversion_waits_while_in_check() -> None:
    # The red rook e8 checks Blue (Red's left-hand opponent): Blue answers first.
    pos = parse_fen(TRIS, "4rR3/1gK4rK1/8/8/8/8/bP7/4bK3 b - - 0 1")
    assert pos.is_check()
    assert "a2a2q" not in texts(pos) and texts(pos)


def test_queen_capture_leads_to_conversion() -> None:
    # Blue takes the green queen; at once, on its turn, Green owes the conversion of its pawn a5.
    pos = parse_fen(TRIS, "1gK6/4gQ3/8/gP6rK/8/8/8/3bKbR3 b - - 0 1")
    pos.push_text("e1e7")
    assert texts(pos) == {"a5a5q"}
    pos.push_text("a5a5q")
    assert pos.fen().startswith("1gK6/4bR3/8/gQ6rK/")
    pos.pop()
    assert texts(pos) == {"a5a5q"}


# -- through the command line ------------------------------------------------------------------------

def play(*args: str) -> list[str]:
    proc = subprocess.run([sys.executable, "-m", "controller.cli", "play", *args], cwd=REPO,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.splitlines()


def test_chessery_play_names_the_winner() -> None:
    out = play("--fen", "3rR4/8/8/8/8/3gN3rK/8/rR2bK3gK b - - 0 1", "triscacia", "d1d2")
    assert out == ["3rR4/8/8/8/8/3gN3rK/3bK4/rR6gK[] g - - 1 1", "blue checkmate"]


def test_chessery_play_placement_text() -> None:
    out = play("triscacia", "Q@a2", "R@c4", "N@h5")
    assert out[0] == ("8/1gK4rK1/8/7rN/2gR5/8/bQ7/3bK4[2bR2bB2bN3bPgQgR2gB2gN3gPrQ2rR2rB"
                      "rN3rP] b - - 0 2")
    assert out[1] == "*"


@pytest.mark.parametrize("v", [TRIS, TRIS10])
def test_line_shortcut_agrees_with_testing_every_move(v) -> None:
    """``three_sides`` settles most moves from one walk along the lines into the right-hand king;
    over seeded random games (placement and play) it must keep exactly the moves a full test of
    each move keeps."""
    import random

    from engine.components.three_sides import ThreeSides

    rule = v.rules.get(ThreeSides)
    rnd = random.Random(7)
    for _game in range(6):
        pos = start_position(v)
        for _ply in range(90):
            if pos.outcome() is not None:
                break
            pseudo = v.rules.pseudo_moves(pos)
            fast = rule.legality(pos, pseudo)
            rule._tables = False
            try:
                slow = rule.legality(pos, pseudo)
            finally:
                rule._tables = None
            assert fast == slow, pos.fen()
            pos.push(rnd.choice(pos.legal_moves()))


def test_quick_can_move_answer_agrees_with_listing_the_moves() -> None:
    import random

    from engine.components.three_sides import ThreeSides

    for v in (TRIS, TRIS10):
        rule = v.rules.get(ThreeSides)
        rnd = random.Random(11)
        seen = set()
        for _game in range(4):
            pos = start_position(v)
            for _ply in range(120):
                legal = pos.legal_moves()
                assert rule.has_legal_move(pos) == bool(legal), pos.fen()
                seen.add(bool(legal))
                if not legal:
                    break
                pos.push(rnd.choice(legal))
    # the texts' mate: no legal move, and the quick answer says so
    pos = parse_fen(TRIS, "3rR4/8/8/8/8/3gN3rK/8/rR2bK3gK b - - 0 1")
    pos.push_text("d1d2")
    assert TRIS.rules.get(ThreeSides).has_legal_move(pos) is False
