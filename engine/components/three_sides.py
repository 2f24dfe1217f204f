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
               ) -> tuple[set[int], dict[int, frozenset[int]]] | None:
        """Walk every attack line into the right-hand king(s): the first piece on each line
        (moving it away may open the line), and per cell up to that piece the codes that would
        attack from there. None when a king is attacked already."""
        first: set[int] = set()
        open_codes: dict[int, frozenset[int]] = {}
        get = open_codes.get
        attack_rays = self.v.attack_rays
        for r in royals:
            for side in enemies:
                for ray, sets in attack_rays[side][r]:
                    for c, codes in zip(ray, sets):  # noqa: B905 (one set per cell of the ray)
                        known = get(c)
                        open_codes[c] = codes if known is None else known | codes
                        p = board[c]
                        if p:
                            if p in codes:
                                return None
                            first.add(c)
                            break
        return first, open_codes

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
