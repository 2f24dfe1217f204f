"""``two_furies``: how Royal Fury ends. Each side has two royal Furies, taken like any man (no
check, no checkmate). A side wins on taking both enemy Furies while it still has both of its
own; the moment each side has lost one, the game is drawn (also when one move takes the last
enemy Fury of a side that had already taken one of the mover's). Readings: docs/rules/royal-fury.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from ..position import Outcome
from . import Component, register

if TYPE_CHECKING:
    from ..position import Position

WIN: Final = "furies_captured"
DRAW: Final = "one_fury_each"


@register("two_furies")
class TwoFuries(Component):
    supersedes = ("royal_capture",)

    def outcome(self, pos: Position) -> Outcome | None:
        rules = self.rules
        v = self.v
        lost = [v.royal_count[s] - len(rules.royal_cells(pos.board, s)) for s in range(v.nsides)]
        if all(n > 0 for n in lost):
            return Outcome(DRAW, None)
        for side in range(v.nsides):
            if lost[side] and lost[side] >= v.royal_count[side]:
                return Outcome(WIN, next(s for s in range(v.nsides) if s != side))
        return None
