"""``king_forward_until_capture`` (filter, after_push; state ``captured``): until its side has
captured a man, a royal piece may move only forward (straight or diagonally): Gryphon's simple
form. The position text records the sides that have captured (``captured=w``, ``b``, ``wb``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import Component, register

if TYPE_CHECKING:
    from ..moves import Move
    from ..position import Position

SIDE_MARKS = "wb"


@register("king_forward_until_capture")
class KingForwardUntilCapture(Component):
    state_keys = ("captured",)

    def captured(self, pos: Position, side: int) -> bool:
        return SIDE_MARKS[side] in pos.extra.get("captured", "")

    def filter(self, pos: Position, moves: list[Move]) -> list[Move]:
        side = pos.side
        if self.captured(pos, side):
            return moves
        v = self.v
        coords = v.geometry.coords
        fx, fy = v.forward[side]
        out = []
        for m in moves:
            if m.frm >= 0 and v.is_royal[m.piece]:
                (x0, y0), (x1, y1) = coords[m.frm], coords[m.to]
                if (x1 - x0) * fx + (y1 - y0) * fy <= 0:
                    continue  # sideways or backwards before the first capture
            out.append(m)
        return out

    def after_push(self, pos: Position, move: Move) -> None:
        if not move.victims:
            return
        side = self.v.owner[move.piece]
        marks = pos.extra.get("captured", "")
        if SIDE_MARKS[side] not in marks:
            pos.extra["captured"] = "".join(m for m in SIDE_MARKS if m in marks or m == SIDE_MARKS[side])
