"""Mathematichess moves: placement, each piece's movement and its exact effects, terminators,
freezing, the position text, and whole random games (docs/rules/mathematichess.md, R1-R24)."""

from __future__ import annotations

import random

import pytest

from engine import PositionError, parse_fen, start_position
from engine.components.placement import Placement
from engine.components.terminator import Terminator
from engine.components.territory import TerritoryRules
from engine.errors import AgreementError, VariantError
from engine.moves import DROP, REMOVE
from engine.variant import variant_from_toml
from tests.mathematichess_positions import VARIANT, changes_named, crowded, example, moves_from

V = VARIANT
RULES = V.rules.get(TerritoryRules)
PLACEMENT = V.rules.get(Placement)
FULL_HANDS = "[9K9Q9T9R9B9N9G9P9F9k9q9t9r9b9n9g9p9f]"


# -- placement ----------------------------------------------------------------------------------
def test_start_is_the_empty_board_with_full_hands_and_1521_opening_drops() -> None:
    pos = start_position(V)
    assert pos.fen() == "/".join(["13"] * 13) + FULL_HANDS + " w - - 0 1"
    assert RULES.stage(pos) == 1
    assert PLACEMENT.remaining(pos, 0) == [(k, 9) for k in "KQTRBNGPF"]
    moves = pos.legal_moves()
    texts = [pos.move_text(m) for m in moves]
    assert len(moves) == 9 * 169 == len(set(texts))  # no terminator: white has nothing on the board
    assert all(m.tag == DROP for m in moves)
    assert {"K@a1", "F@m13", "T@g7"} <= set(texts)
    pos.push_text("T@g7")
    assert pos.fen() == "/".join(["13"] * 6) + "/6T6/" + "/".join(["13"] * 6) + \
        "[9K9Q8T9R9B9N9G9P9F9k9q9t9r9b9n9g9p9f] b - - 0 1"
    assert len(pos.legal_moves()) == 9 * 168
    pos.push_text("K@a1")  # drops name the kind in upper case for both sides
    moves = pos.legal_moves()
    # white's second turn: 9 kinds x 167 cells, plus its terminator on g7
    assert len(moves) == 9 * 167 + 1
    assert [pos.move_text(m) for m in moves if m.tag == REMOVE] == ["xg7"]


def test_a_drop_has_one_effect_and_empties_the_hand_kind_by_kind() -> None:
    pos = start_position(V)
    move = pos.parse_move("Q@e4")
    assert move.changes == ((V.geometry.index("e4"), 0, V.parse_symbol("Q")),)
    pos.push(move)
    assert dict(PLACEMENT.remaining(pos, 0))["Q"] == 8
    pos.pop()
    assert pos.fen() == start_position(V).fen()


def test_side_with_an_empty_hand_moves_on_the_board_while_the_other_still_places() -> None:
    # Black played its terminator during placement, so white has placed all 81 pieces while black
    # still holds a pawn (R3): white moves on the board, black then places its last piece.
    empties = ["a1", "c3", "e5", "g7", "i9", "k11", "m13", "a13", "m1"]
    pos = crowded({"b2": "F"}, empties, term="b", hand="p")
    assert RULES.stage(pos) == 1 and PLACEMENT.remaining(pos, 1) == [("P", 1)]
    moves = pos.legal_moves()
    assert not any(m.tag == DROP for m in moves)
    assert {"b2a1", "b2c3"} <= {pos.move_text(m) for m in moves}
    assert sum(m.tag == REMOVE for m in moves) == 81  # white's terminator is still there
    pos.push_text("b2c3")
    assert sorted(pos.move_text(m) for m in pos.legal_moves()) == sorted(
        f"P@{n}" for n in ["a1", "b2", "e5", "g7", "i9", "k11", "m13", "a13", "m1"])
    pos.push_text("P@e5")
    assert RULES.stage(pos) == 2 and "[] w " in pos.fen()


# -- movement -----------------------------------------------------------------------------------
def test_farmer_pawn_knight_step_or_leap_only_to_empty_cells() -> None:
    pos = crowded({"j10": "F", "b8": "P", "l5": "N"},
                  ["i11", "k9", "j11", "b9", "a8", "a9", "k7", "j4", "l6"])
    assert moves_from(pos, "j10") == {"j10i11", "j10k9"}  # j11 is orthogonal
    assert moves_from(pos, "b8") == {"b8b9", "b8a8"}  # a9 is diagonal
    assert moves_from(pos, "l5") == {"l5k7", "l5j4"}  # l6 is no knight leap
    assert changes_named(pos, "j10k9") == [("j10", "F", "."), ("k9", ".", "F")]


def test_guard_jumps_over_one_piece_never_over_an_empty_cell() -> None:
    pos = crowded({"c3": "G", "c4": "r"}, ["c5", "d3", "e3", "d4", "e5", "k1", "k3", "k5", "k7"])
    # c4 holds a piece: c5 is reachable; d3 (adjacent) and e3 (behind the empty d3) and e5
    # (behind the empty d4) are not.
    assert moves_from(pos, "c3") == {"c3c5"}
    assert changes_named(pos, "c3c5") == [("c3", "G", "."), ("c5", ".", "G")]


def test_push_shifts_the_pusher_and_the_pieces_in_front_of_it_to_the_first_empty_cell() -> None:
    fixed = {"e4": "q", "e5": "R", "e6": "p", "e7": "N", "e8": "q", "a1": "R", "f6": "B", "c5": "T"}
    empties = ["e9", "g7", "c6", "k2", "k4", "k6", "k8", "k10", "k12"]
    pos = crowded(fixed, empties)
    assert changes_named(pos, "e5e6") == [
        ("e5", "R", "."), ("e6", "p", "R"), ("e7", "N", "p"), ("e8", "q", "N"), ("e9", ".", "q")]
    before = pos.fen()
    ids = pos.ids[:]
    g = V.geometry
    pos.push_text("e5e6")
    after = {n: V.symbol(pos.board[g.index(n)]) if pos.board[g.index(n)] else "." for n in
             ("e4", "e5", "e6", "e7", "e8", "e9")}
    assert after == {"e4": "q", "e5": ".", "e6": "R", "e7": "p", "e8": "N", "e9": "q"}  # e4 stays
    # physical identities travel with the pieces along the line
    assert [pos.ids[g.index(n)] for n in ("e6", "e7", "e8", "e9")] == \
        [ids[g.index(n)] for n in ("e5", "e6", "e7", "e8")]
    pos.pop()
    assert pos.fen() == before and pos.ids == ids
    # the pusher alone steps when the next cell is already empty (a bishop to g7)
    assert changes_named(pos, "f6g7") == [("f6", "B", "."), ("g7", ".", "B")]
    # the treasurer pushes orthogonally (c6 is empty next to it) and diagonally
    assert "c5c6" in moves_from(pos, "c5")
    # the a1 rook: neither rank 1 nor file a holds an empty cell (the diagonal to g7 is no rook line)
    assert moves_from(pos, "a1") == set()


def test_push_toward_the_edge_without_an_empty_cell_is_no_move() -> None:
    pos = crowded({"m7": "T"}, ["a1", "a3", "a5", "a7", "a9", "a11", "a13", "c13", "e13"])
    # of the five lines from m7 only rank 7 holds an empty cell (a7): the file and both
    # diagonals (to g13 and g1) run into the edge
    assert moves_from(pos, "m7") == {"m7l7"}
    assert len(changes_named(pos, "m7l7")) == 13  # the whole rank shifts: m7 emptied .. a7 filled


def test_queen_substitutes_along_lines_over_pieces_but_not_past_a_king_or_an_empty_cell() -> None:
    fixed = {"b10": "Q", "c10": "p", "d10": "N", "e10": "k", "f10": "R", "b11": "n", "b13": "r",
             "a10": "Q"}
    empties = ["d11", "g11", "b12", "a11", "k2", "k4", "k6", "k8", "i3"]
    pos = crowded(fixed, empties)
    got = moves_from(pos, "b10")
    assert {"b10c10", "b10d10", "b10e10", "b10b11"} <= got  # the king itself may be substituted
    assert "b10f10" not in got  # f10 touches g11 but lies beyond the king
    assert "b10b13" not in got  # b13 touches b12 but the queen cannot pass the empty b12
    assert "b10a10" not in got  # an identical piece: trading places changes nothing
    assert changes_named(pos, "b10d10") == [("b10", "Q", "N"), ("d10", "N", "Q")]


def test_king_swaps_with_a_neighbour_next_to_an_empty_cell() -> None:
    fixed = {"h5": "K", "g6": "q", "i4": "K", "h6": "F"}
    empties = ["g7", "j3", "a1", "a3", "a5", "a7", "a9", "a11", "a13"]
    pos = crowded(fixed, empties)
    assert moves_from(pos, "h5") == {"h5g6", "h5h6"}  # i4 is an identical king
    assert changes_named(pos, "h5g6") == [("h5", "K", "q"), ("g6", "q", "K")]


def test_every_move_text_is_distinct_and_every_effect_matches_the_board() -> None:
    for side in "wb":
        pos = example(side)
        moves = pos.legal_moves()
        texts = [pos.move_text(m) for m in moves]
        assert len(texts) == len(set(texts))
        for m in moves:
            for cell, before, _after in m.changes:
                assert pos.board[cell] == before
            assert pos.parse_move(pos.move_text(m)) == m


# -- terminators --------------------------------------------------------------------------------
def test_terminator_once_per_side_and_recorded_in_the_position_text() -> None:
    pos = crowded({}, ["a1", "b2", "c3", "d4", "e5", "f6", "g7"], term="")
    removals = [m for m in pos.legal_moves() if m.tag == REMOVE]
    # any own piece, except settlers the opponent has frozen (R11)
    assert {m.to for m in removals} == set(pos.cells_of(0)) - RULES.frozen_cells(pos, 0)
    assert sum(m.tag == REMOVE for m in V.rules.pseudo_moves(pos)) == 81
    m = removals[0]
    assert pos.move_text(m) == f"x{V.geometry.names[m.to]}" and m.changes == ((m.to, pos.board[m.to], 0),)
    pos.push(m)
    assert pos.fen().endswith("term=w") and V.rules.get(Terminator).used(pos, 0)
    assert RULES.agreement_refusal(pos) == "black must play the terminator first"
    black = [x for x in pos.legal_moves() if x.tag == REMOVE]
    assert {x.to for x in black} == set(pos.cells_of(1)) - RULES.frozen_cells(pos, 1)
    pos.push(black[0])
    assert pos.fen().endswith("term=wb")
    assert not any(x.tag == REMOVE for x in pos.legal_moves())
    assert parse_fen(V, pos.fen()).fen() == pos.fen()
    pos.pop()
    pos.pop()
    assert "term" not in pos.fen()


# -- freezing -----------------------------------------------------------------------------------
def test_secured_territory_freezes_its_cells_and_settlers_against_the_opponent_only() -> None:
    pos = example("b")
    g = V.geometry
    frozen = {g.names[c] for c in RULES.frozen_cells(pos, 1)}
    # e11-e12 (secured by the bishops) and c6 (secured by the two queens)
    assert {"e11", "e12", "e10", "d11", "f11", "d12", "f12", "e13", "d10", "f10", "d13", "f13"} <= frozen
    assert {"c6", "c5", "b6", "d6", "c7", "b5", "d5", "b7", "d7"} <= frozen
    pseudo = V.rules.pseudo_moves(pos)
    touching = [m for m in pseudo if any(g.names[c] in frozen for c, _b, _a in m.changes)]
    texts = {pos.move_text(m) for m in touching}
    assert "g11e12" in texts  # a black knight would invade e12
    assert "c11d11" in texts  # a black rook would push the d11 bishop into e11
    assert "e9e10" in texts  # the black king would swap with its own frozen knight
    assert "f13e13" in texts  # the frozen black king f13 may not substitute either
    legal = pos.legal_moves()
    assert set(legal) == set(pseudo) - set(touching) and legal
    # the owner still moves them: the king walks into the corner and the side of e11-e12
    white = example("w")
    assert {"c13d13", "e13d12"} <= {white.move_text(m) for m in white.legal_moves()}
    assert not RULES.frozen_cells(start_position(V), 1)  # nothing is frozen during placement


# -- position text ------------------------------------------------------------------------------
@pytest.mark.parametrize("text", [
    "/".join(["13"] * 13) + FULL_HANDS + " w - - 0 1",
    "/".join(["13"] * 12) + "/Kq11[8K9Q9T9R9B9N9G9P9F9k8q9t9r9b9n9g9p9f] w - - 0 2",
    "/".join(["13"] * 12) + "/1q11[8K9Q9T9R9B9N9G9P9F9k8q9t9r9b9n9g9p9f] w - - 0 3 term=w",
])
def test_position_text_round_trip_with_hands_and_state(text: str) -> None:
    assert parse_fen(V, text).fen() == text


def test_position_text_round_trip_with_bonuses() -> None:
    text = example().fen().replace("term=wb", "homogeneous=b term=wb two_royal=wb")
    pos = parse_fen(V, text)
    assert pos.fen() == text
    assert RULES.score(pos).bonuses == (("homogeneous", 1, 300), ("two_royal", 0, 300), ("two_royal", 1, 300))


@pytest.mark.parametrize(("text", "message"), [
    ("/".join(["13"] * 12) + "/BBBBBBBBBB3[9K9Q9T9R9N9G9P9F9k9q9t9r9b9n9g9p9f] w", "has 10 bishops"),
    ("/".join(["13"] * 13) + "[9K9Q9T9R9B9N9G9P9F9k9q9t9r9b9n9g9p9f] w - - 0 1 term=w", "80"),
    ("/".join(["13"] * 13) + FULL_HANDS + " w - - 0 1 term=x", "term=x"),
    ("/".join(["13"] * 13) + FULL_HANDS + " w - - 0 1 phase=one", "unknown state"),
    ("/".join(["13"] * 13) + FULL_HANDS + " w - e4 0 1", "en passant"),
])
def test_bad_position_texts_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(PositionError, match=message):
        parse_fen(V, text)


def slow_pseudo_moves(pos):  # type: ignore[no-untyped-def]
    """Every piece asked in turn through its movement hook: the reference for the fast generator."""
    rules = pos.variant.rules
    out = rules.piece_moves(pos)
    rules.component("terminator").generate(pos, out)
    return out


# -- generator cross-check -------------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(12))
def test_fast_generator_equals_piece_by_piece_generation_and_moves_undo(seed: int) -> None:
    rng = random.Random(seed)
    names = list(V.geometry.names)
    term = rng.choice(["", "w", "b", "wb"])
    empties = rng.sample(names, 7 + len(term))
    pos = crowded({}, empties, side=rng.choice("wb"), term=term, seed=seed)
    fast = pos.variant.rules.pseudo_moves(pos)
    slow = slow_pseudo_moves(pos)  # every piece asked in turn through its hook
    assert set(fast) == set(slow) and len(fast) == len(slow)
    # the shortcut the outcome asks agrees with generating every legal move
    assert RULES.has_legal_move(pos) is bool(pos.legal_moves())
    start = pos.fen()
    for m in pos.legal_moves():
        expected = pos.board[:]
        for cell, _b, after in m.changes:
            expected[cell] = after
        pos.push(m)
        assert pos.board == expected
        assert sum(1 for c in pos.board if c) == sum(1 for c in expected if c)
        pos.pop()
        assert pos.fen() == start


# -- whole games --------------------------------------------------------------------------------
def play_random_game(seed: int, stage_two_plies: int = 40):
    rng = random.Random(seed)
    pos = start_position(V)
    start = pos.fen()
    checked = 0
    while True:
        stage = RULES.stage(pos)
        moves = pos.legal_moves()
        assert moves, pos.fen()
        if stage == 1:
            with pytest.raises(AgreementError, match="placement"):
                RULES.agreement_outcome(pos)
            assert not any(k in pos.extra for k in ("four_sovereign", "homogeneous", "two_royal"))
            drops = [m for m in moves if m.tag == DROP]
            move = rng.choice(moves if not drops or rng.random() < 0.02 else drops)
        else:
            if not RULES.agreement_refusal(pos) and checked >= stage_two_plies:
                break
            removals = [m for m in moves if m.tag == REMOVE]
            others = [m for m in moves if m.tag != REMOVE]
            move = rng.choice(removals if removals and (rng.random() < 0.1 or checked > stage_two_plies)
                              else others)
            slow = slow_pseudo_moves(pos)
            assert set(V.rules.pseudo_moves(pos)) == set(slow)
            checked += 1
        before = pos.fen()
        pos.push(move)
        after = pos.fen()
        assert parse_fen(V, after).hash == pos.hash  # incremental hash equals a fresh one
        pos.pop()
        assert pos.fen() == before
        pos.push(move)
        assert pos.fen() == after
    return pos, start


@pytest.mark.parametrize("seed", [6, 7, 8])
def test_random_game_from_placement_to_agreement(seed: int) -> None:
    pos, start = play_random_game(seed)
    assert RULES.stage(pos) == 2 and pos.board.count(0) == 9
    outcome = RULES.agreement_outcome(pos)
    totals = RULES.score(pos).totals
    assert outcome.termination == "agreement"
    assert outcome.winner == (None if totals[0] == totals[1] else int(totals[1] > totals[0]))
    assert pos.outcome() is None  # agreement is the players' call, not a rule ending
    while pos.move_stack:
        pos.pop()
    assert pos.fen() == start and not any(pos.ids)


def test_target_score_option_ends_the_game_and_unknown_options_are_rejected() -> None:
    v = variant_from_toml("mc-target", 'inherits = "mathematichess"\n[options]\ntarget_score = 1000\n')
    pos = parse_fen(v, example().fen())
    outcome = pos.outcome()
    assert outcome is not None and (outcome.termination, outcome.winner) == ("target", 0)  # 1121 to 806
    assert parse_fen(V, example().fen()).outcome() is None  # off by default
    with pytest.raises(VariantError, match="unknown option 'bonus_five'"):
        variant_from_toml("mc-bad", 'inherits = "mathematichess"\n[options]\nbonus_five = 1\n')
