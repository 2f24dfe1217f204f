"""Triscacia's search term for what each side stands to lose where it stands
(the ``exposure`` component): men attacked and not held, men held but attacked by a cheaper
man, and enemy attacks round each royal. Blue (b) to move; placement over (empty hands)."""

from __future__ import annotations

from engine import find_variant, parse_fen
from engine.components.exposure import SHARES, ZONE, Exposure
from engine.search.values import piece_tables

TRIS = find_variant("triscacia")
VALUES = piece_tables(TRIS).values
BLUE, GREEN, RED = 0, 1, 2
QUEEN, KNIGHT = 900, 300


def exposure(text: str) -> list[int]:
    scores = [0, 0, 0]
    TRIS.rules.get(Exposure).evaluate(parse_fen(TRIS, text), VALUES, scores)
    return scores


def test_the_values_are_the_variants() -> None:
    pos = parse_fen(TRIS, "8/1gK4rK1/2gN5/8/3bQ4/8/8/3bK4 b - - 0 1")
    assert VALUES[pos.board[TRIS.geometry.index("d4")]] == QUEEN
    assert VALUES[pos.board[TRIS.geometry.index("c6")]] == KNIGHT


def test_a_man_attacked_and_not_held_costs_half_its_value() -> None:
    # The green knight c6 attacks the blue queen d4, which nothing holds. The queen in turn
    # attacks b6 and a7 round the green king b7, and f6 and g7 round the red king.
    assert exposure("8/1gK4rK1/2gN5/8/3bQ4/8/8/3bK4 b - - 0 1") == [
        -int(SHARES[0] * QUEEN), -2 * ZONE, -2 * ZONE]


def test_a_man_held_but_attacked_by_a_cheaper_one_costs_half_the_difference() -> None:
    # The rook d2 holds the queen: the knight still wins the difference if it takes.
    scores = exposure("8/1gK4rK1/2gN5/8/3bQ4/8/3bR4/3bK4 b - - 0 1")
    assert scores[BLUE] == -int(SHARES[0] * (QUEEN - KNIGHT))


def test_a_man_held_and_attacked_by_an_equal_one_costs_nothing() -> None:
    scores = exposure("8/1gK4rK1/2gN5/8/3bB4/8/3bR4/3bK4 b - - 0 1")
    assert scores[BLUE] == 0


def test_the_second_loss_counts_for_less() -> None:
    # The green knight c6 attacks two unheld blue men: the queen d4 and the knight e7.
    scores = exposure("8/1gK2bN1rK1/2gN5/8/3bQ4/8/8/3bK4 b - - 0 1")
    assert scores[BLUE] == -int(SHARES[0] * QUEEN + SHARES[1] * KNIGHT)


def test_positions_without_danger_cost_nothing() -> None:
    assert exposure("8/1gK4rK1/8/8/8/8/8/3bK4 b - - 0 1") == [0, 0, 0]
