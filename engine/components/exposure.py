"""What each side stands to lose where it stands: men attacked and not held (or held but attacked
by a cheaper man), and enemy attacks on the cells round its royal. A search term (the
``evaluate`` stage only) for Triscacia's two boards: there two opponents move before a side moves
again, and while the men are placed nothing can be taken for thirty plies, so quiescence never
sees what the men placed will take."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..pieces import CAPTURE
from . import Component, register

if TYPE_CHECKING:
    from collections.abc import Sequence

    from ..position import Position
    from ..rules import Rules

#: Shares of the largest, second... loss a side stands to suffer: one of them it can save, and
#: each further one is less likely to be taken before it is covered.
SHARES = (0.5, 0.25, 0.125, 0.0625)
#: Per cell of the royal's and the eight round it, for each enemy that attacks that cell.
ZONE = 12
#: What a royal risks as an attacker (it takes a man only where no enemy holds it).
ROYAL = 100_000


@register("exposure")
class Exposure(Component):
    """Capture targets per piece and cell are built once, for plain leaps and slides."""

    def __init__(self, rules: Rules) -> None:
        super().__init__(rules)
        v = self.v
        n = v.geometry.size
        #: Per cell: the cell and those one king step from it (the royal's zone).
        self.zone = v.geometry.near(1)
        self.leaps: list[list[tuple[int, ...]]] = [[] for _ in range(v.max_code)]
        self.rays: list[list[tuple[tuple[int, ...], ...]]] = [[] for _ in range(v.max_code)]
        self.attacker = [False] * v.max_code
        for code in v.all_codes():
            # Only plain leaps and slides: lame, hopping and first-move captures do not occur in
            # the games that use this term, and leaving them out only under-counts attacks.
            self.leaps[code] = [tuple(t for t, mode, lame, first in v.leaps[code][c]
                                      if mode & CAPTURE and lame < 0 and not first) for c in range(n)]
            self.rays[code] = [tuple(ray for ray, mode, hop, first in v.rides[code][c]
                                     if mode & CAPTURE and not hop and not first) for c in range(n)]
            self.attacker[code] = v.kinds[v.kind_at[code]].gives_check

    def evaluate(self, pos: Position, values: Sequence[int], scores: list[int]) -> None:
        """Take from each side's score what it stands to lose."""
        v = self.v
        board = pos.board
        owner = v.owner
        is_royal = v.is_royal
        nsides = v.nsides
        # per side: cell -> the least value among its men attacking that cell
        least: list[dict[int, int]] = [{} for _ in range(nsides)]
        royals: list[int] = [-1] * nsides
        for cell, code in enumerate(board):
            if not code:
                continue
            side = owner[code]
            if is_royal[code]:
                royals[side] = cell
            if not self.attacker[code]:
                continue
            value = ROYAL if is_royal[code] else values[code]
            mine = least[side]
            for t in self.leaps[code][cell]:
                if value < mine.get(t, ROYAL + 1):
                    mine[t] = value
            for ray in self.rays[code][cell]:
                for t in ray:
                    if value < mine.get(t, ROYAL + 1):
                        mine[t] = value
                    if board[t]:
                        break
        losses: list[list[int]] = [[] for _ in range(nsides)]
        for cell, code in enumerate(board):
            if not code or is_royal[code]:
                continue
            side = owner[code]
            cheapest = min((least[e].get(cell, ROYAL + 1) for e in range(nsides) if e != side), default=ROYAL + 1)
            if cheapest > ROYAL:
                continue
            value = values[code]
            if cell not in least[side]:
                losses[side].append(value)
            elif cheapest < value:
                losses[side].append(value - cheapest)
        for side in range(nsides):
            ranked = sorted(losses[side], reverse=True)
            # losses beyond the shares count for nothing (strict=False)
            scores[side] -= int(sum(share * loss for share, loss in zip(SHARES, ranked, strict=False)))
            royal = royals[side]
            if royal >= 0:
                scores[side] -= ZONE * sum(1 for c in self.zone[royal] for e in range(nsides)
                                           if e != side and c in least[e])
