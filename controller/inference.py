"""The move-inference core: from timestamped lifts and placements to refereed moves.

Pure: the clock is an input (each event's ``t`` and ``tick(now)``), no threads, no I/O. The I/O
shell feeds ``event``/``tick``/``answer``/``snapshot``/``takeback`` and acts on the returned
``Decision``: commit ``undone`` and ``accepted`` first, then show ``status``.

How a state is judged (``_evaluate``), in this order, comparing the sensors' readings with the
game position (see ``controller.signatures`` for signatures and hidden cells):

1. the board equals the position: ``idle`` (a tap on a piece may select a silent move);
2. the differences are exactly one legal move's result and its hidden cells were handled: the
   move is accepted once the board has been still for ``settle_ms`` -- or for ``prefix_ms`` when
   the same differences are also the first half of a bigger legal move (the rook of a castling
   put down first), and at once when the next event touches a cell outside the move (a quick
   reply is never merged into the move before it);
3. several legal moves fit (promotion, drops on an occupancy board, pushes and swaps): ask;
4. the board shows an earlier position (one or two plies back) for ``takeback_ms``: ask before
   undoing;
5. shortly after a move was accepted, the same player kept going and the board now shows a
   different legal move from the position before it (a piece dragged across squares that
   rested on one, a castling finished late): correct the move;
6. nothing fits: after ``guide_ms`` try the last move and the reply together (merged events,
   moves made while the board was unplugged); if the board is merely half-way through some
   legal move, the player is still moving; otherwise list each wrong cell with what belongs
   there, and accept the move as soon as the board is right.

A move that only takes pieces off the board (a Mathematichess terminator) looks exactly like a
piece held in the hand while a move goes on, so it is never accepted on the board's word alone:
once the board has been still for ``prefix_ms`` the core asks (``yes``; ``no``: still moving),
and a sequence of moves ending in one is asked about rather than accepted.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine import Move, Position

from .messages import piece_name, side_name, wanted_text
from .signatures import EMPTY_SIG, MoveIndex, Shape, Sig, explain, seen

#: The reading of an identity board's cell holding a piece it could not identify.
UNKNOWN_PIECE = -1
#: A question offers at most this many moves (or move sequences); more is no question but a
#: board to put right.
MAX_CHOICES = 8
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

    settle_ms: int = 30      # a matched move is accepted after this much quiet
    prefix_ms: int = 1500    # ... when it may be the first half of a bigger move (castling)
    takeback_ms: int = 1000  # the board must show an earlier position this long before we ask
    guide_ms: int = 1000     # an unexplained board is this old before the wrong cells are shown
    amend_ms: int = 1000     # after an acceptance, the mover may continue within this window


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
    kind: str  # promotion | which_piece | which_move | takeback | removal
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


@dataclass(frozen=True)
class Decision:
    """The result of one input: take back ``undone`` (latest first), then play ``accepted``;
    then show ``status``."""

    status: Status
    accepted: tuple[Move, ...] = ()
    undone: tuple[Move, ...] = ()
    note: str = ""


@dataclass
class _Back:
    """An earlier position, as the readings of the cells the moves since then changed."""

    plies: int
    moves: tuple[Move, ...]  # latest first
    codes: dict[int, int]    # cell -> piece code in that position


@dataclass
class _Amend:
    base: MoveIndex          # legal moves of the position before the accepted move
    move: Move
    codes: dict[int, int]    # that position's codes on the move's cells
    t: int                   # when the move was accepted
    touched: frozenset[int]  # cells handled while making it
    started: bool = False    # an event arrived since


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
        self._expected = [seen(c, identity) for c in board]
        self._observed = list(observed) if observed is not None else list(self._expected)
        if len(self._observed) != len(board):
            raise ValueError(f"observed board has {len(self._observed)} cells, the game {len(board)}")
        self._diff: dict[int, int] = {c: v for c, v in enumerate(self._observed) if v != self._expected[c]}
        self._touched: set[int] = set()
        self._resync = False
        self._last_t = 0
        self._index_cache: MoveIndex | None = None
        self._backs: list[_Back] | None = None
        self._amend: _Amend | None = None
        self._dismissed: Sig | None = None
        self._declined: Sig | None = None  # "still moving" was answered while the board showed this
        #: Cells handled during the move just accepted that are not its own: maybe a silent move
        #: (a swap) the next player made while the move waited to be taken.
        self._stray: frozenset[int] = frozenset()
        self._prompt: Prompt | None = None
        self._prompt_sig: Sig | None = None
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
        """What the core is waiting on: clean, move, ambiguous, takeback, amend, amend_wait (a
        correction that may also be the next move half made), removal (pieces lifted: asked
        about if they stay off), unmatched, partial (a move half made), wrong (fixes shown),
        dismissed."""
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
        self._index_cache = None
        self._backs = None
        self._amend = None
        self._touched.clear()
        self._close_prompt()
        self._last_t = now
        return self._decide((), ())

    def event(self, ev: Event) -> Decision:
        accepted: list[Move] = []
        undone: list[Move] = []
        p = self._pending
        if (self._prompt is None and p.kind in ("move", "amend") and len(p.shapes) == 1
                and ev.cell not in p.cells):
            # The hand has moved on to another cell: the matched move is complete.
            self._fire(ev.t, accepted, undone)
        value = ((ev.piece or UNKNOWN_PIECE) if self.identity else 1) if ev.down else 0
        self._set(ev.cell, value)
        if ev.resync:
            self._resync = True
        else:
            self._touched.add(ev.cell)
        self._last_t = ev.t
        a = self._amend
        if a is not None and not a.started:
            a.started = True
            if ev.t - a.t > self.timing.amend_ms:
                self._amend = None
        return self._decide(accepted, undone)

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
        elif not opt.moves and not opt.undo:
            self._declined = sig  # still moving: wait for the board to change
        for _ in range(opt.undo):
            undone.append(self._undo_one())
        for move in opt.moves:
            self._accept(move, now, accepted)
        self._last_t = now
        return self._decide(accepted, undone)

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
        return Decision(self._status, tuple(accepted), tuple(undone), note)

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
                shapes = index.match(EMPTY_SIG, self._touched)
                if shapes:
                    self._set_match(sig, shapes, index)
                    return
            self._touched.clear()
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
        shapes = index.match(sig, self._touched)
        if shapes:
            self._set_match(sig, shapes, index)
            return
        back = self._takeback_match()
        if back is not None:
            self._pending = _Pending("takeback", sig, back=back, deadline=self._last_t + self.timing.takeback_ms)
            self._status = Status("moving", f"{to_move} moving", cells=tuple(sorted(diff)))
            return
        if self._amend_match(sig):
            return
        # After the board was away the players may be moves ahead: work that out as soon as the
        # burst of differences is in, before their next move piles on.
        wait = self.timing.settle_ms if self._resync else self.timing.guide_ms
        self._pending = _Pending("unmatched", sig, deadline=self._last_t + wait)
        self._status = Status("moving", f"{to_move} moving", cells=tuple(sorted(diff)))

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
            index = self._index_cache = MoveIndex(self.position, self.identity)
        return index

    def prepare(self) -> None:
        """Do the per-position work ahead (index the legal moves): the service calls this while
        it waits for the next event, so the next decision only matches."""
        if self._playing:
            _ = self._index

    def _set_match(self, sig: Sig, shapes: list[Shape], index: MoveIndex, kind: str = "move",
                   move_sig: Sig | None = None) -> None:
        """``sig``: the readings' differences from the game; ``move_sig``: the matched moves'
        signature in ``index`` (differs for a correction, which matches the position before)."""
        t = self.timing
        to_move = side_name(self.variant, self.position.side)
        cells = tuple(sorted(set(self._diff) | {c for s in shapes for c in s.cells}))
        if len(shapes) == 1 and kind == "move" and _takes_only(shapes[0].move):
            # Pieces lifted and nothing put down: a move under way as much as a removal.
            self._pending = _Pending("removal", sig, tuple(shapes), shapes[0].cells,
                                     deadline=self._last_t + t.prefix_ms)
        elif len(shapes) == 1:
            msig = sig if move_sig is None else move_sig
            ext = index.extension_cells(msig, self._touched) if msig else frozenset()
            ext |= index.continuation_cells(shapes[0].move, self._touched)
            wait = t.prefix_ms if ext else t.settle_ms
            self._pending = _Pending(kind, sig, tuple(shapes), shapes[0].cells | ext, deadline=self._last_t + wait)
        else:
            self._pending = _Pending("ambiguous", sig, tuple(shapes), deadline=self._last_t + t.settle_ms,
                                     extra={"amend": kind == "amend"})
        self._status = Status("moving", f"{to_move} moving", cells=cells)

    # -- decisions at a deadline ----------------------------------------------------------------------
    def _fire(self, now: int, accepted: list[Move], undone: list[Move]) -> None:
        p = self._pending
        if p.kind == "move":
            self._accept(p.shapes[0].move, now, accepted)
        elif p.kind == "amend":
            assert self._amend is not None
            base = self._amend.base
            undone.append(self._undo_one())
            self._index_cache = base  # the position before the corrected move: indexed already
            self._accept(p.shapes[0].move, now, accepted)
        elif p.kind == "ambiguous":
            undo = 1 if p.extra.get("amend") else 0
            self._ask(self._choice_prompt([(s.move,) for s in p.shapes], undo), p.sig)
        elif p.kind == "removal":
            self._ask(self._removal_prompt(p.shapes[0].move), p.sig)
        elif p.kind == "amend_wait":
            self._ask(self._choice_prompt([(s.move,) for s in p.shapes], 1, force_which=True, still_moving=True),
                      p.sig)
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
        sig = self._pending.sig
        diff_cells = set(self._diff)
        # Live events: at most a move and a quick reply merged. After the board was away: the
        # players may have gone on for a few moves.
        plies = RESYNC_PLIES if self._resync else 2
        seqs = explain(self.position, self._observed, diff_cells, self._touched, self.identity, strict=True,
                       max_plies=plies)
        # Live, a board also half-way through one legal move (a line pushed front first, slowly)
        # or sequences ending in a removal (pieces in the hand) are asked about, not accepted.
        in_hand = not self._resync and bool(seqs) and self._in_hand()
        if len(seqs) == 1 and not _takes_only(seqs[0][-1]) and not in_hand:
            for move in seqs[0]:
                self._accept(move, now, accepted)
            return
        if self._resync:
            loose = [(s.move,) for s in index.match_loose(sig)]
            if not loose and not seqs:
                seqs = explain(self.position, self._observed, diff_cells, self._touched, self.identity, strict=False,
                               max_plies=plies)
            choices = loose or seqs
            if 0 < len(choices) <= MAX_CHOICES:
                self._ask(self._choice_prompt(choices, 0, force_which=True), sig)
                return
        elif 0 < len(seqs) <= MAX_CHOICES:
            self._ask(self._choice_prompt(seqs, 0, force_which=True, still_moving=in_hand), sig)
            return
        if self._in_hand():
            self._pending = _Pending("partial", sig)
            return
        self._pending = _Pending("wrong", sig)
        self._status = Status("fix", self._fix_message("Board does not match the game"), fixes=self._fixes())

    def _in_hand(self) -> bool:
        """The differences are pieces lifted (in the hand) or put where some legal move puts them:
        the player is half-way through that move."""
        index = self._index
        items = list(self._diff.items())
        expected = self._expected
        # Pieces put down minus pieces lifted (a new code on an occupied cell of an identity
        # board is neither).
        placed = sum(1 for c, v in items if v and not expected[c]) - sum(1 for c, v in items if not v and expected[c])
        for shapes in index.by_sig.values():
            for s in shapes:
                cells = s.cells
                if placed <= s.imports and all(c in cells and (v == 0 or (c, v) in s.sig) for c, v in items):
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
        what = " and ".join(f"the {piece_name(v, b)} on {v.geometry.names[c]}" for c, b, _a in move.changes)
        return Prompt("removal", f"Take {what} off for good ({text})?", (
            Option("yes", f"Yes: {text}", (move,), 0, (text,)),
            Option("no", "No: still moving")))

    # -- playing and undoing moves -------------------------------------------------------------------
    def _accept(self, move: Move, now: int, accepted: list[Move]) -> None:
        pos = self.position
        prev_index = self._index_cache  # None after a move accepted without looking (a merged pair)
        prev_codes = {c: b for c, b, _a in move.changes}
        touched = frozenset(self._touched)
        self._stray = touched - prev_codes.keys()
        self._notes.append(f"{side_name(self.variant, pos.side)} played {pos.move_text(move)}")
        pos.push(move)
        accepted.append(move)
        self._after_change(move.changes)
        self._touched.clear()
        self._resync = False
        self._close_prompt()
        self._dismissed = None
        self._amend = _Amend(prev_index, move, prev_codes, now, touched) if prev_index is not None else None
        self._last_t = now

    def _undo_one(self) -> Move:
        move = self.position.pop()
        self._notes.append(f"took back {self.position.move_text(move)}")
        self._after_change(move.changes)
        self._amend = None
        self._touched.clear()
        return move

    def _after_change(self, changes) -> None:
        board = self.position.board
        for c, _b, _a in changes:
            self._expected[c] = seen(board[c], self.identity)
            self._set(c, self._observed[c])
        self._index_cache = None
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
                s = seen(code, self.identity)
                if self._observed[c] != s:
                    ok = False
                    break
                if code != board[c] and s == self._expected[c] and c not in self._touched:
                    ok = False
                    break
            if ok:
                return back
        return None

    def _amend_match(self, sig: Sig) -> bool:
        a = self._amend
        if a is None or not a.started:
            return False
        cells = set(self._diff) | a.codes.keys()
        before = {c: seen(a.codes.get(c, self.position.board[c]), self.identity) for c in cells}
        sig0 = frozenset((c, self._observed[c]) for c in cells if self._observed[c] != before[c])
        if not sig0:
            return False  # the board is back where it was: that is a takeback
        shapes = [s for s in a.base.match(sig0, self._touched | a.touched) if s.move != a.move]
        if not shapes:
            return False
        self._set_match(sig, shapes, a.base, kind="amend", move_sig=sig0)
        if self._pending.kind == "amend" and self._in_hand():
            # The board is also the next player half-way through a move (a line pushed into the
            # cell the last move left): no correction while the hands go on; if they stop, ask.
            self._pending = _Pending("amend_wait", sig, self._pending.shapes,
                                     deadline=self._last_t + self.timing.guide_ms)
        return True

    # -- guidance --------------------------------------------------------------------------------------
    def _fixes(self) -> tuple[Fix, ...]:
        board = self.position.board
        return tuple(Fix(c, board[c], v) for c, v in sorted(self._diff.items()))

    def _fix_message(self, head: str) -> str:
        v = self.variant
        return head + ": " + ", ".join(wanted_text(v, f.cell, f.want) for f in self._fixes())


def _takes_only(move: Move) -> bool:
    """The move only takes pieces off the board: on the sensors it is pieces in the hand."""
    return bool(move.changes) and not any(after for _c, _b, after in move.changes)
