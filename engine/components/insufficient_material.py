"""``insufficient_material = "fide"``: the standard draw in a dead position (FIDE's, as
python-chess recognises it).
A referee device has nobody to claim a draw for the players, so it is reported as soon as it
holds (docs/rules/chess.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..position import Outcome
from . import Component, register

if TYPE_CHECKING:
    from ..position import Position


@register("insufficient_material")
class InsufficientMaterial(Component):
    def outcome(self, pos: Position) -> Outcome | None:
        return Outcome("insufficient_material", None) if self.dead(pos.board) else None

    def dead(self, board: list[int]) -> bool:
        """FIDE dead positions that python-chess also recognises: K v K, K+minor v K, and kings
        with bishops that all stand on one colour."""
        v = self.v
        g = v.geometry
        pieces: list[str] = []
        bishop_colors = set()
        for c, code in enumerate(board):
            if not code:
                continue
            kind = v.kinds[v.kind_at[code]]
            if kind.royal:
                continue
            if kind.name not in ("knight", "bishop"):
                return False
            pieces.append(kind.name)
            if kind.name == "bishop":
                bishop_colors.add(g.colors[c])
        if len(pieces) <= 1:
            return True
        return all(p == "bishop" for p in pieces) and len(bishop_colors) == 1

    def can_mate(self, board: list[int], side: int) -> bool:
        """Whether ``side`` has material that could ever mate (FIDE's flag-fall rule): anything
        but a bare king or a king with one minor piece."""
        v = self.v
        minors = 0
        for code in board:
            if v.owner[code] != side:
                continue
            kind = v.kinds[v.kind_at[code]]
            if kind.royal:
                continue
            if kind.name not in ("knight", "bishop"):
                return True
            minors += 1
        return minors >= 2
