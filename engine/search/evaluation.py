"""Static evaluation: per-side scores from material, placement, hands and royal safety, plus the
terms the variant's rule components add at the ``evaluate`` stage; then one number for the side
the search plays.

Several sides (Triscacia): the search is paranoid (``engine.search.alphabeta``), so a position is
worth the searching side's score less the mean of the others'. With two sides that is the usual
difference.
"""

from __future__ import annotations

from ..position import Position
from ..variant import Variant
from .values import PieceTables, piece_tables

#: Hand pieces are worth a little less than men on the board (they still need a move to enter).
HAND_SHARE = 0.9
#: Per own man next to a royal, in the opening and middle game.
SHIELD = 6
#: The side to move's small edge (keeps evaluations of the two sides' turns comparable).
TEMPO = 10
#: Mop-up (checkmate games): a side ahead in material drives the enemy royal to the edge
#: (``MOPUP_EDGE`` x its centre table) and brings its men near it (``MOPUP_NEAR`` per king step
#: its men stand closer on average), so a won ending is played towards the mate instead of to
#: fifty moves. Weighed in from a lead of ``MOPUP_LEAD`` to twice that (no jump for a search to
#: chase).
MOPUP_LEAD = 400
MOPUP_EDGE = 4
MOPUP_NEAR = 10


class Evaluator:
    """Evaluates positions of one variant (tables built once)."""

    def __init__(self, variant: Variant) -> None:
        self.v = variant
        self.tables: PieceTables = piece_tables(variant)
        v = variant
        self.is_royal = v.is_royal
        # Non-royal material at the start: the game phase is the share of it still on the board.
        self.start_material = max(1, sum(self.tables.values[c] for c in v.start_board if c and not v.is_royal[c]))
        self.codes_by_kind = [[v.code(k, s) for s in range(v.nsides)] for k in range(len(v.kinds))]
        self.neighbours = _neighbours(v)
        self.mop_up = v.royalty == "checkmate"
        self.coords = v.geometry.coords
        xs = [x for x, _y in self.coords] or [0]
        ys = [y for _x, y in self.coords] or [0]
        self.span = max(max(xs) - min(xs), max(ys) - min(ys))

    def scores(self, pos: Position) -> list[int]:
        """Each side's score in centipawns (higher is better for that side)."""
        v = self.v
        owner = v.owner
        values = self.tables.values
        placement = self.tables.placement
        scores = [0] * v.nsides
        by_side = [0] * v.nsides
        material = 0
        royals: list[tuple[int, int]] = []
        is_royal = self.is_royal
        for cell, code in enumerate(pos.board):
            if not code:
                continue
            side = owner[code]
            if is_royal[code]:
                royals.append((cell, code))
                scores[side] += values[code]  # 0 unless royals may be taken (not game material)
                continue
            value = values[code]
            material += value
            by_side[side] += value
            scores[side] += value + placement[code][cell]
        for side, hand in enumerate(pos.hands):
            for kind, count in hand.items():
                if count > 0 and kind < len(self.codes_by_kind):
                    value = values[self.codes_by_kind[kind][side]]
                    scores[side] += int(HAND_SHARE * value * count)
                    material += value * count
        if royals:
            phase = min(1.0, material / self.start_material)  # 1 at the start, 0 with bare royals
            board = pos.board
            for cell, code in royals:
                side = owner[code]
                centre = self.tables.royal_centre[code][cell]
                shield = sum(1 for n in self.neighbours[cell] if owner[board[n]] == side)
                # a royal hides while the board is full and walks to the middle when it empties
                scores[side] += int(phase * (SHIELD * shield - centre) + (1 - phase) * centre)
            if self.mop_up and max(by_side) - min(by_side) > MOPUP_LEAD:
                self._mop_up(pos, royals, by_side, scores)
        scores[pos.side] += TEMPO
        v.rules.evaluate(pos, values, scores)
        return scores

    def _mop_up(self, pos: Position, royals: list[tuple[int, int]], by_side: list[int], scores: list[int]) -> None:
        """A side far ahead in material: the enemy royal to the edge, its own men near it."""
        owner = self.v.owner
        coords = self.coords
        span = self.span
        board = pos.board
        for cell, code in royals:
            enemy = owner[code]
            centre = self.tables.royal_centre[code][cell]
            rx, ry = coords[cell]
            for side in range(len(scores)):
                lead = by_side[side] - by_side[enemy]
                if side == enemy or lead <= MOPUP_LEAD:
                    continue
                near = men = 0
                for c, p in enumerate(board):
                    if p and owner[p] == side:
                        x, y = coords[c]
                        near += span - max(abs(x - rx), abs(y - ry))
                        men += 1
                weight = min(1.0, (lead - MOPUP_LEAD) / MOPUP_LEAD)
                scores[side] += int(weight * (MOPUP_NEAR * near / max(1, men) - MOPUP_EDGE * centre))

    def relative(self, pos: Position, side: int) -> int:
        """The position's worth for ``side``: its score less the mean of the other sides'."""
        scores = self.scores(pos)
        n = len(scores)
        if n == 2:
            return scores[side] - scores[1 - side]
        return scores[side] - (sum(scores) - scores[side]) // (n - 1)


def _neighbours(v: Variant) -> list[tuple[int, ...]]:
    """Cells one king step away (the grid's eight neighbours that exist), for the royal shield."""
    g = v.geometry
    out: list[tuple[int, ...]] = []
    for cell in range(g.size):
        near = []
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                if dx or dy:
                    t = g.step((dx, dy))[cell]
                    if t >= 0:
                        near.append(t)
        out.append(tuple(near))
    return out
