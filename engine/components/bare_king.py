"""``bare_king``: a side left with only royal pieces and pieces that may not give check loses
(Illusionary Piece Chess). Implied by ``bare_king = true``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..position import Outcome
from . import Component, register

if TYPE_CHECKING:
    from ..position import Position


@register("bare_king")
class BareKing(Component):
    def outcome(self, pos: Position) -> Outcome | None:
        v = self.v
        prev = (pos.side - 1) % v.nsides
        for side in (pos.side, prev):
            if self.bare(pos, side):
                return Outcome("bare_king", (side + 1) % v.nsides if v.nsides == 2 else prev)
        return None

    def bare(self, pos: Position, side: int) -> bool:
        v = self.v
        kinds, owner, kind_at = v.kinds, v.owner, v.kind_at
        return all(kinds[kind_at[c]].royal or not kinds[kind_at[c]].gives_check
                   for c in pos.board if owner[c] == side)
