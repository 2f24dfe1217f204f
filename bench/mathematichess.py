"""Mathematichess speed: legal moves plus full territory scoring of crowded middle-game positions,
against FIDE chess start-position move generation measured in the same run.

    ./dev bench mathematichess [--seed N]

The positions come from a seeded random placement (162 pieces, 7 empty cells) and the same game
after both terminators and a few moves (160 pieces, 9 empty cells). "per move" is what the
service does for each move a player makes: the legal moves (to recognise the move), play it,
and score the new position for the display.
"""

from __future__ import annotations

import argparse
import random
import timeit

from engine import Position, find_variant, start_position
from engine.components.territory import TerritoryRules
from engine.moves import DROP, REMOVE


def crowded_positions(seed: int) -> list[tuple[str, Position]]:
    v = find_variant("mathematichess")
    rules = v.rules.get(TerritoryRules)
    rng = random.Random(seed)
    pos = start_position(v)
    while rules.stage(pos) == 1:
        pos.push(rng.choice([m for m in pos.legal_moves() if m.tag == DROP]))
    placed = pos.copy()
    for _ in range(2):
        pos.push(rng.choice([m for m in pos.legal_moves() if m.tag == REMOVE]))
    for _ in range(20):
        pos.push(rng.choice([m for m in pos.legal_moves() if m.tag != REMOVE]))
    return [("162 pieces, 7 empty", placed), ("160 pieces, 9 empty", pos)]


def per_call(fn, number: int) -> float:
    """Best of five runs, in microseconds per call."""
    return min(timeit.repeat(fn, number=number, repeat=5)) / number * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    chess = start_position(find_variant("chess"))
    reference = per_call(chess.legal_moves, 2000)
    print(f"chess start legal moves ({len(chess.legal_moves())}): {reference:8.1f} us/call (reference)")
    for label, pos in crowded_positions(args.seed):
        rules = pos.variant.rules.get(TerritoryRules)
        moves = pos.legal_moves()
        legal = per_call(pos.legal_moves, 300)
        score = per_call(lambda pos=pos, rules=rules: rules.score(pos), 300)
        sample = moves[:: max(1, len(moves) // 20)]

        def one_move(pos=pos, rules=rules, sample=sample) -> None:
            for m in sample:
                pos.legal_moves()
                pos.push(m)
                rules.score(pos)
                pos.pop()

        move = per_call(one_move, 10) / len(sample)
        print(f"mathematichess {label}, {len(moves)} legal moves:")
        print(f"  legal moves       {legal:8.1f} us/call   {legal / reference:6.1f}x chess start")
        print(f"  territory scoring {score:8.1f} us/call   {score / reference:6.1f}x chess start")
        print(f"  per move          {move:8.1f} us         {move / reference:6.1f}x chess start"
              f"  (legal moves + push + score + pop)")


if __name__ == "__main__":
    main()
