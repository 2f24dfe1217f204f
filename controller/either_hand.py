"""A cell whose handling may be either player's: the piece the last move just brought there
lifted and a man put back on it while the next player's hand was on a man of its own. On an
occupancy board that is the mover's piece lifted and put back (adjusted, or taken up to go on
and set down again) with the next player's man still in the hand, or the next player's
capture there, victim first: the piece just moved lifted, the attacker lifted and put down in
its place. Both readings agree on the move before, so it is final; which of the two the next
player's move is, the next event decides (``Readings.either``; docs/controller.md, "When a
reading becomes final"). No variant is special: everything comes from the legal moves."""

from __future__ import annotations

from .core_types import Game, Pending, PendingKind
from .hand_reading import Replies, handled_again, overlapping_hands, reply_on_top
from .readings import Readings
from .signatures import MoveIndex, Shape, Sig


def put_back_or_taken(hands: Readings, game: Game, index: MoveIndex, replies: Replies, shape: Shape,
                      since: int, sig: Sig) -> frozenset[int]:
    """The cells of the reading ``shape`` (shown since ``since``) whose handling either player
    may have done, or none: the piece just put down stands on a cell of the reading handled
    again since the board showed it (later than a bounce), and the board is both the reading
    with the next player's hand on a man (``overlapping_hands``) and the reading followed by a
    complete reply that involves those cells (``reply_on_top``: a capture there, victim first)."""
    cell = hands.latest
    if not hands.placed or cell not in shape.cells:
        return frozenset()
    again = handled_again(hands, game, shape, since)
    if cell not in again:
        return frozenset()
    peeled = overlapping_hands(hands, game, index, sig)
    if peeled is None or not peeled.lifted or peeled.shapes != (shape,):
        return frozenset()
    if not reply_on_top(hands, game, replies, shape, since, needs=again):
        return frozenset()
    return frozenset(again)


def needs_either(hands: Readings, shape: Shape) -> frozenset[int]:
    """The cells whose handling may be either player's (``Readings.either``) that the reading
    ``shape`` counts as its own: hidden cells (a victim's, on an occupancy board), which the
    reading needs handled. Such a reading is one of two; the other is the next player's man
    still in the hand, with the cell merely put back by the player before."""
    return shape.hidden & frozenset(hands.either)


def kept_through(hands: Readings, pending: Pending, shape: Shape) -> frozenset[int]:
    """The cells ``pending`` keeps as either player's while it waits for the rest of the board's
    report (the reading ``shape`` taken as the move by ``put_back_or_taken``; a board that scans
    its squares in turn holds it a scan), when the event since is a man lifted elsewhere: the
    next player's reply begun, which changes neither reading."""
    if (hands.placed or hands.latest in shape.cells or pending.kind != PendingKind.MOVE
            or pending.shapes != (shape,)):
        return frozenset()
    return pending.notes.either_kept
