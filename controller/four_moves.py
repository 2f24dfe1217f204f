"""Flurries of four moves: the hands outran the board by a move more than the live reading
works out (three moves merged at most: ``Deadlines._resolve_unmatched``), so that nothing read
the board as it changed (issue 23; seed 4019: d1c1 c2d3 c1d1 d3c4 within 800 ms, the rook back
where it began).

Read when nothing else reads the board (nor with the next player's man at work, ``next_hand``):
the sequences of four legal moves that leave it as observed, every cell they change handled,
that

- began and were put down in turn as reported (``scan_guard.in_turn``,
  ``two_readings.landed_in_turn``). FOUR_MOVES of ``tests/test_controller_scan_guard.py`` (f1e1
  a7a6 e3c1 c6e7 within half a second) stays unread: its pawn is reported on a6 after the
  bishop on c1, within a scan;
- take no man that an earlier move of them put where it stands. Four moves are worked out only
  where no man may as well be in a hand: White's bishop lifted from e3 as the victim of Black's
  bishop, resting on d4, is no c1e3 b6c5 e3d4 c5xd4 (seed 4004).

Of several, those that put a man wherever the board showed one (``next_hand.stood_where_shown``)
and, of the same moves in several orders, the one begun in turn without a scan's give. One left
is the moves made (the last read again); a few are asked about; more, and the board is listed
as wrong, as before.
"""

from __future__ import annotations

from engine import Move, Position

from .next_hand import stood_where_shown
from .readings import Readings
from .scan_guard import in_turn, same_moves_in_order
from .signatures import Budget, explain
from .two_readings import landed_in_turn

#: Moves a flurry's search may try: every move tried must change only handled cells, so a board
#: with a few cells handled allows few of them at each ply.
SEARCH_NODES = 20_000
PLIES = 4


def four_moves(hands: Readings, position: Position, identity: bool, scan_ms: int) -> list[tuple[Move, ...]]:
    """The readings of the board as four moves made in turn (the module's rule), or none."""
    found = [seq for seq in explain(position, hands.observed, set(hands.diff), hands.touched, identity,
                                    strict=True, max_plies=PLIES, handled_only=True, budget=Budget(SEARCH_NODES))
             if len(seq) == PLIES]
    found = [seq for seq in in_turn(hands, scan_ms, found) if landed_in_turn(hands, seq) and not _takes_its_own(seq)]
    if len(found) > 1:
        found = [seq for seq in found if stood_where_shown(hands, position, seq)] or found
    return same_moves_in_order(hands, found)


def _takes_its_own(seq: tuple[Move, ...]) -> bool:
    """Whether a move of ``seq`` takes a man on a cell an earlier move of ``seq`` put a man on."""
    put: set[int] = set()
    for move in seq:
        if any(c in put for c in move.victims):
            return True
        put |= {d for s, d in move.relocations if s != d}
    return False
