"""Two boards, every moved piece crossing to the other (Alice Chess's basic rule).

A piece makes a normal move or capture on the board it stands on, then is transferred to the
corresponding cell of the other board, which must be empty. Pieces attack only on their own
board (the geometry has no edges between boards). A move is legal when the mover's king is not
attacked after the transfer; a king's own move must in addition be legal on its board (its target
not attacked there), so a king cannot step through check on its board into safety on the other.
A piece from the other board may therefore block a check by arriving between king and checker.

Castling: king and rook on one board, the cells between them empty on that board, the king not in
check and not crossing or landing on an attacked cell there (the ordinary rule, played on that
board); then both cross, so the king's and the rook's landing cells on the other board must be
empty. En passant: right after a pawn's double step (which lands it on the other board), an enemy
pawn on that same board may take it as in ordinary chess, moving to the cell the pawn passed over
(on the pawn's new board, where that cell must be empty), and then crosses back as every piece
does. The en-passant field names that cell on the pawn's new board (``e3'``).
"""

from __future__ import annotations

from ..moves import CASTLE, EN_PASSANT, PLAIN, SPECIAL, Move
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
        other = self.other
        out = []
        for m in super().pseudo_moves(pos):
            if m.tag == PLAIN:
                dest = other[m.to]
                if board[dest]:
                    continue
                landed = m.promotion or m.piece
                changes = ((m.frm, m.piece, 0),) + (((m.to, m.captured, 0),) if m.captured else ()) + (
                    (dest, 0, landed),)
                out.append(Move(m.frm, m.to, m.piece, m.captured, m.promotion, tag=SPECIAL, changes=changes,
                                relocations=((m.frm, dest),)))
            elif m.tag == CASTLE:
                crossed = self._castle_across(board, m)
                if crossed:
                    out.append(crossed)
            elif m.tag == EN_PASSANT:
                # the base move: (capturer leaves, capturer arrives on the passed cell, victim leaves)
                dest = other[m.to]
                if board[m.to] or board[dest]:
                    continue
                victim = next(cell for cell, before, _after in m.changes if cell not in (m.frm, m.to))
                changes = ((m.frm, m.piece, 0), (victim, board[victim], 0), (dest, 0, m.piece))
                out.append(Move(m.frm, m.to, m.piece, 0, tag=EN_PASSANT, changes=changes,
                                relocations=((m.frm, dest),)))
        return out

    def _castle_across(self, board: list[int], m: Move) -> Move | None:
        """The ordinary castling ``m`` (checked on its own board), with king and rook crossing."""
        other = self.other
        (king, k2), (rook, k1) = m.relocations
        kcode, rcode = m.piece, board[rook]
        if board[other[k2]] or board[other[k1]]:
            return None
        changes = ((king, kcode, 0), (rook, rcode, 0), (other[k2], 0, kcode), (other[k1], 0, rcode))
        return Move(king, k2, kcode, 0, tag=CASTLE, changes=changes,
                    relocations=((king, other[k2]), (rook, other[k1])))

    def legal_moves(self, pos: Position) -> list[Move]:
        side = pos.side
        is_royal = self.v.is_royal
        out = []
        for m in self.pseudo_moves(pos):
            if is_royal[m.piece] and m.tag != CASTLE:
                # a king's move must be legal on its own board before it crosses
                on_board = Move(m.frm, m.to, m.piece, m.captured, m.promotion)
                if not self.is_safe_after(pos, on_board, side):
                    continue
            if self.is_safe_after(pos, m, side):
                out.append(m)
        return out

    def ep_after(self, pos: Position, move: Move) -> int:
        """After a pawn's double step: the passed cell on the board the pawn landed on, when an
        enemy pawn there could take it en passant; else -1."""
        v = self.v
        if not v.en_passant or move.tag != SPECIAL or move.captured or move.piece not in self.ep_victims:
            return -1
        g = v.geometry
        (fx, fy), (tx, ty) = g.coords[move.frm], g.coords[move.to]
        dx, dy = tx - fx, ty - fy
        if dx % 2 or dy % 2 or max(abs(dx), abs(dy)) != 2:
            return -1
        mid = g.step((dx // 2, dy // 2))[move.frm]
        if mid < 0:
            return -1
        passed = self.other[mid]
        board = pos.board
        if board[passed]:
            return -1
        side = (move.piece & 3) - 1
        for enemy in self.enemies[side]:
            for ray, sets in v.attack_rays[enemy][passed]:
                p = board[ray[0]]
                if p in self.ep_capturers and p in sets[0]:
                    return passed
        return -1
