"""Sesqui-dimensional Chess pawns: forward depends on the cell, not on the side.

A Sesqui pawn always heads for the nearest of its promotion cells (the enemy's king, queen and
rook start cells, the variant's promotion zone for that side), so on the ring one pawn of a side
walks clockwise while another walks counter-clockwise, and the text fixes no direction per side.
Piece notation has one forward per side, so the pawn is a movement hook (``hook =
"sesqui_pawn"``) and its captures are added to the attack test here. Self-contained: everything
is derived from the variant's data (ring geometry, start position, promotion zones).

Moves of a pawn on cell ``c`` heading ``d`` (+1 counter-clockwise, -1 clockwise):
  * one step to ``c + d`` if empty;
  * a capture by leaping to ``c + 2d`` (over whatever stands between);
  * from any cell where the start position holds a pawn of its colour, a non-capturing leap to
    ``c + 2d``.
Arriving on a promotion cell promotes (the base class's promotion choices). A cell equally near
two promotion cells (no pawn can start there or walk there, but a capture leaping over its
promotion cell could land there) lets the pawn head either way.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..moves import Move
from ..rules import Rules, register

if TYPE_CHECKING:
    from ..position import Position
    from ..variant import Variant

HOOK = "sesqui_pawn"


def headings(length: int, targets: frozenset[int] | set[int]) -> tuple[tuple[int, ...], ...]:
    """Per cell of a ring of ``length`` cells: the directions (+1, -1) that lead to the nearest
    of ``targets`` (both on a tie, none on a target itself or with no target)."""
    out: list[tuple[int, ...]] = []
    for c in range(length):
        if not targets or c in targets:
            out.append(())
            continue
        up = min((t - c) % length for t in targets)
        down = min((c - t) % length for t in targets)
        out.append((1,) if up < down else (-1,) if down < up else (1, -1))
    return tuple(out)


@register("sesqui")
class SesquiRules(Rules):
    def __init__(self, variant: Variant) -> None:
        super().__init__(variant)
        g = variant.geometry
        n = g.size
        if not g.wrap_x:
            raise ValueError("sesqui rules need a ring geometry")
        self.pawn_codes = frozenset(variant.code(k, s) for k, kind in enumerate(variant.kinds)
                                    if kind.hook == HOOK for s in range(variant.nsides))
        self.step_by = {d: g.step((d, 0)) for d in (1, -1, 2, -2)}
        from ..notation import parse_board

        start = parse_board(variant, variant.start.split()[0].split("[")[0])
        #: Per side: the cells where a pawn of that side may make its non-capturing double step.
        self.double_cells = [bytearray(1 if start[c] in self.pawn_codes and start[c] & 3 == s + 1 else 0
                                       for c in range(n)) for s in range(variant.nsides)]
        #: Per side and cell: the directions a pawn of that side heads from that cell.
        self.heading = [headings(n, {c for c in range(n) if self.promo_zone[s][c]})
                        for s in range(variant.nsides)]
        #: Per side and target cell: the cells from which a pawn of that side attacks it.
        self.pawn_sources: list[list[tuple[int, ...]]] = []
        for s in range(variant.nsides):
            sources: list[list[int]] = [[] for _ in range(n)]
            for c in range(n):
                for d in self.heading[s][c]:
                    t = self.step_by[2 * d][c]
                    if t >= 0:
                        sources[t].append(c)
            self.pawn_sources.append([tuple(x) for x in sources])

    def moves_sesqui_pawn(self, pos: Position, cell: int, code: int, out: list[Move]) -> None:
        board = pos.board
        side = (code & 3) - 1
        zone = self.promo_zone[side]
        for d in self.heading[side][cell]:
            one = self.step_by[d][cell]
            if one >= 0 and not board[one]:
                self._arrive(pos, cell, one, code, 0, zone, out)
            two = self.step_by[2 * d][cell]
            if two < 0:
                continue
            target = board[two]
            if target:
                if target & 3 != code & 3:
                    self._arrive(pos, cell, two, code, target, zone, out)
            elif self.double_cells[side][cell]:
                self._arrive(pos, cell, two, code, 0, zone, out)

    def _arrive(self, pos: Position, frm: int, to: int, code: int, captured: int, zone: bytearray,
                out: list[Move]) -> None:
        if zone[to]:
            self._promotions(pos, frm, to, code, captured, out)
        else:
            out.append(Move(frm, to, code, captured))

    def legal_moves(self, pos: Position) -> list[Move]:
        """The base class's pin shortcut, which a movement hook switches off, made safe for these
        pawns: a pawn only ever attacks by a leap, so it gives check but never pins. Out of check,
        a move of anything but the king is legal unless a rider pins it; in check, every move is
        tried on the board."""
        moves = self.pseudo_moves(pos)
        side = pos.side
        board = pos.board
        royals = self.royal_cells(board, side)
        if self.v.royalty != "checkmate" or len(royals) != 1:
            return super().legal_moves(pos)
        king = royals[0]
        enemies = self.enemies[side]
        if self.attacked(board, king, enemies):
            return [m for m in moves if self.is_safe_after(pos, m, side, royals)]
        _answers, pinned = self._king_lines(board, king, side)
        is_royal = self.v.is_royal
        out = []
        for m in moves:
            if is_royal[m.piece]:
                board[m.frm] = 0
                safe = not self.attacked(board, m.to, enemies)
                board[m.frm] = m.piece
                if safe:
                    out.append(m)
            elif m.frm not in pinned or self.is_safe_after(pos, m, side, royals):
                out.append(m)
        return out

    def attacked(self, board: list[int], cell: int, by: tuple[int, ...]) -> bool:
        if super().attacked(board, cell, by):
            return True
        pawns = self.pawn_codes
        for side in by:
            for src in self.pawn_sources[side][cell]:
                p = board[src]
                if p and p & 3 == side + 1 and p in pawns:
                    return True
        return False
