"""Mathematichess territories and scores: the source's worked example to the point, each value
rule on hand-built boards, bonuses, and the ``chessery score`` command's output."""

from __future__ import annotations

import pytest

from controller.cli import main
from engine import parse_fen, start_position
from engine.components.placement import Placement
from engine.components.territory import TerritoryRules
from engine.territory_scoring import Territory, totals
from tests.mathematichess_positions import EXAMPLE, VARIANT, crowded, example

V = VARIANT
RULES = V.rules.get(TerritoryRules)
PLACEMENT = V.rules.get(Placement)
G = V.geometry


def territory_at(pos, name: str) -> Territory:
    cell = G.index(name)
    return next(t for t in RULES.territories(pos) if cell in t.cells)


def names(cells) -> list[str]:
    return [G.names[c] for c in cells]


def board_of(pieces: dict[str, str]) -> list[int]:
    """A bare board (no counts to satisfy): the scorer is a pure function of the cells."""
    board = [V.parse_symbol("p")] * G.size  # black pawns everywhere ...
    for name, symbol in pieces.items():
        board[G.index(name)] = V.parse_symbol(symbol) if symbol != "." else 0
    return board


# -- the worked example ---------------------------------------------------------------------------
def test_worked_example_e11_e12_is_worth_exactly_450_to_white() -> None:
    t = territory_at(example(), "e11")
    assert names(t.cells) == ["e11", "e12"]
    assert names(t.first) == ["e10", "d11", "f11", "d12", "f12", "e13"]
    assert names(t.second) == ["d10", "f10", "d13", "f13"]
    assert t.owner == 0  # five of six first-class settlers are white
    # (2x8 + 2x8) + (3 x 2x5) + black knight 2x4 = 70; corners 4 + 6 + 1 + 9 = 20; x5 for the bishops
    assert t.points == (450, 0)
    assert V.kinds[t.homogeneous].letter == "B"
    assert t.secured and not t.royal


def test_walking_the_king_into_the_territory_raises_its_value_as_the_source_says() -> None:
    pos = example()
    pos.push_text("c13d13")  # king trades with the d13 farmer: corners 4 + 6 + 9 + 9
    assert territory_at(pos, "e11").points == ((70 + 28) * 5, 0)
    pos = parse_fen(V, pos.fen().replace(" b ", " w "))  # white again (black's move is no matter here)
    pos.push_text("d13e13")  # and with the e13 queen: bishops are still 3 of white's 5
    assert territory_at(pos, "e11").points == ((30 + 16 + 18 + 8 + 8 + 4 + 6 + 9) * 5, 0)


# -- each rule on its own ---------------------------------------------------------------------------
def test_shared_territory_gives_each_side_its_own_settlers_without_multiplier() -> None:
    t = territory_at(example(), "i12")
    # first-class: white K h12, N j12; black t i11, f i13 (2-2); second-class: white R j11,
    # T j13; black r h11, p h13 (2-2)
    assert t.owner is None
    assert t.points == (2 * 9 + 2 * 4 + 6 + 7, 2 * 7 + 2 * 1 + 6 + 2)
    assert t.homogeneous == -1 and not t.secured


def test_second_class_settlers_break_a_first_class_tie() -> None:
    t = territory_at(example(), "c6")
    # first-class white Q c5, Q d6 / black t b6, p c7; second-class white K b5, P d5, K d7 / black p b7
    assert t.owner == 0
    assert t.points == ((2 * (8 + 7 + 8 + 2) + 9 + 2 + 9 + 2) * 8, 0)
    assert t.royal  # both of white's first-class settlers are queens
    assert V.kinds[t.homogeneous].letter == "Q"


def test_homogeneous_needs_more_than_half_of_the_owners_first_class_settlers() -> None:
    scorer = RULES.scorer
    # e5 alone: white rooks d5, f5 and queens e4, e6 (two each: no majority, but secured)
    half = scorer.territories(board_of({"e5": ".", "d5": "R", "f5": "R", "e4": "Q", "e6": "Q",
                                        "d4": "F", "f4": "F", "d6": "F", "f6": "F"}))
    t = half[0]
    assert t.owner == 0 and t.homogeneous == -1 and t.secured
    assert t.points == (2 * (6 + 6 + 8 + 8) + 4, 0)
    # three white rooks and a black rook: the black rook does not count toward white's majority
    # but its value still passes to white
    three = scorer.territories(board_of({"e5": ".", "d5": "R", "f5": "R", "e4": "R", "e6": "r",
                                         "d4": "F", "f4": "F", "d6": "F", "f6": "F"}))[0]
    assert three.points == ((2 * (6 * 4) + 4) * 6, 0)
    # a single white piece is a majority of one but "two or more" are needed
    lone = scorer.territories(board_of({"a1": ".", "a2": "N", "b1": "f", "b2": "F"}))[0]
    assert lone.owner == 0 and lone.homogeneous == -1 and lone.points == (2 * 4 + 2 * 1 + 1, 0)


def test_corner_cell_has_two_first_class_and_one_second_class_settler() -> None:
    t = RULES.scorer.territories(board_of({"m13": ".", "l13": "K", "m12": "q", "l12": "Q"}))[0]
    assert names(t.first) == ["m12", "l13"] and names(t.second) == ["l12"]
    assert t.owner == 0  # 1-1 on the sides, the corner breaks the tie
    assert t.royal and t.points == (2 * 9 + 2 * 8 + 8, 0)


def test_territories_join_orthogonally_not_diagonally() -> None:
    terrs = RULES.scorer.territories(board_of({"e5": ".", "f6": ".", "g6": "."}))
    assert [names(t.cells) for t in terrs] == [["e5"], ["f6", "g6"]]
    # e6 and f5 are side neighbours of both territories
    assert {"e6", "f5"} <= set(names(terrs[0].first)) & set(names(terrs[1].first))


def test_the_open_board_is_one_shared_territory_worth_nothing() -> None:
    score = RULES.score(start_position(V))
    assert len(score.territories) == 1 and len(score.territories[0].cells) == 169
    assert score.territories[0].owner is None and score.totals == (0, 0)


# -- bonuses ----------------------------------------------------------------------------------------
def test_bonuses_go_to_the_first_side_and_count_in_the_totals() -> None:
    pos = example()
    base = RULES.score(pos).totals
    assert base == (1121, 806) and RULES.score(pos).bonuses == ()
    pos.push_text("m1l2")  # a farmer step in the corner that leaves every bonus fact as it was
    # white owns b2, c6, e11-e12 (three), black owns
    # f3, k3, h6, k9 (four); both hold a homogeneous territory; only white has a royal one
    assert pos.extra["homogeneous"] == "wb"
    assert pos.extra["four_sovereign"] == "b"
    assert "two_royal" not in pos.extra
    score = RULES.score(pos)
    assert score.bonuses == (("four_sovereign", 1, 300), ("homogeneous", 0, 300), ("homogeneous", 1, 300))
    plain = totals(score.territories)
    assert score.totals == (plain[0] + 300, plain[1] + 600)
    pos.pop()
    assert "homogeneous" not in pos.extra
    # d13e12: the farmer splits e11-e12; white now owns four territories (two of them royal) at
    # the moment black first owns four as well: both earn that bonus
    pos.push_text("d13e12")
    assert (pos.extra["four_sovereign"], pos.extra["two_royal"]) == ("wb", "w")


def test_bonus_points_are_options() -> None:
    from engine.variant import variant_from_toml
    v = variant_from_toml("mc-bonus", 'inherits = "mathematichess"\n[options]\nbonus_homogeneous = 50\n'
                                      'bonus_four_sovereign = 0\n')
    pos = parse_fen(v, EXAMPLE)
    move = next(m for m in pos.legal_moves() if pos.move_text(m) not in ("c13d13",))
    pos.push(move)
    assert pos.extra.get("homogeneous") == "wb" and "four_sovereign" not in pos.extra
    assert v.rules.get(TerritoryRules).score(pos).bonuses == (("homogeneous", 0, 50), ("homogeneous", 1, 50))


# -- the command ------------------------------------------------------------------------------------
def test_score_command_prints_each_territory_then_the_totals(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "mathematichess", "--fen", EXAMPLE]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "b2 white 56 0 -",
        "f3 black 0 330 secured,homogeneous",
        "k3 black 0 72 -",
        "c6 white 576 0 secured,homogeneous,royal",
        "h6 black 0 55 secured",
        "k9 black 0 325 secured,homogeneous",
        "e11,e12 white 450 0 secured,homogeneous",
        "i12 shared 39 24 -",
        "total 1121 806",
    ]


def test_score_command_lists_bonuses_before_the_totals(capsys: pytest.CaptureFixture[str]) -> None:
    fen = EXAMPLE.replace("term=wb", "homogeneous=w term=wb")
    assert main(["score", "mathematichess", "--fen", fen]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[-2:] == ["bonus homogeneous white 300", "total 1421 806"]


@pytest.mark.parametrize(("argv", "message"), [
    (["score", "mathematichess", "--fen", "13/13 w"], "board has 2 rows"),
    (["score", "nosuchgame"], "unsupported variant"),
    (["score", "chess"], "has no territory scores"),
])
def test_score_command_errors_are_one_line_and_exit_2(argv: list[str], message: str,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_live_totals_follow_every_move_of_a_crowded_game() -> None:
    pos = crowded({}, ["a1", "c3", "e5", "g7", "i9", "k11", "m13", "a13", "m1"], seed=3)
    for _ in range(12):
        score = RULES.score(pos)
        assert score.totals == (sum(t.points[0] for t in score.territories) + sum(
            p for _n, s, p in score.bonuses if s == 0), sum(t.points[1] for t in score.territories) + sum(
            p for _n, s, p in score.bonuses if s == 1))
        assert sum(len(t.cells) for t in score.territories) == pos.board.count(0)
        pos.push(pos.legal_moves()[0])
