"""``line``: a side with ``line_length`` of its pieces in one straight orthogonal or diagonal run
wins (implied by ``line_length``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..position import Outcome
from . import Component, register

if TYPE_CHECKING:
    from ..position import Position


@register("line")
class Line(Component):
    def outcome(self, pos: Position) -> Outcome | None:
        v = self.v
        prev = (pos.side - 1) % v.nsides
        for side in (prev, pos.side):
            if self.line_cells(pos, side):
                return Outcome("line", side)
        return None

    def line_cells(self, pos: Position, side: int) -> tuple[int, ...]:
        """The first maximal run of at least ``line_length`` pieces of ``side``, or ()."""
        v = self.v
        g = v.geometry
        n = v.line_length
        board = pos.board
        owner = v.owner
        for vec in ((1, 0), (0, 1), (1, 1), (1, -1)):
            step = g.step(vec)
            back = g.step((-vec[0], -vec[1]))
            for start in range(g.size):
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
                if len(run) >= n:
                    return tuple(run)
        return ()
