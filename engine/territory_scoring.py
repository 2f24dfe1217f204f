"""Territories and their values (Mathematichess scoring), as pure functions of a board.

A territory is a maximal group of empty cells joined by orthogonal steps (as Go joins its
points). Its first-class settlers are the pieces orthogonally next to one of its cells; its
second-class settlers are the pieces diagonally next to one of its cells and orthogonally next to
none. The owner is the side with more first-class settlers, then (on a tie) more second-class
settlers; with both tied the territory is shared. The value rules are in ``TerritoryScorer.score``
and docs/rules/mathematichess.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .variant_data import Variant

ORTHOGONAL = ((1, 0), (-1, 0), (0, 1), (0, -1))
DIAGONAL = ((1, 1), (1, -1), (-1, 1), (-1, -1))


@dataclass(frozen=True)
class Territory:
    """One territory: cells and settlers in cell order, who owns it, and what it is worth."""

    cells: tuple[int, ...]
    first: tuple[int, ...]
    second: tuple[int, ...]
    #: The sovereign side, or None for a shared territory.
    owner: int | None
    #: Points per side (a sovereign territory gives all of its value to its owner).
    points: tuple[int, int]
    #: Kind index of the owner's majority kind among its first-class settlers (the value
    #: multiplier), or -1 when the territory is not homogeneous.
    homogeneous: int = -1
    #: Royals (kings and queens) are a majority of the owner's first-class settlers.
    royal: bool = False
    #: The owner has two first-class settlers of one kind: the opponent may not touch it.
    secured: bool = False

    @property
    def value(self) -> int:
        return self.points[0] + self.points[1]

    def frozen_cells(self) -> frozenset[int]:
        """Cells the opponent of a secured territory's owner may not change."""
        return frozenset(self.cells + self.first + self.second)


@dataclass(frozen=True)
class Score:
    """Everything the display and the ``score`` command show: each territory, bonuses won
    (name, side, points), and the total per side (territories plus bonuses)."""

    territories: tuple[Territory, ...]
    bonuses: tuple[tuple[str, int, int], ...]
    totals: tuple[int, int]


class TerritoryScorer:
    """Per-variant neighbour tables and piece values, built once; ``territories(board)`` is pure."""

    def __init__(self, variant: Variant, royals: str = "KQ") -> None:
        g = variant.geometry
        n = g.size
        orth = [g.step(v) for v in ORTHOGONAL]
        diag = [g.step(v) for v in DIAGONAL]
        self.orth = [tuple(t[c] for t in orth if t[c] >= 0) for c in range(n)]
        self.diag = [tuple(t[c] for t in diag if t[c] >= 0) for c in range(n)]
        size = variant.max_code
        self.value = [0] * size
        self.royal = [False] * size
        # slot[code]: side index + 1, so index 0 collects nothing (empty cells never count)
        self.slot = [side + 1 for side in variant.owner]
        self.kind_at = variant.kind_at
        for code in variant.all_codes():
            kind = variant.kinds[variant.kind_at[code]]
            self.value[code] = kind.value
            self.royal[code] = kind.letter in royals

    def territories(self, board: list[int]) -> list[Territory]:
        """Every territory on ``board``, ordered by its lowest cell."""
        orth = self.orth
        seen = bytearray(len(board))
        out = []
        for start, code in enumerate(board):
            if code or seen[start]:
                continue
            seen[start] = 1
            cells = [start]
            i = 0
            while i < len(cells):
                for nb in orth[cells[i]]:
                    if not board[nb] and not seen[nb]:
                        seen[nb] = 1
                        cells.append(nb)
                i += 1
            out.append(self.score(board, cells))
        return out

    def score(self, board: list[int], cells: list[int]) -> Territory:
        """Value one territory (its cells are given: empty and orthogonally connected).

        Sovereign: every settler counts for the owner, first-class at twice its value, second-
        class at its value; when one kind is a majority (at least two, more than half) of the
        owner's first-class settlers, the sum is multiplied by that kind's value. Shared: each side
        counts only its own settlers, doubled or not as above, with no multiplier.
        """
        orth, diag = self.orth, self.diag
        first_set = {nb for c in cells for nb in orth[c] if board[nb]}
        second_set = {nb for c in cells for nb in diag[c] if board[nb]} - first_set
        first = tuple(sorted(first_set))
        second = tuple(sorted(second_set))
        value = self.value
        slot = self.slot
        count1 = [0, 0, 0]
        count2 = [0, 0, 0]
        points = [0, 0, 0]  # indexed by side + 1
        for c in first:
            code = board[c]
            count1[slot[code]] += 1
            points[slot[code]] += 2 * value[code]
        for c in second:
            code = board[c]
            count2[slot[code]] += 1
            points[slot[code]] += value[code]
        if count1[1] != count1[2]:
            owner: int | None = 0 if count1[1] > count1[2] else 1
        elif count2[1] != count2[2]:
            owner = 0 if count2[1] > count2[2] else 1
        else:
            return Territory(tuple(sorted(cells)), first, second, None, (points[1], points[2]))
        assert owner is not None
        mine = owner + 1
        kinds: dict[int, int] = {}
        royals = 0
        own_first = 0
        for c in first:
            code = board[c]
            if slot[code] == mine:
                own_first += 1
                kinds[code] = kinds.get(code, 0) + 1
                royals += self.royal[code]
        total = points[1] + points[2]
        homogeneous = -1
        for code, count in kinds.items():
            if count >= 2 and 2 * count > own_first:
                homogeneous = self.kind_at[code]
                total *= value[code]
        pts = (total, 0) if owner == 0 else (0, total)
        return Territory(tuple(sorted(cells)), first, second, owner, pts, homogeneous,
                         royal=2 * royals > own_first, secured=any(n >= 2 for n in kinds.values()))


def totals(territories: list[Territory] | tuple[Territory, ...]) -> tuple[int, int]:
    """Points per side from territories alone (no bonuses)."""
    return (sum(t.points[0] for t in territories), sum(t.points[1] for t in territories))
