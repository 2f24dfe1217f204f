"""Two boards, every moved piece crossing to the other (Alice Chess's basic rule).

A piece makes a normal move or capture on the board it stands on, then is transferred to the
corresponding cell of the other board, which must be empty. Pieces attack only on their own
board (the geometry has no edges between boards). A move is legal only if it is legal on its own
board before the transfer (the mover's king is not left in check there) and the mover's king is
not in check after the transfer. Castling and en passant are not handled here yet.
"""

from __future__ import annotations

from ..moves import SPECIAL, Move
from ..position import Position
from ..rules import Rules, register


@register("two_board_transfer")
class TwoBoardTransferRules(Rules):
    def __init__(self, variant) -> None:  # type: ignore[no-untyped-def]
        super().__init__(variant)
        if not variant.geometry.other_board:
            from ..variant import VariantError
            raise VariantError(f"variant {variant.name}: two_board_transfer needs a two-board geometry")
        self.other = variant.geometry.other_board

    def pseudo_moves(self, pos: Position) -> list[Move]:
        board = pos.board
        out = []
        for m in super().pseudo_moves(pos):
            if m.tag != "":
                continue
            dest = self.other[m.to]
            if board[dest]:
                continue
            landed = m.promotion or m.piece
            changes = ((m.frm, m.piece, 0),) + (((m.to, m.captured, 0),) if m.captured else ()) + (
                (dest, 0, landed),)
            out.append(Move(m.frm, m.to, m.piece, m.captured, m.promotion, tag=SPECIAL, changes=changes,
                            relocations=((m.frm, dest),)))
        return out

    def legal_moves(self, pos: Position) -> list[Move]:
        side = pos.side
        out = []
        for m in self.pseudo_moves(pos):
            # first: legal on its own board, as if it stayed there
            on_board = Move(m.frm, m.to, m.piece, m.captured, m.promotion)
            if self.is_safe_after(pos, on_board, side) and self.is_safe_after(pos, m, side):
                out.append(m)
        return out
