"""The transposition table: results of searched positions by their Zobrist hash
(``Position.hash``), bounded by a memory budget (the UCI ``Hash`` option, in MB).

An entry keeps the depth searched, the score (mate scores relative to the node, so they stay right
when the position recurs at another ply), whether the score is exact or a bound, the best move's
key (``move_key``) and the side the search was run for: the search is paranoid from its root side's
point of view, so a score is reused only by a search for the same side; its best move always serves
move ordering.
"""

from __future__ import annotations

from typing import NamedTuple

from ..moves import Move

EXACT, LOWER, UPPER = 0, 1, 2
#: Bytes one entry costs in CPython (dict slot, tuple, ints), measured roughly.
ENTRY_BYTES = 200

MoveKey = tuple[int, int, int, str, str]


def move_key(move: Move) -> MoveKey:
    """What tells a move apart from the others of its position, cheaply (no effects)."""
    return (move.frm, move.to, move.promotion, move.tag, move.text)


class Entry(NamedTuple):
    depth: int
    score: int
    bound: int
    move: MoveKey | None
    root_side: int


class TranspositionTable:
    def __init__(self, megabytes: int = 16) -> None:
        self.resize(megabytes)

    def resize(self, megabytes: int) -> None:
        self.capacity = max(1024, megabytes * 1024 * 1024 // ENTRY_BYTES)
        self.entries: dict[int, Entry] = {}

    def clear(self) -> None:
        self.entries.clear()

    def get(self, key: int) -> Entry | None:
        return self.entries.get(key)

    def put(self, key: int, entry: Entry) -> None:
        entries = self.entries
        old = entries.get(key)
        if old is not None and old.depth > entry.depth and old.root_side == entry.root_side:
            return  # keep the deeper result
        if old is None and len(entries) >= self.capacity:
            # Full: drop the oldest half (dicts keep insertion order), cheaper than per-entry aging.
            for k in list(entries)[: len(entries) // 2]:
                del entries[k]
        entries[key] = entry
