"""When a "Which move did you make?" over moves worked out together may be put to the players,
on a board that scans its squares in turn (a DGT board; issue 23: a question is only useful if
the players can answer it truthfully).

Each option of such a question is a sequence of moves, and the last move of one of them may be
a slide that has only paused: the piece resting on a square it crosses on its way (the next
player's pawn shown on e6 on its way to e5, a rook shown on b8 on its way to d8). Asked then,
no option is what the hands are doing, and once the piece goes on the board is often no longer
ambiguous at all (the reading whose piece goes on from the square where the mover's piece
rested needs that piece's next move put down before the reply's). A single reading that could
slide on is provisional until the hand has let go (``hesitate_ms`` of quiet, a scan more on such
a board), or, once the next player has a hand on a man, until its piece has rested
``Timing.drag_wait()`` from the report of its square (docs/controller.md, "When a reading
becomes final"); the question waits for the same, for the last move of each option. Read from
the engine's moves alone (no variant is special)."""

from __future__ import annotations

from engine import Move, Position

from .core_types import Timing
from .readings import Readings
from .signatures import MoveIndex


def resting_until(hands: Readings, position: Position, identity: bool, timing: Timing,
                  seqs: list[tuple[Move, ...]]) -> int | None:
    """When the piece put down by the last move of any of ``seqs`` has rested long enough not
    to be a slide paused on its way, for a last move whose piece could still slide on
    (``MoveIndex.drag_cells``) from a square the board reported it put down on: with a man of
    the next player's off its square (a hand at work), ``drag_wait`` after that report; else
    ``hesitate_ms`` and a scan after the latest event. None when no option ends in such a
    move."""
    until: list[int] = []
    observed = hands.observed
    for seq in seqs:
        if not seq:
            continue
        last = seq[-1]
        landed = [hands.placed_t[d] for s, d in last.relocations if s != d and d in hands.placed_t
                  and hands.observed[d]]
        if not landed:
            continue
        with position.after(*seq[:-1]):
            if not MoveIndex(position, identity).drag_cells(last):
                continue
            position.push(last)
            board, side_of = position.board, position.variant.side_of
            at_work = any(board[c] and not observed[c] and side_of(board[c]) == position.side
                          for c in range(len(board)))
        until.append(max(landed) + timing.drag_wait() if at_work
                     else hands.last_t + timing.hesitate_ms + timing.scan_ms)
    return max(until, default=None)
