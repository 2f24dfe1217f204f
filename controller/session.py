"""A game session: phases, persistence and the player's inputs around the decision core.

Phases: ``setup`` (the board must show the start position; the status lists what is missing or
misplaced), ``play`` (the core referees; every accepted move is committed to the store before the
session reports it), ``over`` (the result stands; setting the start position up again, or the menu
button, starts a new game). Placement and selection stages of a variant are ordinary moves of
``play``: a piece put down on an occupancy board matches several drops, and the core asks which.

Like the core, a session has no threads and no clock of its own: every input carries ``now``
(ms). The service feeds it; tests drive it directly with a real SQLite file.

How a game ends at the players' word (the menu's question, ending by agreement, the arbiter's
end) and the status of an ended game: ``controller/session_endings.py``; the texts of an ending:
``controller/game_results.py``.

Restart: a session opened on a store with an unfinished game of the same variant resumes it
(moves replayed through the engine), and ``sync(readings)`` with the board's snapshot guides any
difference between the board and the game back (or accepts a move made while the service was
down). Reconnect: a board that comes back showing the start position plus a few moves may be a
new game the players began while it was away (``controller/board_return.py``); no game is ever
dropped.
"""

from __future__ import annotations

from collections.abc import Callable

import engine
from engine import Outcome, Position, Variant

from .board_return import moves_from_start, new_game_text, readings_of
from .board_timing import with_board_drag, with_board_scan
from .core_types import PendingKind, PromptKind, StatusKind
from .inference import Decision, Event, Option, Prompt, Referee, Status, Timing
from .pgn import export_pgn
from .session_endings import Endings, Phase, Update
from .store import GameStore, StoreError

__all__ = ["Phase", "Session", "Update"]


class Session(Endings):
    def __init__(self, variant: Variant, store: GameStore, *, identity: bool = False, timing: Timing | None = None,
                 now: int = 0, resume: bool = True, fen: str | None = None,
                 computer_answers: Callable[[], bool] = lambda: False) -> None:
        """``fen``: the position new games start from (default: the variant's start).
        ``computer_answers()``: whether an engine plays the other side of an ending by agreement
        and answers the question (asked when the question is put: the players may change)."""
        self.variant = variant
        self.store = store
        self.identity = identity
        self.timing = timing or Timing()
        self.configured = self.timing  # as configured; board_timing merges what the board says
        self.game_id: int | None = None
        self.resumed = False
        self.selected = 0
        self._menu: Prompt | None = None  # the menu or the agreement question, when open
        self.computer_answers = computer_answers
        self._agreed: Outcome | None = None
        #: A resync seen with no game under way: when its burst of events is over (ms).
        self._resync_at: int | None = None
        #: A resync seen during a game, until the board settles; the readings last asked about.
        self._resynced = False
        self._asked_readings: tuple[int, ...] | None = None
        self._start = engine.parse_fen(variant, fen) if fen else engine.start_position(variant)
        record = store.unfinished(variant.name) if resume else None
        if record is not None:
            pos = engine.parse_fen(variant, record.start_fen)
            for ply, text in enumerate(record.moves, 1):
                try:
                    pos.push_text(text)
                except ValueError as exc:
                    raise StoreError(f"{store.path}: game {record.id} ply {ply}: {exc}") from None
            self.game_id = record.id
            self.resumed = True
            over = pos.outcome() is not None
            self.phase = Phase.OVER if over else Phase.PLAY
            self.core = Referee(pos, identity=identity, timing=self.timing, playing=not over)
        else:
            self.phase = Phase.SETUP
            self.core = Referee(self._start.copy(), identity=identity, timing=self.timing, playing=False)
        self._last = self.core.status

    # -- inputs ---------------------------------------------------------------------------------------
    @property
    def position(self) -> Position:
        return self.core.position

    @property
    def deadline(self) -> int | None:
        d = self.core.deadline
        if self._resync_at is not None:
            d = self._resync_at if d is None else min(d, self._resync_at)
        return d

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended (an agreement included), or None while it goes on."""
        if self._agreed is not None:
            return self._agreed
        if self.phase == Phase.OVER:
            return self.core.outcome or self.position.outcome()
        return None

    @property
    def status(self) -> Status:
        if self._menu is not None:
            return Status(StatusKind.ASK, self._menu.question, prompt=self._menu)
        if self.phase == Phase.OVER:
            return self._over_status()
        return self.core.status

    def set_identity(self, identity: bool, now: int) -> None:
        """Learnt from the board's HELLO: whether placements name the piece."""
        if identity != self.identity:
            self.identity = identity
            core = self.core
            self.core = Referee(core.position, identity=identity, timing=self.timing, playing=core.playing)
            self._last = self.core.status

    def set_scan(self, scan_ms: int) -> None:
        """Learnt from the board: its full scan period (``board_timing.with_board_scan``)."""
        self.timing = self.core.timing = with_board_scan(self.timing, self.configured, scan_ms)

    def set_board_drag(self, drag_ms: int) -> None:
        """Learnt from the board: the drag wait it asks for (``board_timing.with_board_drag``)."""
        self.timing = self.core.timing = with_board_drag(self.timing, self.configured, drag_ms)

    def prepare(self) -> None:
        """Per-position work ahead of the next event (call when idle)."""
        self.core.prepare()

    def sync(self, readings: list[int], now: int) -> Update:
        """The whole board as read (at start-up, or after the board came back)."""
        self._resynced = self.phase == Phase.PLAY
        update = self._apply(self.core.snapshot(readings, now), now)
        if self.phase != Phase.PLAY:
            return self._new_game_on_board(now) or update
        return update

    def event(self, ev: Event) -> Update:
        if ev.resync:
            if self.phase == Phase.PLAY:
                self._resynced = True
            else:  # worked out once the burst of differences is in, like the core does
                self._resync_at = ev.t + self.timing.settle_ms
        return self._apply(self.core.event(ev), ev.t)

    def tick(self, now: int) -> Update:
        if self._resync_at is not None and now >= self._resync_at:
            self._resync_at = None
            if self.phase != Phase.PLAY:
                started = self._new_game_on_board(now)
                if started is not None:
                    return started
        return self._apply(self.core.tick(now), now)

    def answer(self, key: str, now: int) -> Update:
        """An answer to the open question (a touch on the screen, a script's ``choose``)."""
        menu = self._menu
        if menu is not None:
            opt = menu.find(key)
            if opt is None:
                keys = ", ".join(o.key for o in menu.options)
                raise ValueError(f"{key!r} is not an answer to {menu.question!r} (choose {keys})")
            self._menu = None
            if menu.kind == PromptKind.AGREEMENT:
                return self._agree(now) if opt.key == "yes" else Update(self.phase, self.status)
            if menu.kind == PromptKind.NEW_ON_BOARD:
                if opt.key == "yes":
                    return self._start_from_board(now, f"game {self.game_id} kept as abandoned")
                return Update(self.phase, self.status)
            if opt.key == "agree":
                self._menu = self._agreement_prompt()
                self.selected = 0
                return Update(self.phase, self.status)
            if opt.key == "yes":
                return self.new_game(now)
            return Update(self.phase, self.status)
        return self._apply(self.core.answer(key, now), now)

    def touch(self, cell: int, now: int) -> Update:
        """A board cell touched on the screen: the core's choice of the move the board cannot
        see on that cell (``Referee.touch``); ignored, with a note, while the game is not on
        or the session's own question is open."""
        name = self.variant.geometry.names[cell] if 0 <= cell < len(self.position.board) else str(cell)
        if self._menu is not None:
            return Update(self.phase, self.status, note=f"touch on {name} ignored: answer the question first")
        if self.phase != Phase.PLAY:
            return Update(self.phase, self.status, note=f"touch on {name} ignored: no game under way")
        return self._apply(self.core.touch(cell, now), now)

    def button(self, name: str, now: int) -> Update:
        """A panel input: confirm, takeback, menu, next, previous."""
        prompt = self.status.prompt
        if name in ("next", "previous") and prompt is not None:
            step = 1 if name == "next" else -1
            self.selected = (self.selected + step) % len(prompt.options)
            return Update(self.phase, self.status)
        if name == "confirm" and prompt is not None:
            return self.answer(prompt.options[min(self.selected, len(prompt.options) - 1)].key, now)
        if name == "takeback":
            return self.takeback(now)
        if name == "menu":
            if self.phase == Phase.PLAY and self.position.move_stack:
                self._menu = self._menu_prompt()
                self.selected = 0
                return Update(self.phase, self.status)
            return self.new_game(now)
        return Update(self.phase, self.status)

    def takeback(self, now: int) -> Update:
        if self.phase == Phase.SETUP or not self.position.move_stack:
            return Update(self.phase, self.status, note="nothing to take back")
        if self.phase == Phase.OVER:
            self._agreed = None  # the store reopens the game with the move taken back
            self.phase = Phase.PLAY
            self.core.set_playing(True, now)
        return self._apply(self.core.takeback(now), now)

    def new_game(self, now: int) -> Update:
        """Abandon or close the current game and wait for the start position."""
        if self.game_id is not None and self.phase == Phase.PLAY:
            self.store.finish(self.game_id, "*", "abandoned")
        self.game_id = None
        self.resumed = False
        self._menu = None
        self._agreed = None
        self._resynced = False
        observed = list(self.core.observed)
        self.core = Referee(self._start.copy(), identity=self.identity, timing=self.timing, playing=False,
                            observed=observed)
        self.phase = Phase.SETUP
        return self._after(Update(self.phase, self.core.status, note="new game"), now)

    # -- effects --------------------------------------------------------------------------------------
    def _apply(self, d: Decision, now: int) -> Update:
        text = self.position.move_text
        if d.undone or d.accepted:
            assert self.game_id is not None
            # Committed before anyone is told: a power cut after this line loses nothing.
            self.store.record(self.game_id, len(d.undone), [text(m) for m in d.accepted])
            if d.undone and self.phase == Phase.OVER:
                self.phase = Phase.PLAY
        update = Update(self.phase, d.status, tuple(text(m) for m in d.accepted), tuple(text(m) for m in d.undone),
                        d.note)
        return self._after(update, now)

    def _after(self, update: Update, now: int) -> Update:
        core = self.core
        if self._resynced and (update.accepted or core.pending_kind == PendingKind.CLEAN):
            self._resynced = False  # the core worked it out, or the board was put back
        if (self._menu is not None and self._menu.kind == PromptKind.NEW_ON_BOARD
                and core.observed != self._asked_readings):
            self._menu = None  # the board changed under the question: judged afresh
        if update.status.prompt is not None and update.status.prompt is not self._last.prompt:
            self.selected = 0
        if self.phase == Phase.SETUP and core.status.kind == StatusKind.IDLE:
            self.game_id = self.store.new_game(self.variant.name, self.position.fen())
            self.phase = Phase.PLAY
            core.set_playing(True, now)
            update = Update(self.phase, core.status, update.accepted, update.undone,
                            "; ".join(x for x in (update.note, "game started") if x))
        elif (self.phase == Phase.PLAY and self._resynced and core.pending_kind == PendingKind.WRONG
              and self._menu is None and core.observed != self._asked_readings):
            self._ask_new_game_on_board()
            update = Update(self.phase, self.status, update.accepted, update.undone, update.note)
        elif self.phase == Phase.PLAY and core.outcome is not None and core.status.kind == StatusKind.IDLE:
            outcome = core.outcome
            assert self.game_id is not None
            self.store.finish(self.game_id, self.result_text(outcome), outcome.termination)
            self.phase = Phase.OVER
            core.set_playing(False, now)
            update = Update(self.phase, self._over_status(), update.accepted, update.undone, update.note)
        elif self.phase == Phase.OVER:
            if list(core.observed) == readings_of(self._start, self.identity) and self.position.move_stack:
                return self.new_game(now)  # the players set up the next game
            update = Update(self.phase, self._over_status(), update.accepted, update.undone, update.note)
        self._last = update.status
        return update

    # -- a new game found on the board after it was away --------------------------------------------
    def _new_game_on_board(self, now: int) -> Update | None:
        """No game under way and the board came back as the start plus a few moves: start that
        game (None when the board shows no such thing)."""
        if self.phase == Phase.PLAY:
            return None
        if self.phase == Phase.OVER and list(self.core.observed) == readings_of(self.core.position, self.identity):
            # The ended game is still on the board (a short game's end is also "the start plus
            # a few moves"): no new game until the board shows one.
            return None
        if not moves_from_start(self._start, self.core.observed, self.identity):
            return None
        return self._start_from_board(now, "")

    def _start_from_board(self, now: int, note: str) -> Update:
        """Start a new game from the start position and let the core work out, as after any
        reconnect, the moves the board shows (accepted, asked about, or guided back)."""
        if self.game_id is not None and self.phase == Phase.PLAY:
            self.store.finish(self.game_id, "*", "abandoned")
        observed = list(self.core.observed)
        self._menu = None
        self._agreed = None
        self._resynced = False
        self._resync_at = None
        self.resumed = False
        self.game_id = self.store.new_game(self.variant.name, self._start.fen())
        self.phase = Phase.PLAY
        self.core = Referee(self._start.copy(), identity=self.identity, timing=self.timing, playing=True)
        self._last = self.core.status
        update = self._apply(self.core.snapshot(observed, now), now)
        started = "; ".join(x for x in (note, "new game found on the board", update.note) if x)
        return Update(update.phase, update.status, update.accepted, update.undone, started)

    def _ask_new_game_on_board(self) -> None:
        """During a game, the board came back showing what the game's moves cannot explain but
        a new game can: ask (the game under way is never dropped silently)."""
        self._asked_readings = self.core.observed
        seqs = moves_from_start(self._start, self.core.observed, self.identity)
        if not seqs and list(self.core.observed) != readings_of(self._start, self.identity):
            return
        played = self.position.move_stack
        if any(seq[:len(played)] == tuple(played) for seq in seqs if len(seq) > len(played)):
            return  # the game under way with a move on: the core guides that move back
        what = new_game_text(self._start, seqs)
        self._menu = Prompt(PromptKind.NEW_ON_BOARD,
                            f"The board shows {what}. Start it? (this game stays stored, abandoned)",
                            (Option("yes", "Start the new game"), Option("no", "Keep this game")))
        self.selected = 0

    # -- export ---------------------------------------------------------------------------------------
    def pgn(self) -> str:
        if self.game_id is None:
            raise ValueError("no game has started yet")
        return export_pgn(self.store.game(self.game_id))

