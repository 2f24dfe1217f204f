"""Three players where each may check only the next player (Triscacia's basic rule).

Turn order is the order of ``sides``; a side's left-hand opponent is the next side, its
right-hand opponent the previous one. After a side moves, its own royal pieces must not be
attacked (as usual) and the right-hand opponent's royal pieces must not be attacked by anyone:
a move may neither check that player nor unmask a check on him by the third player's pieces.
The first checkmate ends the game and the player who made the mating move wins, even when the
mating piece belongs to the third player (the booklet's example with the red rook).
"""

from __future__ import annotations

from ..moves import Move
from ..position import Position
from ..rules import Rules, register


@register("three_sides")
class ThreeSidesRules(Rules):
    def legal_moves(self, pos: Position) -> list[Move]:
        side = pos.side
        right = (side - 1) % self.v.nsides
        out = []
        board = pos.board
        for m in self.pseudo_moves(pos):
            if not self.is_safe_after(pos, m, side):
                continue
            for cell, _b, after in m.changes:
                board[cell] = after
            try:
                exposed = any(self.attacked(board, r, self.enemies[right])
                              for r in self.royal_cells(board, right))
            finally:
                for cell, before, _a in m.changes:
                    board[cell] = before
            if not exposed:
                out.append(m)
        return out
