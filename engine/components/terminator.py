"""``terminator``: once per game each side may take one of its own pieces off the board as its
move (Mathematichess). The position text records who has used it: ``term=w``, ``term=wb``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import PositionError
from ..moves import REMOVE, build_move
from . import Component, register

if TYPE_CHECKING:
    from ..moves import Move
    from ..position import Position

SIDE_MARKS = "wb"


@register("terminator")
class Terminator(Component):
    state_keys = ("term",)

    def used(self, pos: Position, side: int) -> bool:
        return SIDE_MARKS[side] in pos.extra.get("term", "")

    def generate(self, pos: Position, out: list[Move]) -> None:
        if self.used(pos, pos.side):
            return
        board = pos.board
        owner = self.v.owner
        side = pos.side
        out.extend(build_move(board, -1, c, tag=REMOVE, remove=(c,), piece=code)
                   for c, code in enumerate(board) if owner[code] == side)

    def after_push(self, pos: Position, move: Move) -> None:
        if move.tag == REMOVE:
            used = pos.extra.get("term", "") + SIDE_MARKS[self.v.owner[move.piece]]
            pos.extra["term"] = "".join(m for m in SIDE_MARKS if m in used)

    def validate(self, pos: Position) -> None:
        val = pos.extra.get("term")
        if val is not None and val not in ("w", "b", "wb"):
            raise PositionError(f"{self.v.name}: term={val}: expected w, b or wb")
