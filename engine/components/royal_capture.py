"""``royal_capture`` (``royalty = "capture_any"``/``"king_capture"`` or ``"capture_all"``): royal
pieces may be taken; losing one (or the last one) loses."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..position import Outcome
from . import Component, register

if TYPE_CHECKING:
    from ..position import Position


@register("royal_capture")
class RoyalCapture(Component):
    def outcome(self, pos: Position) -> Outcome | None:
        v = self.v
        rules = self.rules
        prev = (pos.side - 1) % v.nsides
        # king_capture (one king) and capture_all: the last royal taken; capture_any: the first.
        need_all = v.royalty != "capture_any"
        for side in range(v.nsides):
            codes = rules.royal_codes[side]
            if not codes:
                continue
            left = rules.royal_cells(pos.board, side)
            start = v.royal_count[side]
            lost = (not left) if need_all else len(left) < start
            if lost:
                if v.nsides == 2:
                    return Outcome("king_capture", 1 - side)
                return Outcome("king_capture", prev if side != prev else None)
        return None
