"""``sesqui_pawns``: Sesqui-dimensional Chess pawns, whose forward depends on the cell.

A Sesqui pawn always heads for the nearest of its promotion cells (the variant's promotion zone
for its side), so on the ring one pawn of a side walks clockwise while another walks
counter-clockwise: piece notation, with one forward per side, cannot say it. Everything is
derived from the variant's data (ring geometry, start position, promotion zones). A pawn on
cell ``c`` heading ``d`` (+1 counter-clockwise, -1 clockwise):

* steps to ``c + d`` if empty;
* captures by leaping to ``c + 2d`` (over whatever stands between);
* from any cell where the start position holds a pawn of its colour, leaps to an empty
  ``c + 2d`` without capturing.

Arriving on a promotion cell promotes. A cell equally near two promotion cells lets the pawn
head either way. Its captures are leaps: this component reports them as attacks and they never
pin (``leaper_hooks``), so the royal rule keeps its fast path. Readings: docs/rules/sesqui.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import VariantError
from ..moves import Move
from . import Component, Mover, register

if TYPE_CHECKING:
    from ..position import Position
    from ..rules import Rules

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


@register("sesqui_pawns")
class SesquiPawns(Component):
    leaper_hooks = (HOOK,)

    def __init__(self, rules: Rules) -> None:
        super().__init__(rules)
        v = self.v
        g = v.geometry
        n = g.size
        if not g.wrap_x:
            raise VariantError(f"variant {v.name}: sesqui_pawns need a ring geometry")
        self.pawn_codes = frozenset(v.code(k, s) for k, kind in enumerate(v.kinds)
                                    if kind.hook == HOOK for s in range(v.nsides))
        self.step_by = {d: g.step((d, 0)) for d in (1, -1, 2, -2)}
        start = v.start_board
        #: Per side: the cells where a pawn of that side may make its non-capturing double step.
        self.double_cells = [bytearray(1 if start[c] in self.pawn_codes and v.owner[start[c]] == s else 0
                                       for c in range(n)) for s in range(v.nsides)]
        #: Per side and cell: the directions a pawn of that side heads from that cell.
        self.heading = [headings(n, {c for c in range(n) if rules.promo_zone[s][c]}) for s in range(v.nsides)]
        #: Per side and target cell: the cells from which a pawn of that side attacks it.
        self.pawn_sources: list[list[tuple[int, ...]]] = []
        for s in range(v.nsides):
            sources: list[list[int]] = [[] for _ in range(n)]
            for c in range(n):
                for d in self.heading[s][c]:
                    t = self.step_by[2 * d][c]
                    if t >= 0:
                        sources[t].append(c)
            self.pawn_sources.append([tuple(x) for x in sources])

    def movers(self) -> dict[str, Mover]:
        return {HOOK: self.pawn}

    def pawn(self, pos: Position, cell: int, code: int, out: list[Move]) -> None:
        board = pos.board
        owner = self.v.owner
        side = owner[code]
        zone = self.rules.promo_zone[side]
        for d in self.heading[side][cell]:
            one = self.step_by[d][cell]
            if one >= 0 and not board[one]:
                self._arrive(pos, cell, one, code, 0, zone, out)
            two = self.step_by[2 * d][cell]
            if two < 0:
                continue
            target = board[two]
            if target:
                if owner[target] != side:
                    self._arrive(pos, cell, two, code, target, zone, out)
            elif self.double_cells[side][cell]:
                self._arrive(pos, cell, two, code, 0, zone, out)

    def _arrive(self, pos: Position, frm: int, to: int, code: int, captured: int, zone: bytearray,
                out: list[Move]) -> None:
        if zone[to]:
            self.rules.promotions(pos, frm, to, code, captured, out)
        else:
            out.append(Move(frm, to, code, captured))

    def attacks(self, pos: Position, cell: int, by: tuple[int, ...]) -> bool:
        board = pos.board
        owner = self.v.owner
        pawns = self.pawn_codes
        for side in by:
            for src in self.pawn_sources[side][cell]:
                p = board[src]
                if p in pawns and owner[p] == side:
                    return True
        return False
