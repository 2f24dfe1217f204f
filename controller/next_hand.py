"""Moves worked out together while the next player's hand is already on a man (issue 23:
flurries of quick moves).

Quick hands make two or three moves in about the time a board that scans its squares in turn
takes to report them, and the player whose turn comes next has often lifted his man before the
last of them is reported: Bf1-b5 (held a scan, as it could go on to a6), c7-c6, Bb5-a4, with
Black's bishop already off f8. ``signatures.explain`` works out moves that leave the board as
observed, so that lifted man, which no move of the sequence moves, leaves it nothing; the
referee waited ``guide_ms`` for the hand, and meanwhile the bishop landed on e7 and made the
board four moves ahead, past the three worked out at once (seed 3012).

``with_the_next_hand_at_work`` reads such a board as the moves with that man put back in
thought: one man of the side to move after them, lifted from its square (or lifted and put
down where a legal move of his takes it: a rook resting on its way), which none of the moves
touches. It is the move that player is making next; what comes of it is read as usual,
once the moves before are final. A sequence that puts a man where the board never showed it
and takes it there is left out: that man may as well be in a hand on its way (``two_readings``),
the board then one move of the next player's, which these boards read as usual.
"""

from __future__ import annotations

from engine import Move, Position

from .hand_rules import between
from .readings import Readings
from .scan_guard import began, in_turn, same_moves_in_order
from .signatures import Budget, explain
from .two_readings import puts_and_takes_unseen


def with_the_next_hand_at_work(hands: Readings, position: Position, identity: bool, scan_ms: int,
                               max_plies: int) -> list[tuple[tuple[Move, ...], int]]:
    """The sequences of 2 to ``max_plies`` moves that leave the board as observed but for the
    next player's man at work: lifted from its square, or lifted and put on an empty cell by a
    legal move of his after them (a rook resting on b8 on its way to d8). The man is of the side
    to move after them, none of them touches its cells, none of that side's moves of them could
    have taken it along (a castling's king after its rook), and it was lifted after each of them
    began (a man only lifted: give or take a scan), the moves themselves begun in turn
    (``scan_guard.in_turn``). Each with that man's first cell."""
    lifted = [cell for cell, now in hands.diff.items() if not now and hands.expected[cell]]
    if len(lifted) > MAX_LIFTED:
        return []  # a board that far from the game is no flurry
    put = [cell for cell, now in hands.diff.items() if now and not hands.expected[cell]]
    found: list[tuple[tuple[Move, ...], int]] = []
    for cell in lifted:
        side = position.variant.side_of(position.board[cell])
        # (Its latest event is the lift that holds it now: a man touched and put back before the
        # moves, then lifted again, is at work from that second lift.)
        lifted_at = hands.cell_t.get(cell, hands.last_t)
        for to in (None, *put):
            observed = list(hands.observed)
            observed[cell] = hands.expected[cell]
            if to is not None:
                observed[to] = 0
            mans = {cell} if to is None else {cell, to}
            # A man moved on top of the moves must have been lifted after each of them began, as
            # reported: a complete move of the next player fits far more boards than a lift.
            give = scan_ms if to is None else 0
            budget = Budget(SEARCH_NODES)
            for seq in explain(position, observed, set(hands.diff) - mans, hands.touched, identity,
                               strict=True, max_plies=max_plies, handled_only=True, budget=budget):
                if (not any(move.changed_cells & mans for move in seq)
                        and all(began(hands, move) <= lifted_at + give for move in seq)
                        and in_turn(hands, scan_ms, [seq])
                        and _side_after(position, seq) == side
                        and (to is None or _moves_after(position, seq, cell, to))
                        and not _part_of_a_bigger_move(position, seq, cell, side)
                        and not puts_and_takes_unseen(hands, position, identity, scan_ms, seq, observed)):
                    # (A man put where the board never showed it and taken there may as well be
                    # in a hand on its way: ``two_readings``.)
                    found.append((seq, cell))
    return found


def the_one_with_the_next_hand(hands: Readings, position: Position, identity: bool, scan_ms: int, max_plies: int,
                               first_within: frozenset[int] | None) -> tuple[Move, ...] | None:
    """The one sequence ``with_the_next_hand_at_work`` reads the board as, if one is left, its
    first move within ``first_within`` (a reading held for the next player's hand: the mover's
    move is that reading or goes on from it). Of several: those in which every man stood where
    the board showed it, and of the same moves in several orders the one begun in turn as
    reported (no scan's give)."""
    found = {seq for seq, _cell in with_the_next_hand_at_work(hands, position, identity, scan_ms, max_plies)
             if first_within is None or seq[0].changed_cells <= first_within}
    if len(found) > 1:
        found = {seq for seq in found if stood_where_shown(hands, position, seq)}
        found = set(same_moves_in_order(hands, list(found)))
    return next(iter(found)) if len(found) == 1 else None


def stood_where_shown(hands: Readings, position: Position, seq: tuple[Move, ...]) -> bool:
    """Whether every cell empty in the game and now that a piece was put on meanwhile (handled)
    is where a move of ``seq`` lands or a cell its man crosses: a queen shown on d3 and lifted
    again was on d3 (f1d3, then d3e3 after the reply), not merely near the way from e2 to e3
    (f1e2, then e2e3; seed 4008, the queen resting on e2 on its way to d3)."""
    crossed: set[int] = set()
    for move in seq:
        for frm, to in move.relocations:
            crossed.add(to)
            crossed.update(between(position.variant, frm, to))
    return all(c in crossed for c in hands.touched if not hands.observed[c] and not hands.expected[c])


#: Men lifted from their squares beyond which a board is not read this way.
MAX_LIFTED = 4
#: Moves the search for each lifted man may try (``signatures.Budget``).
SEARCH_NODES = 4000


def _side_after(position: Position, seq: tuple[Move, ...]) -> int:
    """The side to move once ``seq`` is played (multi-move turns and three sides included)."""
    with position.after(*seq):
        return position.side


def _moves_after(position: Position, seq: tuple[Move, ...], frm: int, to: int) -> bool:
    """Whether, once ``seq`` is played, a legal move takes the man on ``frm`` to ``to``."""
    with position.after(*seq):
        return any(m.relocations == ((frm, to),) for m in position.legal_moves())


def _part_of_a_bigger_move(position: Position, seq: tuple[Move, ...], cell: int, side: int) -> bool:
    """Whether a move of ``side`` in ``seq`` is part of a legal move that also moves the man on
    ``cell``: the rook of a castling, its king still in the hand."""
    with position.after():
        for move in seq:
            changed = move.changed_cells
            if position.side == side and any(
                    cell in cells and changed < cells
                    for m in position.legal_moves()
                    if (cells := m.changed_cells)):
                return True
            position.push(move)
    return False
