"""A model of two players' hands on a sensor board, for replaying real games as event scripts.

Each move is made from the engine's ``Move.changes`` and ``Move.relocations`` alone (no variant
is special), with a seeded RNG choosing how the hands go about it:

- captures victim first or attacker first, several victims in any order; the attacker of a
  slider may be *dragged* across the cells on its way (resting briefly on each) and wait on the
  last one while the other hand takes the victim off;
- castling (any move of several pieces) in either order, with a pause between the pieces;
- en passant in either order (its victim is one more victim);
- promotions in every order: pawn off then the new piece on; the new piece on the target cell
  *before* the pawn is lifted (after the victim of a capture is taken off); the pawn moved onto
  the target, then replaced by the new piece;
- placements that bounce (place, lift, place within a few ms), an own piece lifted and put back
  before the move (touched, not moved);
- fast replies (the reply starting within a few tens of ms of the move's last event) and
  overlapping hands: the opponent lifting the piece of the next move *before* the mover has put
  the last piece down;
- hesitant hands (``Hands.hesitant``, off by default so the seeded games of the other habits stay
  as they were): a slider dragged across the cells between, pausing up to ``MAX_PAUSE_MS`` on
  each; a castling (any move of several pieces) with up to ``MAX_PIECE_PAUSE_MS`` between the
  pieces, rook first as often as king first, the king resting on the cell it crosses; the
  victim lifted by the mover after a pause next to it. The opponent does not reach for a piece
  while the mover visibly hesitates (no overlapping hand after such a move): a hand on a man
  the move cannot take is the sign the move is over.

``game_script`` returns script lines (the simulator's format) for a whole game: ``lift``,
``place`` (with the piece on identity boards), ``sleep`` and, on occupancy boards, ``choose``
after a promotion (the player waits for the question, as a player must).

Timing limits the model keeps (and ``docs/controller.md`` states as what the referee assumes):
a quick drag rests on a crossed cell less than ``MAX_DRAG_REST_MS``, a hesitant one less than
``MAX_PAUSE_MS``; two pieces of one move follow each other within ``MAX_PIECE_GAP_MS``, or
``MAX_PIECE_PAUSE_MS`` when hesitant: all under the referee's ``Timing.hesitate_ms``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from controller.event_scripts import hand_work
from engine import Move, Position, Variant

#: The longest rest of a dragged piece on a cell it crosses (ms).
MAX_DRAG_REST_MS = 150
#: The longest pause between the pieces of one move (a castling's rook and king) (ms).
MAX_PIECE_GAP_MS = 400
#: The longest pause of a hesitant hand on a cell its piece crosses (ms).
MAX_PAUSE_MS = 1500
#: The longest pause of a hesitant hand between the pieces of one move (ms).
MAX_PIECE_PAUSE_MS = 2500
#: The least time from a move's last event to any event of the reply but the lift of its
#: first piece (ms), for the maker boards' games (see ``Hands.min_reply_ms``).
MIN_REPLY_MS = 100
#: Script time per lift/place line (``controller.replay.STEP_MS``).
STEP_MS = 10


@dataclass(frozen=True)
class Hands:
    """How often each habit shows. Probabilities per move."""

    identity: bool = False
    victim_first: float = 0.5
    drag: float = 0.5          # sliders dragged across the cells between
    bounce: float = 0.15
    touch: float = 0.08        # an own piece lifted and put back first
    fast: float = 0.35         # the reply starts within 0-60 ms
    overlap: float = 0.3       # the opponent lifts its next piece before this move's last event
    hesitant: float = 0.0      # the move is made with pauses on the way (see the module docstring)
    #: The least time from the last event of a move to any event of the reply after the lift
    #: of its first piece (ms; 0: no floor, the seeded games as they were): a player may reach
    #: for a piece before the opponent's move is made, but puts nothing down (and takes nothing
    #: else) before seeing it made. See ``MIN_REPLY_MS``.
    min_reply_ms: int = 0


@dataclass
class _Ev:
    t: int
    line: str
    ply: int = -1


def _line_between(variant: Variant, frm: int, to: int) -> list[int]:
    """Cells strictly between two cells on one straight line, in order ([] if not on a line)."""
    g = variant.geometry
    (x0, y0), (x1, y1) = g.coords[frm], g.coords[to]
    dx, dy = x1 - x0, y1 - y0
    if (dx, dy) == (0, 0) or not (dx == 0 or dy == 0 or abs(dx) == abs(dy)):
        return []
    n = max(abs(dx), abs(dy))
    sx, sy = (dx > 0) - (dx < 0), (dy > 0) - (dy < 0)
    coords = {c: i for i, c in enumerate(g.coords)}
    out = []
    for k in range(1, n):
        cell = coords.get((x0 + k * sx, y0 + k * sy))
        if cell is None:
            return []
        out.append(cell)
    return out


class _Move:
    """One move's hand events, relative to its start, plus what the next move must respect."""

    def __init__(self, pos: Position, move: Move, hands: Hands, rng: random.Random) -> None:
        v = pos.variant
        self.names = v.geometry.names
        self.identity = hands.identity
        self.v = v
        board = list(pos.board)
        after, relocs, sources, dests, victims = hand_work(move)
        rng.shuffle(victims)  # several victims (a charge, a leaping chain) come off in any order
        self.events: list[_Ev] = []
        self.cells: set[int] = {c for c, _b, _a in move.changes}  # every cell the hand handles
        self.promotion = bool(move.promotion)
        #: Hesitant: pauses on crossed cells, between the pieces, next to the victim. (Drawn
        #: only when the habit is on, so the seeded games without it stay the same.)
        self.hesitant = hands.hesitant > 0 and rng.random() < hands.hesitant
        hesitant = self.hesitant
        t = 0
        in_hand: set[int] = set()

        def add(dt: int, line: str) -> None:
            nonlocal t
            t += dt
            self.events.append(_Ev(t, line))

        def lift(cell: int, dt: int) -> None:
            if cell in in_hand or not board[cell]:
                return
            add(dt, f"lift {self.names[cell]}")
            board[cell] = 0
            in_hand.add(cell)

        def place(cell: int, code: int, dt: int, bounce: bool = False) -> None:
            piece = f" {v.symbol(code)}" if self.identity else ""
            add(dt, f"place {self.names[cell]}{piece}")
            board[cell] = code
            if bounce:
                add(rng.randint(2, 8), f"lift {self.names[cell]}")
                add(rng.randint(2, 8), f"place {self.names[cell]}{piece}")

        def hand_ms() -> int:
            return rng.randint(60, 300)

        if rng.random() < hands.touch:  # an own piece of the mover, lifted and put back
            own = [c for c, code in enumerate(board) if code and v.side_of(code) == pos.side and c not in sources]
            if own:
                c = rng.choice(own)
                code = board[c]
                lift(c, 0)
                place(c, code, rng.randint(80, 300))
                in_hand.discard(c)
                self.cells.add(c)
                t += rng.randint(50, 200)
        victim_first = rng.random() < hands.victim_first
        if rng.random() < 0.5:
            relocs.reverse()  # castling rook first (any move of several pieces: the far end first)
        promo_order = rng.choice(("pawn_first", "piece_first", "pawn_then_swap")) if self.promotion else ""
        if promo_order == "piece_first" and len(relocs) == 1:
            # The new piece goes on the target first (the victim taken off before), then the pawn off.
            s, d = relocs[0]
            for c in victims:
                lift(c, hand_ms() if self.events else 0)
            place(d, after[d], hand_ms() if self.events else 0)
            lift(s, hand_ms())
            in_hand.discard(s)
            self.first_cell = s
            return
        if victim_first:
            for c in victims:
                lift(c, 0 if not self.events else hand_ms())
        drag = rng.random() < hands.drag or hesitant
        gap = (600, MAX_PIECE_PAUSE_MS) if hesitant else (40, MAX_PIECE_GAP_MS)
        for s, d in relocs:
            lift(s, 0 if not self.events else rng.randint(*gap) if self.events[-1].line.startswith(
                "place") else rng.randint(20, 120))
            if board[d] and d not in victims:
                lift(d, rng.randint(20, 80))  # a piece that itself moves on (pushes, swaps)
            mids = _line_between(v, s, d) if drag else []
            if mids and not all(board[c] == 0 for c in mids):
                mids = []
            code_moving = pos.board[s]
            dt = hand_ms() if not mids else rng.randint(30, 80)
            for k, mid in enumerate(mids):
                self.cells.add(mid)
                place(mid, code_moving, dt)
                last = k == len(mids) - 1
                rest = (200, MAX_PAUSE_MS) if hesitant and rng.random() < 0.7 else (5, MAX_DRAG_REST_MS)
                if last and board[d] and d in victims:
                    # Resting next to the victim while the other hand takes it off (after a
                    # pause, when hesitant).
                    lift(d, rng.randint(20, MAX_DRAG_REST_MS) if not hesitant else rng.randint(*rest))
                    add(rng.randint(20, 100), f"lift {self.names[mid]}")
                else:
                    add(rng.randint(*rest), f"lift {self.names[mid]}")
                board[mid] = 0
                dt = rng.randint(10, 60)
            if board[d]:
                lift(d, rng.randint(30, 120))  # attacker first: the victim goes now
            if promo_order == "pawn_then_swap" and after[d] != code_moving:
                place(d, code_moving, dt)
                add(rng.randint(80, 300), f"lift {self.names[d]}")  # the pawn off again
                place(d, after[d], rng.randint(100, 400))
            else:
                place(d, after[d], dt, bounce=rng.random() < hands.bounce)
            in_hand.discard(s)
        for c in victims:  # attacker first, victims not on a destination (en passant)
            lift(c, hand_ms())
        for c, _b, a in move.changes:
            if a and c not in dests and board[c] != a:
                lift(c, hand_ms())
                place(c, a, hand_ms())
        self.first_cell = next((self.names.index(e.line.split()[1]) for e in self.events
                                if e.line.startswith("lift")), -1)

    @property
    def duration(self) -> int:
        return self.events[-1].t if self.events else 0

    @property
    def first_is_lift(self) -> bool:
        return bool(self.events) and self.events[0].line.startswith("lift")


class _Timeline:
    """Events of overlapping moves on one clock, written out as script lines in time order."""

    def __init__(self) -> None:
        self.events: list[_Ev] = []
        self.lines: list[str] = []
        self.plies: list[int] = []  # per line: the ply its lift/place belongs to (-1: sleep, choose)
        self.clock = 0

    def flush(self) -> None:
        """Write the events so far (each at least STEP_MS after the one before, as the replay's
        clock advances per line)."""
        for e in sorted(self.events, key=lambda e: e.t):
            gap = e.t - self.clock - STEP_MS
            if gap > 0:
                self.lines.append(f"sleep {gap}")
                self.plies.append(-1)
            self.clock = max(e.t, self.clock + STEP_MS)
            self.lines.append(e.line)
            self.plies.append(e.ply)
        self.events = []


def game_script(pos: Position, moves: Sequence[str], hands: Hands, seed: int) -> list[str]:
    """Script lines playing ``moves`` from ``pos`` (not changed) with these hands."""
    return game_script_with_plies(pos, moves, hands, seed)[0]


def game_script_with_plies(pos: Position, moves: Sequence[str], hands: Hands,
                           seed: int) -> tuple[list[str], list[int]]:
    """``game_script`` and, per line, the ply whose hand made it (-1 for ``sleep``/``choose``):
    what ``bench/latency.py`` needs to time each move from its last event."""
    rng = random.Random(seed)
    pos = pos.copy()
    tl = _Timeline()
    prev: _Move | None = None
    prev_end = prev_start = 0
    own_end = mover_end = 0  # when the moves two plies and one ply back ended
    last_on: dict[int, int] = {}  # cell -> time of the latest event on it so far
    for ply, text in enumerate(moves):
        move = pos.parse_move(text)
        hm = _Move(pos, move, hands, rng)
        for e in hm.events:
            e.ply = ply
        recapture = prev is not None and bool(hm.cells & prev.cells)
        if prev is None:
            start = prev_end + rng.randint(150, 900)
        elif recapture:
            start = prev_end + rng.randint(100, 600)  # no hand takes the piece just put down sooner
        elif rng.random() < hands.fast:
            start = prev_end + rng.randint(0, 60)
        else:
            start = prev_end + rng.randint(150, 900)
        first_cell = pos.variant.geometry.index(hm.events[0].line.split()[1]) if hm.events else -1
        # The same player's move before must be over, and the cell free of the other hand.
        earliest = max(prev_start + 20, last_on.get(first_cell, -10**9) + 50, own_end + 20)
        if (prev is not None and not recapture and hm.first_is_lift and rng.random() < hands.overlap
                and prev_end - earliest > 20 and not prev.hesitant):
            # The opponent's hand is already on its piece before the mover has let go of theirs;
            # the rest of its move follows once the mover is done.
            lead = rng.randint(10, min(400, prev_end - earliest))
            first, rest = hm.events[0], hm.events[1:]
            tl.events.append(_Ev(prev_end - lead, first.line, ply))
            prev_start = prev_end - lead
            if rest:
                at = prev_end + max(20, rest[0].t - first.t - lead, hands.min_reply_ms)
                for e in rest:
                    tl.events.append(_Ev(at + e.t - rest[0].t, e.line, ply))
                prev_end = at + rest[-1].t - rest[0].t
            else:
                prev_end += 20
        else:
            # (Past the floor, the rest of the move keeps its own pace.)
            late = 0 if prev is None or len(hm.events) < 2 else max(
                0, prev_end + hands.min_reply_ms - (start + hm.events[1].t))
            for k, e in enumerate(hm.events):
                tl.events.append(_Ev(start + e.t + (late if k else 0), e.line, ply))
            prev_start = start
            prev_end = start + hm.duration + late
        for e in tl.events:
            cell = pos.variant.geometry.index(e.line.split()[1])
            last_on[cell] = max(last_on.get(cell, e.t), e.t)
        own_end, prev = mover_end, hm
        mover_end = prev_end
        if hm.promotion and not hands.identity:
            # The player waits for the question and answers it before the opponent goes on.
            tl.flush()
            tl.lines.append(f"choose {pos.variant.kinds[pos.variant.kind_of(move.promotion)].letter.lower()}")
            tl.plies.append(-1)
            prev_end = prev_start = own_end = mover_end = tl.clock
            last_on.clear()
            prev = None
        pos.push(move)
    tl.flush()
    return tl.lines, tl.plies
