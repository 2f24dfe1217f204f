"""Move ordering: the best move first makes alpha-beta cut early.

Order: the transposition table's move, captures by most valuable victim / least valuable attacker
(royal victims first of all: taking a royal ends games that allow it), promotions, the two killer
moves of the ply (quiet moves that cut off a sibling), then quiet moves by their history (how
often the same piece going to the same cell cut off) and by how much better the piece stands
there (the placement tables).
"""

from __future__ import annotations

from ..moves import DROP, EN_PASSANT, Move
from .table import MoveKey, move_key
from .values import PieceTables

TT_MOVE = 1 << 30
CAPTURE = 1 << 24
KILLER = 1 << 22
ROYAL_VICTIM = 100_000
HISTORY_CAP = 1 << 20


class MoveOrderer:
    def __init__(self, tables: PieceTables, is_royal: list[bool]) -> None:
        self.values = tables.values
        self.placement = tables.placement
        self.is_royal = is_royal
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

    def order(self, moves: list[Move], tt_move: MoveKey | None, ply: int) -> list[Move]:
        values = self.values
        placement = self.placement
        history = self.history
        killers = self.killers[ply] if ply < len(self.killers) else []
        scored: list[tuple[int, int, Move]] = []
        for i, m in enumerate(moves):
            if tt_move is not None and m.to == tt_move[1] and m.frm == tt_move[0] and move_key(m) == tt_move:
                s = TT_MOVE
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

    def captures(self, moves: list[Move]) -> list[Move]:
        """The captures and promotions among ``moves``, best first (quiescence search)."""
        # A drop's ``promotion`` is the piece it puts down: not a promotion.
        scored = [(-(self.capture_score(m) if (m.captured or m.tag == EN_PASSANT)
                     else CAPTURE + self.values[m.promotion]), i, m) for i, m in enumerate(moves)
                  if m.captured or m.tag == EN_PASSANT or (m.promotion and m.tag != DROP)]
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
