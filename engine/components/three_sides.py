"""``three_sides`` (Triscacia's basic rule): turn order is the order of ``sides``; a side's
left-hand opponent is the next side, its right-hand opponent the previous one. A move may neither
check the right-hand opponent nor unmask a check on him by the third player's pieces (also while
escaping a check). The first checkmate ends the game and the player who made the mating move
wins, even when the mating piece is the third player's (the ``no_moves`` component's rule)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import Component, overrides, register

if TYPE_CHECKING:
    from ..moves import Move
    from ..position import Position
    from ..rules import Rules


@register("three_sides")
class ThreeSides(Component):
    def left_of(self, side: int) -> int:
        """The opponent ``side`` may check: the next in turn."""
        return (side + 1) % self.v.nsides

    def right_of(self, side: int) -> int:
        """The opponent ``side`` must never leave attacked: the previous in turn."""
        return (side - 1) % self.v.nsides

    def __init__(self, rules: Rules) -> None:
        super().__init__(rules)
        self._tables: bool | None = None  # known once the runner has built every component

    def _tables_only(self) -> bool:
        # Only pieces whose attacks the reverse rays describe (no hoppers, no coded captures):
        # then one walk along the lines into the right-hand king settles most moves.
        if self._tables is None:
            rules = self.rules
            self._tables = (not self.v.hoppers and not any(rules.hook_attackers)
                            and not any(overrides(c, "attacks") for c in rules.components))
        return self._tables

    def _lines(self, board: list[int], royals: list[int], enemies: tuple[int, ...]
               ) -> tuple[set[int], dict[int, list[frozenset[int]]]] | None:
        """Walk every attack line into the right-hand king(s): the first piece on each line
        (moving it away may open the line), and per cell up to that piece the codes that would
        attack from there. None when a king is attacked already."""
        first: set[int] = set()
        open_cells: dict[int, list[frozenset[int]]] = {}
        attack_rays = self.v.attack_rays
        for r in royals:
            for side in enemies:
                for ray, sets in attack_rays[side][r]:
                    for i, c in enumerate(ray):
                        open_cells.setdefault(c, []).append(sets[i])
                        p = board[c]
                        if p:
                            if p in sets[i]:
                                return None
                            first.add(c)
                            break
        return first, open_cells

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
        lines = self._lines(board, royals, enemies) if self._tables_only() else None
        attacked = rules.attacked
        out = []
        for m in moves:
            changes = m.changes
            if lines is not None:
                first, open_cells = lines
                # A move that empties no first piece on a line leaves every line as blocked as it
                # was; it exposes the king only if a piece it puts down attacks from an open cell.
                if not any(not after and cell in first for cell, _b, after in changes):
                    if not any(after and any(after in codes for codes in open_cells.get(cell, ()))
                               for cell, _b, after in changes):
                        out.append(m)
                    continue
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
