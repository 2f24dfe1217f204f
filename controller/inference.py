"""The move-inference core: from timestamped lifts and placements to refereed moves.

Pure: the clock is an input (each event's ``t`` and ``tick(now)``), no threads, no I/O. The I/O
shell feeds ``event``/``tick``/``answer``/``snapshot``/``takeback`` and acts on the returned
``Decision``: commit ``undone`` and ``accepted`` first, then show ``status``.

Two kinds of output, never mixed: a *provisional reading* (``Decision.provisional``,
``Status.provisional``: what the board shows so far, for display only) and a *final move*
(``Decision.accepted``: it can no longer change; it goes to the record, the clock, stdout). A
final move is never amended; ``undone`` only ever carries takebacks the player asked for.

How a state is judged (``_evaluate``), in this order, comparing the sensors' readings with the
game position (see ``controller.signatures`` for signatures and hidden cells), and the order of
the events (a piece arrives after it left):

1. the board equals the position: ``idle`` (a tap on a piece may select a silent move);
2. the differences are exactly one legal move's result and its hidden cells were handled: a
   provisional reading, final after ``settle_ms`` of quiet -- ``prefix_ms`` when it may be the
   first half of a bigger legal move (the rook of a castling), ``drag_ms`` when its piece may be
   sliding on along its line -- and at once when a piece is put down on a cell the move does not
   involve and cannot go on to (a lift elsewhere proves nothing: the next player's hand may be
   on its piece already);
3. several legal moves fit (promotion, drops on an occupancy board, pushes and swaps): ask
   (on an identity board not when they all lead to the same position);
4. the board shows an earlier position (one or two plies back) for ``takeback_ms``: ask before
   undoing;
5. overlapping hands: the next player has completed a move on top of the latest reading (that
   reading was the move), or the board is one complete legal move plus pieces the next player
   holds (the move is read with them);
6. nothing fits: once still for ``settle_ms`` (``guide_ms`` while a hand holds a piece some
   legal move would put down), try a move and a quick reply together (merged events, moves
   made while the board was unplugged); failing those, the one legal move the board shows if
   only its placement was reported before its lift (two boards reporting on their own); if the
   board is merely half-way through some legal move, the player is still moving; otherwise
   list each wrong cell with what belongs there (cells refilled meanwhile included: a victim),
   and go on as soon as the board is right.

A move that only takes pieces off the board (a Mathematichess terminator) looks exactly like a
piece held in the hand while a move goes on, so it is never accepted on the board's word alone:
once the board has been still for ``prefix_ms`` the core asks (``yes``; ``no``: still moving),
and a sequence of moves ending in one is asked about rather than accepted.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from itertools import combinations

from engine import Move, Position, Variant

from .messages import piece_name, side_name, wanted_text
from .signatures import EMPTY_SIG, MoveIndex, Shape, Sig, explain, looks, seen
from .swaps import swap_text, swaps, unswapped

#: The reading of an identity board's cell holding a piece it could not identify.
UNKNOWN_PIECE = -1
#: A question offers at most this many moves (or move sequences); more is no question but a
#: board to put right.
MAX_CHOICES = 8
#: On a board that scans its squares in turn: what a report may lag behind the one a scan
#: earlier on the same square (both come over the same line and reader thread).
SCAN_MARGIN_MS = 10
#: After the board was away, how many moves the players may have made meanwhile that the core
#: still works out by itself.
RESYNC_PLIES = 4


@dataclass(frozen=True, slots=True)
class Event:
    """A cell gained (``down``) or lost a piece at ``t`` ms on the core's clock. ``piece`` is the
    engine piece code an identity board read (0 when the board reads occupancy only). ``resync``
    marks a change found by comparing a snapshot after the board was away (not seen happening)."""

    cell: int
    down: bool
    t: int
    piece: int = 0
    resync: bool = False


@dataclass(frozen=True)
class Timing:
    """How long the board must stay still before each decision, in milliseconds."""

    settle_ms: int = 30      # a provisional reading becomes the final move after this much quiet
    prefix_ms: int = 600     # ... when it may be the first half of a bigger move (castling, a push)
    drag_ms: int = 200       # ... when its piece may be on its way along a line to another legal cell
    takeback_ms: int = 1000  # the board must show an earlier position this long before we ask
    guide_ms: int = 1000     # an unexplained board is this old before the wrong cells are shown
    #: Unused since final moves are never corrected; kept so configuration files that set it load.
    amend_ms: int = 1000
    #: The board's full scan period (0: it reports each change as it happens, in order). A board
    #: that scans its squares in turn (a DGT board: 200-250 ms) reports the changes of one scan
    #: in square order, not in the hands' order, and keeps a piece resting on a crossed cell on
    #: the board's word until the next scan sees it gone; the service sets it from the board.
    scan_ms: int = 0
    #: The drag wait the board asks for (0: ``drag_ms``): a board that reports every change
    #: within one scan of it (a Millennium board) shows a piece going on from a square within
    #: a scan, so two scans and a margin tell a rest from a pause on the way, and the goal is
    #: the board's own. The service sets it from the board, unless the configuration file sets
    #: ``drag_ms`` (then the owner's wait holds on every board).
    board_drag_ms: int = 0

    def drag_wait(self) -> int:
        """How long a piece that may be on its way along a line must rest, after its report,
        before the move is final."""
        drag = self.board_drag_ms or self.drag_ms
        return max(drag, self.scan_ms + SCAN_MARGIN_MS) if self.scan_ms else drag


@dataclass(frozen=True)
class Fix:
    """A cell that is wrong: ``want`` is the piece code that belongs there (0: empty), ``have``
    the sensor's reading (occupancy 0/1, or a code on identity boards)."""

    cell: int
    want: int
    have: int


@dataclass(frozen=True)
class Option:
    """One answer to a prompt: play ``moves`` after taking back ``undo`` plies."""

    key: str
    label: str
    moves: tuple[Move, ...] = ()
    undo: int = 0
    texts: tuple[str, ...] = ()


@dataclass(frozen=True)
class Prompt:
    kind: str  # promotion | which_piece | which_move | takeback | removal | confirm
    question: str
    options: tuple[Option, ...]

    def find(self, answer: str) -> Option | None:
        """The option an answer names: its key, its key in any case, or its move text(s)."""
        answer = answer.strip()
        for opt in self.options:
            if opt.key == answer:
                return opt
        for opt in self.options:
            if " ".join(opt.texts) == answer:
                return opt
        for opt in self.options:
            if opt.key.lower() == answer.lower():
                return opt
        return None


@dataclass(frozen=True)
class Status:
    """What the player is told now. ``kind``: idle (board equals the game), moving (a move is
    under way or waiting to settle), ask (``prompt``), fix (``fixes``: wrong cells), setup (not
    playing: the board must match the position, ``fixes`` lists the differences)."""

    kind: str
    message: str
    cells: tuple[int, ...] = ()
    fixes: tuple[Fix, ...] = ()
    prompt: Prompt | None = None
    #: The provisional reading (move texts): what the board shows so far, for display only.
    provisional: tuple[str, ...] = ()


@dataclass(frozen=True)
class Decision:
    """The result of one input: take back ``undone`` (latest first: only ever at the player's
    request, a takeback), then play ``accepted`` (final moves: they never change again); then
    show ``status``. ``provisional`` is the reading of the move under way, for display only:
    it may still change or vanish, so it never goes to a record, a clock or a broadcast."""

    status: Status
    accepted: tuple[Move, ...] = ()
    undone: tuple[Move, ...] = ()
    note: str = ""
    provisional: tuple[Move, ...] = ()


@dataclass
class _Back:
    """An earlier position, as the readings of the cells the moves since then changed."""

    plies: int
    moves: tuple[Move, ...]  # latest first
    codes: dict[int, int]    # cell -> piece code in that position


@dataclass
class _Pending:
    kind: str                      # see Referee.pending_kind
    sig: Sig = EMPTY_SIG
    shapes: tuple[Shape, ...] = ()
    cells: frozenset[int] = frozenset()   # an event outside these ends a unique match early
    back: _Back | None = None
    deadline: int | None = None
    extra: dict = field(default_factory=dict)


class Referee:
    """The decision core for one game. It owns ``position`` (pass a copy)."""

    def __init__(self, position: Position, *, identity: bool = False, timing: Timing | None = None,
                 playing: bool = True, observed: list[int] | None = None) -> None:
        self.position = position
        self.variant = position.variant
        self.identity = identity
        self.timing = timing or Timing()
        self._playing = playing
        board = position.board
        #: What an identity board reads for each piece code (None: the code itself).
        self._look = looks(self.variant)
        self._expected = [seen(c, identity, self._look) for c in board]
        self._observed = list(observed) if observed is not None else list(self._expected)
        if len(self._observed) != len(board):
            raise ValueError(f"observed board has {len(self._observed)} cells, the game {len(board)}")
        self._diff: dict[int, int] = {c: v for c, v in enumerate(self._observed) if v != self._expected[c]}
        self._touched: set[int] = set()
        self._resync = False
        self._last_t = 0
        self._index_cache: MoveIndex | None = None
        #: The only moves the board may make now (None: every legal move): the move a computer or
        #: a remote board chose, shown to the player (controller/service/opponents.py); an empty
        #: tuple while it is not known yet. Any other move is guided back like a wrong board.
        self._only: tuple[Move, ...] | None = None
        #: Indexes no longer needed, freed in ``prepare``: dropping one (thousands of moves in a
        #: Mathematichess position) takes milliseconds, which a decision should not pay.
        self._retired: list[object] = []  # (bounded: see _retire)
        #: Occupancy boards: cells where the last move asks for a piece swap (Gryphon), and the
        #: swap cell lifted while nothing else is handled: put back there, it was the swap.
        self._swap_cells: set[int] = set()
        self._swap_lift: int | None = None
        self._backs: list[_Back] | None = None
        #: Occupancy boards: cells emptied and refilled while another piece was off its cell;
        #: the piece now there may not be the one that belongs (a victim not put back).
        self._refilled: set[int] = set()
        self._cell_t: dict[int, int] = {}  # cell -> time of its latest event
        #: cell -> arrival number of its latest event: orders two events of the same millisecond
        #: (a board reports every change one scan found with that scan's time).
        self._cell_n: dict[int, int] = {}
        self._events = 0
        self._lifted_t: dict[int, int] = {}  # cell -> its first lift since the last final move
        self._reply_index: tuple[Shape, MoveIndex] | None = None  # legal moves after the reading
        #: The latest provisional reading since the last final move, with the cells handled
        #: when the board first showed it (see ``_reply_done``).
        #: (shape, since, cells it may go on to, cells of the bigger moves it may be part of)
        self._reading: tuple[Shape, int, frozenset[int], frozenset[int]] | None = None
        self._latest = -1  # the cell of the latest event
        self._placed = False  # the latest event put a piece down
        self._dismissed: Sig | None = None
        self._declined: Sig | None = None  # "still moving" was answered while the board showed this
        #: Cells handled during the move just accepted that are not its own: maybe a silent move
        #: (a swap) the next player made while the move waited to be taken.
        self._stray: frozenset[int] = frozenset()
        self._prompt: Prompt | None = None
        self._prompt_sig: Sig | None = None
        #: The status before a touch's message was put in front of it, and the status shown with
        #: it (a second touch replaces the message rather than adds to it).
        self._told: tuple[Status, Status] | None = None
        self._pending = _Pending("clean")
        self._status = Status("idle", "")
        self._notes: list[str] = []
        self._outcome = position.outcome() if playing else None
        self._evaluate()

    # -- inputs -------------------------------------------------------------------------------------
    @property
    def status(self) -> Status:
        return self._status

    @property
    def deadline(self) -> int | None:
        """When ``tick`` next has something to decide (ms), or None."""
        return None if self._prompt else self._pending.deadline

    @property
    def pending_kind(self) -> str:
        """What the core is waiting on: clean, move (a provisional reading, final at the
        deadline or when the next event rules out that it goes on), ambiguous, takeback, removal
        (pieces lifted: asked about if they stay off), unmatched, partial (a move half made),
        wrong (fixes shown), dismissed."""
        return self._pending.kind

    @property
    def observed(self) -> tuple[int, ...]:
        return tuple(self._observed)

    @property
    def playing(self) -> bool:
        return self._playing

    def set_playing(self, playing: bool, now: int) -> Decision:
        """Start or stop refereeing (setup and game-over phases only compare the board)."""
        self._playing = playing
        self._retire(self._index_cache)
        self._index_cache = None
        self._backs = None
        self._touched.clear()
        self._refilled.clear()
        self._reading = None
        self._close_prompt()
        self._last_t = now
        return self._decide((), ())

    def event(self, ev: Event) -> Decision:
        accepted: list[Move] = []
        undone: list[Move] = []
        p = self._pending
        if (self._prompt is None and p.kind == "move" and len(p.shapes) == 1 and ev.cell not in p.cells
                and self._ends_move(ev)):
            # The next player is at work on a cell the move does not involve and cannot go on
            # to: the move is complete, and final.
            self._fire(ev.t, accepted, undone)
        swap_event = False
        if ev.cell in self._swap_cells and not ev.resync:
            if not ev.down and self._swap_lift is None and not self._touched:
                self._swap_lift = ev.cell
                swap_event = True
            elif ev.down and self._swap_lift == ev.cell:
                self._swap_lift = None
                self._swap_cells.discard(ev.cell)
                swap_event = True
        if self._swap_lift is not None and not swap_event:
            # another hand meanwhile: that lift was no swap (a victim taken, say)
            self._touched.add(self._swap_lift)
            self._swap_lift = None
        value = ((ev.piece or UNKNOWN_PIECE) if self.identity else 1) if ev.down else 0
        if (ev.down and not self.identity and self._expected[ev.cell]
                and any(v == 0 and c != ev.cell for c, v in self._diff.items())):
            self._refilled.add(ev.cell)
        self._set(ev.cell, value)
        if ev.resync:
            self._resync = True
        elif not swap_event:
            self._touched.add(ev.cell)
        self._last_t = ev.t
        self._cell_t[ev.cell] = ev.t
        self._events += 1
        self._cell_n[ev.cell] = self._events
        if not ev.down:
            self._lifted_t.setdefault(ev.cell, ev.t)
        self._placed = ev.down
        self._latest = ev.cell
        return self._decide(accepted, undone)

    def _ends_move(self, ev: Event) -> bool:
        """Whether an event outside the provisional move shows the mover is done: a piece put
        down elsewhere. A lift does not: hands overlap, and the next player may take a piece
        (theirs, or a victim) while the mover still slides theirs."""
        return ev.down

    def snapshot(self, readings: list[int], now: int) -> Decision:
        """The whole board as read after a reconnect or a restart. Hidden changes (captures on an
        occupancy board) could not be seen, so matches that rely on them are asked about."""
        if len(readings) != len(self._observed):
            raise ValueError(f"snapshot has {len(readings)} cells, the game {len(self._observed)}")
        changed = [c for c, v in enumerate(readings) if v != self._observed[c]]
        for c in changed:
            self._set(c, readings[c])
        if changed:
            self._last_t = now
            self._resync = True
        return self._decide((), ())

    def tick(self, now: int) -> Decision:
        accepted: list[Move] = []
        undone: list[Move] = []
        d = self.deadline
        if d is not None and now >= d:
            self._fire(now, accepted, undone)
        return self._decide(accepted, undone, evaluate=bool(accepted or undone))

    def answer(self, key: str, now: int) -> Decision:
        """The player's answer to the open prompt; ``ValueError`` if there is none or it does not
        name an option."""
        prompt = self._prompt
        if prompt is None:
            raise ValueError(f"no question is open to answer {key!r}")
        opt = prompt.find(key)
        if opt is None:
            keys = ", ".join(o.key for o in prompt.options)
            raise ValueError(f"{key!r} is not an answer to {prompt.question!r} (choose {keys})")
        accepted: list[Move] = []
        undone: list[Move] = []
        sig = self._prompt_sig
        self._close_prompt()
        if prompt.kind == "takeback" and not opt.undo:
            self._dismissed = sig  # keep the game: the board must go back to it
        elif prompt.kind == "confirm" and not opt.moves:
            self._touched.clear()  # the man was only straightened
        elif not opt.moves and not opt.undo:
            self._declined = sig  # still moving: wait for the board to change
        for _ in range(opt.undo):
            undone.append(self._undo_one())
        for move in opt.moves:
            self._accept(move, now, accepted)
        self._last_t = now
        return self._decide(accepted, undone)

    def silent_moves_on(self, cell: int) -> list[Move]:
        """The legal moves that change only ``cell`` and that the sensors cannot see there (a man
        chosen where it stands, as in Illusionary Piece Chess): what a lift and a put-back on
        that cell selects, and what a touch on it on the screen chooses."""
        only = frozenset((cell,))
        return [s.move for s in self._index.match(EMPTY_SIG, only) if s.cells == only]

    def touch_cells(self) -> frozenset[int]:
        """The cells where a touch on the screen chooses something now (see ``silent_moves_on``)."""
        if not self._playing:
            return frozenset()
        return frozenset(c for s in self._index.by_sig.get(EMPTY_SIG, ()) if len(s.cells) == 1 for c in s.cells)

    def touch(self, cell: int, now: int) -> Decision:
        """A cell touched on the screen: the choice of the move the board cannot see there
        (``silent_moves_on``). One such move is final at once, as if lifted, put back and
        confirmed; several are asked about; none, or a board not at rest (a piece in the hand,
        a move waiting to settle, a question open), change nothing but the status line, which
        says why. ``ValueError`` for a cell the board does not have."""
        names = self.variant.geometry.names
        if not 0 <= cell < len(names):
            raise ValueError(f"no cell {cell} on the {self.variant.name} board")
        name = names[cell]
        if not self._playing:
            return self._tell(f"Touch on {name} ignored: no game under way")
        if self._prompt is not None:
            return self._tell(f"Touch on {name} ignored: answer the question first")
        if self._diff or self._pending.kind not in ("clean", "removal"):
            # A move under way on the board: its reading must not change under the hands.
            return self._tell(f"Touch on {name} ignored: finish the move on the board first")
        moves = self.silent_moves_on(cell)
        if not moves:
            return self._tell(f"Nothing to choose on {name}")
        if len(moves) > 1:
            options = self._choice_prompt([(m,) for m in moves], 0, force_which=True).options
            what = piece_name(self.variant, self.position.board[cell])
            self._ask(Prompt("which_move", f"Which change of the {what} on {name}?",
                             (*options, Option("no", "None: leave it"))), self._current_sig())
            self._status = replace(self._status, cells=(cell,))
            return self._decide([], [], evaluate=False)
        accepted: list[Move] = []
        # Cells handled before, at rest now, are no part of this choice (nor a move the next
        # player made meanwhile: see ``_stray``).
        self._touched.clear()
        self._accept(moves[0], now, accepted)
        self._notes[-1] = self._chosen_text(moves[0])
        self._last_t = now
        return self._decide(accepted, [])

    def _chosen_text(self, move: Move) -> str:
        """``Black made the pawn on d7 an illusionary pawn``: a silent move in words."""
        v = self.variant
        cell, before, after = move.changes[0]
        side = side_name(v, v.side_of(before))
        name = v.geometry.names[cell]
        old, new = v.kinds[v.kind_of(before)].name, v.kinds[v.kind_of(after)].name
        if old == new:
            return f"{side} chose {self.position.move_text(move)} on {name}"
        return f"{side} made the {old} on {name} {_article(new)}"

    def _tell(self, text: str) -> Decision:
        """Put ``text`` in front of the status line (in place of the last such text), nothing else."""
        base = self._told[0] if self._told is not None and self._told[1] is self._status else self._status
        self._status = replace(base, message=f"{text}. {base.message}" if base.message else text)
        self._told = (base, self._status)
        return Decision(self._status, note=text)

    def takeback(self, now: int) -> Decision:
        """Undo the last move at the player's request (a button); the board must follow."""
        if not self.position.move_stack:
            return Decision(self._status, note="nothing to take back")
        self._close_prompt()
        move = self._undo_one()
        self._last_t = now
        self._dismissed = self._current_sig() or None  # the board still shows the move: guide it back
        return self._decide((), [move])

    # -- state --------------------------------------------------------------------------------------
    def _set(self, cell: int, value: int) -> None:
        self._observed[cell] = value
        if value != self._expected[cell]:
            self._diff[cell] = value
        else:
            self._diff.pop(cell, None)

    def _current_sig(self) -> Sig:
        return frozenset(self._diff.items())

    def _close_prompt(self) -> None:
        self._prompt = None
        self._prompt_sig = None

    def _decide(self, accepted, undone, evaluate: bool = True) -> Decision:
        if evaluate:
            self._evaluate()
        note = "; ".join(self._notes)
        self._notes.clear()
        if note and self._status.kind == "idle":
            self._status = Status("idle", f"{note}. {self._status.message}")
        p = self._pending
        provisional = (p.shapes[0].move,) if p.kind == "move" and len(p.shapes) == 1 and self._prompt is None else ()
        return Decision(self._status, tuple(accepted), tuple(undone), note, provisional)

    def _evaluate(self) -> None:
        """Judge the current readings (see the module docstring); sets pending and status."""
        diff = self._diff
        variant = self.variant
        sig = self._current_sig()
        if self._prompt is not None:
            if sig == self._prompt_sig:
                return
            self._close_prompt()
        if self._dismissed is not None and sig != self._dismissed:
            self._dismissed = None
        if not self._playing:
            self._pending = _Pending("clean" if not diff else "unmatched")
            if diff:
                self._status = Status("setup", self._fix_message("Set up the board"), fixes=self._fixes())
            else:
                self._status = Status("idle", "Board is set up")
            return
        to_move = side_name(variant, self.position.side)
        stray, self._stray = self._stray, frozenset()
        if not diff and not self._touched and stray and self._index.has_silent_moves:
            shapes = self._index.match(EMPTY_SIG, stray)
            if shapes:
                self._touched |= stray
                self._set_match(sig, shapes, self._index)
                return
        if not diff and not self._touched:
            self._resync = False
            self._pending = _Pending("clean")
            self._status = self._idle_status()
            return
        index = self._index
        if not diff:
            self._resync = False
            if self._touched and index.has_silent_moves:
                shapes = [s for s in index.match(EMPTY_SIG, self._touched) if self._in_order(s)]
                if shapes:
                    self._set_match(sig, shapes, index)
                    return
            # The cells handled stay handled (a promotion's new piece put on the victim's cell
            # before the pawn is lifted); the event order keeps a piece merely adjusted from
            # counting as a victim (``_in_order``).
            self._reading = None
            self._pending = _Pending("clean")
            self._status = self._idle_status()
            return
        if self._dismissed is not None:
            self._pending = _Pending("dismissed", sig)
            self._status = Status("fix", self._fix_message("Put the board back"), fixes=self._fixes())
            return
        if self._declined is not None:
            if sig == self._declined:
                self._pending = _Pending("partial", sig)
                self._status = Status("moving", f"{to_move} moving", cells=tuple(sorted(diff)))
                return
            self._declined = None
        shapes = [s for s in index.match(sig, self._touched) if self._in_order(s)]
        reading = self._reading
        if shapes and reading is not None and not reading[0].sig and self._placed and self._silent_then_reply(
                shapes, reading[0], reading[1]):
            # A silent move shown (a swap on an occupancy board), then the next player moved one of
            # its men: the move of that man from the mover's side leaves the swap's other cell
            # handled for nothing. Moves are made in turn: the swap was the move.
            self._take_reply(sig, reading[0], reading[1])
            return
        if shapes:
            self._set_match(sig, shapes, index)
            return
        back = self._takeback_match()
        if back is not None:
            self._pending = _Pending("takeback", sig, back=back, deadline=self._last_t + self.timing.takeback_ms)
            self._status = Status("moving", f"{to_move} moving", cells=tuple(sorted(diff)))
            return
        reading = self._reading
        peeled = None
        if reading is not None and self._placed and self._latest in reading[2]:
            # Put down where the reading's piece may still be going: rather its drag going on.
            peeled = self._peel(sig, index)
            if peeled is not None and len(peeled[1]) == 1 and peeled[1][0] is reading[0]:
                again = self._handled_again(reading[0], reading[1])
                if again and self._reply_done(reading[0], reading[1], needs=again):
                    # The reading's own cells were handled again since the board showed it (no
                    # bounce). Of the two readings of the board, the move with the next player's
                    # hand on a man leaves that handling unexplained; the move and a complete
                    # reply that involves those cells (a capture on the cell a swap refilled)
                    # uses every cell handled: that one.
                    self._take_reply(sig, reading[0], reading[1])
                    return
        if (peeled is None and reading is not None and self._placed and self._latest not in reading[3]
                and not (self._latest in reading[2] and self._slid_on(reading[0]))
                and self._reply_done(reading[0], reading[1]) and not self._resting(index)):
            # The next player has completed a move on top of the last reading: that reading was
            # the move (moves are made in turn), whatever its piece did meanwhile. (Unless the
            # piece put down rests where a legal move's piece crosses: a swapped man on its way.)
            self._take_reply(sig, reading[0], reading[1])
            return
        if peeled is None:
            peeled = self._peel(sig, index)
        if peeled is not None:
            rest, shapes = peeled
            self._set_match(sig, shapes, index, rest=rest)
            return
        # Two moves merged (overlapping hands, a quick reply), or moves made while the board was
        # away: worked out as soon as the burst of differences is in, unless a hand still holds
        # a piece that some legal move would put down (then only after ``guide_ms``).
        wait = self.timing.settle_ms if self._resync or not self._in_hand() else self.timing.guide_ms
        if wait == self.timing.settle_ms and not self._resync and self._resting(index):
            # A piece of a move under way rests on a cell it crosses (a swapped man dragged
            # while the other is in the hand): a move and a capture there only if it stays.
            wait = self.timing.drag_wait()
        self._pending = _Pending("unmatched", sig, deadline=self._last_t + wait)
        left = self._victims_left(index)
        if left is not None:
            # Everything of the move is on the board but men it takes (a charge, a chain): say
            # which are still to come off.
            move, cells = left
            names = ", ".join(self.variant.geometry.names[c] for c in cells)
            self._status = Status("moving", f"{to_move} {self.position.move_text(move)}: take off {names}",
                                  cells=cells)
            return
        self._status = Status("moving", f"{to_move} moving", cells=tuple(sorted(diff)))

    def _take_reply(self, sig: Sig, shape: Shape, since: int) -> None:
        """The reading ``shape`` was the move: final now, the rest of the board is the reply."""
        self._pending = _Pending("move", sig, (shape,), shape.cells, deadline=self._last_t,
                                 extra={"since": since, "rest": frozenset(), "reply": True})
        text = self.position.move_text(shape.move)
        self._status = Status("moving", f"{side_name(self.variant, self.position.side)} moving: {text} (provisional)",
                              cells=tuple(sorted(self._diff)), provisional=(text,))

    def _silent_then_reply(self, shapes: list[Shape], silent: Shape, since: int) -> bool:
        """The moves matched leave cells of the silent reading handled that they do not involve,
        and the board is that reading followed by a legal reply."""
        touched = self._touched
        return (all(s is not silent and (touched - s.cells) & silent.cells for s in shapes)
                and self._reply_done(silent, since))

    def _victims_left(self, index: MoveIndex) -> tuple[Move, tuple[int, ...]] | None:
        """The legal move the board shows but for men it takes that still stand (``Move.victims``),
        and those cells; None unless exactly one set of cells is left (the move shown first)."""
        items = set(self._diff.items())
        if not any(v for _c, v in items):
            return None  # nothing put down yet: no move to name
        found: list[tuple[Move, tuple[int, ...]]] = []
        for shapes in index.by_sig.values():
            for s in shapes:
                if not items <= s.sig or not s.hidden <= self._touched:
                    continue
                rest = s.sig - items
                victims = s.move.victims
                if rest and all(v == 0 and c in victims for c, v in rest):
                    found.append((s.move, tuple(sorted(c for c, _v in rest))))
        if not found or len({cells for _m, cells in found}) > 1:
            return None
        return found[0]

    def _in_order(self, shape: Shape) -> bool:
        """A piece arrives after it left: for each piece the move carries from a cell that is
        empty now, the latest event on its destination (a placement) came after that cell's
        lift. (A victim put back before the attacker was lifted is not where the attacker went.)"""
        return not self._arrived_first(shape)

    def _arrived_first(self, shape: Shape) -> list[int]:
        """The destinations of ``shape``'s pieces whose latest event came before the lift of
        the cell the piece leaves (see ``_in_order``)."""
        observed = self._observed
        cell_t = self._cell_t
        move = shape.move
        sources = {s for s, d in move.relocations if s != d}
        relocs = set(move.relocations)
        early = []
        for s, d in move.relocations:
            if s != d and (d, s) in relocs and self._refilled_first(d, s):
                # Two men changing cells (a swap): both cells are empty at some moment, so the
                # man now on ``d`` came after ``s`` was first lifted. A cell lifted and put back
                # before that was handled, not swapped.
                early.append(d)
                continue
            # (Not along a pushed line: a shoved line flickers in any order.)
            if (s != d and d not in sources and not observed[s] and s in cell_t and d in cell_t
                    and self._before(d, s)):
                before = next(b for c, b, _a in move.changes if c == s)
                after = next(a for c, _b, a in move.changes if c == d)
                if before == after:  # (a promotion's new piece may go down before the pawn is off)
                    early.append(d)
        return early

    def _refilled_first(self, d: int, s: int) -> bool:
        """Whether the latest event on cell ``d`` came before the first lift of cell ``s`` since
        the last final move (by more than a scan on a board that scans its squares in turn)."""
        lifted = self._lifted_t.get(s)
        if lifted is None or d not in self._cell_t:
            return False
        return self._cell_t[d] < lifted - self.timing.scan_ms

    def _placed_early(self, index: MoveIndex) -> list[Shape]:
        """The one legal move the board shows whose pieces were reported put down before they
        were lifted, each on a cell whose reading shows it (not a victim's cell touched: that
        is no arrival), or nothing. Two boards that each report on their own, or a board that
        scans its squares in turn, may report a move's placement before its lift."""
        shapes = index.match(self._current_sig(), self._touched)
        if len(shapes) != 1:
            return []
        visible = {c for c, _v in shapes[0].sig}
        early = self._arrived_first(shapes[0])
        return shapes if early and visible.issuperset(early) else []

    def _before(self, a: int, b: int) -> bool:
        """Whether the latest event on cell ``a`` came before the latest on cell ``b``. A board
        that scans its squares in turn reports one scan's changes in square order: there only
        events more than a scan apart are ordered. Otherwise events of the same millisecond come
        in the order they happened (a piece put back on the cell the last move took on, then the
        next player's attacker lifted, in one report: no capture there)."""
        scan = self.timing.scan_ms
        if scan:
            return self._cell_t[a] < self._cell_t[b] - scan
        return (self._cell_t[a], self._cell_n[a]) < (self._cell_t[b], self._cell_n[b])

    def _same_result(self, shapes: list[Shape]) -> list[Shape]:
        """On an identity board the pieces read are the position: moves that lead to the very
        same position (a Mathematichess king swapping with his queen, and her substituting him)
        need no question. The record names the move of the piece lifted first."""
        pos = self.position
        results = set()
        for s in shapes:
            pos.push(s.move)
            results.add(pos.fen())
            pos.pop()
        if len(results) > 1:
            return shapes
        lifted_t = self._lifted_t

        def first_lift(s: Shape) -> int:
            return lifted_t.get(s.move.frm, 1 << 62)  # (the moving piece's cell; a swap moves two)

        return [min(shapes, key=first_lift)]

    def _since(self, t: int) -> set[int]:
        """Cells handled after ``t``."""
        cell_t = self._cell_t
        return {c for c in self._touched if cell_t.get(c, t) > t}

    def _handled_again(self, shape: Shape, since: int) -> set[int]:
        """Cells of ``shape``'s move handled since the board first showed it, later than a
        bounce (``settle_ms``)."""
        return {c for c in self._since(since) & shape.cells if self._cell_t[c] - since >= self.timing.settle_ms}

    def _reply_done(self, shape: Shape, since: int, needs: frozenset[int] | set[int] = frozenset()) -> bool:
        """Whether the board is ``shape``'s move followed by a complete legal reply (handled
        after the board first showed the move), give or take pieces lifted again; the reply
        must involve the cells ``needs``."""
        pos = self.position
        pos.push(shape.move)
        try:
            board = pos.board
            cells = set(self._diff) | shape.cells
            look = self._look
            sig = frozenset((c, self._observed[c]) for c in cells
                            if self._observed[c] != seen(board[c], self.identity, look))
            if not sig:
                return False
            index = self._reply_index_for(shape)
            # The move's own cells handled within settle_ms of it: a bounce, not the reply.
            touched = (self._since(since) - shape.cells) | self._handled_again(shape, since)
            lifts = [(c, v) for c, v in sig if v == 0 and board[c]]
            for r in range(0, min(len(lifts), 4) + 1):
                for chosen in combinations(lifts, r):
                    rest = {c for c, _v in chosen}
                    if any(not rest & s.cells and needs <= s.cells
                           for s in index.match(sig - frozenset(chosen), touched)):
                        return True
            return False
        finally:
            pos.pop()

    def _peel(self, sig: Sig, index: MoveIndex) -> tuple[frozenset[int], list[Shape]] | None:
        """Overlapping hands: the board is one complete legal move of the side to move plus
        pieces lifted elsewhere (the next player's hand already on its piece). Returns those
        cells and the move's shapes when exactly one such reading exists and the lifted cells
        are none the move could still go on to (a victim a dragged rook is about to take)."""
        expected = self._expected
        lifts = [(c, v) for c, v in self._diff.items() if v == 0 and expected[c]]
        if not lifts or len(lifts) > 12:
            return None
        # A charge or a chain lifts many men of one move: then the next player's hand holds at
        # most two of the lifted pieces (a swap's two men), which keeps the subsets few.
        most = len(lifts) if len(lifts) <= 6 else 2
        found: list[tuple[frozenset[int], list[Shape]]] = []
        for r in range(1, most + 1):
            for chosen in combinations(lifts, r):
                msig = sig - frozenset(chosen)
                rest = frozenset(c for c, _v in chosen)
                shapes = [s for s in index.match(msig, self._touched) if not rest & s.cells and self._in_order(s)]
                if shapes:
                    found.append((rest, shapes))
        if len(found) > 1:
            # Which reading leaves the lifted pieces where the next player's hand can be: on
            # pieces some legal reply moves or takes (a lifted piece no reply touches is no
            # reply's doing).
            found = [(rest, shapes) for rest, shapes in found if rest <= self._reply_reach(shapes[0].move)]
        if len(found) != 1:
            return None
        rest, shapes = found[0]
        touched = self._touched - rest
        own = [self._cell_t.get(c, 0) for c in shapes[0].cells]
        done = max(own) if own else 0
        if any(self._cell_t.get(c, 0) > done and self._observed[c] for c in touched - shapes[0].cells):
            return None  # a piece put down elsewhere since: a reply under way, or done (``explain``)
        for s in shapes:
            if _takes_only(s.move):
                return None
            # (A silent move has no signature to extend: see ``_set_match``.)
            ext = index.extension_cells(s.sig, touched & s.cells) if s.sig else frozenset()
            ext |= index.continuation_cells(s.move, touched)
            drag = index.drag_cells(s.move)
            if rest & (ext | drag | index.bigger_cells(s.move)):
                if len(shapes) == 1 and not (rest & (ext | index.bigger_cells(s.move))):
                    # The lifted piece may be the victim the mover's piece slides on to, or the
                    # next player's: no reading to show yet, but if the next player completes a
                    # move on top of this one, this one was the move (``_reply_done``; on an
                    # occupancy board a piece put down further along the line once the mover's
                    # piece has left its cell is rather that slide going on: ``_slid_on``).
                    held = self._reading
                    since = held[1] if held is not None and held[0] is s else self._last_t
                    self._reading = (s, since, drag | ext, ext)
                return None
            # A piece the mover's piece could take, lifted before the mover's piece left: the
            # mover's own victim first (not the next player's hand). When the piece left is its
            # first lift: a swap refills the cells it leaves, so their latest event is no lift.
            left = [self._lifted_t.get(a, self._cell_t[a]) for a, b in s.move.relocations
                    if a != b and a in self._cell_t]
            if left and any(self._cell_t.get(c, 0) < min(left) for c in rest & index.source_cells(s.move)):
                return None
        return rest, shapes

    def _slid_on(self, shape: Shape) -> bool:
        """On an occupancy board, whether the reading's piece has left the cell it went to: a
        piece put down further along its line may then be that piece sliding on as much as the
        next player's reply. (An identity board reads whose piece it is.)"""
        observed = self._observed
        return not self.identity and any(not observed[d] for s, d in shape.move.relocations if s != d)

    def _reply_reach(self, move: Move) -> frozenset[int]:
        """Cells whose piece some legal reply to ``move`` moves or takes."""
        pos = self.position
        pos.push(move)
        try:
            return frozenset(c for m in pos.legal_moves() for c, before, _a in m.changes if before)
        finally:
            pos.pop()

    def _idle_status(self) -> Status:
        outcome = self._outcome
        if outcome is not None:
            result = outcome.result(self.variant.nsides, tuple(self.variant.sides))
            return Status("idle", f"Game over: {result} ({outcome.termination})")
        return Status("idle", f"{side_name(self.variant, self.position.side)} to move")

    @property
    def _index(self) -> MoveIndex:
        """The legal moves of the position by signature, built when first needed (or by
        ``prepare``) rather than in the decision that accepted the move before."""
        index = self._index_cache
        if index is None:
            index = self._index_cache = MoveIndex(self.position, self.identity, self._only)
        return index

    def expect(self, moves: tuple[Move, ...] | None) -> None:
        """Let only ``moves`` be played now (None: every legal move); see ``_only``."""
        if moves != self._only:
            self._only = moves
            if self._index_cache is not None:
                self._retire(self._index_cache)
            self._index_cache = None

    def _retire(self, index: object) -> None:
        if len(self._retired) >= 8:  # nobody called prepare(): free them now rather than pile up
            self._retired.clear()
        self._retired.append(index)

    def prepare(self) -> None:
        """Do the per-position work ahead (index the legal moves, and those after the reading
        shown, for telling a reply): the service calls this while it waits for the next event,
        so the next decision only matches."""
        self._retired.clear()
        if self._playing:
            _ = self._index
            reading = self._reading
            if reading is not None:
                pos = self.position
                pos.push(reading[0].move)
                try:
                    self._reply_index_for(reading[0])
                finally:
                    pos.pop()

    def _reply_index_for(self, shape: Shape) -> MoveIndex:
        """The legal moves after ``shape``'s move (the position must be after it): built once per
        reading, not per event."""
        cached = self._reply_index
        if cached is not None and cached[0] is shape:
            return cached[1]
        index = MoveIndex(self.position, self.identity)
        self._reply_index = (shape, index)
        return index

    def _set_match(self, sig: Sig, shapes: list[Shape], index: MoveIndex,
                   rest: frozenset[int] = frozenset()) -> None:
        """``sig``: the readings' differences from the game; ``rest``: cells of pieces lifted by
        the next player meanwhile (not part of the matched moves)."""
        t = self.timing
        to_move = side_name(self.variant, self.position.side)
        cells = tuple(sorted(set(self._diff) | {c for s in shapes for c in s.cells}))
        if len(shapes) > 1 and self.identity:
            shapes = self._same_result(shapes)
        if len(shapes) == 1 and not rest and (_takes_only(shapes[0].move)
                                              or _put_back(shapes[0].move, self._look)):
            # Pieces lifted and nothing put down: a move under way as much as a removal. (The
            # same man lifted and put back for a move that changes its kind where it stands is
            # asked about too: players straighten men that way.)
            self._pending = _Pending("removal", sig, tuple(shapes), shapes[0].cells,
                                     deadline=self._last_t + t.prefix_ms)
            self._status = Status("moving", f"{to_move} moving", cells=cells)
        elif len(shapes) == 1:
            shape = shapes[0]
            move = shape.move
            touched = self._touched - rest
            ext = index.extension_cells(shape.sig, touched & shape.cells) if shape.sig else frozenset()
            # A piece put down on a cell some bigger move's piece crosses (the other man of a
            # swap dragged home) is that move going on, not the next player's; such cells, and
            # pieces put back where they stood outside every bigger move (touched, not moved),
            # do not rule the bigger move out.
            crossed = self._crossed(index, move)
            if crossed:
                bigger = index.bigger_cells(move)
                touched = {c for c in touched
                           if c in shape.cells or (c not in crossed and (c in bigger or c in self._diff))}
            ext |= index.continuation_cells(move, touched)
            # A piece put down and then men lifted (the victims of a charge or a chain) is no
            # piece sliding on: only a reading whose latest event put a piece down may be a drag.
            # A scanning board reports one scan's changes in square order, not as they happened,
            # so there the order says nothing and any reading may be a drag.
            drag = index.drag_cells(move) if self._placed or rest or t.scan_ms else frozenset()
            # On a board that scans its squares in turn, a piece resting on a crossed cell for any
            # time under one scan is reported there for exactly one scan (until the scan comes
            # round again), and the gap to a castling's second piece may grow by up to one scan.
            drag_wait = t.drag_wait()
            wait = t.prefix_ms + t.scan_ms if ext else drag_wait if drag else t.settle_ms
            # Timed from the mover's last event: the next player lifting a piece meanwhile
            # (``rest``) says nothing about whether the mover is done.
            own = [self._cell_t[c] for c in self._touched - rest if c in self._cell_t]
            start = max(own) if own and rest else self._last_t
            deadline = start + wait
            if drag and not ext and t.scan_ms:
                # What a scanning board can tell is whether the piece still stands where it was
                # reported when the scan comes round to that square again: one scan after *that*
                # report, whatever the board reported since (a lift later in square order).
                landed = [self._cell_t[d] for s, d in move.relocations if s != d and d in self._cell_t]
                if landed:
                    deadline = max(start + t.settle_ms, max(landed) + drag_wait)
            prev = self._pending
            # The cells handled up to the first moment the board showed this move: what is
            # handled later is the next player's (see ``_fire``).
            # When the board first showed this move: what is handled later is the next player's
            # (see ``_fire``), or the mover's piece going on.
            since = prev.extra.get("since") if prev.kind == "move" and prev.shapes == (shape,) else None
            if since is None and self._reading is not None and self._reading[0] is shape:
                since = self._reading[1]
            involved = shape.cells | ext | drag | crossed
            if self._placed and self._latest not in involved and not t.scan_ms:
                # The board shows the move since a piece was put down elsewhere (the next
                # player's silent swap done on top of it): the mover is done, as in ``event``.
                deadline = self._last_t
            self._pending = _Pending("move", sig, (shape,), involved, deadline=deadline,
                                     extra={"since": since if since is not None else self._last_t,
                                            "rest": rest})
            self._reading = (shape, self._pending.extra["since"], drag | ext, ext)
            text = self.position.move_text(move)
            self._status = Status("moving", f"{to_move} moving: {text} (provisional)", cells=cells,
                                  provisional=(text,))
        else:
            self._pending = _Pending("ambiguous", sig, tuple(shapes), deadline=self._last_t + t.settle_ms,
                                     extra={"rest": rest})
            self._status = Status("moving", f"{to_move} moving", cells=cells)

    # -- decisions at a deadline ----------------------------------------------------------------------
    def _fire(self, now: int, accepted: list[Move], undone: list[Move]) -> None:
        p = self._pending
        if p.kind == "move":
            move = p.shapes[0].move
            # Cells handled since the board first showed the move, and pieces lifted by the
            # next player, stay handled: they belong to the next move.
            keep = frozenset(self._since(p.extra["since"])) | p.extra["rest"]
            if not p.extra.get("reply"):
                # (A bounce on the move's own cells is not the next player's doing.)
                keep -= p.shapes[0].cells
            self._accept(move, now, accepted, keep=keep)
        elif p.kind == "ambiguous":
            self._ask(self._choice_prompt([(s.move,) for s in p.shapes], 0), p.sig)
        elif p.kind == "removal":
            self._ask(self._removal_prompt(p.shapes[0].move), p.sig)
        elif p.kind == "takeback":
            back = p.back
            assert back is not None
            texts = " ".join(self.position.move_text(m) for m in reversed(back.moves))
            self._ask(Prompt("takeback", f"Take back {texts}?", (
                Option("yes", f"Take back {texts}", undo=back.plies),
                Option("no", "Keep playing"))), p.sig)
        elif p.kind == "unmatched":
            self._resolve_unmatched(now, accepted)

    def _resolve_unmatched(self, now: int, accepted: list[Move]) -> None:
        index = self._index
        p = self._pending
        sig = p.sig
        diff_cells = set(self._diff)
        # Live events: at most a move and a quick reply merged. After the board was away: the
        # players may have gone on for a few moves.
        plies = RESYNC_PLIES if self._resync else 2
        seqs = p.extra.get("seqs")
        if seqs is None:
            seqs = explain(self.position, self._observed, diff_cells, self._touched, self.identity, strict=True,
                           max_plies=plies)
        # Live, a board also half-way through one legal move (a line pushed front first, slowly)
        # or sequences ending in a removal (pieces in the hand) are asked about, not accepted.
        in_hand = not self._resync and bool(seqs) and self._in_hand() and not self._unseen_done(seqs)
        if len(seqs) == 1 and not _takes_only(seqs[0][-1]) and not in_hand:
            if self._resync:
                for move in seqs[0]:
                    self._accept(move, now, accepted)
                return
            # The earlier moves are final; the last one is read again from the board, as a
            # provisional reading that may still go on (a rook short of its square, a castling).
            last = seqs[0][-1]
            touched = set(self._touched)
            for move in seqs[0][:-1]:
                self._accept(move, now, accepted)
            earlier = {c for m in seqs[0][:-1] for c, _b, _a in m.changes}
            self._touched = (touched & {c for c, _b, _a in last.changes}) | (touched - earlier)
            return
        if not self._resync and not p.extra.get("tried"):
            # Not explained yet: wait for the hands (or the guide time) and look again.
            self._pending = _Pending("unmatched", sig, deadline=self._last_t + self.timing.guide_ms,
                                     extra={"tried": True, "seqs": seqs})
            if self._last_t + self.timing.guide_ms > now:
                return
        if self._resync:
            loose: list[tuple[Move, ...]] = [(s.move,) for s in index.match_loose(sig)]
            if not loose and not seqs:
                seqs = explain(self.position, self._observed, diff_cells, self._touched, self.identity, strict=False,
                               max_plies=plies)
            choices: list[tuple[Move, ...]] = list(loose) or seqs
            if 0 < len(choices) <= MAX_CHOICES:
                self._ask(self._choice_prompt(choices, 0, force_which=True), sig)
                return
        elif 0 < len(seqs) <= MAX_CHOICES:
            self._ask(self._choice_prompt(seqs, 0, force_which=True, still_moving=in_hand), sig)
            return
        early = [] if self._resync or seqs else self._placed_early(index)
        if early:
            # Nothing in the events' order explains the board, and it has been still for
            # ``guide_ms``: it shows one legal move whose placement was reported before its
            # lift. That is the move (else a game's last move would never end the game): shown
            # as a provisional reading, final ``settle_ms`` later unless the board changes (a
            # quick recapture is read in the real order first, by ``explain``).
            self._set_match(sig, early, index)
            if self._pending.deadline is not None:
                self._pending.deadline = max(self._pending.deadline, now + self.timing.settle_ms)
            return
        if self._in_hand():
            self._pending = _Pending("partial", sig)
            return
        self._pending = _Pending("wrong", sig)
        swapping = unswapped(self.position, self._observed) if self.identity else None
        if swapping is not None:
            # The move stands on the board with the old piece: name the swap it still needs.
            cells = swaps(self.variant, swapping)
            self._status = Status("fix", f"{side_name(self.variant, self.position.side)} "
                                  f"{self.position.move_text(swapping)}: {swap_text(self.variant, swapping)}",
                                  fixes=tuple(Fix(c, want, old) for c, old, want in cells))
            return
        self._status = Status("fix", self._fix_message("Board does not match the game", wrong=True),
                              fixes=self._fixes(wrong=True))

    def _unseen_done(self, seqs: list[tuple[Move, ...]]) -> bool:
        """On a board that scans slower than ``settle_ms``, a piece that stood for less than one
        scan is never seen (a pawn taken back at once by a quick recapture): a board that reads
        like pieces still in the hand is rather that one sequence made, when the latest event put
        down the piece its last move brings to that cell."""
        if self.timing.scan_ms <= self.timing.settle_ms or len(seqs) != 1 or not self._placed:
            return False
        last = seqs[0][-1]
        return any(c == self._latest and a and self._observed[c] == seen(a, self.identity)
                   for c, _b, a in last.changes)

    def _in_hand(self) -> bool:
        """The differences are pieces lifted (in the hand) or put where some legal move puts them:
        the player is half-way through that move -- with, maybe, pieces of the other sides
        lifted as well (the next player's hand already on its piece)."""
        expected = self._expected
        board = self.position.board
        side = self.position.side
        side_of = self.variant.side_of
        diff = list(self._diff.items())
        # Pieces put down minus pieces lifted (a new code on an occupied cell of an identity
        # board is neither).
        placed = sum(1 for c, v in diff if v and not expected[c]) - sum(1 for c, v in diff if not v and expected[c])
        if self._partial_of_a_move(diff, placed):
            return True
        mine = [(c, v) for c, v in diff if not (v == 0 and expected[c] and side_of(board[c]) != side)]
        return bool(mine) and len(mine) < len(diff) and self._partial_of_a_move(mine, placed)

    def _crossed(self, index: MoveIndex, move: Move) -> frozenset[int]:
        """Cells strictly between the ends of the pieces carried by the legal moves of several
        pieces that involve every cell of ``move`` (``MoveIndex.bigger_moves``)."""
        return frozenset(c for big in index.bigger_moves(move) for a, b in big.relocations
                         for c in _between(self.variant, a, b))

    def _resting(self, index: MoveIndex) -> bool:
        """The piece just put down rests on a cell strictly between the two ends of one of the
        pieces some legal move of several pieces carries (a swap), and the rest of the
        differences are that move's pieces lifted or already where it puts them: the piece is
        being dragged along its way. (A move of one piece resting on its way is a legal move
        itself: ``MoveIndex.drag_cells``.)"""
        cell = self._latest
        value = self._diff.get(cell)
        if not self._placed or not value:
            return False
        board = self.position.board
        side, side_of = self.position.side, self.variant.side_of
        # (Pieces of the other sides lifted meanwhile are the next player's hand.)
        others = [(c, v) for c, v in self._diff.items()
                  if c != cell and not (v == 0 and board[c] and side_of(board[c]) != side)]
        for shapes in index.by_sig.values():
            for s in shapes:
                if (len(s.move.relocations) < 2 or cell in s.cells
                        or not all(c in s.cells and (v == 0 or (c, v) in s.sig) for c, v in others)):
                    continue
                for a, b in s.move.relocations:
                    if (a != b and seen(board[a], self.identity, self._look) == value
                            and cell in _between(self.variant, a, b)):
                        return True
        return False

    def _partial_of_a_move(self, items: list[tuple[int, int]], placed: int) -> bool:
        # Cells emptied and refilled meanwhile must be the move's too (a victim's cell): a
        # piece put on a cell no legal move of the lifted piece reaches is no move under way.
        refilled = self._refilled - self._diff.keys()
        for shapes in self._index.by_sig.values():
            for s in shapes:
                cells = s.cells
                if (placed <= s.imports and all(c in cells and (v == 0 or (c, v) in s.sig) for c, v in items)
                        and refilled <= cells):
                    return True
        return False

    def _ask(self, prompt: Prompt, sig: Sig) -> None:
        self._prompt = prompt
        self._prompt_sig = sig
        self._status = Status("ask", prompt.question, cells=tuple(sorted(self._diff)), prompt=prompt)

    def _choice_prompt(self, seqs: list[tuple[Move, ...]], undo: int, force_which: bool = False,
                       still_moving: bool = False) -> Prompt:
        v = self.variant
        text = self.position.move_text
        firsts = [seq[0] for seq in seqs]
        single = all(len(seq) == 1 for seq in seqs)
        same_cells = len({(m.frm, m.to) for m in firsts}) == 1
        options: list[Option] = []
        kind = "which_move"
        question = "Which move did you make?"
        if single and same_cells and not force_which:
            m0 = firsts[0]
            if m0.tag == "drop":
                kind = "which_piece"
                question = f"Which piece did you place on {v.geometry.names[m0.to]}?"
                keys = [v.kinds[v.kind_of(m.promotion or m.piece)].letter for m in firsts]
                labels = [piece_name(v, m.promotion or m.piece) for m in firsts]
            elif all(m.tag == m0.tag for m in firsts):
                kind = "promotion"
                question = "Promote to which piece?"
                keys = [v.kinds[v.kind_of(m.promotion or m.piece)].letter.lower() for m in firsts]
                labels = [v.kinds[v.kind_of(m.promotion or m.piece)].name for m in firsts]
            else:
                keys = []
            if len(set(keys)) == len(firsts):
                options = [Option(k, lab, seq, undo, tuple(text(m) for m in seq))
                           for k, lab, seq in zip(keys, labels, seqs, strict=True)]
            else:
                kind = "which_move"
                question = "Which move did you make?"
        if not options:
            for seq in seqs:
                texts = tuple(text(m) for m in seq)
                key = " ".join(texts)
                if any(o.key == key for o in options):
                    key = f"{key} #{len(options) + 1}"  # identical effects, different rule meaning
                options.append(Option(key, key, seq, undo, texts))
            if still_moving or any(_takes_only(seq[-1]) for seq in seqs):
                options.append(Option("no", "None: still moving"))
        return Prompt(kind, question, tuple(options))

    def _removal_prompt(self, move: Move) -> Prompt:
        v = self.variant
        text = self.position.move_text(move)
        if _put_back(move, self._look):
            what = " and ".join(f"the {v.kinds[v.kind_of(b)].name} on {v.geometry.names[c]} "
                                f"{_article(v.kinds[v.kind_of(a)].name)}" for c, b, a in move.changes)
            return Prompt("confirm", f"Make {what} ({text})?", (
                Option("yes", f"Yes: {text}", (move,), 0, (text,)),
                Option("no", "No: it stays as it was")))
        what = " and ".join(f"the {piece_name(v, b)} on {v.geometry.names[c]}" for c, b, _a in move.changes)
        return Prompt("removal", f"Take {what} off for good ({text})?", (
            Option("yes", f"Yes: {text}", (move,), 0, (text,)),
            Option("no", "No: still moving")))

    # -- playing and undoing moves -------------------------------------------------------------------
    def _accept(self, move: Move, now: int, accepted: list[Move], keep: frozenset[int] = frozenset()) -> None:
        """Play ``move`` as final. ``keep``: cells handled that belong to the next move."""
        pos = self.position
        prev_codes = {c: b for c, b, _a in move.changes}
        touched = frozenset(self._touched)
        self._stray = touched - prev_codes.keys() - keep
        swap = "" if self.identity else swap_text(self.variant, move)
        self._swap_cells = set() if self.identity else {c for c, _old, _new in swaps(self.variant, move)}
        self._swap_lift = None
        self._notes.append(f"{side_name(self.variant, pos.side)} played {pos.move_text(move)}"
                           + (f": {swap}" if swap else ""))
        pos.push(move)
        accepted.append(move)
        self._after_change(move.changes)
        ready = self._reply_index
        if ready is not None and ready[0].move is move:
            # The legal moves after the reading, indexed ahead by ``prepare``, are the new
            # position's: the decision that accepts a move does not pay for indexing the next.
            self._index_cache = ready[1]
        else:
            self._retire(ready)
        self._reply_index = None
        self._touched = set(keep)
        self._refilled &= keep
        # (The stray cells' too: when their men left tells which silent move they were.)
        self._lifted_t = {c: t for c, t in self._lifted_t.items() if c in keep or c in self._stray}
        self._reading = None
        self._resync = False
        self._close_prompt()
        self._dismissed = None

    def _undo_one(self) -> Move:
        move = self.position.pop()
        self._notes.append(f"took back {self.position.move_text(move)}")
        self._after_change(move.changes)
        self._touched.clear()
        self._swap_cells.clear()
        self._swap_lift = None
        self._refilled.clear()
        self._reading = None
        self._retire(self._reply_index)
        self._reply_index = None
        return move

    def _after_change(self, changes) -> None:
        board = self.position.board
        for c, _b, _a in changes:
            self._expected[c] = seen(board[c], self.identity, self._look)
            self._set(c, self._observed[c])
        self._retire(self._index_cache)
        self._index_cache = None
        self._only = None  # the moves expected were the last position's: the service says anew
        self._outcome = self.position.outcome() if self._playing else None
        self._backs = None

    @property
    def outcome(self):
        """How the game ended (engine ``Outcome``), or None while it goes on."""
        return self._outcome

    def _earlier_positions(self) -> list[_Back]:
        if self._backs is None:
            backs = []
            codes: dict[int, int] = {}
            stack = self.position.move_stack
            moves: list[Move] = []
            for plies in (1, 2):
                if len(stack) < plies:
                    break
                move = stack[-plies]
                moves.append(move)
                for c, before, _a in move.changes:
                    codes[c] = before
                backs.append(_Back(plies, tuple(moves), dict(codes)))
            self._backs = backs
        return self._backs

    def _takeback_match(self) -> _Back | None:
        """The earlier position the board shows now, if any (hidden cells must be touched)."""
        board = self.position.board
        for back in self._earlier_positions():
            codes = back.codes
            if not set(self._diff) <= codes.keys():
                continue
            ok = True
            for c, code in codes.items():
                s = seen(code, self.identity, self._look)
                if self._observed[c] != s:
                    ok = False
                    break
                if code != board[c] and s == self._expected[c] and c not in self._touched:
                    ok = False
                    break
            if ok:
                return back
        return None

    # -- guidance --------------------------------------------------------------------------------------
    def _fixes(self, wrong: bool = False) -> tuple[Fix, ...]:
        """Every cell to put right with what belongs there. On a wrong board this includes cells
        an occupancy board reads as right but where another piece may stand: emptied and
        refilled while a piece was off its cell (the victim of an illegal capture)."""
        board = self.position.board
        cells = dict(self._diff)
        if wrong:
            for c in self._refilled:
                cells.setdefault(c, self._observed[c])
        return tuple(Fix(c, board[c], v) for c, v in sorted(cells.items()))

    def _fix_message(self, head: str, wrong: bool = False) -> str:
        v = self.variant
        return head + ": " + ", ".join(wanted_text(v, f.cell, f.want) for f in self._fixes(wrong))


def _put_back(move: Move, look: tuple[int, ...] | None) -> bool:
    """The move changes men where they stand into kinds that are the same physical man (an
    Illusionary Piece Chess choice: ``signatures.looks``), and nothing else: on the board it is
    a lift and a put-back of the same man. (Triscacia's pawn turned queen is a man replaced.)"""
    return (look is not None and bool(move.changes) and not move.relocations
            and all(b and a and look[b] == look[a] for _c, b, a in move.changes))


def _between(variant: Variant, a: int, b: int) -> list[int]:
    """Cells strictly between ``a`` and ``b`` on one straight line (none if not on a line)."""
    coords = variant.geometry.coords
    (x0, y0), (x1, y1) = coords[a], coords[b]
    dx, dy = x1 - x0, y1 - y0
    n = max(abs(dx), abs(dy))
    if not (dx == 0 or dy == 0 or abs(dx) == abs(dy)) or n < 2:
        return []
    ray = variant.geometry.ray(a, ((dx > 0) - (dx < 0), (dy > 0) - (dy < 0)))
    return list(ray[:n - 1]) if len(ray) >= n and ray[n - 1] == b else []


def _article(name: str) -> str:
    return f"an {name}" if name[:1] in "aeiou" else f"a {name}"


def _takes_only(move: Move) -> bool:
    """The move only takes pieces off the board: on the sensors it is pieces in the hand."""
    return bool(move.changes) and not any(after for _c, _b, after in move.changes)
