"""``two_board_transfer`` (Alice Chess's basic rule): a piece moves or captures on the board it
stands on, then crosses to the corresponding cell of the other board, which must be empty.
Pieces attack only on their own board (the geometry has no edges between boards). A move is
legal only if it is legal on its own board before the transfer and the mover's royal is not
attacked after it, so a piece arriving from the other board may block a check."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..moves import PLAIN, Move, build_move
from . import Component, register

if TYPE_CHECKING:
    from ..position import Position
    from ..rules import Rules


@register("two_board_transfer")
class TwoBoardTransfer(Component):
    def __init__(self, rules: Rules) -> None:
        super().__init__(rules)
        if not self.v.geometry.other_board:
            from ..variant import VariantError
            raise VariantError(f"variant {self.v.name}: two_board_transfer needs a two-board geometry")
        self.other = self.v.geometry.other_board

    def transform(self, pos: Position, moves: list[Move]) -> list[Move]:
        board = pos.board
        out = []
        for m in moves:
            if m.tag != PLAIN:
                continue
            dest = self.other[m.to]
            if board[dest]:
                continue
            landed = m.promotion or m.piece
            out.append(build_move(board, m.frm, m.to, relocate=((m.frm, dest),), remove=(m.to,) if m.captured else (),
                                  become=((dest, landed),) if landed != m.piece else (), promotion=m.promotion))
        return out

    def legality(self, pos: Position, moves: list[Move]) -> list[Move]:
        # First: legal on its own board, as if it stayed there (a king may not pass through check
        # on the board it leaves); the royal_safety component then tests the position after it.
        side = pos.side
        rules = self.rules
        return [m for m in moves
                if rules.is_safe_after(pos, Move(m.frm, m.to, m.piece, m.captured, m.promotion), side)]
