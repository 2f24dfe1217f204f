"""Find a short decisive demo game for a variant by seeded greedy self-play: a winning move when
there is one, else (most of the time) the capture of the most valuable man, else a random move.
Prints the shortest decisive game over the seeds tried, for ``controller/demo_games.py``.

    .venv/bin/python -m tools.demo_search rettah --seeds 200 --max-plies 60     (from the repository root)
"""

from __future__ import annotations

import argparse
import random

import engine
from engine import start_position
from engine.position import Outcome


def play(variant: engine.Variant, seed: int, max_plies: int, greed: float) -> tuple[list[str], Outcome | None]:
    rng = random.Random(seed)
    pos = start_position(variant)
    texts: list[str] = []
    for _ in range(max_plies):
        if pos.outcome() is not None:
            break
        moves = pos.legal_moves()
        chosen = None
        for m in moves:
            pos.push(m)
            won = pos.outcome()
            pos.pop()
            if won is not None and won.winner is not None:
                chosen = m
                break
        if chosen is None:
            captures = [m for m in moves if m.victims]
            chosen = rng.choice(captures) if captures and rng.random() < greed else rng.choice(moves)
        texts.append(pos.move_text(chosen))
        pos.push(chosen)
    return texts, pos.outcome()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("variant")
    ap.add_argument("--seeds", type=int, default=200)
    ap.add_argument("--max-plies", type=int, default=60)
    ap.add_argument("--min-plies", type=int, default=16)
    ap.add_argument("--greed", type=float, default=0.7)
    ap.add_argument("--draw", action="store_true", help="accept a drawn ending too")
    args = ap.parse_args()
    variant = engine.find_variant(args.variant)
    best: tuple[list[str], Outcome | None] | None = None
    for seed in range(args.seeds):
        texts, outcome = play(variant, seed, args.max_plies, args.greed)
        if outcome is None or (outcome.winner is None and not args.draw) or len(texts) < args.min_plies:
            continue
        if best is None or len(texts) < len(best[0]):
            best = (texts, outcome)
            print(f"seed {seed}: {len(texts)} plies, {outcome}")
    if best:
        print(" ".join(best[0]))


if __name__ == "__main__":
    main()
