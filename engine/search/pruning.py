"""Delta pruning in quiescence: a capture is not searched when even its material gain and a
margin (placement, the rule components' terms) cannot bring the score back to the window.

Royal Fury's charges and chains give dozens of captures a node, most of them trades of little
men that cannot change the outcome; the gain of a move is read from its effects (every cell it
changes), so charges, chains, mutations and promotions count what they really take and make.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..moves import Move
from ..variant import Variant

#: The margin, in centipawns, a capture's material gain gets before it is judged useless.
DELTA = 200
#: Any capture of a royal is searched.
ROYAL_GAIN = 1 << 40


def worth_searching(captures: list[Move], stand: int, bound: int, maximizing: bool, side: int,
                    values: Sequence[int], v: Variant) -> list[Move]:
    """The captures by ``side`` (to move) whose material gain plus ``DELTA`` can reach ``bound``
    (alpha at a node that maximises, beta at one that minimises) from the standing score."""
    need = (bound - stand) if maximizing else (stand - bound)
    if need <= DELTA:
        return captures
    owner = v.owner
    is_royal = v.is_royal
    out = []
    for m in captures:
        gain = 0
        for _cell, before, after in m.changes:
            if before and owner[before] != side:
                if is_royal[before]:
                    gain = ROYAL_GAIN
                    break
                gain += values[before]
            elif before:
                gain -= values[before]
            if after and owner[after] == side:
                gain += values[after]
            elif after:
                gain -= values[after]
        if gain + DELTA >= need:
            out.append(m)
    return out
