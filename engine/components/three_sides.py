"""``three_sides`` (Triscacia's basic rule): turn order is the order of ``sides``; a side's
left-hand opponent is the next side, its right-hand opponent the previous one. A move may neither
check the right-hand opponent nor unmask a check on him by the third player's pieces (also while
escaping a check). The first checkmate ends the game and the player who made the mating move
wins, even when the mating piece is the third player's (the ``no_moves`` component's rule)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import Component, register

if TYPE_CHECKING:
    from ..moves import Move
    from ..position import Position


@register("three_sides")
class ThreeSides(Component):
    def left_of(self, side: int) -> int:
        """The opponent ``side`` may check: the next in turn."""
        return (side + 1) % self.v.nsides

    def right_of(self, side: int) -> int:
        """The opponent ``side`` must never leave attacked: the previous in turn."""
        return (side - 1) % self.v.nsides

    def legality(self, pos: Position, moves: list[Move]) -> list[Move]:
        rules = self.rules
        right = self.right_of(pos.side)
        enemies = rules.enemies[right]
        board = pos.board
        out = []
        for m in moves:
            for cell, _b, after in m.changes:
                board[cell] = after
            try:
                exposed = any(rules.attacked(pos, r, enemies) for r in rules.royal_cells(board, right))
            finally:
                for cell, before, _a in m.changes:
                    board[cell] = before
            if not exposed:
                out.append(m)
        return out
