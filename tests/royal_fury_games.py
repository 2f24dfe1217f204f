"""Royal Fury games for the tests and the hand model's stress run (``bench/royal_fury_hands.py``):
seeded random games that favour moves taking several men (charges, chains) and swaps."""

from __future__ import annotations

import random

import engine

RF = engine.find_variant("royal-fury")
#: How often a game swaps when it can.
SWAP = 0.3


def random_game(seed: int, plies: int = 90, swap: float = SWAP) -> list[str]:
    """A seeded random game favouring moves that take several men, and swaps (chosen with their
    own generator, so a game is the same as without swaps up to its first swap)."""
    rng = random.Random(seed)
    swap_rng = random.Random(-1 - seed)
    pos = engine.start_position(RF)
    out: list[str] = []
    for _ in range(plies):
        if pos.outcome() is not None:
            break
        moves = pos.legal_moves()
        swaps = [m for m in moves if len(m.relocations) == 2]
        moves = [m for m in moves if len(m.relocations) < 2]
        if swaps and swap_rng.random() < swap:
            move = swap_rng.choice(swaps)
        elif moves:
            multi = [m for m in moves if len(m.victims) > 1]
            takes = [m for m in moves if m.victims]
            pool = multi if multi and rng.random() < 0.8 else takes if takes and rng.random() < 0.6 else moves
            move = rng.choice(pool)
        else:
            break
        out.append(pos.move_text(move))
        pos.push(move)
    return out
