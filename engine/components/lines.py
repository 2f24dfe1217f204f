"""``line``: a side with ``line_length`` of its pieces in one straight orthogonal or diagonal run
wins (implied by ``line_length``).

Options (all off by default, so a plain line-of-N game needs none) say where a winning line may
lie, the way Zeta restricts it:

* ``line_enemy_cells``: a line crossing the board's halves (along the forward direction or a
  diagonal) needs at least this many of its cells in the enemy half; a line across the board
  (perpendicular to forward) must lie wholly in the enemy half. 0: anywhere.
* ``line_longest``: no move may make a run of more than this many pieces (a filter; 0: any).
* ``line_needs``: piece letters one of which must be in the line (Zeta's king form).

``line_cells`` gives the winning run, so the display can mark it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from ..position import Outcome
from . import Component, register

if TYPE_CHECKING:
    from ..moves import Move
    from ..position import Position
    from ..rules import Rules
    from ..variant import Variant

_DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))


def depths(v: Variant, side: int) -> list[int]:
    """How far each cell lies along ``side``'s forward direction (grid units)."""
    fx, fy = v.forward[side]
    return [x * fx + y * fy for x, y in v.geometry.coords]


def enemy_halves(v: Variant) -> list[frozenset[int]]:
    """Per side, the cells of the enemy half: beyond the middle of the board along forward."""
    out = []
    for side in range(v.nsides):
        depth = depths(v, side)
        middle = (min(depth) + max(depth)) / 2
        out.append(frozenset(c for c, d in enumerate(depth) if d > middle))
    return out


@register("line")
class Line(Component):
    options: ClassVar[dict[str, Any]] = {"line_enemy_cells": 0, "line_longest": 0, "line_needs": ""}

    def __init__(self, rules: Rules) -> None:
        super().__init__(rules)
        v = self.v
        g = v.geometry
        self.enemy_cells = int(self.opts["line_enemy_cells"])
        self.longest = int(self.opts["line_longest"])
        needs = str(self.opts["line_needs"])
        self.needs = frozenset(v.kind_index[letter] for letter in needs) if needs else frozenset()
        self.steps = [(vec, g.step(vec), g.step((-vec[0], -vec[1]))) for vec in _DIRECTIONS]
        self.enemy_half = enemy_halves(v)

    # -- queries --------------------------------------------------------------------------------
    def line_cells(self, pos: Position, side: int) -> tuple[int, ...]:
        """The first ``line_length`` cells of ``side``'s pieces in a straight run that wins under
        the options, or ()."""
        v = self.v
        n = v.line_length
        board = pos.board
        owner = v.owner
        for vec, step, back in self.steps:
            for start in range(len(board)):
                if owner[board[start]] != side:
                    continue
                prev = back[start]
                if prev >= 0 and owner[board[prev]] == side:
                    continue  # not the start of a run
                run = [start]
                cur = step[start]
                while cur >= 0 and owner[board[cur]] == side:
                    run.append(cur)
                    cur = step[cur]
                for first in range(len(run) - n + 1):
                    window = tuple(run[first:first + n])
                    if self._wins(pos, side, vec, window):
                        return window
        return ()

    def _wins(self, pos: Position, side: int, vec: tuple[int, int], window: tuple[int, ...]) -> bool:
        v = self.v
        if self.enemy_cells:
            inside = sum(c in self.enemy_half[side] for c in window)
            fx, fy = v.forward[side]
            across = vec[0] * fx + vec[1] * fy == 0
            if inside < (len(window) if across else self.enemy_cells):
                return False
        if self.needs:
            kind_at = v.kind_at
            return any(kind_at[pos.board[c]] in self.needs for c in window)
        return True

    def run_through(self, board: list[int], cell: int, side: int) -> int:
        """The longest straight run of ``side``'s pieces through ``cell`` (counting ``cell``)."""
        owner = self.v.owner
        best = 0
        for _vec, step, back in self.steps:
            n = 1
            for table in (step, back):
                cur = table[cell]
                while cur >= 0 and owner[board[cur]] == side:
                    n += 1
                    cur = table[cur]
            best = max(best, n)
        return best

    # -- stages ---------------------------------------------------------------------------------
    def filter(self, pos: Position, moves: list[Move]) -> list[Move]:
        if not self.longest:
            return moves
        board = pos.board
        side = pos.side
        owner = self.v.owner
        out = []
        for m in moves:
            changes = m.changes
            for cell, _before, after in changes:
                board[cell] = after
            too_long = any(owner[after] == side and self.run_through(board, cell, side) > self.longest
                           for cell, _before, after in changes)
            for cell, before, _after in changes:
                board[cell] = before
            if not too_long:
                out.append(m)
        return out

    def outcome(self, pos: Position) -> Outcome | None:
        v = self.v
        prev = (pos.side - 1) % v.nsides
        for side in (prev, pos.side):
            if self.line_cells(pos, side):
                return Outcome("line", side)
        return None
