"""A board that comes back: is what it shows a new game the players began while it was away?

A board that comes back (``Event.resync``, or a ``Session.sync``) showing the start position plus
a few moves (up to ``NEW_GAME_PLIES``) is a new game the players began while it was away: with no
game under way (setup, or the last game over) the session starts it and the core works the moves
out from the start; during a game the core first tries the moves from the game's own position,
and only when those do not explain the board is the question asked whether to start the new game
(the game under way is then kept, ended as abandoned; "no" keeps it and guides the board back). A
board that fits neither shows the cells to put right and waits: no game is ever dropped.

This module holds the pure part (what the board shows, found from the start position); the
session (``controller/session.py``) holds the state and asks the questions.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine import Move, Position

from .inference import RESYNC_PLIES
from .signatures import explain

#: After the board was away, how many plies from the start position count as a new game the
#: players began meanwhile: as many as the core works out from a game's position.
NEW_GAME_PLIES = RESYNC_PLIES


def readings_of(pos: Position, identity: bool) -> list[int]:
    """What the sensors read on a board showing ``pos``: piece codes on identity boards, else
    occupancy (1/0)."""
    return [code if identity else (1 if code else 0) for code in pos.board]


def moves_from_start(start: Position, observed: Sequence[int], identity: bool) -> list[tuple[Move, ...]]:
    """The ways the board as read is ``start`` plus 1 to ``NEW_GAME_PLIES`` legal moves (a
    capture's hidden cell need not have been seen: the board was away). ``start`` is left as
    it was."""
    observed = list(observed)
    start = start.copy()
    start_readings = readings_of(start, identity)
    diff = {c for c, v in enumerate(observed) if v != start_readings[c]}
    if not diff:
        return []
    found: list[tuple[Move, ...]] = []
    for move in start.legal_moves():
        start.push(move)
        if readings_of(start, identity) == observed:
            found.append((move,))
        start.pop()
    if found:
        return found
    return explain(start, observed, diff, set(), identity, strict=False, max_plies=NEW_GAME_PLIES)


def new_game_text(start: Position, seqs: Sequence[tuple[Move, ...]]) -> str:
    """``a new game (e4 e5)`` when the board shows one sequence of moves, else ``a new game``."""
    if len(seqs) != 1:
        return "a new game"
    pos = start.copy()
    texts = []
    for move in seqs[0]:
        texts.append(pos.move_text(move))
        pos.push(move)
    return f"a new game ({' '.join(texts)})"
