"""Evaluation terms and search details added for playing strength (docs/search.md, "Measured"):
Zeta's threats, Royal Fury's petrified men and multi-captures, Gryphon's royals, the mop-up of a
won ending, delta pruning. Each test compares two positions that differ only in what the term
is about, so it fails without the term."""

from __future__ import annotations

from engine import find_variant, parse_fen
from engine.components.line import LINE_FORK, LINE_THREAT, LINE_WON
from engine.components.mutation import ROYAL_LIABILITY, ROYAL_PRESSURE, Mutation
from engine.components.petrification import FROZEN_SHARE, Petrification
from engine.search import Limits, Searcher
from engine.search.evaluation import Evaluator
from engine.search.ordering import ROYAL_VICTIM, MoveOrderer


def _terms(name: str, fen: str) -> list[int]:
    v = find_variant(name)
    pos = parse_fen(v, fen)
    scores = [0] * v.nsides
    v.rules.evaluate(pos, Evaluator(v).tables.values, scores)
    return scores


def test_a_zeta_line_the_side_to_move_can_complete_counts_as_won() -> None:
    # White a6 b6 c6 on Black's side of the board; d1 reaches d6 up the open file: with White
    # to move that is a win next move (a legal move completes the line)
    white_to_move = _terms("zeta-short", "pppp4/8/PPP5/8/8/8/8/3P4 w - - 0 1")
    black_to_move = _terms("zeta-short", "pppp4/8/PPP5/8/8/8/8/3P4 b - - 0 1")
    assert white_to_move[0] - black_to_move[0] == LINE_WON


def test_a_zeta_line_no_legal_move_completes_is_not_won() -> None:
    # the same three men, but the d-file is blocked at d2 by a black man and no other white man
    # reaches d6: White to move has no win to count
    white_to_move = _terms("zeta-short", "ppp5/8/PPP5/8/8/8/3p4/3P4 w - - 0 1")
    black_to_move = _terms("zeta-short", "ppp5/8/PPP5/8/8/8/3p4/3P4 b - - 0 1")
    assert white_to_move[0] == black_to_move[0] >= LINE_THREAT


def test_two_zeta_lines_to_complete_are_a_fork() -> None:
    # Black to move faces White's a6-c6 (d6 open) and a5 b5 c5 with d5 open: one block stops one
    fork = _terms("zeta-short", "pppp4/8/PPP5/PPP5/8/8/8/3P3P b - - 0 1")
    assert fork[0] >= LINE_FORK


def test_a_petrified_man_loses_part_of_its_value() -> None:
    v = find_variant("royal-fury")
    values = Evaluator(v).tables.values
    petrification = v.rules.get(Petrification)
    # the black Gorgon e6 gazes down the open file at the white Dragon e4
    gazed = parse_fen(v, "8f1/10/10/10/4g5/10/4D5/10/10/1F8 w - - 0 1")
    free = parse_fen(v, "8f1/10/10/10/3g6/10/4D5/10/10/1F8 w - - 0 1")
    scores = {"gazed": [0, 0], "free": [0, 0]}
    petrification.evaluate(gazed, values, scores["gazed"])
    petrification.evaluate(free, values, scores["free"])
    dragon = v.code(v.kind_index["D"], 0)
    assert scores["free"] == [0, 0]
    assert scores["gazed"] == [-(values[dragon] // FROZEN_SHARE), 0]


def test_a_charge_taking_a_fury_is_ordered_as_a_royal_capture() -> None:
    v = find_variant("royal-fury")
    # the white Capricorn d1 charges to e2: it takes the black Fury e3 and the Jumper d2
    pos = parse_fen(v, "1ghc1fchg1/1mxdjjdxm1/2aa1aaa2/9a/1j8/10/2A1D2A2/1XA1f1AA2/2Hj3X2/1G1CFFCHG1 w - - 0 11")
    charge = next(m for m in pos.legal_moves() if pos.move_text(m) == "d1e2")
    assert len(charge.victims) == 2
    orderer = MoveOrderer(Evaluator(v).tables, v.is_royal, v.owner)
    assert orderer.victim_value(charge) == ROYAL_VICTIM


def test_gryphon_royals_are_a_liability_and_enemy_men_near_them_pressure() -> None:
    v = find_variant("gryphon")
    values = Evaluator(v).tables.values
    mutation = v.rules.get(Mutation)
    alone = parse_fen(v, "r7/8/8/8/8/8/8/4K3 w - - 0 1")
    pressed = parse_fen(v, "r7/8/8/8/8/8/3n4/4K3 w - - 0 1")
    a, p = [0, 0], [0, 0]
    mutation.evaluate(alone, values, a)
    mutation.evaluate(pressed, values, p)
    knight, bishop = v.code(v.kind_index["N"], 1), v.code(v.kind_index["B"], 1)
    rook, queen = v.code(v.kind_index["R"], 1), v.code(v.kind_index["Q"], 1)
    assert a == [-ROYAL_LIABILITY, (values[queen] - values[rook]) // 4]
    assert p[1] - a[1] == ROYAL_PRESSURE + (values[bishop] - values[knight]) // 4
    assert p[0] == a[0]


def test_a_won_ending_brings_the_king_to_the_enemy_king() -> None:
    # K+Q against a lone king: the white king two steps from the black king or five (the two
    # cells mirror each other, so nothing but the mop-up term tells them apart)
    v = find_variant("chess")
    ev = Evaluator(v)
    near = parse_fen(v, "2k5/8/2K5/8/8/8/8/7Q w - - 0 1")
    far = parse_fen(v, "2k5/8/8/8/8/2K5/8/7Q w - - 0 1")
    assert ev.relative(near, 0) > ev.relative(far, 0)


def test_delta_pruning_keeps_the_capture_that_matters() -> None:
    # quiescence drops captures that cannot reach the window; taking the queen must survive
    v = find_variant("chess")
    pos = parse_fen(v, "4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1")
    result = Searcher(v).search(pos, Limits(depth=1))
    assert result.move is not None and pos.move_text(result.move) == "d1d5"
