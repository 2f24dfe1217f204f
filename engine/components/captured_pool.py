"""``captured_pool``: captured pieces wait in their owner's hand; promotion may only choose a
kind found there (Dream Chess 47's Steward). Implied by ``promotion.from_captured``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..moves import DROP, REMOVE
from . import Component, register

if TYPE_CHECKING:
    from ..moves import Move
    from ..position import Position


@register("captured_pool")
class CapturedPool(Component):
    tracks_hands = True

    def promotion_choices(self, pos: Position, code: int, codes: tuple[int, ...]) -> tuple[int, ...]:
        # Only kinds the side has lost: they wait in its hand until a promotion uses them.
        hand = pos.hands[self.v.owner[code]]
        kind_at = self.v.kind_at
        return tuple(c for c in codes if hand.get(kind_at[c], 0) > 0)

    def after_push(self, pos: Position, move: Move) -> None:
        v = self.v
        owner, kind_at = v.owner, v.kind_at
        for cell in move.victims:
            before = next(b for c, b, _a in move.changes if c == cell)
            hand = pos.hands[owner[before]]
            hand[kind_at[before]] = hand.get(kind_at[before], 0) + 1
        if move.promotion and move.promotion != move.piece and move.tag not in (DROP, REMOVE):
            hand = pos.hands[owner[move.piece]]
            kind = kind_at[move.promotion]
            hand[kind] -= 1
            if not hand[kind]:
                del hand[kind]
