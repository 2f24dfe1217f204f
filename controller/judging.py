"""The referee's judgement of the board (``controller.inference``'s ``Referee`` is built on it,
through ``controller.deadlines``): what the readings show now (``_evaluate``: the rules below,
in their order) and how long a reading waits before it is final (``_set_match``: the table in
docs/controller.md, "When a reading becomes final").

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
   holds (the move is read with them); both, on a cell of the reading handled again: the move,
   and the next event decides the rest (``either_hand``);
6. nothing fits: once still for ``settle_ms`` (``guide_ms`` while a hand holds a piece some
   legal move would put down), try a move and quick replies together (merged events, moves
   made while the board was unplugged); failing those, the one legal move the board shows if
   only its placement was reported before its lift (two boards reporting on their own); if the
   board is merely half-way through some legal move, the player is still moving; otherwise
   list each wrong cell with what belongs there (cells refilled meanwhile included: a victim),
   and go on as soon as the board is right.
"""

from __future__ import annotations

from engine import Outcome, Position, Variant

from .core_types import Game, Pending, PendingKind, PendingNotes, Prompt, ReadingHold, ShownReading, Status, StatusKind
from .either_hand import kept_through, needs_either, put_back_or_taken
from .hand_reading import (
    crossed_cells,
    half_made,
    handled_again,
    in_order,
    lifted_next_on_the_line,
    overlapping_hands,
    reply_on_top,
    resting_on_the_way,
    same_result,
    silent_then_reply,
    takeback_match,
    victims_left,
)
from .hand_rules import hesitant, put_back, slid_on_further, takes_only
from .messages import side_name
from .move_indexes import MoveIndexes
from .prompts import idle_status
from .readings import Readings
from .scan_guard import held_until, next_player_started, rest_of_move_in_hand, scan_guard, short_of_the_reading
from .signatures import EMPTY_SIG, MoveIndex, Shape, Sig


class Judging:
    """The referee's state it judges with; ``Referee`` holds it and its inputs. The hand rules
    it judges by are functions of ``controller.hand_reading``."""

    position: Position
    variant: Variant
    identity: bool
    _game: Game
    _hands: Readings
    _look: tuple[int, ...] | None
    _moves: MoveIndexes

    _pending: Pending
    _status: Status
    _playing: bool
    _resync: bool
    _prompt: Prompt | None
    _prompt_sig: Sig | None
    _dismissed: Sig | None
    _declined: Sig | None
    _stray: frozenset[int]
    _shown: dict[Shape, int]
    _reading: ShownReading | None
    _outcome: Outcome | None

    def _close_prompt(self) -> None:
        raise NotImplementedError

    def _fix_status(self, kind: StatusKind, head: str, wrong: bool = False) -> Status:
        raise NotImplementedError

    def _evaluate(self) -> None:
        """Judge the current readings (see the module docstring); sets pending and status."""
        hands, game, replies = self._hands, self._game, self._moves.replies
        diff = hands.diff
        variant = self.variant
        sig = hands.sig()
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
        if not diff and not hands.touched and stray and self._moves.current.has_silent_moves:
            shapes = self._moves.current.match(EMPTY_SIG, stray)
            if shapes:
                hands.touched |= stray
                self._set_match(sig, shapes, self._moves.current)
                return
        if not diff and not hands.touched:
            self._resync = False
            self._pending = Pending(PendingKind.CLEAN)
            self._status = idle_status(self.position, self._outcome)
            return
        index = self._moves.current
        if not diff:
            self._resync = False
            if hands.touched and index.has_silent_moves:
                shapes = [s for s in index.match(EMPTY_SIG, hands.touched) if in_order(hands, game, s)]
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
        shapes = [s for s in index.match(sig, hands.touched) if in_order(hands, game, s)]
        reading = self._reading
        if shapes and reading is not None and not reading.shape.sig and hands.placed and silent_then_reply(
                hands, game, replies, shapes, reading.shape, reading.since):
            # A silent move shown (a swap on an occupancy board), then the next player moved one of
            # its men: the move of that man from the mover's side leaves the swap's other cell
            # handled for nothing. Moves are made in turn: the swap was the move.
            self._take_reply(sig, reading.shape, reading.since)
            return
        if shapes:
            self._set_match(sig, shapes, index)
            return
        back = takeback_match(hands, game, self._moves.earlier())
        if back is not None:
            self._pending = Pending(PendingKind.TAKEBACK, sig, back=back,
                                    deadline=hands.last_t + game.timing.takeback_ms)
            self._status = Status(StatusKind.MOVING, f"{to_move} moving", cells=tuple(sorted(diff)))
            return
        reading = self._reading
        peeled = None
        if reading is not None and hands.placed and hands.latest in reading.going_on:
            # Put down where the reading's piece may still be going: rather its drag going on.
            peeled = overlapping_hands(hands, game, index, sig)
            if peeled is not None and len(peeled.shapes) == 1 and peeled.shapes[0] is reading.shape:
                again = handled_again(hands, game, reading.shape, reading.since)
                if again and reply_on_top(hands, game, replies, reading.shape, reading.since, needs=again):
                    # The reading's own cells were handled again since the board showed it (no
                    # bounce). Of the two readings of the board, the move with the next player's
                    # hand on a man leaves that handling unexplained; the move and a complete
                    # reply that involves those cells (a capture on the cell a swap refilled)
                    # uses every cell handled: that one.
                    self._take_reply(sig, reading.shape, reading.since)
                    return
        either = (put_back_or_taken(hands, game, index, replies, reading.shape, reading.since, sig)
                  or kept_through(hands, self._pending, reading.shape)
                  if peeled is None and reading is not None else frozenset())
        if reading is not None and either:
            # The mover's piece put back, or the next player's capture there, victim first
            # (``either_hand``): the reading is the move either way; the next event decides.
            self._take_reply(sig, reading.shape, reading.since, either=either)
            return
        if (peeled is None and reading is not None and hands.placed and hands.latest not in reading.extension
                and not slid_on_further(hands, game.identity, reading.shape.move, reading.going_on, reading.since)
                and not rest_of_move_in_hand(hands, game.timing, reading.shape, reading.extension)
                and reply_on_top(hands, game, replies, reading.shape, reading.since)
                and not resting_on_the_way(hands, game, index)):
            # The next player has completed a move on top of the last reading: that reading was
            # the move (moves are made in turn), whatever its piece did meanwhile. (Unless the
            # piece put down rests where a legal move's piece crosses: a swapped man on its way.)
            self._take_reply(sig, reading.shape, reading.since)
            return
        if peeled is None:
            peeled = overlapping_hands(hands, game, index, sig)
        if peeled is not None:
            rest, shapes = peeled.lifted, list(peeled.shapes)
            shown = self._shown.get(shapes[0]) if len(shapes) == 1 else None
            if (shown is not None and hands.placed and hands.latest in shapes[0].cells
                    and (reading is None or reading.shape is not shapes[0])
                    and reply_on_top(hands, game, replies, shapes[0], shown)):
                # The board shows again a reading it showed before, and that reading followed by
                # a complete reply (the next player's man brought down the line the mover's piece
                # went up, onto it): moves are made in turn, the reading was the move.
                self._take_reply(sig, shapes[0], shown)
                return
            if not (reading is not None and len(shapes) == 1 and short_of_the_reading(reading, shapes[0])
                    and self._reading_guard() is not None):
                # (Else the reading's piece is back short of where the board showed it, the next
                # player at work on top: the reading was the move, the rest is worked out below.)
                self._set_match(sig, shapes, index, rest=rest)
                return
        # Two moves merged (overlapping hands, a quick reply), or moves made while the board was
        # away: worked out as soon as the burst of differences is in, unless a hand still holds
        # a piece that some legal move would put down (then only after ``guide_ms``).
        # (On a board that scans its squares in turn, ``settle_wait``: the rest of a burst comes
        # as the scan reaches its squares, and a quiet shows nothing there.)
        settle = game.timing.settle_ms if self._resync else game.timing.settle_wait()
        wait = settle if self._resync or not half_made(hands, game, index) else game.timing.guide_ms
        if wait == settle and not self._resync and resting_on_the_way(hands, game, index):
            # A piece of a move under way rests on a cell it crosses (a swapped man dragged
            # while the other is in the hand): a move and a capture there only if it stays.
            wait = game.timing.drag_wait()
        self._pending = Pending(PendingKind.UNMATCHED, sig, deadline=hands.last_t + wait)
        left = victims_left(hands, index)
        if left is not None:
            # Everything of the move is on the board but men it takes (a charge, a chain): say
            # which are still to come off.
            move, cells = left
            names = ", ".join(self.variant.geometry.names[c] for c in cells)
            self._status = Status(StatusKind.MOVING, f"{to_move} {self.position.move_text(move)}: take off {names}",
                                  cells=cells)
            return
        self._status = Status(StatusKind.MOVING, f"{to_move} moving", cells=tuple(sorted(diff)))

    def _take_reply(self, sig: Sig, shape: Shape, since: int, either: frozenset[int] = frozenset()) -> None:
        """The reading ``shape`` was the move: final now, the rest of the board is the reply --
        once the rest of this report is read: a board reports one scan's changes together, with
        one time, in square order, and the mover's piece going on may come after the reply's
        last placement (then the board is read again)."""
        deadline = self._hands.last_t + 1
        reading = self._reading
        going_on = (reading.going_on if reading is not None and reading.shape is shape
                    else self._moves.current.drag_cells(shape.move))
        # A reading that could go on waits for the mover's piece going on to be reported.
        guard = scan_guard(self._hands, self._game.timing, shape.cells, going_on, since)
        if guard is not None:
            deadline = max(deadline, guard)
        self._pending = Pending(PendingKind.MOVE, sig, (shape,), shape.cells, deadline=deadline,
                                 notes=PendingNotes(since=since, reply=True, either_kept=either))
        text = self.position.move_text(shape.move)
        side = side_name(self.variant, self.position.side)
        self._status = Status(StatusKind.MOVING, f"{side} moving: {text} (provisional)",
                              cells=tuple(sorted(self._hands.diff)), provisional=(text,))

    def _reading_guard(self) -> ReadingHold | None:
        """When the reading shown may end through the next player's hand (``scan_guard``), and
        when the next player's first event came; None if nothing holds it."""
        reading = self._reading
        timing = self._game.timing
        if reading is None or not timing.scans_in_turn() or not reading.going_on:
            return None
        started = next_player_started(self._hands, reading.shape.cells, reading.going_on, reading.since)
        if started is None:
            return None
        return ReadingHold(held_until(self._hands, timing, reading.shape.cells, reading.going_on, started), started)

    def _set_match(self, sig: Sig, shapes: list[Shape], index: MoveIndex,
                   rest: frozenset[int] = frozenset()) -> None:
        """``sig``: the readings' differences from the game; ``rest``: cells of pieces lifted by
        the next player meanwhile (not part of the matched moves)."""
        game = self._game
        t = game.timing
        to_move = side_name(self.variant, self.position.side)
        cells = tuple(sorted(set(self._hands.diff) | {c for s in shapes for c in s.cells}))
        if len(shapes) > 1 and self.identity:
            shapes = same_result(self._hands, self.position, shapes)
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
            crossed = crossed_cells(self.variant, index, move)
            if crossed:
                bigger = index.bigger_cells(move)
                touched = {c for c in touched
                           if c in shape.cells or (c not in crossed and (c in bigger or c in self._hands.diff))}
            ext |= index.continuation_cells(move, touched)
            # A piece put down and then men lifted (the victims of a charge or a chain) is no
            # piece sliding on: only a reading whose latest event put a piece down may be a drag,
            # or one whose latest event lifted a man on a cell the piece may still go on to (a
            # victim of the reading that the piece may take next, lifted by the mover first).
            # A scanning board reports one scan's changes in square order, not as they happened,
            # so there the order says nothing and any reading may be a drag.
            drag = index.drag_cells(move)
            if not (self._hands.placed or rest or t.scan_ms or lifted_next_on_the_line(self._hands, game, drag, move)):
                drag = frozenset()
            # On a board that scans its squares in turn, a piece resting on a crossed cell for any
            # time under one scan is reported there for exactly one scan (until the scan comes
            # round again), and the gap to a castling's second piece may grow by up to one scan.
            drag_wait = t.drag_wait()
            wait = t.prefix_ms + t.scan_ms if ext else drag_wait if drag else t.settle_wait()
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
            either = needs_either(self._hands, shape) if not rest else frozenset()
            if either:
                # One of two readings (``either_hand``): final at the clock, a man lifted elsewhere
                # or the quiet; a man put down is the other reading's landing (``Referee.event``).
                deadline = max(deadline, self._hands.last_t + t.hesitate_ms + t.scan_ms)
            prev = self._pending
            # When the board first showed this move: what is handled later is the next player's
            # (see ``_fire``), or the mover's piece going on.
            since = prev.notes.since if prev.kind == PendingKind.MOVE and prev.shapes == (shape,) else None
            if since is None and self._reading is not None and self._reading.shape is shape:
                since = self._reading.since
            if since is None:
                # A reading shown before, left and shown again (the next player's queen coming
                # down the file the mover's queen went up, its victim lifted first): what was
                # handled since the first time is the next player's as much as the mover's.
                since = self._shown.get(shape)
            if since is None:
                since = self._shown[shape] = self._hands.last_t
            guard = scan_guard(self._hands, t, shape.cells, drag | ext, since) if rest else None
            if guard is not None:
                # The next player's hand on a man ends the reading only once the mover's piece
                # going on would have been reported (``controller.scan_guard``).
                deadline = max(deadline, guard)
                short = None if short is None else max(short, guard)
            involved = shape.cells | ext | drag | crossed
            if (self._hands.placed and self._hands.latest not in involved and self._hands.latest in self._hands.touched
                    and not t.scan_ms):
                # The board shows the move since a piece was put down elsewhere (the next
                # player's silent swap done on top of it): the mover is done, as in ``event``.
                # (Not a placement of a move made final meanwhile: two moves worked out together,
                # the earlier mover's piece reported after the first half of this one.)
                deadline = self._hands.last_t
            self._pending = Pending(PendingKind.MOVE, sig, (shape,), involved, deadline=deadline,
                                     notes=PendingNotes(since=since, rest=rest, short=short,
                                                        extendable=bool(drag or ext), needs_either=either))
            self._reading = ShownReading(shape, since, drag | ext, ext)
            text = self.position.move_text(move)
            self._status = Status(StatusKind.MOVING, f"{to_move} moving: {text} (provisional)", cells=cells,
                                  provisional=(text,))
        else:
            self._pending = Pending(PendingKind.AMBIGUOUS, sig, tuple(shapes),
                                    deadline=self._hands.last_t + t.settle_ms, notes=PendingNotes(rest=rest))
            self._status = Status(StatusKind.MOVING, f"{to_move} moving", cells=cells)
