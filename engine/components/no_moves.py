"""``no_moves``: a side that cannot move is checkmated (when a royal is attacked under
``checkmate``) or stalemated (``stalemate = draw | loss | win``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..position import Outcome
from . import Component, register

if TYPE_CHECKING:
    from ..position import Position


@register("no_moves")
class NoMoves(Component):
    def outcome(self, pos: Position) -> Outcome | None:
        rules = self.rules
        v = self.v
        if rules.has_legal_move(pos):
            return None
        prev = (pos.side - 1) % v.nsides
        if v.royalty == "checkmate" and rules.in_check(pos):
            return Outcome("checkmate", prev)
        if v.stalemate == "draw":
            return Outcome("stalemate", None)
        return Outcome("stalemate", prev if v.stalemate == "loss" else pos.side)
