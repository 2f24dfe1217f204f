"""What happens when a wait runs out (the referee's ``tick``, or an event that ends a move):
a provisional reading becomes final, several readings or an earlier position or pieces taken
off are asked about, and a board nothing fitted is worked out (a move and a quick reply merged,
moves made while the board was away) or its wrong cells are shown. Built on ``Judging``
(``controller.judging``), which set the wait; ``Referee`` (``controller.inference``) is built
on this."""

from __future__ import annotations

from dataclasses import replace

from engine import Move

from .core_types import (
    MAX_CHOICES,
    RESYNC_PLIES,
    Fix,
    Pending,
    PendingKind,
    PendingNotes,
    Status,
    StatusKind,
)
from .four_moves import four_moves
from .hand_reading import half_made, placed_early, unseen_done
from .hand_rules import taken_off_unlifted, takes_only
from .merged_questions import MergedQuestions
from .messages import side_name
from .next_hand import the_one_with_the_next_hand
from .prompts import choice_prompt, removal_prompt, takeback_prompt
from .scan_guard import (
    brief_stands_only,
    can_go_on,
    explain_after,
    in_turn,
    merged_hold,
    mover_move,
    same_moves_in_order,
    taken_beyond_shown,
)
from .signatures import explain
from .swaps import swap_text, swaps, unswapped
from .two_readings import (
    gone_on,
    landing_unseen_until,
    lifted_before_the_move,
    played_on,
    resting_in_fewer,
    taken_unseen,
)


class Deadlines(MergedQuestions):
    """The decisions at a deadline (``Pending.deadline``)."""

    def _accept(self, move: Move, now: int, accepted: list[Move], keep: frozenset[int] = frozenset()) -> None:
        raise NotImplementedError

    def _fire(self, now: int, accepted: list[Move], undone: list[Move]) -> None:
        p = self._pending
        if p.kind == PendingKind.MOVE:
            move = p.shapes[0].move
            timing, rest = self._game.timing, p.notes.rest
            if timing.scans_in_turn() and lifted_before_the_move(self._hands, self.position, timing.scan_ms,
                                                                 move, rest):
                # A man of the mover's was off its cell before the move began: the mover did
                # more than this move, whatever the next player's hand did meanwhile.
                self._pending = Pending(PendingKind.UNMATCHED, p.sig)
                self._resolve_unmatched(now, accepted)
                return
            # Cells handled since the board first showed the move, and pieces lifted by the
            # next player, stay handled: they belong to the next move.
            since = p.notes.since
            assert since is not None  # (a move reading notes when the board first showed it)
            keep = frozenset(self._hands.since(since)) | p.notes.rest
            if not p.notes.reply:
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

    def _take_all_but_last(self, seq: tuple[Move, ...], now: int, accepted: list[Move]) -> None:
        """Make the moves of ``seq`` (worked out together) final but the last, which is read
        again from the board, as a provisional reading that may still go on (a rook short of
        its square, a castling)."""
        hands = self._hands
        last = seq[-1]
        touched = set(hands.touched)
        for move in seq[:-1]:
            self._accept(move, now, accepted)
        earlier = {c for m in seq[:-1] for c, _b, _a in m.changes}
        hands.touched = (touched & {c for c, _b, _a in last.changes}) | (touched - earlier)

    def _resolve_unmatched(self, now: int, accepted: list[Move]) -> None:
        hands, game = self._hands, self._game
        index = self._moves.current
        p = self._pending
        sig = p.sig
        diff_cells = set(hands.diff)
        # Live events: at most a move, a quick reply and a quick reply to that merged (overlapping
        # hands within one scan of a Millennium board; on a board that scans its squares in turn
        # a reading that could go on is held for a scan meanwhile, ``controller.scan_guard``).
        # After the board was away: the players may have gone on for a few moves.
        plies = RESYNC_PLIES if self._resync else 3
        reading = None if self._resync else self._reading
        held = self._reading_guard() if reading is not None else None
        if reading is not None and held is not None:
            guard, started = held.until, held.started
            # The next player is at work on top of a reading the mover could extend, on a board
            # that scans its squares in turn: nothing is worked out before the mover's piece
            # going on would have been reported (``controller.scan_guard``); then the mover's
            # move is the reading, or where its piece went on, and the rest is read again. (At
            # once when the piece went on to where it can go no further: nothing is left to
            # wait for. Within the guide time: later, a board gone wrong long ago may show
            # anything.)
            # (While both readings were asked about, the board is not gone wrong: no limit.)
            late = now > guard + game.timing.guide_ms and self._asked_both != reading.shape.move
            moved = None if late else mover_move(
                hands, index, self.position, self.identity, reading.shape, reading.going_on, started)
            if moved is not None and (now >= guard or not can_go_on(index, moved)):
                if self._ask_both(reading.shape.move, moved.move, started, sig, now):
                    return
                self._accept(moved.move, now, accepted, keep=frozenset(hands.touched - moved.cells))
                return
            if now < guard:
                self._pending = Pending(PendingKind.UNMATCHED, sig, deadline=guard, notes=p.notes)
                return
        seqs = None if p.notes.seqs is None else list(p.notes.seqs)
        held_back: list[tuple[Move, ...]] = []
        hand_at_work = False  # the moves read with the next player's man lifted (``next_hand``)
        unseen_ways = False  # read only with pieces that stood unseen on their way
        followed: list[tuple[Move, ...]] | None = None  # the other asked reading followed on (``played_on``)
        if seqs is None:
            seqs = explain(self.position, hands.observed, diff_cells, hands.touched, self.identity,
                           strict=True, max_plies=plies)
            if not self._resync and not game.timing.scans_in_turn():
                seqs = [seq for seq in seqs if not taken_off_unlifted(hands.lifted_t, self.position, seq)]
            if not seqs and not self._resync and game.timing.scans_in_turn() and self.identity:
                # A board that scans its squares in turn never reports a piece that stood on a
                # square for less than a scan (a knight put down and taken on at once): on an
                # identity board an empty square a piece of the sequence stood on on its way need
                # not have been seen.
                seqs = [seq for seq in explain(self.position, hands.observed, diff_cells, hands.touched,
                                               self.identity, strict=False, max_plies=plies)
                        if brief_stands_only(hands, seq)]
                unseen_ways = True
                if seqs and resting_in_fewer(hands, self.position, self.identity, min(map(len, seqs))):
                    # A man put down may as well rest on its way, in fewer moves: where it
                    # lands decides (``two_readings.resting_in_fewer``).
                    held_back, seqs = seqs, []
            if reading is not None and held is not None:
                # The board showed the reading before the next player started: the mover's move
                # is the reading or goes on from it; a piece taken elsewhere meanwhile is the
                # mover's next move (a bishop resting on f5, back to e6 after White's reply).
                mover = reading.shape.cells | reading.going_on
                every = seqs
                seqs = [seq for seq in seqs if seq[0].changes and seq[0].changed_cells <= mover]
                if not seqs:
                    seqs = explain_after(self.position, reading.shape.move, hands, self.identity)
                lifted = frozenset(c for c, v in hands.diff.items() if not v and c not in reading.shape.cells)
                if not seqs and self._asked_both == reading.shape.move:
                    # (Kept for ``_still_asked`` below: the same board, the same search.)
                    followed = played_on(hands, self.position, self.identity, self._asked_other)
                if not seqs and followed == []:
                    # Asked which, and the players played on unanswered: the board no longer
                    # follows on from the other reading, so the piece went on (seed 4019, c1g5
                    # c7c6 g5h4 d8e8 after c1e3 c7c6 e3g5 was asked about).
                    seqs = played_on(hands, self.position, self.identity,
                                     [(m,) for m in gone_on(self.position, reading.shape.move, self.identity)[1:]])
                if not seqs and len(every) == 1 and lifted_before_the_move(
                        hands, self.position, game.timing.scan_ms, reading.shape.move, lifted):
                    # The reading shown was none of the moves: a man of the mover's was off
                    # long before it began (seed 4007: d6e7 shown with White's queen off f3 for
                    # f3f6 g8xf6 d6e7, the victim lifted first). One sequence reads the board.
                    seqs = every
            if not seqs and not held_back and not self._resync:
                # Nothing leaves the board as observed; with the next player's man at work put
                # back in thought, maybe one sequence does (``next_hand``).
                within = None if reading is None or held is None else reading.shape.cells | reading.going_on
                one = the_one_with_the_next_hand(hands, self.position, self.identity, game.timing.scan_ms, plies,
                                                 within)
                if one is not None:
                    seqs, hand_at_work = [one], True
                else:
                    # Nor that way: maybe four moves were made (``four_moves``).
                    seqs = four_moves(hands, self.position, self.identity, game.timing.scan_ms)
            seqs = [seq for seq in seqs if self._moves.allows(seq)]  # (none the computer did not choose)
            if reading is not None and game.timing.scans_in_turn() and not p.notes.tried:
                # The reading's piece read as gone on past where the board showed it, and taken
                # there: as likely the next player's man resting on its way to take it where it
                # was shown. Such readings wait for the hands to let go.
                kept = [seq for seq in seqs if not taken_beyond_shown(self.position, reading.shape.move, seq)]
                if len(kept) < len(seqs):
                    held_back, seqs = seqs, kept
            if not self._resync and game.timing.scans_in_turn():
                # A man read as taken where the board never showed it, when the board reads as
                # well with that man in a hand: where it lands decides (``two_readings``).
                kept = [seq for seq in seqs if not taken_unseen(hands, self.position, self.identity,
                                                            game.timing.scan_ms, seq)]
                if len(kept) < len(seqs):
                    held_back, seqs = held_back or seqs, kept
            if len(seqs) > 1 and not self._resync:
                # Moves are made in turn: of several orders, the one whose moves began in the
                # order the hands began them (on a board that scans its squares in turn, events
                # more than a scan apart).
                seqs = same_moves_in_order(hands, in_turn(hands, game.timing.scan_ms, seqs) or seqs)
        if not self._resync and game.timing.scans_in_turn() and not p.notes.landing:
            # A man read as taken where the board never showed it may as well be in the hand on
            # its way elsewhere: its landing is reported within a scan of the taker's, if at all.
            until = max((u for seq in seqs if (u := landing_unseen_until(hands, self.position, self.identity,
                                                                          game.timing.scan_ms, seq)) is not None),
                        default=None)
            if until is not None and now < until:
                self._pending = Pending(PendingKind.UNMATCHED, sig, deadline=until,
                                        notes=replace(p.notes, landing=True, seqs=tuple(seqs)))
                return
        # Live, a board also half-way through one legal move (a line pushed front first, slowly)
        # or sequences ending in a removal (pieces in the hand) are asked about, not accepted.
        in_hand = (not self._resync and bool(seqs) and not hand_at_work and half_made(hands, game, index)
                   and not unseen_done(hands, game, seqs))
        if len(seqs) == 1 and not takes_only(seqs[0][-1]) and not in_hand:
            if self._resync:
                for move in seqs[0]:
                    self._accept(move, now, accepted)
                return
            hold = merged_hold(hands, self.position, self.identity, game.timing, seqs[0])
            if hold is not None and now < hold:
                # An earlier move could go on: its piece going on may not be reported yet.
                self._pending = Pending(PendingKind.UNMATCHED, sig, deadline=hold)
                return
            if (reading is not None and held is not None
                    and self._ask_both(reading.shape.move, seqs[0][0], held.started, sig, now)):
                return
            if game.timing.scans_in_turn() and self._ask_shorter(seqs[0], sig, now):
                return
            self._take_all_but_last(seqs[0], now, accepted)
            return
        if not seqs and not held_back and reading is not None and held is not None \
                and self._still_asked(reading.shape.move, sig, followed):
            return
        if not seqs and not held_back and not self._resync and self._asked_still(sig):
            return
        # Several readings that differ only where the board never showed a piece (a knight to f3
        # by e5 or by d4, each stand under a scan: seeds 5018, 5004): no later report can tell
        # them apart, so the players are asked at once, and the question stands as they play on.
        ask_now = unseen_ways and 1 < len(seqs) <= MAX_CHOICES and not held_back and not in_hand
        if not self._resync and not p.notes.tried and not ask_now:
            # Not explained yet: wait for the hands (or the guide time) and look again.
            wait = game.timing.hesitate_ms if held_back else game.timing.guide_ms
            self._pending = Pending(PendingKind.UNMATCHED, sig, deadline=hands.last_t + wait,
                                     notes=PendingNotes(tried=True, seqs=tuple(held_back or seqs)))
            if hands.last_t + wait > now:
                return
            seqs = held_back or seqs
        if self._resync:
            loose: list[tuple[Move, ...]] = [(s.move,) for s in index.match_loose(sig)]
            if not loose and not seqs:
                seqs = [seq for seq in explain(self.position, hands.observed, diff_cells, hands.touched,
                                               self.identity, strict=False, max_plies=plies)
                        if self._moves.allows(seq)]
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
            if self._ask_later(seqs, sig, now):
                return
            self._asked_seqs = list(seqs)
            self._ask(choice_prompt(self.position, seqs, 0, force_which=True, still_moving=in_hand), sig)
            return
        early = [] if self._resync or seqs else placed_early(hands, game, index)
        if early:
            # Nothing in the events' order explains the board, and it has been still for
            # ``guide_ms``: it shows one legal move whose placement was reported before its
            # lift. That is the move (else a game's last move would never end the game): shown
            # as a provisional reading, final ``settle_ms`` later unless the board changes (a
            # quick recapture is read in the real order first, by ``explain``).
            self._set_match(sig, early, index)
            if self._pending.deadline is not None:
                self._pending = replace(self._pending, deadline=max(self._pending.deadline,
                                                                    now + game.timing.settle_ms))
            return
        if half_made(hands, game, index):
            self._pending = Pending(PendingKind.PARTIAL, sig)
            return
        self._pending = Pending(PendingKind.WRONG, sig)
        swapping = unswapped(self.position, hands.observed) if self.identity else None
        if swapping is not None:
            # The move stands on the board with the old piece: name the swap it still needs.
            cells = swaps(self.variant, swapping)
            self._status = Status(StatusKind.FIX, f"{side_name(self.variant, self.position.side)} "
                                  f"{self.position.move_text(swapping)}: {swap_text(self.variant, swapping)}",
                                  fixes=tuple(Fix(c, want, old) for c, old, want in cells))
            return
        self._status = self._fix_status(StatusKind.FIX, "Board does not match the game", wrong=True)
