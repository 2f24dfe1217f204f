"""The chess clock of the game under way: a :class:`~controller.clock.Clock` kept in step with a
:class:`~controller.session.Session` and saved with the game.

* The board is the clock button: when a move is accepted, the mover's clock stops at the moment
  the move was completed on the board (the time of the last sensor event, not the moment the
  referee decided) and the next side's clock starts. A takeback gives the turn back.
* An optional clock button (``gpio.clock``) for players who like to press one
  (:func:`clock_button`): pressed while the board shows the mover's move as a provisional
  reading (final after a short quiet, or after ``prefix_ms`` when it may still become a castling),
  it makes that move final at once, and the clock switches as for any final move, charged up to
  the move's last placement, not the press. Pressed with nothing moved, half a move made, a board
  to fix, or a question open, it switches nothing: a press never gives the opponent the
  mover's time for a move that is not on the board. It then only says why.
* Questions (which move? promotion?) and, if configured, a board to fix pause the clock; the
  game's end stops it; the operator menu pauses it.
* Flag fall ends the game: the opponent wins, unless the opponent has no material to mate with
  (FIDE 6.9): then it is a draw.
* Saved after every move and pause (``controller.game_extras``), so a restarted service resumes
  the game's clock where it stood; the time the service was down is not charged to anyone.
"""

from __future__ import annotations

from engine import Outcome, Position

from .clock import Clock, parse_time_control
from .config import ClockConfig
from .core_types import StatusKind
from .game_extras import GameExtras
from .messages import side_name
from .session import Session, Update
from .session_endings import Phase

#: A running clock's state is also saved this often (ms), to bound what a power cut loses.
SAVE_EVERY_MS = 10_000


def can_mate(pos: Position, side: int) -> bool:
    """Whether ``side`` has material that could ever mate (FIDE 6.9): more than a lone king, and
    more than one knight or bishop when the other side has nothing but its king."""
    v = pos.variant
    if v.royalty != "checkmate":
        return True  # no mate in this variant: time forfeit simply loses
    own = [code for code in pos.board if code and v.side_of(code) == side and not v.is_royal[code]]
    own += [v.code(k, side) for k, n in pos.hands[side].items() for _ in range(n)]
    if not own:
        return False
    others = [code for code in pos.board if code and v.side_of(code) != side and not v.is_royal[code]]
    if len(own) == 1 and not others:
        kind = v.kinds[v.kind_of(own[0])]
        return kind.pawn or kind.value > 3
    return True


def flag_outcome(pos: Position, flagged: int) -> Outcome:
    nsides = pos.variant.nsides
    if nsides == 2:
        winner = 1 - flagged
        if not can_mate(pos, winner):
            return Outcome("timeout_vs_insufficient_material", None)
        return Outcome("time_forfeit", winner)
    # More sides: the game ends; the side that moved before the one that ran out wins it.
    return Outcome("time_forfeit", (flagged - 1) % nsides)


def clock_button(session: Session, now: int) -> tuple[Update | None, str]:
    """The clock button pressed at ``now``: the session's update when the press made the move
    on the board final (the clock then follows it like any move), and a line for the player
    when it changed nothing."""
    status = session.status
    if session.phase != Phase.PLAY:
        return None, "Clock button: no game under way"
    if status.prompt is not None:
        return None, "Clock button: answer the question on the screen first"
    deadline = session.core.deadline
    if status.provisional and deadline is not None:
        # The mover says the move is complete: what would happen after the quiet happens now.
        return session.tick(max(now, deadline)), ""
    side = side_name(session.variant, session.position.side)
    if status.kind == StatusKind.IDLE:
        return None, f"Clock button: {side} to move, nothing moved on the board yet"
    return None, f"Clock button: {side}'s move is not complete on the board; the clock runs on"


class GameClock:
    """``control``: the time control of new games ("" for untimed games; the operator menu can
    change it, and the game under way keeps its own)."""

    def __init__(self, control: str, options: ClockConfig, extras: GameExtras, nsides: int) -> None:
        self.control = parse_time_control(control) if control else None
        self.options = options
        self.extras = extras
        self.nsides = nsides
        self.clock: Clock | None = Clock(self.control, nsides) if self.control else None
        self.game_id: int | None = None
        self._saved_at = 0
        self.paused_by_menu = False
        #: Both clocks stopped by the arbiter (operator menu, Clocks): until the arbiter runs them.
        self.paused_by_arbiter = False
        #: A computer (or remote board) announced its move: the player carrying it out on the
        #: board is charged to nobody (controller/service/opponents.py).
        self.paused_for_guide = False

    # -- keeping in step -------------------------------------------------------------------------
    def follow(self, session: Session, update: Update, now: int, moved_at: int | None) -> Outcome | None:
        """Bring the clock up to ``update`` (already applied to ``session``); ``moved_at`` is when
        the last move was completed on the board. Returns the outcome of a flag fall."""
        if session.game_id != self.game_id:
            self._bind(session, now)
            return self._running(session, now)
        if self.game_id is None or self.clock is None:
            return None
        t = min(now, moved_at) if moved_at is not None else now
        plies = len(session.position.move_stack)
        for _ in update.undone:
            self.clock.takeback(now)
        if update.undone and not update.accepted:
            self._save(now, plies + 1, None)
        first = plies - len(update.accepted) + 1
        for i, _text in enumerate(update.accepted):
            side = self.clock.turn
            flagged = self.clock.press(max(t, self.clock.since or t))
            if flagged is not None:
                self._save(now)
                return flag_outcome(session.position, flagged)
            self._save(now, first + i, self.clock.left(side, t))
        return self._running(session, now)

    def _bind(self, session: Session, now: int) -> None:
        self.game_id = session.game_id
        stored = self.extras.clock(self.game_id) if self.game_id is not None else None
        if stored is not None:
            self.clock = Clock.from_json(stored[1])
        elif self.control is None or (self.game_id is not None and session.position.move_stack):
            self.clock = None  # untimed, or a game that began without a clock stays without one
        else:
            self.clock = Clock(self.control, self.nsides)
            self.clock.turn = session.position.side
            self._save(now)

    def _running(self, session: Session, now: int) -> Outcome | None:
        if self.clock is None:
            return None
        status = session.status
        want = (session.phase == Phase.PLAY and self.game_id is not None and not self.paused_by_menu
                and not self.paused_by_arbiter and not self.paused_for_guide
                and not (status.kind == StatusKind.ASK and self.options.pause_on_question)
                and not (status.kind == StatusKind.FIX and self.options.pause_on_fix))
        if want and not self.clock.running:
            self.clock.resume(now)
        elif not want and self.clock.running:
            self.clock.pause(now)
            self._save(now)
        return self.tick(session, now)

    def tick(self, session: Session, now: int) -> Outcome | None:
        """Check the flag; save a running clock now and then."""
        if self.game_id is None or self.clock is None or session.phase != Phase.PLAY:
            return None
        flagged = self.clock.check_flag(now)
        if flagged is not None:
            self._save(now)
            return flag_outcome(session.position, flagged)
        if self.clock.running and now - self._saved_at >= SAVE_EVERY_MS:
            self._save(now)
        return None

    def _save(self, now: int, ply: int | None = None, mover_ms: int | None = None) -> None:
        if self.game_id is None or self.clock is None:
            return
        self.extras.save_clock(self.game_id, self.clock.control.text, self.clock.to_json(now), ply, mover_ms)
        self._saved_at = now

    def menu_open(self, session: Session, is_open: bool, now: int) -> None:
        """The operator menu opened or closed at ``now``: the clock stops at once while it is open
        (not at the next move), and runs again from the moment it closes."""
        self.paused_by_menu = is_open
        if session.game_id == self.game_id:  # else follow() binds the game with the pause in force
            self._running(session, now)  # a flag that fell meanwhile: the loop's next tick ends the game

    def guide_pause(self, session: Session, paused: bool, now: int) -> None:
        """An opponent's move was announced (paused) or is on the board (run again)."""
        if paused != self.paused_for_guide:
            self.paused_for_guide = paused
            if session.game_id == self.game_id:
                self._running(session, now)

    def arbiter_pause(self, session: Session, paused: bool, now: int) -> None:
        """The arbiter stops both clocks (or runs them again): they stay stopped after the menu
        closes, until the arbiter runs them."""
        self.paused_by_arbiter = paused
        if session.game_id == self.game_id:
            self._running(session, now)

    def adjust(self, side: int, ms: int, now: int) -> None:
        """The arbiter adds ``ms`` to ``side``'s clock (takes it away when negative; never below
        zero), e.g. two minutes to the opponent after an illegal move (FIDE 7.5.5)."""
        if self.clock is None:
            return
        self.clock.adjust(side, ms, now)
        self._save(now)

    # -- for the loop and the screen -------------------------------------------------------------------
    def deadline(self) -> int | None:
        """The next moment the loop must wake for the clock: the flag, the next visible change,
        the next periodic save."""
        if self.clock is None or not self.clock.running:
            return None
        times = [t for t in (self.clock.flag_at(), self._saved_at + SAVE_EVERY_MS) if t is not None]
        return min(times) if times else None

    def next_change(self, now: int) -> int | None:
        return self.clock.next_change(now) if self.clock is not None else None

    def seconds(self, now: int) -> tuple[float, ...] | None:
        return self.clock.seconds(now) if self.clock is not None else None

    def set_control(self, text: str) -> None:
        """The time control of the next games ("" or "none": untimed)."""
        self.control = parse_time_control(text) if text and text != "none" else None
