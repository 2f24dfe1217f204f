"""``royal_safety`` (``royalty = "checkmate"``): no move may leave any royal piece of the mover
attacked; with several royals that holds for each (Tweedle's two kings)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..moves import DROP, PLAIN
from . import Component, register

if TYPE_CHECKING:
    from ..moves import Move
    from ..position import Position


@register("royal_safety")
class RoyalSafety(Component):
    def legality(self, pos: Position, moves: list[Move]) -> list[Move]:
        rules = self.rules
        v = self.v
        side = pos.side
        board = pos.board
        royals = rules.royal_cells(board, side)
        if not royals:
            return moves
        if not v.simple and not (rules.pins_from_tables and not rules.in_check(pos)):
            return [m for m in moves if rules.is_safe_after(pos, m, side, royals)]
        # Only leapers and riders: one walk along the lines into each royal finds the pinned
        # pieces and the cells that answer a check. A plain move of an unpinned non-royal piece
        # is then legal when it answers every check; a royal's plain move needs only its target
        # tested, unless it shields another royal or another royal is in check.
        answers: frozenset[int] | None = None
        pinned: set[int] = set()
        for r in royals:
            ans, pins = rules.king_lines(board, r, side)
            pinned |= pins
            if ans is not None:
                answers = ans if answers is None else answers & ans
        enemies = rules.enemies[side]
        is_royal = v.is_royal
        attacked = rules.attacked
        single = len(royals) == 1
        out = []
        for m in moves:
            if m.tag == PLAIN:
                if is_royal[m.piece]:
                    if single or (answers is None and m.frm not in pinned):
                        board[m.frm] = 0
                        safe = not attacked(pos, m.to, enemies)
                        board[m.frm] = m.piece
                        if safe:
                            out.append(m)
                        continue
                elif m.frm not in pinned:
                    if answers is None or m.to in answers:
                        out.append(m)
                    continue
            elif m.tag == DROP and answers is None:
                # A piece put on an empty cell only blocks lines (no hoppers on this path): it
                # cannot expose a royal that is not in check.
                out.append(m)
                continue
            if rules.is_safe_after(pos, m, side, royals):
                out.append(m)
        return out
