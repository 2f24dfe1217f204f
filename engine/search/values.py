"""Piece values and placement tables for the search, derived from the variant's data.

A kind with a ``value`` in its variant file is worth that many pawns (x100 centipawns). A kind
without one is valued by its mobility: the average number of cells its move tables reach from
every cell of an empty board, on the scale where chess's own men come out near their usual worth
(knight 5.25 cells -> 233, rook 14 -> 522, queen 22.75 -> 811). A promoting kind without a value
is a pawn (100). A kind whose movement is coded (a ``hook``) reaches no table cells: 300. A royal
kind is worth nothing under checkmate rules (losing it is the end) and 1,500 plus its mobility
where royals are taken.

Placement tables come from the same count: a man is worth a little more where it reaches more
cells (centralisation falls out of the geometry, also on rings and two boards), a promoting man
more the nearer it stands to its promotion zone. Royal pieces have their own table, used by the
evaluation's royal-safety term.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..variant import Variant

#: Centipawns per mobility cell, and the base every kind gets (see the module docstring).
PER_CELL = 33
BASE = 60
HOOKED = 300
CAPTURABLE_ROYAL = 1500
PAWN = 100
#: Centipawns per cell reached above the kind's average, in the placement tables.
PLACEMENT_PER_CELL = 4
#: A promoting man's bonus on the cell next to its zone (less the farther it stands).
ADVANCE = 70


def reach(v: Variant, code: int, cell: int) -> int:
    """Cells the piece ``code`` reaches from ``cell`` on an empty board (moves or captures)."""
    targets = {t for t, *_ in v.leaps[code][cell]}
    for ray, *_ in v.rides[code][cell]:
        targets.update(ray)
    return len(targets)


@dataclass(frozen=True)
class PieceTables:
    """Per piece code: material (``values``), placement bonus per cell (``placement``); per cell:
    how central it is for a royal (``royal_centre``, cells a queen-like step reaches, centred)."""

    values: tuple[int, ...]
    placement: tuple[tuple[int, ...], ...]
    royal_centre: tuple[tuple[int, ...], ...]


def piece_tables(v: Variant) -> PieceTables:
    size = v.geometry.size
    values = [0] * v.max_code
    placement: list[tuple[int, ...]] = [(0,) * size for _ in range(v.max_code)]
    royal_centre: list[tuple[int, ...]] = [(0,) * size for _ in range(v.max_code)]
    for code in v.all_codes():
        kind = v.kinds[v.kind_at[code]]
        side = v.owner[code]
        counts = [reach(v, code, c) for c in range(size)]
        mean = sum(counts) / size if size else 0.0
        centred = tuple(round(PLACEMENT_PER_CELL * (n - mean)) for n in counts)
        if kind.royal:
            royal_centre[code] = centred
            if v.royalty != "checkmate":
                # A royal that can be taken: losing it may not end the game at once (Royal Fury
                # loses on the second fury, draws when both sides lost one), so it is worth more
                # than any man, and the search never gives it away for nothing.
                values[code] = CAPTURABLE_ROYAL + round(PER_CELL * mean)
            continue
        if kind.value > 0:
            values[code] = kind.value * 100
        elif kind.pawn:
            values[code] = PAWN
        elif mean == 0:
            values[code] = HOOKED
        else:
            values[code] = round(BASE + PER_CELL * mean)
        placement[code] = _advance(v, code, side) if kind.pawn else centred
    return PieceTables(tuple(values), tuple(placement), tuple(royal_centre))


def _advance(v: Variant, code: int, side: int) -> tuple[int, ...]:
    """A promoting man's bonus per cell: larger the fewer of its own moves it needs to reach its
    promotion zone (a walk over the empty board's move tables, so any geometry works)."""
    size = v.geometry.size
    zone = set(v.promotion_zones[side]) if side < len(v.promotion_zones) else set()
    if not zone:
        fx, fy = v.forward[side]
        depth = [x * fx + y * fy for x, y in v.geometry.coords]
        low, high = min(depth), max(depth)
        span = (high - low) or 1
        return tuple(round(ADVANCE * ((d - low) / span) ** 2) for d in depth)
    # distance to the zone along the piece's own moves, walked backwards from the zone
    forward: list[set[int]] = [set() for _ in range(size)]
    for c in range(size):
        for t, *_ in v.leaps[code][c]:
            forward[c].add(t)
        for ray, *_ in v.rides[code][c]:
            forward[c].update(ray[:1])
    back: list[list[int]] = [[] for _ in range(size)]
    for c in range(size):
        for t in forward[c]:
            back[t].append(c)
    dist = [-1] * size
    frontier = list(zone)
    for c in frontier:
        dist[c] = 0
    while frontier:
        nxt = []
        for c in frontier:
            for p in back[c]:
                if dist[p] < 0:
                    dist[p] = dist[c] + 1
                    nxt.append(p)
        frontier = nxt
    far = max(dist) or 1
    return tuple(0 if d <= 0 else round(ADVANCE * ((far - d + 1) / far) ** 2) for d in dist)
