"""``rule_of_check``: Rettah's rule of check. A side whose royal piece is attacked must take an
attacker at once: its legal moves are the captures of a checking piece (by any man; the Rettah
king moves as rook, bishop and knight, so he can always take a checker himself). With two
checkers, taking either is enough. Out of check nothing is restricted: a king may stand
attacked, since taking the king is how the game is won (``royalty = "king_capture"``).
Provides ``turn_note``: the display names the checkers to take."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import Component, register

if TYPE_CHECKING:
    from ..moves import Move
    from ..position import Position


@register("rule_of_check")
class RuleOfCheck(Component):
    provides = ("turn_note",)

    def turn_note(self, pos: Position) -> str:
        """Names the checking men the side to move must take (the display's status line)."""
        checkers = self.checkers(pos)
        if not checkers:
            return ""
        names = self.v.geometry.names
        cells = " or ".join(names[c] for c in sorted(checkers))
        return f"Rule of check: take the checking man on {cells}"

    def legality(self, pos: Position, moves: list[Move]) -> list[Move]:
        checkers = self.checkers(pos)
        if not checkers:
            return moves
        return [m for m in moves if not checkers.isdisjoint(m.victims)]

    def checkers(self, pos: Position) -> frozenset[int]:
        """Cells of the enemy men that attack a royal piece of the side to move."""
        rules = self.rules
        side = pos.side
        royals = rules.royal_cells(pos.board, side)
        enemies = rules.enemies[side]
        if not royals or not any(rules.attacked(pos, r, enemies) for r in royals):
            return frozenset()
        targets = set(royals)
        found: set[int] = set()
        # The checkers are the enemy moves that would take a royal: generate them as that side.
        for enemy in enemies:
            pos.side = enemy
            try:
                found.update(m.frm for m in rules.piece_moves(pos) if not targets.isdisjoint(m.victims))
            finally:
                pos.side = side
        return frozenset(found)
