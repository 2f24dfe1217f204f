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
   provisional reading, final after ``settle_ms`` of quiet when it cannot be extended. One the
   mover could still extend (the first half of a bigger legal move, the rook of a castling; its
   piece sliding on along its line; a man it could take next) waits ``hesitate_ms`` of quiet
   for the hand to let go, or the clock button; once the next player has a hand on a man no
   extension takes, ``prefix_ms``/``drag_ms`` after the mover's last event. It is final at once
   when a piece is put down on a cell the move does not involve and cannot go on to, or such a
   man is lifted after that short wait; a lifted man the piece could take next keeps both
   readings (the move with the next player's hand on it, and the capture to come);
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

from dataclasses import replace

from engine import Move, Position

from .core_types import (
    MAX_CHOICES,
    RESYNC_PLIES,
    SCAN_MARGIN_MS,
    UNKNOWN_PIECE,
    Back,
    Decision,
    Event,
    Fix,
    Option,
    Pending,
    PendingKind,
    Prompt,
    PromptKind,
    Status,
    StatusKind,
    Timing,
)
from .hand_reading import HandRules
from .hand_rules import hesitant, put_back, takes_only
from .messages import piece_name, side_name
from .prompts import choice_prompt, chosen_text, fix_message, idle_status, removal_prompt, takeback_prompt
from .readings import Readings
from .signatures import EMPTY_SIG, MoveIndex, Shape, Sig, explain, looks, seen
from .swaps import swap_text, swaps, unswapped

__all__ = ["MAX_CHOICES", "RESYNC_PLIES", "SCAN_MARGIN_MS", "UNKNOWN_PIECE", "Decision", "Event", "Fix", "Option",
           "PendingKind", "Prompt", "PromptKind", "Referee", "Status", "StatusKind", "Timing"]

class Referee(HandRules):
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
        self._hands = Readings([seen(c, identity, self._look) for c in board], observed)
        self._resync = False
        self._index_cache: MoveIndex | None = None
        #: Indexes no longer needed, freed in ``prepare``: dropping one (thousands of moves in a
        #: Mathematichess position) takes milliseconds, which a decision should not pay.
        self._retired: list[object] = []  # (bounded: see _retire)
        #: Occupancy boards: cells where the last move asks for a piece swap (Gryphon), and the
        #: swap cell lifted while nothing else is handled: put back there, it was the swap.
        self._swap_cells: set[int] = set()
        self._swap_lift: int | None = None
        self._backs: list[Back] | None = None
        self._reply_index: tuple[Shape, MoveIndex] | None = None  # legal moves after the reading
        #: The latest provisional reading since the last final move, with the cells handled
        #: when the board first showed it (see ``_reply_done``).
        #: (shape, since, cells it may go on to, cells of the bigger moves it may be part of)
        self._reading: tuple[Shape, int, frozenset[int], frozenset[int]] | None = None
        #: id(shape) -> when the board first showed that reading since the last final move.
        self._shown: dict[int, int] = {}
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
        self._pending = Pending(PendingKind.CLEAN)
        self._status = Status(StatusKind.IDLE, "")
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
    def deadline_once_the_next_player_starts(self) -> int | None:
        """When the provisional reading shown is final if the next player puts a hand on a man
        no extension explains (``prefix_ms``/``drag_ms`` after the mover's last event), or
        ``deadline`` when nothing else than the quiet decides. A player who watches the screen
        waits this long before starting (``event_scripts``)."""
        p = self._pending
        short = p.extra.get("short") if p.kind == PendingKind.MOVE else None
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
        self._retire(self._index_cache)
        self._index_cache = None
        self._backs = None
        self._hands.touched.clear()
        self._hands.refilled.clear()
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
        return self._decide(accepted, undone)

    def _ends_move(self, ev: Event) -> bool:
        """Whether an event outside the provisional move (and every extension of it) shows the
        mover is done: a piece put down elsewhere, or a man lifted that the moving piece cannot
        take next once the piece has rested the short wait (``prefix_ms``/``drag_ms``). A lift
        sooner proves nothing yet: hands overlap, and the next player's hand may be on its man
        while the mover's piece is still on its way (then the short wait runs from the mover's
        last event: ``_set_match``)."""
        short = self._pending.extra.get("short")
        return ev.down or (short is not None and ev.t >= short and bool(self._hands.observed[ev.cell]))

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
        if self._hands.diff or self._pending.kind not in (PendingKind.CLEAN, PendingKind.REMOVAL):
            # A move under way on the board: its reading must not change under the hands.
            return self._tell(f"Touch on {name} ignored: finish the move on the board first")
        moves = self.silent_moves_on(cell)
        if not moves:
            return self._tell(f"Nothing to choose on {name}")
        if len(moves) > 1:
            options = choice_prompt(self.position, [(m,) for m in moves], 0, force_which=True).options
            what = piece_name(self.variant, self.position.board[cell])
            self._ask(Prompt(PromptKind.WHICH_MOVE, f"Which change of the {what} on {name}?",
                             (*options, Option("no", "None: leave it"))), self._hands.sig())
            self._status = replace(self._status, cells=(cell,))
            return self._decide([], [], evaluate=False)
        accepted: list[Move] = []
        # Cells handled before, at rest now, are no part of this choice (nor a move the next
        # player made meanwhile: see ``_stray``).
        self._hands.touched.clear()
        self._accept(moves[0], now, accepted)
        self._notes[-1] = chosen_text(self.position, moves[0])
        self._hands.last_t = now
        return self._decide(accepted, [])

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
        self._hands.last_t = now
        self._dismissed = self._hands.sig() or None  # the board still shows the move: guide it back
        return self._decide((), [move])

    # -- state --------------------------------------------------------------------------------------
    def _close_prompt(self) -> None:
        self._prompt = None
        self._prompt_sig = None

    def _decide(self, accepted, undone, evaluate: bool = True) -> Decision:
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

    def _evaluate(self) -> None:
        """Judge the current readings (see the module docstring); sets pending and status."""
        diff = self._hands.diff
        variant = self.variant
        sig = self._hands.sig()
        if self._prompt is not None:
            if sig == self._prompt_sig:
                return
            self._close_prompt()
        if self._dismissed is not None and sig != self._dismissed:
            self._dismissed = None
        if not self._playing:
            self._pending = Pending(PendingKind.CLEAN if not diff else PendingKind.UNMATCHED)
            if diff:
                self._status = self._fix_status(StatusKind.SETUP, "Set up the board")
            else:
                self._status = Status(StatusKind.IDLE, "Board is set up")
            return
        to_move = side_name(variant, self.position.side)
        stray, self._stray = self._stray, frozenset()
        if not diff and not self._hands.touched and stray and self._index.has_silent_moves:
            shapes = self._index.match(EMPTY_SIG, stray)
            if shapes:
                self._hands.touched |= stray
                self._set_match(sig, shapes, self._index)
                return
        if not diff and not self._hands.touched:
            self._resync = False
            self._pending = Pending(PendingKind.CLEAN)
            self._status = idle_status(self.position, self._outcome)
            return
        index = self._index
        if not diff:
            self._resync = False
            if self._hands.touched and index.has_silent_moves:
                shapes = [s for s in index.match(EMPTY_SIG, self._hands.touched) if self._in_order(s)]
                if shapes:
                    self._set_match(sig, shapes, index)
                    return
            # The cells handled stay handled (a promotion's new piece put on the victim's cell
            # before the pawn is lifted); the event order keeps a piece merely adjusted from
            # counting as a victim (``_in_order``).
            self._reading = None
            self._shown.clear()
            self._pending = Pending(PendingKind.CLEAN)
            self._status = idle_status(self.position, self._outcome)
            return
        if self._dismissed is not None:
            self._pending = Pending(PendingKind.DISMISSED, sig)
            self._status = self._fix_status(StatusKind.FIX, "Put the board back")
            return
        if self._declined is not None:
            if sig == self._declined:
                self._pending = Pending(PendingKind.PARTIAL, sig)
                self._status = Status(StatusKind.MOVING, f"{to_move} moving", cells=tuple(sorted(diff)))
                return
            self._declined = None
        shapes = [s for s in index.match(sig, self._hands.touched) if self._in_order(s)]
        reading = self._reading
        if shapes and reading is not None and not reading[0].sig and self._hands.placed and self._silent_then_reply(
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
            self._pending = Pending(PendingKind.TAKEBACK, sig, back=back,
                                    deadline=self._hands.last_t + self.timing.takeback_ms)
            self._status = Status(StatusKind.MOVING, f"{to_move} moving", cells=tuple(sorted(diff)))
            return
        reading = self._reading
        peeled = None
        if reading is not None and self._hands.placed and self._hands.latest in reading[2]:
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
        if (peeled is None and reading is not None and self._hands.placed and self._hands.latest not in reading[3]
                and not (self._hands.latest in reading[2] and self._slid_on(reading[0]))
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
            shown = self._shown.get(id(shapes[0])) if len(shapes) == 1 else None
            if (shown is not None and self._hands.placed and self._hands.latest in shapes[0].cells
                    and (reading is None or reading[0] is not shapes[0]) and self._reply_done(shapes[0], shown)):
                # The board shows again a reading it showed before, and that reading followed by
                # a complete reply (the next player's man brought down the line the mover's piece
                # went up, onto it): moves are made in turn, the reading was the move.
                self._take_reply(sig, shapes[0], shown)
                return
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
        self._pending = Pending(PendingKind.UNMATCHED, sig, deadline=self._hands.last_t + wait)
        left = self._victims_left(index)
        if left is not None:
            # Everything of the move is on the board but men it takes (a charge, a chain): say
            # which are still to come off.
            move, cells = left
            names = ", ".join(self.variant.geometry.names[c] for c in cells)
            self._status = Status(StatusKind.MOVING, f"{to_move} {self.position.move_text(move)}: take off {names}",
                                  cells=cells)
            return
        self._status = Status(StatusKind.MOVING, f"{to_move} moving", cells=tuple(sorted(diff)))

    def _take_reply(self, sig: Sig, shape: Shape, since: int) -> None:
        """The reading ``shape`` was the move: final now, the rest of the board is the reply."""
        self._pending = Pending(PendingKind.MOVE, sig, (shape,), shape.cells, deadline=self._hands.last_t,
                                 extra={"since": since, "rest": frozenset(), "reply": True})
        text = self.position.move_text(shape.move)
        side = side_name(self.variant, self.position.side)
        self._status = Status(StatusKind.MOVING, f"{side} moving: {text} (provisional)",
                              cells=tuple(sorted(self._hands.diff)), provisional=(text,))

    @property
    def _index(self) -> MoveIndex:
        """The legal moves of the position by signature, built when first needed (or by
        ``prepare``) rather than in the decision that accepted the move before."""
        index = self._index_cache
        if index is None:
            index = self._index_cache = MoveIndex(self.position, self.identity)
        return index

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
        cells = tuple(sorted(set(self._hands.diff) | {c for s in shapes for c in s.cells}))
        if len(shapes) > 1 and self.identity:
            shapes = self._same_result(shapes)
        if len(shapes) == 1 and not rest and (takes_only(shapes[0].move)
                                              or put_back(shapes[0].move, self._look)):
            # Pieces lifted and nothing put down: a move under way as much as a removal. (The
            # same man lifted and put back for a move that changes its kind where it stands is
            # asked about too: players straighten men that way.)
            self._pending = Pending(PendingKind.REMOVAL, sig, tuple(shapes), shapes[0].cells,
                                     deadline=self._hands.last_t + t.prefix_ms)
            self._status = Status(StatusKind.MOVING, f"{to_move} moving", cells=cells)
        elif len(shapes) == 1:
            shape = shapes[0]
            move = shape.move
            touched = self._hands.touched - rest
            ext = index.extension_cells(shape.sig, touched & shape.cells) if shape.sig else frozenset()
            # A piece put down on a cell some bigger move's piece crosses (the other man of a
            # swap dragged home) is that move going on, not the next player's; such cells, and
            # pieces put back where they stood outside every bigger move (touched, not moved),
            # do not rule the bigger move out.
            crossed = self._crossed(index, move)
            if crossed:
                bigger = index.bigger_cells(move)
                touched = {c for c in touched
                           if c in shape.cells or (c not in crossed and (c in bigger or c in self._hands.diff))}
            ext |= index.continuation_cells(move, touched)
            # A piece put down and then men lifted (the victims of a charge or a chain) is no
            # piece sliding on: only a reading whose latest event put a piece down may be a drag.
            # A scanning board reports one scan's changes in square order, not as they happened,
            # so there the order says nothing and any reading may be a drag.
            drag = index.drag_cells(move) if self._hands.placed or rest or t.scan_ms else frozenset()
            # On a board that scans its squares in turn, a piece resting on a crossed cell for any
            # time under one scan is reported there for exactly one scan (until the scan comes
            # round again), and the gap to a castling's second piece may grow by up to one scan.
            drag_wait = t.drag_wait()
            wait = t.prefix_ms + t.scan_ms if ext else drag_wait if drag else t.settle_ms
            # Timed from the mover's last event: the next player lifting a piece meanwhile
            # (``rest``) says nothing about whether the mover is done.
            own = [self._hands.cell_t[c] for c in self._hands.touched - rest if c in self._hands.cell_t]
            start = max(own) if own and rest else self._hands.last_t
            deadline = start + wait
            if drag and not ext and t.scan_ms:
                # What a scanning board can tell is whether the piece still stands where it was
                # reported when the scan comes round to that square again: one scan after *that*
                # report, whatever the board reported since (a lift later in square order).
                landed = [self._hands.cell_t[d] for s, d in move.relocations if s != d and d in self._hands.cell_t]
                if landed:
                    deadline = max(start + t.settle_ms, max(landed) + drag_wait)
            # ``deadline`` is when the reading is final once the next player has started; until
            # then a reading the mover could still extend waits for the hand to let go.
            # (None: a man some extension takes is lifted, so a hand on another man says nothing
            # about whether the mover is done: the mover is busy with the victim.)
            extension = drag | ext | index.bigger_cells(move)
            short: int | None = None if rest & extension else deadline
            going_on = drag
            # Of a move of several pieces, only the piece just put down may still be going on
            # (the two men of a swap both home: the last one's line ends there).
            if (drag and self._hands.placed and not t.scan_ms and len(move.relocations) > 1
                    and any(d == self._hands.latest for _s, d in move.relocations)):
                going_on = index.drag_cells(move, only_to=self._hands.latest)
            if hesitant(bool(ext or going_on), rest, extension):
                deadline = max(deadline, self._hands.last_t + t.hesitate_ms + t.scan_ms)
            prev = self._pending
            # The cells handled up to the first moment the board showed this move: what is
            # handled later is the next player's (see ``_fire``).
            # When the board first showed this move: what is handled later is the next player's
            # (see ``_fire``), or the mover's piece going on.
            since = prev.extra.get("since") if prev.kind == PendingKind.MOVE and prev.shapes == (shape,) else None
            if since is None and self._reading is not None and self._reading[0] is shape:
                since = self._reading[1]
            if since is None:
                # A reading shown before, left and shown again (the next player's queen coming
                # down the file the mover's queen went up, its victim lifted first): what was
                # handled since the first time is the next player's as much as the mover's.
                since = self._shown.get(id(shape))
            if since is None:
                since = self._shown[id(shape)] = self._hands.last_t
            involved = shape.cells | ext | drag | crossed
            if self._hands.placed and self._hands.latest not in involved and not t.scan_ms:
                # The board shows the move since a piece was put down elsewhere (the next
                # player's silent swap done on top of it): the mover is done, as in ``event``.
                deadline = self._hands.last_t
            self._pending = Pending(PendingKind.MOVE, sig, (shape,), involved, deadline=deadline,
                                     extra={"since": since if since is not None else self._hands.last_t,
                                            "rest": rest, "short": short})
            self._reading = (shape, self._pending.extra["since"], drag | ext, ext)
            text = self.position.move_text(move)
            self._status = Status(StatusKind.MOVING, f"{to_move} moving: {text} (provisional)", cells=cells,
                                  provisional=(text,))
        else:
            self._pending = Pending(PendingKind.AMBIGUOUS, sig, tuple(shapes),
                                    deadline=self._hands.last_t + t.settle_ms, extra={"rest": rest})
            self._status = Status(StatusKind.MOVING, f"{to_move} moving", cells=cells)

    # -- decisions at a deadline ----------------------------------------------------------------------
    def _fire(self, now: int, accepted: list[Move], undone: list[Move]) -> None:
        p = self._pending
        if p.kind == PendingKind.MOVE:
            move = p.shapes[0].move
            # Cells handled since the board first showed the move, and pieces lifted by the
            # next player, stay handled: they belong to the next move.
            keep = frozenset(self._hands.since(p.extra["since"])) | p.extra["rest"]
            if not p.extra.get("reply"):
                # (A bounce on the move's own cells is not the next player's doing.)
                keep -= p.shapes[0].cells
            self._accept(move, now, accepted, keep=keep)
        elif p.kind == PendingKind.AMBIGUOUS:
            self._ask(choice_prompt(self.position, [(s.move,) for s in p.shapes], 0), p.sig)
        elif p.kind == PendingKind.REMOVAL:
            self._ask(removal_prompt(self.position, p.shapes[0].move, self._look), p.sig)
        elif p.kind == PendingKind.TAKEBACK:
            back = p.back
            assert back is not None
            self._ask(takeback_prompt(self.position, back.moves, back.plies), p.sig)
        elif p.kind == PendingKind.UNMATCHED:
            self._resolve_unmatched(now, accepted)

    def _resolve_unmatched(self, now: int, accepted: list[Move]) -> None:
        index = self._index
        p = self._pending
        sig = p.sig
        diff_cells = set(self._hands.diff)
        # Live events: at most a move and a quick reply merged. After the board was away: the
        # players may have gone on for a few moves.
        plies = RESYNC_PLIES if self._resync else 2
        seqs = p.extra.get("seqs")
        if seqs is None:
            seqs = explain(self.position, self._hands.observed, diff_cells, self._hands.touched, self.identity,
                           strict=True, max_plies=plies)
        # Live, a board also half-way through one legal move (a line pushed front first, slowly)
        # or sequences ending in a removal (pieces in the hand) are asked about, not accepted.
        in_hand = not self._resync and bool(seqs) and self._in_hand() and not self._unseen_done(seqs)
        if len(seqs) == 1 and not takes_only(seqs[0][-1]) and not in_hand:
            if self._resync:
                for move in seqs[0]:
                    self._accept(move, now, accepted)
                return
            # The earlier moves are final; the last one is read again from the board, as a
            # provisional reading that may still go on (a rook short of its square, a castling).
            last = seqs[0][-1]
            touched = set(self._hands.touched)
            for move in seqs[0][:-1]:
                self._accept(move, now, accepted)
            earlier = {c for m in seqs[0][:-1] for c, _b, _a in m.changes}
            self._hands.touched = (touched & {c for c, _b, _a in last.changes}) | (touched - earlier)
            return
        if not self._resync and not p.extra.get("tried"):
            # Not explained yet: wait for the hands (or the guide time) and look again.
            self._pending = Pending(PendingKind.UNMATCHED, sig, deadline=self._hands.last_t + self.timing.guide_ms,
                                     extra={"tried": True, "seqs": seqs})
            if self._hands.last_t + self.timing.guide_ms > now:
                return
        if self._resync:
            loose: list[tuple[Move, ...]] = [(s.move,) for s in index.match_loose(sig)]
            if not loose and not seqs:
                seqs = explain(self.position, self._hands.observed, diff_cells, self._hands.touched, self.identity,
                               strict=False, max_plies=plies)
            choices: list[tuple[Move, ...]] = list(loose) or seqs
            if len(choices) == 1 and not takes_only(choices[0][-1]):
                # One possible answer is no question (a headless board would stall on it): the
                # board shows that move's result, so it is the move.
                for move in choices[0]:
                    self._accept(move, now, accepted)
                return
            if 0 < len(choices) <= MAX_CHOICES:
                self._ask(choice_prompt(self.position, choices, 0, force_which=True), sig)
                return
        elif 0 < len(seqs) <= MAX_CHOICES:
            self._ask(choice_prompt(self.position, seqs, 0, force_which=True, still_moving=in_hand), sig)
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
            self._pending = Pending(PendingKind.PARTIAL, sig)
            return
        self._pending = Pending(PendingKind.WRONG, sig)
        swapping = unswapped(self.position, self._hands.observed) if self.identity else None
        if swapping is not None:
            # The move stands on the board with the old piece: name the swap it still needs.
            cells = swaps(self.variant, swapping)
            self._status = Status(StatusKind.FIX, f"{side_name(self.variant, self.position.side)} "
                                  f"{self.position.move_text(swapping)}: {swap_text(self.variant, swapping)}",
                                  fixes=tuple(Fix(c, want, old) for c, old, want in cells))
            return
        self._status = self._fix_status(StatusKind.FIX, "Board does not match the game", wrong=True)

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
        self._hands.touched = set(keep)
        self._hands.refilled &= keep
        self._shown.clear()
        # (The stray cells' too: when their men left tells which silent move they were.)
        self._hands.lifted_t = {c: t for c, t in self._hands.lifted_t.items() if c in keep or c in self._stray}
        self._reading = None
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
        self._reading = None
        self._shown.clear()
        self._retire(self._reply_index)
        self._reply_index = None
        return move

    def _after_change(self, changes) -> None:
        board = self.position.board
        for c, _b, _a in changes:
            self._hands.expect(c, seen(board[c], self.identity, self._look))
        self._retire(self._index_cache)
        self._index_cache = None
        self._shown.clear()  # (keyed by the retired index's shapes)
        self._outcome = self.position.outcome() if self._playing else None
        self._backs = None

    @property
    def outcome(self):
        """How the game ended (engine ``Outcome``), or None while it goes on."""
        return self._outcome

    def _earlier_positions(self) -> list[Back]:
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
                backs.append(Back(plies, tuple(moves), dict(codes)))
            self._backs = backs
        return self._backs

    def _takeback_match(self) -> Back | None:
        """The earlier position the board shows now, if any (hidden cells must be touched)."""
        board = self.position.board
        for back in self._earlier_positions():
            codes = back.codes
            if not set(self._hands.diff) <= codes.keys():
                continue
            ok = True
            for c, code in codes.items():
                s = seen(code, self.identity, self._look)
                if self._hands.observed[c] != s:
                    ok = False
                    break
                if code != board[c] and s == self._hands.expected[c] and c not in self._hands.touched:
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
        cells = dict(self._hands.diff)
        if wrong:
            for c in self._hands.refilled:
                cells.setdefault(c, self._hands.observed[c])
        return tuple(Fix(c, board[c], v) for c, v in sorted(cells.items()))

    def _fix_status(self, kind: StatusKind, head: str, wrong: bool = False) -> Status:
        fixes = self._fixes(wrong)
        return Status(kind, fix_message(self.variant, head, fixes), fixes=fixes)
