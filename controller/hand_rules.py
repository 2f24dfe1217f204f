"""Pure rules about what hands do on a board, from the engine's moves and the readings (no
variant is special): whether a reading waits for a hesitating hand, what a move looks like in
the hand, which cells a slider crosses, and which readings no hands could have made."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine import Move, Position, Variant

from .readings import Readings


def hesitant(extendable: bool, rest: frozenset[int], extension: frozenset[int]) -> bool:
    """Whether a reading waits for the hand to let go (``Timing.hesitate_ms``): the mover could
    still extend it, and no man is lifted besides the reading (``rest``) or one of those is a man
    an extension takes (``extension``: every cell an extension involves): a hand on it may be
    the mover's as much as the next player's, so both readings stand."""
    return extendable and (not rest or bool(rest & extension))


def put_back(move: Move, look: tuple[int, ...] | None) -> bool:
    """The move changes men where they stand into kinds that are the same physical man (an
    Illusionary Piece Chess choice: ``signatures.looks``), and nothing else: on the board it is
    a lift and a put-back of the same man. (Triscacia's pawn turned queen is a man replaced.)"""
    return (look is not None and bool(move.changes) and not move.relocations
            and all(b and a and look[b] == look[a] for _c, b, a in move.changes))


def between(variant: Variant, a: int, b: int) -> list[int]:
    """Cells strictly between ``a`` and ``b`` on one straight line (none if not on a line): the
    cells a slider crosses."""
    coords = variant.geometry.coords
    (x0, y0), (x1, y1) = coords[a], coords[b]
    dx, dy = x1 - x0, y1 - y0
    n = max(abs(dx), abs(dy))
    if not (dx == 0 or dy == 0 or abs(dx) == abs(dy)) or n < 2:
        return []
    ray = variant.geometry.ray(a, ((dx > 0) - (dx < 0), (dy > 0) - (dy < 0)))
    return list(ray[:n - 1]) if len(ray) >= n and ray[n - 1] == b else []


def takes_only(move: Move) -> bool:
    """The move only takes pieces off the board: on the sensors it is pieces in the hand."""
    return bool(move.changes) and not any(after for _c, _b, after in move.changes)


def taken_off_unlifted(lifted: Mapping[int, int], position: Position, seq: Sequence[Move]) -> bool:
    """Whether moves worked out together (``signatures.explain``) take a man off a cell that was
    empty in ``position`` and has not been lifted since (``lifted``: ``Readings.lifted_t``): a
    man one move of ``seq`` put there that a later one moves on or takes. No hand takes a man
    off a cell without the sensor seeing it empty (seen: f4-g3, d6xg3, f3xg3 read for Qf3-g3
    with Black's hand on the bishops of f4 and d6, g3 never lifted). Only for a board that
    reports every change as it happens: one that scans its squares in turn misses a man that
    stood under a scan."""
    board = position.board
    for move in seq:
        handled = {c for s, d in move.relocations if s != d for c in (s, d)}
        if any(b and b != a and not board[c] and c in handled and c not in lifted for c, b, a in move.changes):
            return True
    return False


def lifted_with_no_move(hands: Readings, position: Position, move: Move, rest: frozenset[int]) -> bool:
    """Whether the reading ``move`` took the way of a man of the next player's lifted beside
    it (``rest``) before its piece landed: that man could go to the cell the piece landed on
    while the piece rested short of it (on a cell it crosses, as the board showed), and has no
    move once ``move`` is made. The hand reached for it to move it there, so the reading is not
    what the board shows (seen: c1-g5, Black's hand on h7, White's on the bishop again, a man
    down on h6: read c1-h6 with the pawn of h7, blocked, in Black's hand; it was h7-h6, the
    bishop on its way to h4). A man lifted after the landing may be merely touched, and so may
    one that could not go there (a bishop touched as the queen took on f6 with check)."""
    board, side_of = position.board, position.variant.side_of
    slides = [(s, d) for s, d in move.relocations if s != d]
    landed = max((hands.cell_t.get(d, -1) for _s, d in slides), default=-1)
    theirs = {c for c in rest if board[c] and side_of(board[c]) != position.side
              and hands.lifted_t.get(c, landed) < landed}
    if len(slides) != 1 or not theirs:
        return False
    (frm, to), = slides
    rested = [x for x in between(position.variant, frm, to) if x in hands.cell_t]
    if not rested:
        return False
    reached: set[int] = set()
    for shorter in position.legal_moves():
        if shorter.relocations == ((frm, rested[-1]),):
            with position.after(shorter):
                reached |= {a for m in position.legal_moves() for a, b in m.relocations if a in theirs and b == to}
    if not reached:
        return False
    with position.after(move):
        moved = {c for m in position.legal_moves() for c, b, _a in m.changes if b}
    return not reached <= moved


def slid_on_further(hands: Readings, identity: bool, move: Move, going_on: frozenset[int], since: int) -> bool:
    """On an occupancy board, whether the piece of the reading ``move`` (shown since ``since``)
    has left the cell it went to and a man was put down on a cell it could go on to
    (``going_on``): by the latest event, or later than the piece left and standing there. The
    piece slid on, and a man put down elsewhere later is no reply on top of the reading (seen:
    c2-d3-e4 resting, then down on f5, the victim lifted first, then the next player's knight
    down on e3). A man put back further on while the piece still stood (a pawn touched) is no
    slide. (An identity board reads whose piece it is.)"""
    if identity:
        return False
    left = [hands.cell_t.get(d, since) for s, d in move.relocations if s != d and not hands.observed[d]]
    if not left:
        return False
    if hands.placed and hands.latest in going_on:
        return True
    after = max(since, min(left))
    return any(hands.observed[c] and hands.cell_t.get(c, after) > after for c in going_on)
