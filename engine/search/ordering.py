"""Move ordering: the best move first makes alpha-beta cut early.

Order: the transposition table's move, captures by most valuable victim / least valuable attacker
(royal victims first of all: taking a royal ends games that allow it), promotions, the two killer
moves of the ply (quiet moves that cut off a sibling), then quiet moves by their history (how
often the same piece going to the same cell cut off) and by how much better the piece stands
there (the placement tables).

A move of a man another side owns (a Meddlers meddle: the player moves the enemy's queen-side
men) is ordered from the mover's view: its captures take the mover's own men and its promotions
make enemy men, so they come last, and of the others the one that leaves the man worst placed
for its owner comes first. Ordered as the owner's own moves, the worst meddles
were searched first at every node where the player meddles, before the move that cuts off.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..moves import DROP, EN_PASSANT, Move
from .table import MoveKey, move_key
from .values import PieceTables

TT_MOVE = 1 << 30
CAPTURE = 1 << 24
KILLER = 1 << 22
ROYAL_VICTIM = 100_000
HISTORY_CAP = 1 << 20


class MoveOrderer:
    def __init__(self, tables: PieceTables, is_royal: list[bool], owner: Sequence[int]) -> None:
        self.values = tables.values
        self.placement = tables.placement
        self.is_royal = is_royal
        self.owner = owner
        self.killers: list[list[MoveKey]] = []
        self.history: dict[tuple[int, int], int] = {}

    def new_search(self) -> None:
        self.killers = [[] for _ in range(128)]
        # Older history counts less: halve it rather than forget it.
        self.history = {k: v // 2 for k, v in self.history.items() if v > 1}

    def clear(self) -> None:
        self.killers = []
        self.history = {}

    def victim_value(self, move: Move) -> int:
        captured = move.captured
        if not captured and move.tag == EN_PASSANT:
            return 100
        victims = move.victims
        if len(victims) > 1:
            # a charge or a chain (Royal Fury): every man it takes, a royal among them first
            total = 0
            for cell, before, _after in move.changes:
                if cell in victims:
                    if self.is_royal[before]:
                        return ROYAL_VICTIM
                    total += self.values[before]
            return total
        return ROYAL_VICTIM if self.is_royal[captured] else self.values[captured]

    def capture_score(self, move: Move) -> int:
        return CAPTURE + 16 * self.victim_value(move) - self.values[move.piece] // 8

    def order(self, moves: list[Move], tt_move: MoveKey | None, ply: int, side: int) -> list[Move]:
        """``moves`` of ``side`` (to move), the likeliest to cut off first."""
        values = self.values
        placement = self.placement
        history = self.history
        owner = self.owner
        killers = self.killers[ply] if ply < len(self.killers) else []
        scored: list[tuple[int, int, Move]] = []
        for i, m in enumerate(moves):
            if tt_move is not None and m.to == tt_move[1] and m.frm == tt_move[0] and move_key(m) == tt_move:
                s = TT_MOVE
            elif owner[m.piece] != side:
                s = self._foreign_score(m, killers, history)
            elif m.captured or m.tag == EN_PASSANT:
                s = self.capture_score(m)
            elif m.promotion and m.tag != DROP:
                s = CAPTURE + values[m.promotion]
            elif killers and move_key(m) in killers:
                s = KILLER
            else:
                row = placement[m.promotion or m.piece]
                s = history.get((m.piece, m.to), 0) + row[m.to] - (placement[m.piece][m.frm] if m.frm >= 0 else 0)
            scored.append((-s, i, m))
        scored.sort()
        return [m for _s, _i, m in scored]

    def _foreign_score(self, m: Move, killers: list[MoveKey], history: dict[tuple[int, int], int]) -> int:
        """A man moved for another side: a killer as any, else its history plus how much worse
        its owner stands after it, less what it takes of the mover's and what its promotion gives
        its owner."""
        if killers and move_key(m) in killers:
            return KILLER
        placement = self.placement
        worse = (placement[m.piece][m.frm] if m.frm >= 0 else 0) - placement[m.promotion or m.piece][m.to]
        cost = self.values[m.captured] + (self.values[m.promotion] if m.promotion and m.tag != DROP else 0)
        return history.get((m.piece, m.to), 0) + worse - cost

    def captures(self, moves: list[Move], side: int) -> list[Move]:
        """The captures and promotions among ``side``'s ``moves``, best first (quiescence
        search). Those of men another side owns are left out: they cost the mover material."""
        # A drop's ``promotion`` is the piece it puts down: not a promotion.
        owner = self.owner
        scored = [(-(self.capture_score(m) if (m.captured or m.tag == EN_PASSANT)
                     else CAPTURE + self.values[m.promotion]), i, m) for i, m in enumerate(moves)
                  if (m.captured or m.tag == EN_PASSANT or (m.promotion and m.tag != DROP))
                  and owner[m.piece] == side]
        scored.sort()
        return [m for _s, _i, m in scored]

    def cutoff(self, move: Move, depth: int, ply: int) -> None:
        """A quiet move refuted the opponent: remember it as a killer and in the history."""
        if move.captured or move.tag == EN_PASSANT:
            return
        key = move_key(move)
        if ply < len(self.killers):
            row = self.killers[ply]
            if key not in row:
                row.insert(0, key)
                del row[2:]
        h = (move.piece, move.to)
        self.history[h] = min(HISTORY_CAP, self.history.get(h, 0) + depth * depth)
