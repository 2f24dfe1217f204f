"""``castling``: a king moves two cells toward a rook that still has the right, the rook crosses
over it; never out of, through or into check. Implied by ``castling = true``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..moves import CASTLE, build_move
from . import Component, register

if TYPE_CHECKING:
    from ..moves import Move
    from ..position import Position
    from ..rules import Rules


@register("castling")
class Castling(Component):
    def __init__(self, rules: Rules) -> None:
        super().__init__(rules)
        v = self.v
        g = v.geometry
        self.castle_kings = frozenset(v.code(k, s) for k, kind in enumerate(v.kinds)
                                      if kind.castles == "king" for s in range(v.nsides))
        self.castle_rooks = frozenset(v.code(k, s) for k, kind in enumerate(v.kinds)
                                      if kind.castles == "rook" for s in range(v.nsides))
        # the king is looked for on the rook's own rank of its own board
        self.rank_cells = [tuple(c for c in range(g.size) if g.coords[c][1] == g.coords[r][1]
                                 and g.board_of[c] == g.board_of[r]) for r in range(g.size)]
        self._built: dict[tuple[int, ...], Move] = {}
        start = v.start_board
        self.one_king = all(sum(1 for c in start if c in self.castle_kings and v.owner[c] == s) <= 1
                            for s in range(v.nsides))

    def generate(self, pos: Position, out: list[Move]) -> None:
        if not pos.castling:
            return
        v = self.v
        rules = self.rules
        g = v.geometry
        owner = v.owner
        board = pos.board
        side = pos.side
        enemies = rules.enemies[side]
        for rook in sorted(pos.castling):
            rcode = board[rook]
            if owner[rcode] != side:
                continue
            if self.one_king:
                king = next((c for c in self.rank_cells[rook]
                             if owner[board[c]] == side and board[c] in self.castle_kings), -1)
            else:
                king = self.king_for(board, rook, side)
            if king < 0:
                continue
            d = 1 if g.coords[rook][0] > g.coords[king][0] else -1
            step = g.step((d, 0))
            k1 = step[king]
            k2 = step[k1] if k1 >= 0 else -1
            if k2 < 0:
                continue
            # every cell strictly between king and rook must be empty, and the king's landing too
            c = step[king]
            clear = True
            while c != rook and c >= 0:
                if board[c]:
                    clear = False
                    break
                c = step[c]
            if not clear or (board[k2] and k2 != rook) or (board[k1] and k1 != rook):
                continue
            if rules.attacked(pos, king, enemies) or rules.attacked(pos, k1, enemies) \
                    or rules.attacked(pos, k2, enemies):
                continue
            # The same cells and pieces always make the same move: build it once.
            key = (king, rook, board[king], rcode, board[k1], board[k2])
            move = self._built.get(key)
            if move is None:
                move = self._built[key] = build_move(board, king, k2, tag=CASTLE,
                                                     relocate=((king, k2), (rook, k1)))
            out.append(move)

    def king_for(self, board: list[int], rook: int, side: int) -> int:
        """The castling king of ``side`` a rook castles with: the nearest one on its rank (with
        two kings on one rank, as in Tweedle, each castles with the rook on its own side)."""
        g = self.v.geometry
        owner = self.v.owner
        kings = [c for c in self.rank_cells[rook] if owner[board[c]] == side and board[c] in self.castle_kings]
        if not kings:
            return -1
        rx = g.coords[rook][0]
        return min(kings, key=lambda c: abs(g.coords[c][0] - rx))

    def after_push(self, pos: Position, move: Move) -> None:
        castling = pos.castling
        if not castling:
            return
        owner = self.v.owner
        if self.one_king and move.tag == "" and move.piece not in self.castle_kings and move.frm not in castling \
                and move.to not in castling:
            return  # a plain move that touches no king and no rook with a right changes nothing
        moved = {c for pair in move.relocations for c in pair}
        for cell, before, _after in move.changes:
            if before in self.castle_kings and self.one_king:
                castling = frozenset(r for r in castling if owner[pos.board[r]] != owner[before])
            elif before in self.castle_kings:
                # the rights of the rooks this king castled with (judged on the board before)
                side = owner[before]
                board_before = pos.board[:]
                for c, b, _a in move.changes:
                    board_before[c] = b
                castling = frozenset(r for r in castling if owner[pos.board[r]] != side
                                     or self.king_for(board_before, r, side) != cell)
            if cell in castling and not (before in self.castle_rooks and _after in self.castle_rooks
                                         and cell not in moved):
                # (a castling rook that turns into another where it stands has not moved)
                castling = castling - {cell}
        pos.castling = castling
