"""``three_sides`` (Triscacia's basic rule): turn order is the order of ``sides``; a side's
left-hand opponent is the next side, its right-hand opponent the previous one. A move may neither
check the right-hand opponent nor unmask a check on him by the third player's pieces (also while
escaping a check). The first checkmate ends the game and the player who made the mating move
wins, even when the mating piece is the third player's (the ``no_moves`` component's rule)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..moves import DROP, PLAIN
from . import Component, overrides, register

if TYPE_CHECKING:
    from collections.abc import Sequence

    from ..moves import Move
    from ..position import Position
    from ..rules import Rules


#: Search term (centipawns) per man near the royal of the opponent a side may check (its left).
LEFT_PRESSURE = 8
#: How near (king steps) a man must stand to count.
NEAR = 2


@register("three_sides")
class ThreeSides(Component):
    def __init__(self, rules: Rules) -> None:
        super().__init__(rules)
        # per cell: the cells within NEAR king steps (for the evaluate stage)
        self.near = self.v.geometry.near(NEAR)

    def evaluate(self, pos: Position, values: Sequence[int], scores: list[int]) -> None:
        # The left/right rule: a side may check only its left-hand opponent, so its men near that
        # opponent's royal are pressure, while men near the right-hand royal can give no check.
        v = self.v
        board = pos.board
        owner = v.owner
        is_royal = v.is_royal
        rules = self.rules
        for side in range(v.nsides):
            for royal in rules.royal_cells(board, self.left_of(side)):
                scores[side] += LEFT_PRESSURE * sum(1 for c in self.near[royal]
                                                    if owner[board[c]] == side and not is_royal[board[c]])

    def plays_against(self, side: int, searcher: int) -> bool | None:
        # Only the right-hand opponent may check the searcher; the left-hand one can threaten
        # it only through the third player's pieces, and plays for itself (its own attack on
        # the third, its own defence against the searcher).
        return side == self.right_of(searcher)

    def left_of(self, side: int) -> int:
        """The opponent ``side`` may check: the next in turn."""
        return (side + 1) % self.v.nsides

    def right_of(self, side: int) -> int:
        """The opponent ``side`` must never leave attacked: the previous in turn."""
        return (side - 1) % self.v.nsides

    def has_legal_move(self, pos: Position) -> bool | None:
        # Asked after every move (is it mate?): test the generated moves a few at a time through
        # the filter and legality stages and stop at the first that survives, instead of
        # judging every move. The select stage only chooses among legal moves, so it is skipped.
        comps = self.rules.components
        stages = ([c.filter for c in comps if overrides(c, "filter")]
                  + [c.legality for c in comps if overrides(c, "legality")])
        moves = self.rules.pseudo_moves(pos)
        for i in range(0, len(moves), 12):
            batch = moves[i:i + 12]
            for stage in stages:
                batch = stage(pos, batch)
                if not batch:
                    break
            if batch:
                return True
        return False

    def legality(self, pos: Position, moves: list[Move]) -> list[Move]:
        rules = self.rules
        right = self.right_of(pos.side)
        enemies = rules.enemies[right]
        board = pos.board
        royals = rules.royal_cells(board, right)
        if not royals:
            return moves
        lines = rules.open_lines(board, royals, enemies) if rules.attacks_from_tables else None
        attacked = rules.attacked
        out = []
        nothing: frozenset[int] = frozenset()
        for m in moves:
            if lines is not None:
                first, open_codes = lines
                tag = m.tag
                # A move that empties no first piece on a line leaves every line as blocked as it
                # was; it exposes the king only if a piece it puts down attacks from an open cell.
                # Plain moves and drops say so without walking their changes.
                if tag in (PLAIN, DROP):
                    if m.frm not in first:
                        if (m.promotion or m.piece) not in open_codes.get(m.to, nothing):
                            out.append(m)
                        continue
                elif not any(not after and cell in first for cell, _b, after in m.changes):
                    if not any(after and after in open_codes.get(cell, nothing) for cell, _b, after in m.changes):
                        out.append(m)
                    continue
            changes = m.changes
            for cell, _b, after in changes:
                board[cell] = after
            try:
                # The mover cannot move or take the right-hand king (taking it would need it
                # attacked already), so its cells from before the move still hold.
                exposed = any(attacked(pos, r, enemies) for r in royals)
            finally:
                for cell, before, _a in changes:
                    board[cell] = before
            if not exposed:
                out.append(m)
        return out
