"""The questions over moves worked out together ("Which move did you make?") on a board that
scans its squares in turn, and how they stand while the players play on unanswered: a slide's
going on against the reading, a reply and the mover's next move (``_ask_both``, kept by
``_still_asked``); a slide worked out among other moves that the board showed resting on its
way (``_ask_shorter``); any such question put off while a slide may be paused on its way
(``_ask_later``), and followed on as the players play on (``_asked_still``). Built on
``Judging``; ``Deadlines`` (``controller.deadlines``) asks them when a wait runs out."""

from __future__ import annotations

from collections.abc import Iterator

from engine import Move

from .core_types import MAX_CHOICES, Pending, PendingKind, Prompt
from .judging import Judging
from .prompts import choice_prompt
from .question_wait import resting_until
from .scan_guard import began, in_turn
from .signatures import Sig
from .two_readings import landed_in_turn, next_move_too, played_on, stops_on_the_way, with_the_rest


class MergedQuestions(Judging):
    """The questions over merged moves, and what the referee remembers of them since the last
    final move (``Referee._asked_both``, ``_asked_other``, ``_asked_seqs``)."""

    _asked_both: Move | None
    _asked_other: list[tuple[Move, ...]]
    _asked_seqs: list[tuple[Move, ...]]

    def _ask(self, prompt: Prompt, sig: Sig) -> None:
        raise NotImplementedError

    def _ask_later(self, seqs: list[tuple[Move, ...]], sig: Sig, now: int) -> bool:
        """Put off a question over ``seqs`` (moves worked out together) while the last move of
        one of them may be a slide paused on its way (``question_wait.resting_until``): asked
        then, no option may be what the hands are doing (seed 4010: f1c4 b7b6 against f1e2
        b7b6 e2c4, Black's pawn resting on b6 on its way to b5). Any event looks again; at the
        deadline the board is read again. False when the question may be asked now."""
        timing = self._game.timing
        if self._resync or not timing.scans_in_turn():
            return False
        until = resting_until(self._hands, self.position, self.identity, timing, seqs)
        if until is None or now >= until:
            return False
        self._pending = Pending(PendingKind.UNMATCHED, sig, deadline=until, notes=self._pending.notes)
        return True

    def _ask_both(self, reading: Move, went_on: Move, started: int, sig: Sig, now: int) -> bool:
        """Ask which was played when the board fits ``went_on`` (the reading's piece gone on,
        before the next player started at ``started``) as well as the reading, a reply and
        the mover's next move (``two_readings.next_move_too``); False when it does not."""
        hands = self._hands
        other = next_move_too(hands, self.position, self.identity, self._game.timing.scan_ms, reading, went_on,
                              started)
        if self._asked_both == reading:
            # Asked before: the players may have played on unanswered, out of that search's
            # reach (f5e4, f2f3, e4c2, d1c1, c2d3, c1d1...: seed 3019), not out of the board's.
            other = list(dict.fromkeys(played_on(hands, self.position, self.identity, self._asked_other) + other))
        if not other and self._asked_both != reading:
            return False
        # (Its moves in turn too: a move read last that began more than a scan before the one
        # before it was not made after it.)
        rest = [seq for seq in in_turn(hands, self._game.timing.scan_ms,
                                       with_the_rest(hands, self.position, self.identity, went_on))
                if landed_in_turn(hands, seq)]
        if not other:
            if rest:
                # Asked before, and the board no longer follows on from the other reading (a
                # man of the mover's put down out of turn: seed 5014's d2-d3 after f1d3 g8f6
                # d3b5): the going on was the move.
                return False
            # Asked before, and the going on is no complete reading of the board yet (a move
            # under way), while the other reading, one move longer, may come in reach again:
            # neither is taken before one reads the whole board.
            self._pending = Pending(PendingKind.PARTIAL, sig)
            return True
        seqs = (rest or [(went_on,)]) + other
        if self._asked_both != reading and self._ask_later(seqs[:MAX_CHOICES], sig, now):
            return True
        self._asked_both, self._asked_other = reading, other[:MAX_CHOICES]
        self._ask(choice_prompt(self.position, seqs[:MAX_CHOICES], 0, force_which=True), sig)
        return True

    def _still_asked(self, reading: Move, sig: Sig, followed: list[tuple[Move, ...]] | None = None) -> bool:
        """Ask again which was played when both readings of ``reading`` were asked about, the
        board reads as neither now, and it follows on from one asked about with men in a hand:
        the players play on unanswered and a capture is under way, its victim lifted with the
        taker (real time, seed 2: a8b8 c4h4 b8d8 asked against a8d8 c4h4, then White's rook
        lifted from d5 and Black's from d8). The question stands until the board reads
        again; else it would give way to "Board does not match the game" mid-move. "None:
        still moving" is offered: the hands are at work. ``followed``: the other readings already
        followed on for this board (``played_on``), when the caller has them."""
        if self._asked_both != reading:
            return False
        if followed is None:
            followed = played_on(self._hands, self.position, self.identity, self._asked_other)
        options = self._ask_again(followed, sig)
        if options:
            self._asked_other = options
        return bool(options)

    def _ask_again(self, followed: list[tuple[Move, ...]], sig: Sig) -> list[tuple[Move, ...]]:
        """Ask again over ``followed`` (options asked before, followed on to the board as it is
        now: ``two_readings.played_on``), "None: still moving" among the answers; the options
        asked (none when nothing follows on, and nothing is asked)."""
        options = followed[:MAX_CHOICES]
        if options:
            self._ask(choice_prompt(self.position, options, 0, force_which=True, still_moving=True), sig)
        return options

    def _asked_still(self, sig: Sig) -> bool:
        """Ask again which was played when the players were asked about moves worked out
        together (``_asked_seqs``), the board reads as none of them now, and it follows on from
        one of them (``two_readings.played_on``): unanswered, the players play on (seed 5003:
        c4f4 h6f4 d5f4 asked against the queens resting on e4 and g5, then f5h6 and h1g1). The
        question stands, each move played since one more, "None: still moving" offered."""
        if not self._asked_seqs:
            return False
        options = self._ask_again(played_on(self._hands, self.position, self.identity, self._asked_seqs), sig)
        if options:
            self._asked_seqs = options
        return bool(options)

    def _ask_shorter(self, seq: tuple[Move, ...], sig: Sig, now: int) -> bool:
        """Ask which was played when a move of ``seq`` (moves worked out together) but the last
        is a slide the board showed resting on its way, whose going on may as well be the
        mover's next move, made after the next move of ``seq`` began (``_ask_both``)."""
        other = next((found for found in self._stopped_short(seq) if found), [])
        if not other:
            return False
        if self._ask_later([seq, *other][:MAX_CHOICES], sig, now):
            return True
        self._asked_seqs = [seq, *other][:MAX_CHOICES]
        self._ask(choice_prompt(self.position, self._asked_seqs, 0, force_which=True), sig)
        return True

    def _stopped_short(self, seq: tuple[Move, ...]) -> Iterator[list[tuple[Move, ...]]]:
        """For each move of ``seq`` but the last, and each cell on its way the board showed its
        piece resting on, the readings with the move stopped there and its going on made after
        the next move of ``seq`` began (``two_readings.next_move_too``; empty when none fits).
        (Lazily: the first that fits is asked about.)"""
        hands, pos, scan_ms = self._hands, self.position, self._game.timing.scan_ms
        for i, move in enumerate(seq[:-1]):
            with pos.after(*seq[:i]):
                shown = stops_on_the_way(hands, pos, move)
            for stop in shown:
                with pos.after(*seq[:i]):
                    found = next_move_too(hands, pos, self.identity, scan_ms, stop, move, began(hands, seq[i + 1]))
                yield [seq[:i] + s for s in found]
