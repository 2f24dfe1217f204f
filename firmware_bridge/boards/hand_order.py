"""In which order to deliver the changes one full report of a maker board shows.

A Millennium board reports the whole board once a scan; the changes one report holds carry no
order of their own (nor do a DGT dump's differences). The referee reads events one at a time,
so the order chosen is a reading: when the next player's hand is already at work in the same
scan as the mover's piece going on from a cell it paused on, square order could put the
next player's lift first, and the referee would take the pause for the move (seen: a queen
sliding e5-d5-c5 read as e5-d5 when White lifted c2 in the scan that showed the queen on c5).

So the order is one hands can make, with the hand that was at work last finishing first:

1. the piece put down last before this report, when it is lifted in it (it goes on: a slide's
   next cell), then the piece put down again with the same letter; a cell it lands on that
   held a piece is emptied just before (a victim taken off);
2. the pieces put down that were lifted before this report (no lift in it has their letter):
   the hand that held one finishes before the other hand makes a whole move (seen: Black's
   rook retaking on d8 while White's queen went d1-b1 in the same scan);
3. every other piece lifted and put down again in this report, the same way (lift, then place);
4. the remaining lifts, then the remaining placements (a piece goes down after it was lifted),
   each in square order.

Nothing is added or dropped: only the order of the report's own changes.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..events import LIFT, PLACE

#: (cell, LIFT or PLACE, piece letter)
Change = tuple[int, str, str]


def hand_order(before: Sequence[str | None], after: Sequence[str | None], last_placed: int | None) -> list[Change]:
    """The changes from ``before`` to ``after`` (a piece letter or None per cell), ordered as
    above. ``last_placed``: the cell where a piece was last put down (None: unknown)."""
    lifts = [c for c in range(len(before)) if before[c] is not None and before[c] != after[c]]
    places = [c for c in range(len(after)) if after[c] is not None and before[c] != after[c]]
    out: list[Change] = []
    lifted: set[int] = set()
    placed: set[int] = set()

    def lift(cell: int) -> None:
        if cell not in lifted:
            lifted.add(cell)
            piece = before[cell]
            assert piece is not None
            out.append((cell, LIFT, piece))

    def moved(source: int) -> None:
        """``source``'s piece lifted and, when the report puts one down with its letter, put down."""
        piece = before[source]
        assert piece is not None
        lift(source)
        target = next((c for c in places if c not in placed and after[c] == piece and c != source), None)
        if target is None:
            return
        if before[target] is not None:
            lift(target)  # (a victim there: off before the piece goes on)
        placed.add(target)
        out.append((target, PLACE, piece))

    if last_placed is not None and last_placed in lifts:
        moved(last_placed)
    for cell in places:
        piece = after[cell]
        if cell not in placed and not any(before[c] == piece for c in lifts if c not in lifted):
            if before[cell] is not None:
                lift(cell)  # (a victim there: off before the piece goes on)
            placed.add(cell)
            assert piece is not None
            out.append((cell, PLACE, piece))
    for cell in lifts:
        if cell not in lifted and any(after[c] == before[cell] and c not in placed for c in places):
            moved(cell)
    for cell in lifts:
        lift(cell)
    for cell in places:
        if cell not in placed:
            piece = after[cell]
            assert piece is not None
            out.append((cell, PLACE, piece))
    return out
