"""The move-inference core: from timestamped lifts and placements to refereed moves.

Pure: the clock is an input (each event's ``t`` and ``tick(now)``), no threads, no I/O. The I/O
shell feeds ``event``/``tick``/``answer``/``snapshot``/``takeback`` and acts on the returned
``Decision``: commit ``undone`` and ``accepted`` first, then show ``status``.

Two kinds of output, never mixed: a *provisional reading* (``Decision.provisional``,
``Status.provisional``: what the board shows so far, for display only) and a *final move*
(``Decision.accepted``: it can no longer change; it goes to the record, the clock, stdout). A
final move is never amended; ``undone`` only ever carries takebacks the player asked for.

The referee is built in parts: ``core_types`` (its value types and kinds), ``readings`` (what
the hands did), ``hand_rules`` and ``hand_reading`` (the rules that read hands, as functions),
``move_indexes`` (the legal moves matched against), ``judging`` (how a state is judged, in the
order its docstring lists, and how long a reading waits), ``deadlines`` (the decisions when a
wait runs out), ``prompts`` (the wording); this module holds the inputs, accepting and undoing
moves.

A move that only takes pieces off the board (a Mathematichess terminator) looks exactly like a
piece held in the hand while a move goes on, so it is never accepted on the board's word alone:
once the board has been still for ``prefix_ms`` the core asks (``yes``; ``no``: still moving),
and a sequence of moves ending in one is asked about rather than accepted.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from engine import Move, Outcome, Position
from engine.moves import Change

from .core_types import (
    MAX_CHOICES,
    RESYNC_PLIES,
    SCAN_MARGIN_MS,
    UNKNOWN_PIECE,
    Decision,
    Event,
    Fix,
    Game,
    Option,
    Pending,
    PendingKind,
    Prompt,
    PromptKind,
    ShownReading,
    Status,
    StatusKind,
    Timing,
)
from .hand_reading import fixes
from .messages import side_name
from .move_indexes import MoveIndexes
from .prompts import fix_message
from .readings import Readings
from .signatures import Shape, Sig, looks, seen
from .swaps import swap_text, swaps
from .touches import Told, Touches

__all__ = ["MAX_CHOICES", "RESYNC_PLIES", "SCAN_MARGIN_MS", "UNKNOWN_PIECE", "Decision", "Event", "Fix", "Option",
           "PendingKind", "Prompt", "PromptKind", "Referee", "Status", "StatusKind", "Timing"]

class Referee(Touches):
    """The decision core for one game. It owns ``position`` (pass a copy)."""

    def __init__(self, position: Position, *, identity: bool = False, timing: Timing | None = None,
                 playing: bool = True, observed: list[int] | None = None) -> None:
        self.position = position
        self.variant = position.variant
        self.identity = identity
        self._playing = playing
        board = position.board
        #: What an identity board reads for each piece code (None: the code itself).
        self._look = looks(self.variant)
        #: What the hand rules read the board against (``hand_reading``).
        self._game = Game(position, identity, self._look, timing or Timing())
        self._hands = Readings([seen(c, identity, self._look) for c in board], observed)
        self._resync = False
        self._moves = MoveIndexes(position, identity)
        #: Occupancy boards: cells where the last move asks for a piece swap (Gryphon), and the
        #: swap cell lifted while nothing else is handled: put back there, it was the swap.
        self._swap_cells: set[int] = set()
        self._swap_lift: int | None = None
        #: The reading the players were asked about since the last final move, as its piece may
        #: have gone on or made the mover's next move (``MergedQuestions._ask_both``).
        self._asked_both: Move | None = None
        #: The other readings asked about then (the reading, a reply, the mover's next move...),
        #: followed on as the players play on unanswered (``two_readings.played_on``).
        self._asked_other: list[tuple[Move, ...]] = []
        #: The moves worked out together the players were asked about since the last final
        #: move (any other "Which move did you make?"), followed on in the same way
        #: (``MergedQuestions._asked_still``).
        self._asked_seqs: list[tuple[Move, ...]] = []
        #: The latest provisional reading since the last final move (``ShownReading``).
        self._reading: ShownReading | None = None
        #: When the board first showed each reading since the last final move. (Keyed by the
        #: shape itself, compared by identity: an id() could be a retired shape's.)
        self._shown: dict[Shape, int] = {}
        self._dismissed: Sig | None = None
        self._declined: Sig | None = None  # "still moving" was answered while the board showed this
        #: Cells handled during the move just accepted that are not its own: maybe a silent move
        #: (a swap) the next player made while the move waited to be taken.
        self._stray: frozenset[int] = frozenset()
        self._prompt: Prompt | None = None
        self._prompt_sig: Sig | None = None
        #: The status before a touch's message was put in front of it, and the status shown with
        #: it (a second touch replaces the message rather than adds to it).
        self._told: Told | None = None
        self._pending = Pending(PendingKind.CLEAN)
        self._status = Status(StatusKind.IDLE, "")
        self._notes: list[str] = []
        self._outcome = position.outcome() if playing else None
        self._evaluate()

    # -- inputs -------------------------------------------------------------------------------------
    @property
    def timing(self) -> Timing:
        return self._game.timing

    @timing.setter
    def timing(self, timing: Timing) -> None:
        """The service sets the board's scan and drag waits once it knows the board."""
        self._game.timing = timing

    @property
    def status(self) -> Status:
        return self._status

    @property
    def deadline(self) -> int | None:
        """When ``tick`` next has something to decide (ms), or None."""
        return None if self._prompt else self._pending.deadline

    @property
    def deadline_once_the_next_player_starts(self) -> int | None:
        """When the provisional reading shown is final if the next player puts a hand on a man
        no extension explains (``prefix_ms``/``drag_ms`` after the mover's last event), or
        ``deadline`` when nothing else than the quiet decides. A player who watches the screen
        waits this long before starting (``event_scripts``)."""
        p = self._pending
        short = p.notes.short if p.kind == PendingKind.MOVE else None
        return short if short is not None and self._prompt is None else self.deadline

    @property
    def pending_kind(self) -> PendingKind:
        """What the core is waiting on (``PendingKind``)."""
        return self._pending.kind

    @property
    def observed(self) -> tuple[int, ...]:
        return tuple(self._hands.observed)

    @property
    def playing(self) -> bool:
        return self._playing

    def set_playing(self, playing: bool, now: int) -> Decision:
        """Start or stop refereeing (setup and game-over phases only compare the board)."""
        self._playing = playing
        self._moves.reset()
        self._hands.touched.clear()
        self._hands.refilled.clear()
        self._hands.either.clear()
        self._reading = None
        self._shown.clear()
        self._close_prompt()
        self._hands.last_t = now
        return self._decide((), ())

    def event(self, ev: Event) -> Decision:
        accepted: list[Move] = []
        undone: list[Move] = []
        p = self._pending
        if (self._prompt is None and p.kind == PendingKind.MOVE and len(p.shapes) == 1 and ev.cell not in p.cells
                and ev.down and p.notes.needs_either):
            # A man put down, while the reading needs a cell the player before may have handled
            # (``controller.either_hand``): no hand was free to bring it but the one holding the
            # man this reading says has landed. That cell was the player before's.
            self._hands.touched -= p.notes.needs_either
            self._hands.either.clear()
        elif (self._prompt is None and p.kind == PendingKind.MOVE and len(p.shapes) == 1 and ev.cell not in p.cells
                and self._ends_move(ev)):
            # The next player is at work on a cell the move does not involve and cannot go on
            # to: the move is complete, and final.
            self._fire(ev.t, accepted, undone)
        swap_event = False
        if ev.cell in self._swap_cells and not ev.resync:
            if not ev.down and self._swap_lift is None and not self._hands.touched:
                self._swap_lift = ev.cell
                swap_event = True
            elif ev.down and self._swap_lift == ev.cell:
                self._swap_lift = None
                self._swap_cells.discard(ev.cell)
                swap_event = True
        if self._swap_lift is not None and not swap_event:
            # another hand meanwhile: that lift was no swap (a victim taken, say)
            self._hands.touched.add(self._swap_lift)
            self._swap_lift = None
        value = ((ev.piece or UNKNOWN_PIECE) if self.identity else 1) if ev.down else 0
        if (ev.down and not self.identity and self._hands.expected[ev.cell]
                and any(v == 0 and c != ev.cell for c, v in self._hands.diff.items())):
            self._hands.refilled.add(ev.cell)
        self._hands.read(ev.cell, value)
        if ev.resync:
            self._resync = True
        elif not swap_event:
            self._hands.touched.add(ev.cell)
        self._hands.record(ev.cell, ev.down, ev.t)
        decision = self._decide(accepted, undone)
        p = self._pending
        if self.timing.scan_ms and p.deadline is not None and p.deadline <= ev.t:
            # A board that scans its squares in turn reports one scan's changes together, with
            # that scan's time and in square order: nothing falls due before the rest of the
            # report (the same time) is read.
            self._pending = replace(p, deadline=ev.t + 1)
        return decision

    def _ends_move(self, ev: Event) -> bool:
        """Whether an event outside the provisional move (and every extension of it) shows the
        mover is done: a piece put down elsewhere, or a man lifted that the moving piece cannot
        take next once the piece has rested the short wait (``prefix_ms``/``drag_ms``). A lift
        sooner proves nothing yet: hands overlap, and the next player's hand may be on its man
        while the mover's piece is still on its way (then the short wait runs from the mover's
        last event: ``_set_match``). On a board that scans its squares in turn a lift is read
        first: it may come in the same report as the mover's piece going on (one scan's changes
        come in square order, not the hands' order), and the reading with that man in the next
        player's hand is final at its short wait all the same (``tick``)."""
        p = self._pending
        if p.notes.reply and p.deadline is not None and ev.t < p.deadline:
            return False  # (the rest of the report that completed the reply: read first)
        short = p.notes.short
        if ev.down:
            # On a board that scans its squares in turn a piece put down ends a reading that could
            # go on only once the mover's piece going on would have been reported
            # (``controller.scan_guard``): it is read with the reading.
            return not (self.timing.scans_in_turn() and p.notes.extendable)
        return not self.timing.scan_ms and short is not None and ev.t >= short and bool(self._hands.observed[ev.cell])

    def snapshot(self, readings: list[int], now: int) -> Decision:
        """The whole board as read after a reconnect or a restart. Hidden changes (captures on an
        occupancy board) could not be seen, so matches that rely on them are asked about."""
        if len(readings) != len(self._hands.observed):
            raise ValueError(f"snapshot has {len(readings)} cells, the game {len(self._hands.observed)}")
        changed = [c for c, v in enumerate(readings) if v != self._hands.observed[c]]
        for c in changed:
            self._hands.read(c, readings[c])
        if changed:
            self._hands.last_t = now
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
        if prompt.kind == PromptKind.TAKEBACK and not opt.undo:
            self._dismissed = sig  # keep the game: the board must go back to it
        elif prompt.kind == PromptKind.CONFIRM and not opt.moves:
            self._hands.touched.clear()  # the man was only straightened
        elif not opt.moves and not opt.undo:
            self._declined = sig  # still moving: wait for the board to change
        for _ in range(opt.undo):
            undone.append(self._undo_one())
        for move in opt.moves:
            self._accept(move, now, accepted)
        self._hands.last_t = now
        return self._decide(accepted, undone)

    def takeback(self, now: int) -> Decision:
        """Undo the last move at the player's request (a button); the board must follow."""
        if not self.position.move_stack:
            return Decision(self._status, note="nothing to take back")
        self._close_prompt()
        move = self._undo_one()
        self._hands.last_t = now
        self._dismissed = self._hands.sig() or None  # the board still shows the move: guide it back
        return self._decide((), [move])

    # -- state --------------------------------------------------------------------------------------
    def _close_prompt(self) -> None:
        self._prompt = None
        self._prompt_sig = None

    def _decide(self, accepted: Sequence[Move], undone: Sequence[Move], evaluate: bool = True) -> Decision:
        if evaluate:
            self._evaluate()
        note = "; ".join(self._notes)
        self._notes.clear()
        if note and self._status.kind == StatusKind.IDLE:
            self._status = Status(StatusKind.IDLE, f"{note}. {self._status.message}")
        p = self._pending
        shown = p.kind == PendingKind.MOVE and len(p.shapes) == 1 and self._prompt is None
        provisional = (p.shapes[0].move,) if shown else ()
        return Decision(self._status, tuple(accepted), tuple(undone), note, provisional)

    def expect(self, moves: tuple[Move, ...] | None, elsewhere: frozenset[int] = frozenset()) -> None:
        """Let only ``moves`` be played now (None: every legal move): the move a computer or a
        remote board chose, shown to the player (controller/service/opponents.py); an empty
        tuple while it is not known yet. Any other move is guided back like a wrong board.
        ``elsewhere``: the sides whose moves are chosen away from the board; moves read at once
        give them none but that move (``MoveIndexes.allows``)."""
        self._moves.elsewhere = elsewhere
        if self._moves.expect(moves):
            self._shown.clear()  # (keyed by the retired index's shapes)

    def prepare(self) -> None:
        """Do the per-position work ahead (index the legal moves, and those after the reading
        shown, for telling a reply): the service calls this while it waits for the next event,
        so the next decision only matches."""
        self._moves.prepare(self._reading.shape if self._reading is not None else None, self._playing)

    # -- decisions at a deadline ----------------------------------------------------------------------
    def _ask(self, prompt: Prompt, sig: Sig) -> None:
        self._prompt = prompt
        self._prompt_sig = sig
        self._status = Status(StatusKind.ASK, prompt.question, cells=tuple(sorted(self._hands.diff)), prompt=prompt)

    # -- playing and undoing moves -------------------------------------------------------------------
    def _accept(self, move: Move, now: int, accepted: list[Move], keep: frozenset[int] = frozenset()) -> None:
        """Play ``move`` as final. ``keep``: cells handled that belong to the next move."""
        pos = self.position
        prev_codes = {c: b for c, b, _a in move.changes}
        touched = frozenset(self._hands.touched)
        p = self._pending
        # The move's own cells handled again, maybe by the next player (``either_hand``).
        either = p.notes.either_kept if p.kind == PendingKind.MOVE and p.shapes[0].move is move else ()
        self._stray = touched - prev_codes.keys() - keep
        swap = "" if self.identity else swap_text(self.variant, move)
        self._swap_cells = set() if self.identity else {c for c, _old, _new in swaps(self.variant, move)}
        self._swap_lift = None
        self._notes.append(f"{side_name(self.variant, pos.side)} played {pos.move_text(move)}"
                           + (f": {swap}" if swap else ""))
        pos.push(move)
        accepted.append(move)
        self._after_change(move.changes)
        self._moves.moved(move)
        self._hands.touched = set(keep)
        self._hands.refilled &= keep
        self._hands.either = set(either) & keep
        self._shown.clear()
        # (The stray cells' too: when their men left tells which silent move they were.)
        self._hands.lifted_t = {c: t for c, t in self._hands.lifted_t.items() if c in keep or c in self._stray}
        self._reading = None
        self._asked_both = None
        self._asked_other = []
        self._asked_seqs = []
        self._resync = False
        self._close_prompt()
        self._dismissed = None

    def _undo_one(self) -> Move:
        move = self.position.pop()
        self._notes.append(f"took back {self.position.move_text(move)}")
        self._after_change(move.changes)
        self._hands.touched.clear()
        self._swap_cells.clear()
        self._swap_lift = None
        self._hands.refilled.clear()
        self._hands.either.clear()
        self._reading = None
        self._asked_both = None
        self._asked_other = []
        self._asked_seqs = []
        self._shown.clear()
        self._moves.undone()
        return move

    def _after_change(self, changes: Sequence[Change]) -> None:
        board = self.position.board
        for c, _b, _a in changes:
            self._hands.expect(c, seen(board[c], self.identity, self._look))
        self._shown.clear()  # (keyed by the retired index's shapes)
        self._outcome = self.position.outcome() if self._playing else None

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended (engine ``Outcome``), or None while it goes on."""
        return self._outcome

    # -- guidance --------------------------------------------------------------------------------------
    def _fix_status(self, kind: StatusKind, head: str, wrong: bool = False) -> Status:
        cells = fixes(self._hands, self.position, wrong)
        return Status(kind, fix_message(self.variant, head, cells), fixes=cells)
