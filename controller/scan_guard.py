"""When the next player's hand may end a reading that could go on, on a board that scans its
squares in turn (``Timing.scan_ms``: a DGT board), and how the board is read when more moves
came meanwhile.

Such a board reports a square when its scan reaches it (a full scan 200-250 ms), so the next
player's hand can be reported before the mover's piece going on from the square it paused on,
whenever that hand's square comes first in the scan: a slide resting on e2 that goes on to f3
just as Black lifts b8 is reported b8 first, then f3 and e2 up to a scan later. But had the piece
left its square before the next player's first event, the scan reached that square within one
scan of that event and reported it there. So a reading that could go on ends, through the next
player's hand, only one scan (and ``SCAN_MARGIN_MS``) after the report of the next player's
first event (issue 23: hesitant slides were read short on the emulated DGT board), or once the
board has visited the piece's square after that report (``seen_going_on_by``). A move that
cannot be extended is not held.

Meanwhile the next player's hand goes on (a piece resting on its way, a whole move): once the
wait is over, ``mover_move`` reads the mover's move from the cells the reading's piece could
reach alone, and the rest of the board is read again as the next player's.
"""

from __future__ import annotations

import math
from itertools import pairwise

from engine import Move, Position, Variant

from .core_types import SCAN_MARGIN_MS, ShownReading, Timing
from .readings import Readings
from .signatures import MoveIndex, Shape, explain, looks, seen

#: The shortest period a board declaring ``scan_ms`` may really scan at, as a share of it (a DGT
#: board declares 250 ms until it has measured its own, 200-250 ms).
VISIT_SLACK = 0.8
#: A visit this long after the next player's first report is taken as after that event.
VISIT_LEAD_MS = 20


def next_player_started(hands: Readings, cells: frozenset[int], going_on: frozenset[int], since: int) -> int | None:
    """When the next player's first event on the board came: the earliest event on a cell
    outside the reading (``cells``, and ``going_on``: where its piece may still go) that differs
    from the game, or was handled after the board first showed the reading (``since``). None
    if there is none."""
    outside = cells | going_on
    lifted = set(hands.diff) - outside
    later = hands.since(since) - outside - lifted
    times = [hands.first_since(c, -1) for c in lifted] + [hands.first_since(c, since) for c in later]
    return min(times) if times else None


def scan_guard(hands: Readings, timing: Timing, cells: frozenset[int], going_on: frozenset[int],
               since: int) -> int | None:
    """When a reading that may still go on (``going_on`` not empty) is final through the next
    player's hand on a board that scans its squares in turn; None when nothing holds it (not
    such a board, a reading that cannot go on, no next player's event yet)."""
    if not timing.scans_in_turn() or not going_on:
        return None
    first = next_player_started(hands, cells, going_on, since)
    return None if first is None else held_until(hands, timing, cells, going_on, first)


def held_until(hands: Readings, timing: Timing, cells: frozenset[int], going_on: frozenset[int], first: int) -> int:
    """``scan_guard`` once the next player's first event is known (reported at ``first``)."""
    return seen_going_on_by(hands, timing, cells, going_on, first) + SCAN_MARGIN_MS


def seen_going_on_by(hands: Readings, timing: Timing, cells: frozenset[int], going_on: frozenset[int],
                     first: int) -> int:
    """By when the board has reported the reading's piece going on, had it gone on before the
    next player's first event (reported at ``first``, so made at most a scan before): one scan
    after that report, or sooner, the next visit of the square the piece stands on. The board
    visits each square once a scan, so that square is next visited a whole number of scans
    after it reported the piece there; a visit at or after ``first`` comes after the next
    player's event, and had the piece left before, that visit reports it lifted. (Counted with
    a period down to ``VISIT_SLACK`` of the one declared, so that an estimate a little long,
    or the slowest period declared before the board's own is known, never puts the visit
    before the event.) Only for a piece sliding on along empty squares: a capture or the second
    half of a bigger move (a castling's king) shows on other squares, and waits the scan."""
    full = first + timing.scan_ms
    stands = [c for c in cells if hands.diff.get(c)]
    if not stands or any(hands.expected[c] for c in going_on - cells) or any(c not in hands.cell_t for c in stands):
        return full
    due = first
    for c in stands:
        reported = hands.cell_t[c]
        scans = max(0, math.ceil((first + VISIT_LEAD_MS - reported) / (timing.scan_ms * VISIT_SLACK)))
        due = max(due, reported + scans * timing.scan_ms)
    return min(full, due)


def rest_of_move_in_hand(hands: Readings, timing: Timing, shape: Shape, ext: frozenset[int]) -> bool:
    """On a board that scans its squares in turn: the reading's piece is lifted again from where
    it stands (it may be going on), or a man of the bigger move the reading may be the first
    half of (``ext``: a castling's king) is lifted. The next player's piece put down meanwhile
    may be reported before that man's landing (a castling's king put on g1 as Black puts a pawn
    down on d6: d6 comes first in the scan; a rook resting on c2 goes on to c4 as Black's rook
    goes down on b8), so it does not make the reading the move: the mover's hand is still at
    work, and where the piece lands decides."""
    if not timing.scans_in_turn():
        return False
    landed = {d for s, d in shape.move.relocations if s != d}
    return (any(not hands.observed[d] for d in landed)
            or any(hands.diff.get(c) == 0 and hands.expected[c] for c in ext))


def mover_move(hands: Readings, index: MoveIndex, position: Position, identity: bool, shape: Shape,
               going_on: frozenset[int], started: int | None) -> Shape | None:
    """The mover's move as the board shows it once the reading ``shape`` is final through the
    next player's hand (whose first event came at ``started``, ``next_player_started``): the
    reading, or the legal move to where
    its piece went on (among the cells ``going_on``), read from the board's differences on those
    cells alone (the rest is the next player's, read afterwards). None unless exactly one fits,
    and none while a man of the mover's was off its cell or (on an identity board) put down
    elsewhere before the next player started: then the mover did more than that move (a rook
    lifted before the bishop's move shown, in a flurry of four). (After, it is the mover's next
    move, made on top of the reply.)"""
    cells = shape.cells | going_on
    side, board, variant = position.side, position.board, position.variant
    for c, v in hands.diff.items():
        if c in cells or (started is not None and hands.first_since(c, -1) > started):
            continue
        if board[c] and variant.side_of(board[c]) == side and v != hands.expected[c]:
            return None
        if identity and v > 0 and variant.side_of(v) == side:
            return None
    sig = frozenset((c, v) for c, v in hands.diff.items() if c in cells)
    found = [s for s in index.match(sig, hands.touched & cells) if s.cells <= cells]
    return found[0] if len(found) == 1 else None


def short_of_the_reading(reading: ShownReading, shape: Shape) -> bool:
    """Whether ``shape`` moves the reading's piece from the same cell to a cell none of the
    reading's own or its going on: back short of where the board showed it. Once the next
    player started on top of the reading, that is no going on of it, so not the move: the
    reading was, and the rest is its next move (seed 4019, phase 0.923: the rook shown on d1 for
    0.8 s, White's king lifted, the rook back on c1, read as a1c1 with the king's lift peeled
    off, where it was a1d1, then d1c1 after Kd4-c5). Another piece's move is not (seed 5003)."""
    move, shown = shape.move, reading.shape.move
    if shape is reading.shape or move.frm < 0 or move.frm != shown.frm or move.piece != shown.piece:
        return False
    return not shape.cells <= reading.shape.cells | reading.going_on


def can_go_on(index: MoveIndex, shape: Shape) -> bool:
    """Whether the mover could still extend the move ``shape`` reads: its piece slide on, or
    the move be the first half of a bigger one."""
    move = shape.move
    return bool(index.drag_cells(move) or (shape.sig and index.extension_cells(shape.sig, shape.cells))
                or index.continuation_cells(move, shape.cells))


def in_turn(hands: Readings, scan_ms: int, seqs: list[tuple[Move, ...]]) -> list[tuple[Move, ...]]:
    """Of several sequences of moves that explain the board, those whose moves began in turn:
    each move's first event (the earliest on the cells it lifts its pieces from) no later than the next
    one's, give or take one scan (a board that scans its squares in turn reports a scan's
    changes in square order). A move whose first event came more than that after a later
    move's began was not made before it (seen: a king's castling on g1 reported 600 ms before
    the pawn of the move read as made first)."""

    return [seq for seq in seqs if all(a <= b + scan_ms for a, b in pairwise(began_in(hands, seq)))]


def began_in(hands: Readings, seq: tuple[Move, ...]) -> list[int]:
    """When each move of ``seq`` began (``began``); but a move that lifts its piece from a cell
    an earlier move of ``seq`` put a piece on, and no later one does, began with that cell's
    latest event, its lift: the cell's first lift since the last final move may be an older
    man's (a bishop that crossed d3 on its way to c2, then one put on d3 and taken on to c4 in
    the flurry after it: seed 4019)."""
    out: list[int] = []
    for i, move in enumerate(seq):
        landed = {d for m in seq[:i] for s, d in m.relocations if s != d}
        later = {d for m in seq[i + 1:] for s, d in m.relocations if s != d}
        again = [hands.cell_t[s] for s, d in move.relocations
                 if s != d and s in landed and s not in later and s in hands.cell_t and not hands.observed[s]]
        out.append(min(again) if again else began(hands, move))
    return out


def same_moves_in_order(hands: Readings, seqs: list[tuple[Move, ...]]) -> list[tuple[Move, ...]]:
    """Of the same moves in several orders (so the same board: a player's two moves, the other
    player's between, either way round), the one whose moves began in the order reported, no
    scan's give, if exactly one has it; else ``seqs`` as they are."""
    if len(seqs) > 1 and len({frozenset(seq) for seq in seqs}) == 1:
        ordered = in_turn(hands, 0, seqs)
        if len(ordered) == 1:
            return ordered
    return seqs


def began(hands: Readings, move: Move) -> int:
    """When ``move``'s first event came: the earliest on the cells it lifts its pieces from. (A
    move begins where its pieces are lifted: a cell it lands on may have been handled before,
    by the move before.)"""
    cells = {s for s, d in move.relocations if s != d} or move.changed_cells
    return min((_lifted_for_good(hands, c) for c in cells if c in hands.cell_t), default=hands.last_t)


def _lifted_for_good(hands: Readings, cell: int) -> int:
    """When ``cell``'s man was lifted for the move: its first lift since the last final move,
    but its latest event when it was put back since and is empty now (a man lifted and put
    back was touched, not moved: seed 4014, the bishop on b5 lifted and put back before g5h4,
    then taken to c4 after Black's reply, read as moved first)."""
    first = hands.first_since(cell, -1)
    if hands.placed_t.get(cell, -1) > first and not hands.observed[cell]:
        return hands.cell_t[cell]
    return first


def merged_hold(hands: Readings, position: Position, identity: bool, timing: Timing,
                seq: tuple[Move, ...]) -> int | None:
    """When the earlier moves of ``seq`` (moves merged on the board, worked out together) may be
    final on a board that scans its squares in turn: a move that could go on is held, as a
    reading shown is (``scan_guard``), until one scan after the next move's first event, for
    its piece going on to be reported (seen: a pawn resting on f6 on its way to f5 as White's
    rook went a1-b1, all behind White's move before: read f7f6); or, like a reading, until the
    board has visited the square the piece stands on after that event (``seen_going_on_by``),
    when no later move of ``seq`` handles its cells. None: nothing holds them."""
    if not timing.scans_in_turn() or len(seq) < 2:
        return None
    hold: int | None = None
    with position.after():
        for i, (move, after) in enumerate(pairwise(seq)):
            index = MoveIndex(position, identity)
            if can_go_on(index, Shape(move, identity)):
                first = began(hands, after)
                cells = move.changed_cells
                later = {c for m in seq[i + 1:] for c in m.changed_cells}
                drag = index.drag_cells(move)
                alone = bool(drag) and not cells & later and not can_go_on_beyond_drag(index, move, identity)
                due = (seen_going_on_by(hands, timing, cells, drag, first) if alone
                       else first + timing.scan_ms) + SCAN_MARGIN_MS
                hold = due if hold is None else max(hold, due)
            position.push(move)
    return hold


def can_go_on_beyond_drag(index: MoveIndex, move: Move, identity: bool) -> bool:
    """Whether ``move`` may be the first half of a bigger move (more than its piece sliding on)."""
    shape = Shape(move, identity)
    return bool((shape.sig and index.extension_cells(shape.sig, shape.cells))
                or index.continuation_cells(move, shape.cells))


def taken_beyond_shown(position: Position, shown: Move, seq: tuple[Move, ...]) -> bool:
    """Whether ``seq`` begins with the piece of the reading ``shown`` going on to a cell the
    board never showed it on, where a later move of ``seq`` takes it with a piece that stands
    there on the straight way from its own cell to where the reading was shown. On a board that
    scans its squares in turn the next player's hand reads that way while it is at work: the
    mover's rook shown on d5 and lifted, Black's rook from d8 put down on d6 on its way to take
    it, reads d1d6 d8xd6 (seen) as well as d1d5 and a capture under way. (A bishop shown on f6
    that takes on e5 and is taken back by a pawn from d4 at once is no such reading: the pawn
    was never on its way to f6.)"""
    first = seq[0]
    if first == shown or len(seq) < 2:
        return False
    went = {s: d for s, d in first.relocations if s != d}
    beyond = {went[s]: d for s, d in shown.relocations if s in went and went[s] != d}
    ways = [(src, beyond[dst]) for move in seq[1:] for src, dst in move.relocations
            if dst in beyond and _between(position.variant, src, dst, beyond[dst])]
    if not ways:
        return False
    with position.after(shown):
        # (The taker can take the piece where it was shown: a pawn is on no such way.)
        return any((m.relocations[0][0], m.relocations[0][1]) in ways
                   for m in position.legal_moves() if m.relocations)


def _between(variant: Variant, a: int, b: int, c: int) -> bool:
    """Whether cell ``b`` lies strictly between ``a`` and ``c`` on one straight line."""
    (x0, y0), (x1, y1), (x2, y2) = (variant.geometry.coords[i] for i in (a, b, c))
    dx, dy = x2 - x0, y2 - y0
    if (dx, dy) == (0, 0) or not (dx == 0 or dy == 0 or abs(dx) == abs(dy)):
        return False
    if (x1 - x0) * dy != (y1 - y0) * dx:
        return False
    k = max(abs(x1 - x0), abs(y1 - y0))
    return 0 < k < max(abs(dx), abs(dy)) and (x1 - x0) * dx >= 0 and (y1 - y0) * dy >= 0


def brief_stands_only(hands: Readings, seq: tuple[Move, ...]) -> bool:
    """Every cell ``seq`` changes that the board never reported (not handled, and as it was)
    was empty: a piece stood there on its way for less than a scan (a knight put down on f5
    and taken on to g3 at once), which a board that scans its squares in turn never reports.
    A man that was there and is there again (taken, and another put back) is no such stand."""
    changed = {c for move in seq for c in move.changed_cells}
    return all(not hands.expected[c] for c in changed - set(hands.diff) - hands.touched)


def explain_after(position: Position, move: Move, hands: Readings, identity: bool) -> list[tuple[Move, ...]]:
    """``move`` (the reading shown) followed by up to two more moves that leave the board as it
    reads (every cell they change handled), or nothing."""
    look = looks(position.variant) if identity else None
    with position.after(move):
        board = position.board
        diff = {c for c, v in enumerate(hands.observed) if v != seen(board[c], identity, look)}
        found = explain(position, hands.observed, diff, hands.touched, identity, strict=True,
                        max_plies=2) if diff else []
    return [(move, *seq) for seq in found]
