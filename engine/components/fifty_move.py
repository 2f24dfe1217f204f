"""``fifty_move``: the standard draw after ``fifty_move`` plies without capture or pawn move.
A referee device has nobody to claim a draw for the players, so it is reported as soon as it
holds (docs/rules/chess.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..position import Outcome
from . import Component, register

if TYPE_CHECKING:
    from ..position import Position


@register("fifty_move")
class FiftyMove(Component):
    def outcome(self, pos: Position) -> Outcome | None:
        return Outcome("fifty_move", None) if pos.halfmove >= self.v.fifty_move else None
