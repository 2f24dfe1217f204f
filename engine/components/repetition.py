"""``repetition``: the standard draw when one position occurs ``repetition`` times.
A referee device has nobody to claim a draw for the players, so it is reported as soon as it
holds (docs/rules/chess.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..position import Outcome
from . import Component, register

if TYPE_CHECKING:
    from ..position import Position


@register("repetition")
class Repetition(Component):
    def outcome(self, pos: Position) -> Outcome | None:
        return Outcome("repetition", None) if pos.history.count(pos.hash) >= self.v.repetition else None
