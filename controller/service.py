"""The service: the I/O shell around a :class:`~controller.session.Session`.

Threads (each stops on ``stopping``):

* the main thread runs the display's window loop (pygame's rule: one thread owns the display);
* one *controller* thread owns the session: it waits on one input queue -- sensor events
  forwarded from each port's :class:`~firmware_bridge.link.Link`, link state changes, panel
  buttons (gpiozero's thread), touches on the screen -- with a timeout that ends at the core's
  next deadline, feeds the session, commits (the session does, before returning), and only then
  prints, redraws, lights the board's LEDs and the panel;
* per port, a forwarder moving the link's events and state changes, in the order they happened,
  into the input queue. A CONNECTED status carries the board as the link saw it at that point,
  and the service keeps each board's picture from there with the events that follow: syncing
  the game against the link's live model instead would count events still on their way twice.

Without a port the built-in simulated board (``firmware_bridge.simboard``) serves a real pty and
plays a demo game written by ``controller.event_scripts``; the service answers the demo's
prompts from the script's ``choose`` lines as a player at the screen would.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import queue
import signal
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

import engine
from engine import Variant

from .board_map import SensorMap
from .config import Config, load_config
from .inference import Event, Prompt, Status
from .logs import setup_logging, write_safely
from .run_options import kiosk_overrides
from .session import Session, Update
from .store import GameStore

if TYPE_CHECKING:
    from hardware.panel import Panel

log = logging.getLogger("chessery")

#: Put on a link's event queue behind everything its board sent: see Service.finish_when_at_rest.
_DRAINED = object()

#: The controller loop's longest sleep with nothing to do (s): everything it waits for (inputs,
#: deadlines, the clock's next visible change, the watchdog) wakes it by itself.
IDLE_WAKE_S = 5.0
#: A deadline is due but a board's reports up to it are not all handled yet: look again after
#: this long (a link reads its port at least every read timeout, 10 ms).
HEARD_POLL_S = 0.002
#: A deadline found due this much after its time: the host stalled (or starved this thread).
STALL_MS = 25
#: After a stall, a deadline waits at most this long for the links to read what the boards
#: sent meanwhile (a link blocked in a read with nothing to read only returns at its timeout).
STALL_GRACE_MS = 300
#: A board's report of a change reaches the port this soon after the change (the line).
LINE_MS = 5
#: The serial link's read timeout (s): see Service.start.
IDLE_READ_S = 0.25

#: How long a stop by signal waits for the controller to show its last frame before the window
#: closes anyway (s): a hung controller must not keep the process from stopping.
STOP_GRACE_S = 2.0

#: Pause before the demo player answers a question on a screen someone watches (ms).
DEMO_ANSWER_MS = 700
#: Beyond a scanning board's scan, for its last report to be on the line (a DGT dump takes 70 ms).
SCAN_REPORT_MARGIN_MS = 100


def configure(args: argparse.Namespace) -> Config:
    """The configuration file with the command line's options on top."""
    config = load_config(args.config)
    over: dict = {}
    if args.variant is not None:  # --variant "" is a mistake, not "the default"
        over["variant"] = args.variant
    if args.port:
        over["port"] = tuple(args.port)
    if getattr(args, "board", None):
        over["board"] = args.board
    if args.layout:
        over["layout"] = args.layout
    if args.orientation is not None:
        over["orientation"] = args.orientation
    if args.db:
        over["db"] = args.db
    if args.frame:
        over["frame"] = args.frame
    if getattr(args, "status_file", None):
        over["status_file"] = args.status_file
    if args.headless:
        over["display"] = "headless"
    elif args.kiosk:
        over["display"] = "kiosk"
    if args.no_gpio:
        over["gpio"] = replace(config.gpio, enabled=False)
    over.update(kiosk_overrides(args))
    return replace(config, **over)


class Service:
    def __init__(self, config: Config, variant: Variant, store: GameStore, sensor_map: SensorMap, *,
                 answers: list[str] | None = None, answer_delay_ms: int = 0, out: TextIO | None = None,
                 err: TextIO | None = None, window=None, print_moves: bool = True,
                 status_path: Path | None = None) -> None:
        """``out``: where moves are printed (stdout). ``err``: where messages go; None: the
        ``chessery`` logger (``chessery run`` gives it one handler on stderr). A reader of
        either that goes away silences the stream, never the referee. ``status_path``: the
        file ``chessery status`` reads (controller.status), rewritten while the service runs."""
        self.config = config
        self.variant = variant
        self.store = store
        self.map = sensor_map
        self.out = out or sys.stdout
        self.err = err
        self.status_path = status_path
        #: Seconds between rewrites of the status file; set after each rewrite.
        self.status_every = 2.0
        #: Seconds between log lines naming the link errors that grew meanwhile (if any did).
        self.counter_log_every = 600.0
        self.status_written = threading.Event()
        self._summary: dict = {}
        self.window = window
        self.print_moves = print_moves
        # SimpleQueue: its put is reentrant, so the SIGTERM handler may wake the controller even
        # when it interrupts the main thread inside a put (a touch on the screen).
        self.inputs: queue.SimpleQueue[tuple] = queue.SimpleQueue()
        self.stopping = threading.Event()
        self.finished = threading.Event()  # the controller loop has ended
        self.links: list = []
        #: Per link: items its forwarder has put on ``inputs`` (see ``_heard_past``).
        self._forwarded: dict[int, int] = {}
        #: When the session's deadline was first found overdue (service ms), while held back.
        self._late_since: int | None = None
        self.counts: Counter[str] = Counter()
        self.panel: Panel | None = None
        self.error: BaseException | None = None
        self._t0 = time.monotonic()
        identity = config.identity == "true"
        self.session = Session(variant, store, identity=identity, timing=config.timing, now=self.now())
        self._answers = list(answers or [])
        self._answer_delay = answer_delay_ms
        self._answer_at: int | None = None
        self._answered_prompt: Prompt | None = None
        self._threads: list[threading.Thread] = []
        self._connected: set[int] = set()
        self._synced = False
        # Per port, the board as of the inputs handled so far: (occupancy, pieces) per board cell,
        # from the latest LinkStatus with the events after it applied.
        self._boards: dict[int, tuple[list[bool], list[str | None]]] = {}
        self._drained: set[int] = set()
        self._finish_at_rest = False
        self._clock_offsets: dict[int, int] = {}
        self._notice = "Waiting for the board"
        #: What the clock button last said when it switched nothing (on the screen until the next input).
        self.clock_note = ""
        self._leds: tuple | None = None
        #: Occupancy boards: cells where the last move asks for a piece swap (Gryphon) that has
        #: not been made yet (no piece put down there since); their lights blink meanwhile. An
        #: identity board needs none: the referee waits for the new piece and shows a fix.
        self._swap_cells: set[int] = set()
        self._last_status: Status | None = None
        self._out_lost = False
        self._printed: list[str] = []  # the game's moves as printed in SAN, for "undo" lines
        #: The chess clock (None: untimed), and when the latest move was completed on the board.
        self.clock = None
        self._moved_at: int | None = None
        # The operator menu (controller.menu) and what it set: the board turned round, names.
        from .operator import make_menu

        self.menu = make_menu(self)
        self.flipped = False
        self.players: dict[int, str] = {}
        self._tagged_game: int | None = None
        self.usb_root = "/"
        from .notify import Notifier

        #: systemd's notify socket (Type=notify units): READY once the screen is up, watchdog pings.
        self.notifier = Notifier()
        self._ready_sent = False
        self._ping_at = 0
        if config.time_control:
            from .game_clock import GameClock
            from .game_extras import GameExtras

            self.clock = GameClock(config.time_control, config.clock, GameExtras(store), variant.nsides)
        #: Called on the controller thread with each update, right after it was committed.
        self.on_update: Callable[[Update], None] | None = None
        #: Called on the controller thread with the status just shown (screen, panel, board lights).
        self.on_show: Callable[[Status], None] | None = None

    def say(self, text: str, level: int = logging.INFO) -> None:
        """One message for whoever watches the service: one line, one write."""
        if self.err is None:
            log.log(level, "%s", text)
        else:
            write_safely(self.err, f"chessery: {text}\n")

    def now(self) -> int:
        return int((time.monotonic() - self._t0) * 1000)

    # -- life cycle ---------------------------------------------------------------------------------
    def start(self) -> Service:
        from firmware_bridge.boards import open_board

        # No port: a screen without a board (the operator menu still works).
        for i, (url, offset) in enumerate(zip(self.config.port, self.map.offsets()[:len(self.config.port)],
                                              strict=True)):
            options: dict = {}
            if self.config.board == "chessery":
                # A read returns as soon as a byte arrives; the timeout only sets how often an idle
                # link wakes up (the board's heartbeat wakes it anyway): 50 times a second was 0.7 %
                # of a core for nothing. The DGT and Millennium drivers keep their own timing.
                options = {"read_timeout": IDLE_READ_S, "expected_cells": self.map.board_sizes[i]}
            link = open_board(self.config.board, url, cell_offset=offset, states_in_events=True,
                              name=f"board {i + 1} ({url})" if len(self.config.port) > 1 else url, **options)
            self.links.append(link)
        self._open_panel()
        for i, link in enumerate(self.links):
            link.start()
            self._spawn(f"forward {link.name}", self._forward, i, link)
        self._spawn("controller", self._loop)
        self._show()
        if self.status_path is not None:
            self._spawn("status", self._write_status)
        return self

    def _spawn(self, name: str, target, *args) -> None:
        t = threading.Thread(target=target, args=args, name=name, daemon=True)
        t.start()
        self._threads.append(t)

    def _write_status(self) -> None:
        """Rewrite the status file every few seconds until the service stops (then once more,
        saying so). A status file that cannot be written is reported once; refereeing goes on."""
        from .status import error_growth, link_status, write_status

        assert self.status_path is not None
        started = time.time()
        failed = False
        counted = [link.stats for link in self.links]
        counted_at = time.monotonic()
        while True:
            running = not self.stopping.is_set()
            if time.monotonic() - counted_at >= self.counter_log_every:
                # The journal's periodic word on link errors, only when there were any.
                for i, link in enumerate(self.links):
                    now_counts = link.stats
                    grown = error_growth(counted[i], now_counts)
                    if grown:
                        log.warning("%s: in the last %.0f min: %s", link.name,
                                    (time.monotonic() - counted_at) / 60, grown)
                    counted[i] = now_counts
                counted_at = time.monotonic()
            data = {"pid": os.getpid(), "started": started, "updated": time.time(), "running": running,
                    "variant": self.variant.name, "game": self._summary,
                    "boards": [link_status(link) for link in self.links]}
            try:
                write_status(self.status_path, data)
                self.status_written.set()
            except OSError as exc:
                if not failed:
                    failed = True
                    log.warning("cannot write the status file %s: %s", self.status_path, exc)
            if not running or self.stopping.wait(self.status_every):
                if running:
                    continue  # once more, saying it stopped
                return

    def request_stop(self, grace: float = STOP_GRACE_S) -> None:
        """Ask the service to stop, from any thread or a signal handler (SIGTERM). The controller
        finishes what it is handling, shows the last frame (with every move it has printed and
        stored) and only then stops the window; should it not get there, the window stops by
        itself after ``grace`` seconds."""
        self.stopping.set()
        self.inputs.put(("wake",))
        if self.window is not None:
            self.window.stop_within(grace)

    def stop(self) -> None:
        self.stopping.set()
        self.inputs.put(("wake",))
        for t in self._threads:
            if t is not threading.current_thread():
                t.join(2.0)
        for link in self.links:
            link.close()
        if self.panel is not None:
            self.panel.close()
        if self.window is not None:
            self.window.stop()

    def _open_panel(self) -> None:
        gpio = self.config.gpio
        if not gpio.enabled:
            return
        from hardware.panel import open_panel

        from .config import GPIO_PINS

        pins = {name: getattr(gpio, name) for name in GPIO_PINS}
        self.panel, reason = open_panel(pins, lambda word: self.inputs.put(("button", word)), gpio.pin_factory)
        if self.panel is None:
            self.say(f"no GPIO ({reason}); running without buttons, lights and buzzer")

    def _forward(self, index: int, link) -> None:
        """One path per port for events and state changes, so they reach the controller in the
        order the link produced them."""
        from firmware_bridge.events import LinkStatus

        while not self.stopping.is_set():
            try:
                item = link.events.get(timeout=1.0)  # only to notice ``stopping``
            except queue.Empty:
                continue
            if isinstance(item, LinkStatus):
                self.inputs.put(("link", index, item))
            elif item is _DRAINED:
                self.inputs.put(("drained", index))
            else:
                self.inputs.put(("sensor", index, item))
            self._forwarded[index] = self._forwarded.get(index, 0) + 1

    def finish_when_at_rest(self) -> None:
        """Stop once everything the boards have sent so far is handled and the game is at rest
        (no deadline, nothing asked); for a scripted board that has played its script. Blocks
        until each link has answered a ping and a snapshot: every frame sent before them has
        then been handled, and a marker put on the link's queue now comes out after all their
        events (the forwarder is the queue's only reader)."""
        from firmware_bridge.events import LinkState
        from firmware_bridge.link import LinkError

        # A board that scans (DGT, Millennium) reports the hands' last change only when its scan
        # comes round to it, up to a scan later, and a DGT dump answers from the last scan: a
        # ping and a snapshot at once could come before that report.
        scan_ms = max((getattr(link, "scan_ms", 0) for link in self.links), default=0)
        if scan_ms:
            self.stopping.wait((scan_ms + SCAN_REPORT_MARGIN_MS) / 1000)
        for link in self.links:
            while not self.stopping.is_set():
                if link.wait_connected(1.0):
                    try:
                        link.ping()
                        link.request_snapshot()  # also releases events held back after a lost frame
                    except LinkError as exc:  # it went away meanwhile: wait for it again
                        log.info("waiting for %s before finishing: %s", link.name, exc)
                        continue
                elif link.state is not LinkState.CLOSED:  # a closed link sends nothing more
                    continue
                link.events.put(_DRAINED)
                break

    # -- the controller thread ------------------------------------------------------------------------
    def _loop(self) -> None:
        try:
            while not self.stopping.is_set():
                self._notify()
                timeout = IDLE_WAKE_S
                if self.notifier.ping_ms is not None:
                    timeout = min(timeout, max(0.0, (self._ping_at - self.now()) / 1000))
                deadline = self._next_deadline()
                if deadline is not None:
                    timeout = max(0.0, (deadline - self.now()) / 1000)
                    if not timeout and not self._heard_past():
                        timeout = HEARD_POLL_S  # due, but a board's reports up to then are not all in
                try:
                    item = self.inputs.get_nowait()
                except queue.Empty:
                    self.session.prepare()  # index the new position while the hands are away
                    try:
                        item = self.inputs.get(timeout=timeout)
                    except queue.Empty:
                        item = ("tick",)
                with self.store.transaction():  # committed in _report, before anything is shown
                    self._handle(item)
                    # Drain what arrived meanwhile before redrawing: one frame per burst.
                    while True:
                        try:
                            self._handle(self.inputs.get_nowait())
                        except queue.Empty:
                            break
                    self._due()
                self.store.retry()  # writes a full disk refused, once there is room
                if self._finish_at_rest and self._at_rest():
                    self._handle(("quit",))
                self._show()  # each turn ends showing what it did: the last one before stopping too
        except BaseException as exc:  # reported by run_service; the service must not hang
            self.error = exc
            log.exception("controller stopped")
        finally:
            self.finished.set()
            # Only now: stopped before, the window would end without the last frame, which can
            # hold a move already printed and stored.
            if self.window is not None:
                self.window.stop()

    def _notify(self) -> None:
        """READY=1 once the screen shows its first frame; WATCHDOG=1 every half watchdog period
        while this loop runs and the window's loop is alive too (a hung display must be restarted
        as much as a hung controller)."""
        if not self.notifier.enabled:
            return
        window = self.window
        if not self._ready_sent and (window is None or window.renders > 0):
            self._ready_sent = self.notifier.ready(f"refereeing {self.variant.title}")
        ping = self.notifier.ping_ms
        now = self.now()
        if ping is not None and self._ready_sent and now >= self._ping_at:
            if window is None or time.monotonic() - window.alive_at < 2 * ping / 1000:
                self.notifier.watchdog()
            self._ping_at = now + ping

    def _next_deadline(self) -> int | None:
        d = self.session.deadline
        if self._answer_at is not None:
            d = self._answer_at if d is None else min(d, self._answer_at)
        if self.clock is not None:
            now = self.now()
            for t in (self.clock.deadline(), self.clock.next_change(now) if self.window is not None else None):
                if t is not None:
                    d = t if d is None else min(d, t)
        return d

    def _heard_past(self) -> bool:
        """Whether the session's deadline, due by the clock, may fall due now. Found due late
        (by more than ``STALL_MS``: the host stalled -- swapping, a throttled CPU, this thread
        starved), the board's reports from meanwhile may still wait in the port, though they
        came before the deadline: deciding now would ignore them (a slide going on, the victim
        of a capture). So a late deadline waits until every connected link has read its port
        past it (``drained``), its forwarder has passed on every event queued by then and the
        controller has taken them all (``_catch_up`` then fires it at its own time, between the
        events) -- at most ``STALL_GRACE_MS``, as a link blocked in a read with nothing to read
        returns only at its read timeout. On time, nothing waits (no latency added)."""
        from firmware_bridge.events import LinkState

        deadline = self.session.deadline
        now = self.now()
        if deadline is None or now - deadline <= STALL_MS:
            self._late_since = None
            return True
        if self._late_since is None:
            self._late_since = now
            self.counts["late_deadlines"] += 1
        if now - self._late_since > STALL_GRACE_MS:
            self.counts["late_deadlines_given_up"] += 1
            return True
        for index, link in enumerate(self.links):
            drained = getattr(link, "drained", None)
            if drained is None or link.state is not LinkState.CONNECTED:
                continue
            at, puts = drained
            if (at - self._t0) * 1000 < deadline + LINE_MS or self._forwarded.get(index, 0) < puts:
                return False
        return self.inputs.empty()

    def _due(self) -> None:
        now = self.now()
        if (self.session.deadline is not None and now >= self.session.deadline
                and self._heard_past()):
            self._late_since = None
            self._report(self.session.tick(now))
        if self.clock is not None:
            outcome = self.clock.tick(self.session, now)
            if outcome is not None:
                self._report(self.session.end(outcome, now, "flag fall"))
        self._maybe_answer()

    def _handle(self, item: tuple) -> None:
        kind = item[0]
        now = self.now()
        if kind in ("sensor", "button", "touch"):
            self.clock_note = ""  # shown until the next thing the players do
        if kind == "sensor":
            _, index, ev = item
            self._track(index, ev)
            if not self._synced:
                return  # part of the board the first sync reads
            self._follow_scan()
            cell = self.map.cell_of[ev.cell] if 0 <= ev.cell < self.map.sensors else -1
            if cell < 0:
                return
            piece = 0
            if self.session.identity and ev.piece:
                from firmware_bridge.events import code_for_piece
                with contextlib.suppress(ValueError):
                    piece = code_for_piece(self.variant, ev.piece)
            if ev.placed:
                self._swap_cells.discard(cell)  # a piece put down where the swap was asked: done
            t = self._event_time(index, ev, now)
            self._catch_up(t)
            if ev.placed:  # a move is completed by putting a piece down: the clock stops then
                self._moved_at = t
            self._report(self.session.event(Event(cell, ev.placed, t, piece, resync=ev.synthetic)))
        elif kind == "link":
            _, index, status = item
            self._link_state(index, status)
        elif kind == "drained":
            self._drained.add(item[1])
            self._finish_at_rest = len(self._drained) == len(self.links)
        elif kind == "button":
            self._button(item[1], now)
        elif kind == "touch":
            self._touch(item[1], now)
        elif kind == "quit":
            self.stopping.set()  # the loop shows the last frame, then stops the window
            return
        self._maybe_answer()

    def _catch_up(self, t: int) -> None:
        """Fire the core's deadlines that fell before an event that happened at ``t``, at their
        own time (and let the demo player answer a question that opens). A deadline is never
        fired at "now" while inputs are still queued (the loop does that once the queue is
        empty): a busy controller would decide that the board was still before the events that
        were waiting."""
        while (d := self.session.deadline) is not None and d <= t:
            self._report(self.session.tick(d))
            self._maybe_answer()
            if self.session.deadline == d:
                break

    def _event_time(self, index: int, ev, now: int) -> int:
        """An event's time on the service clock, from the board's own timestamp where there is
        one: a busy host may read several events at once, but the core must see the gaps the
        hands made. The board clock's offset is the smallest (host - board) seen, the event that
        reached us fastest, creeping up by at most 1 ms per event so that a board clock slower
        than ours is followed; a board reset (its clock restarts) shows as a jump."""
        host = int((ev.host_time - self._t0) * 1000) if ev.host_time else now
        if ev.board_ms is None:
            return min(host, now)
        seen = host - ev.board_ms
        offset = self._clock_offsets.get(index)
        if offset is None or seen < offset or seen - offset > 2000:
            offset = seen
        elif seen > offset:
            offset += 1
        self._clock_offsets[index] = offset
        return min(ev.board_ms + offset, now)

    def _button(self, name: str, now: int) -> None:
        """A panel button: the menu button opens (or closes) the operator menu; while it is open
        the other buttons move through it and choose."""
        from . import operator

        session = self.session
        prompt = session.status.prompt
        if name == "clock":
            self._clock_button(now)
            return
        if name == "menu" and self.menu.is_open:
            self.menu.close()
        elif name == "menu" and (session.phase != "play" or not session.position.move_stack):
            operator.open_menu(self)
        elif name == "menu" and prompt is not None and prompt.kind == "menu":
            # Pressed again while the game's own menu asks "new game?": the operator menu.
            self._report(session.answer("no", now))
            operator.open_menu(self)
        elif self.menu.is_open:
            if name in ("next", "previous"):
                self.menu.move(1 if name == "next" else -1)
            elif name == "confirm":
                operator.carry_out(self, self.menu.confirm(), now)
            elif name == "takeback":
                self.menu.close()
        else:
            self._report(self.session.button(name, now))
        operator.after_menu(self)

    def _clock_button(self, now: int) -> None:
        """The optional clock button (controller.game_clock.clock_button): it may make the move
        on the board final; else it only says why it switched nothing, on the screen and the log."""
        from .game_clock import clock_button

        if self.menu.is_open:
            note = "Clock button: close the menu first"
        else:
            update, note = clock_button(self.session, now)
            if update is not None:
                self._report(update)
        self.clock_note = note
        if note:
            self.say(note)

    def _touch(self, ev, now: int) -> None:
        from display.window import CellClicked, ChoiceClicked, MenuClicked, QuitRequested

        from . import operator

        if isinstance(ev, MenuClicked):
            operator.open_menu(self)
        elif isinstance(ev, ChoiceClicked) and self.menu.is_open:
            try:
                operator.carry_out(self, self.menu.tap(ev.key), now)
            except ValueError as exc:  # the screen changed under the finger
                log.info("touch ignored: %s", exc)
            operator.after_menu(self)
        elif isinstance(ev, ChoiceClicked):
            try:
                self._report(self.session.answer(ev.key, now))
            except ValueError as exc:  # the question changed under the finger
                log.info("touch ignored: %s", exc)
        elif isinstance(ev, CellClicked) and not self.menu.is_open:
            # The display's cells are engine cells (it draws the engine's geometry, turned round
            # or not): no sensor mapping here.
            try:
                update = self.session.touch(ev.cell, now)
            except ValueError as exc:
                log.info("touch ignored: %s", exc)
                return
            if update.accepted:
                self._moved_at = now  # the touch completed the move: the clock stops now
            self._report(update)
            if update.note and update.note not in self.session.status.message:
                log.info("%s", update.note)
        elif isinstance(ev, QuitRequested):
            self.stopping.set()

    def _link_state(self, index: int, status) -> None:
        from firmware_bridge.events import LinkState

        link = self.links[index]
        if status.problem:  # the board answers, but cannot be refereed as it is
            self._notice = f"Board {link.name}: {status.problem}"
            return
        if status.occupancy is not None:
            self._boards[index] = (list(status.occupancy), list(status.pieces or (None,) * len(status.occupancy)))
        if status.state is LinkState.CONNECTED:
            first = index not in self._connected
            self._connected.add(index)
            if len(self._connected) == len(self.links):
                self._notice = ""
            if self.config.identity == "auto" and link.hello is not None:
                self.session.set_identity(link.hello.identity, self.now())
            if link.hello is not None:
                self._follow_scan()
            if first and len(self._connected) == len(self.links):
                t = min(int((status.host_time - self._t0) * 1000), self.now())
                self._report(self.session.sync(self._readings(), t))
                self._synced = True
        elif status.state is LinkState.CLOSED and not self.stopping.is_set():
            self._notice = f"Cannot use the port {link.url}: {status.reason}"
        elif index not in self._connected and status.state in (LinkState.DISCONNECTED, LinkState.CONNECTING):
            from .link_notice import never_connected

            self._notice = never_connected(link.name, self.config.port[index] if index < len(self.config.port)
                                           else link.name)
        elif status.state is LinkState.DISCONNECTED or status.state is LinkState.CONNECTING:
            if self.session.phase == "over":  # nothing left to catch up
                self._notice = (f"Board disconnected ({link.name}). The game is over and stored; "
                                "plug the board back in for a new game")
            else:
                self._notice = f"Board disconnected ({link.name}). Play on: the game catches up when it is back"
        self._leds = None  # a reconnected board lost its lights

    def _follow_scan(self) -> None:
        """A board scanning slower than its events need (DGT) says so, and says it again as it
        learns its own scan: the referee's windows and its trust in the order of events follow.
        A board may ask for its own drag wait (Millennium); with several boards, the longest."""
        self.session.set_scan(max(getattr(lk.hello, "scan_ms", 0) if lk.hello else 0 for lk in self.links))
        self.session.set_board_drag(max(getattr(lk.hello, "drag_ms", 0) if lk.hello else 0 for lk in self.links))

    def _track(self, index: int, ev) -> None:
        """Keep the port's board picture: the link promises each event fits its latest status
        with the events before it applied (before the first snapshot there is no picture yet,
        and the CONNECTED status includes such events)."""
        board = self._boards.get(index)
        cell = ev.cell - self.links[index].cell_offset
        if board is not None and 0 <= cell < len(board[0]):
            board[0][cell] = ev.placed
            board[1][cell] = ev.piece if ev.placed else None

    def _at_rest(self) -> bool:
        status = self.session.status
        return (self.session.deadline is None and self._answer_at is None
                and (self.session.phase == "over" or status.kind == "idle"))

    def _readings(self) -> list[int]:
        """The boards as of the inputs handled so far (every port is connected)."""
        from firmware_bridge.events import code_for_piece

        values: list[int] = []
        for index in range(len(self.links)):
            occupancy, pieces = self._boards[index]
            if self.session.identity:
                for text in pieces:
                    code = 0
                    if text:
                        try:
                            code = code_for_piece(self.variant, text)
                        except ValueError:
                            code = -1
                    values.append(code)
            else:
                values.extend(1 if v else 0 for v in occupancy)
        return self.map.readings(values)

    def _report(self, update: Update) -> None:
        # The clock time its mover had left joins the move's transaction; both commit before
        # anyone is told (the loop holds a store transaction around each turn).
        flagged = self.clock.follow(self.session, update, self.now(), self._moved_at) if self.clock else None
        self.store.commit()
        if update.accepted or update.undone:
            stack = self.session.position.move_stack
            self._swap_cells = set()
            if update.accepted and stack and not self.session.identity:
                from .swaps import swaps

                self._swap_cells = {cell for cell, _old, _new in swaps(self.variant, stack[-1])}
        if self.print_moves:
            undone, accepted = self._printable(update)
            lines = [f"undo {text}" for text in undone] + list(accepted)
            if lines and not write_safely(self.out, "".join(f"{line}\n" for line in lines)) and not self._out_lost:
                self._out_lost = True
                log.warning("standard output is gone; moves are no longer printed (they are still stored)")
        if self.panel is not None and update.accepted:
            self.panel.beep("move")
        if self.on_update is not None:
            self.on_update(update)
        status = self.session.status
        if status != self._last_status:
            if self.print_moves and status.message and (self._last_status is None
                                                        or status.message != self._last_status.message):
                self.say(status.message)
            if self.panel is not None and status.kind == "ask":
                self.panel.beep("ask")
            if self.panel is not None and status.kind == "fix":
                self.panel.beep("error")
            self._last_status = status
        if self.players and self.session.game_id != self._tagged_game:
            from .operator import tag_game

            tag_game(self)
        if flagged is not None:
            self._report(self.session.end(flagged, self.now(), "flag fall"))

    def _printable(self, update: Update) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """The update's moves as stdout shows them: the engine's move text (the contract), or
        SAN with ``notation = "san"``."""
        if self.config.notation != "san":
            return update.undone, update.accepted
        from .screen import NOTATION

        texts = [t.removesuffix(" e.p.") for t in NOTATION.texts(self.session.position)]
        k = len(update.undone)
        undone = tuple(reversed(self._printed[len(self._printed) - k:])) if k else ()
        accepted = tuple(texts[len(texts) - len(update.accepted):]) if update.accepted else ()
        self._printed = texts
        return undone, accepted

    def _maybe_answer(self) -> None:
        prompt = self.session.status.prompt
        if prompt is None or not self._answers:
            self._answer_at = None
            return
        if prompt is not self._answered_prompt and self._answer_at is None:
            self._answer_at = self.now() + self._answer_delay
        if self._answer_at is not None and self.now() >= self._answer_at:
            self._answer_at = None
            self._answered_prompt = prompt
            answer = self._answers.pop(0)
            try:
                self._report(self.session.answer(answer, self.now()))
            except ValueError as exc:
                self.say(f"demo answer {answer!r} does not fit: {exc}")

    # -- output -------------------------------------------------------------------------------------
    def _show(self) -> None:
        status = self.session.status
        notice = ". ".join(x for x in (self.store.problem, self._notice) if x)  # a full disk first
        self._summary = {"id": self.session.game_id, "phase": self.session.phase,
                         "message": notice or status.message}
        if self.window is not None:
            from .screen import view_of

            view = view_of(self.session, ". ".join(x for x in (notice, self.clock_note) if x))
            if self.clock is not None:
                view = replace(view, clocks=self.clock.seconds(self.now()))
            names = [self.players.get(i, "") for i in range(2)]
            if any(names):
                view = replace(view, title=" - ".join(n or "?" for n in names))
            view = replace(view, menu=self.menu.prompt(), menu_button=True, flipped=self.flipped)
            self.window.show(view)
        if self.panel is not None:
            state = "waiting" if notice else "attention" if status.kind in ("ask", "fix") else "ok"
            if self.panel.state != state:
                self.panel.show(state)
        self._board_leds(status)
        if self.on_show is not None:
            self.on_show(status)

    def _board_leds(self, status) -> None:
        if not self.links:
            return
        wrong = {f.cell for f in status.fixes}
        if status.kind in ("idle", "moving"):
            wrong |= self._swap_cells
        fix = tuple(sorted(self.map.sensor_of[c] for c in wrong if c in self.map.sensor_of))
        pending = tuple(sorted(self.map.sensor_of[c] for c in status.cells if c in self.map.sensor_of)) \
            if status.kind == "ask" else ()
        last: tuple[int, ...] = ()
        lights = self.config.last_move_lights
        if (not fix and not pending and (lights == "true" or (lights == "auto" and self.config.board != "chessery"))
                and self.session.position.move_stack):
            changed = {cell for cell, _before, _after in self.session.position.move_stack[-1].changes}
            last = tuple(sorted(self.map.sensor_of[c] for c in changed if c in self.map.sensor_of))
        want = (fix, pending, last)
        if want == self._leds:
            return
        self._leds = want
        for link in self.links:
            if link.hello is not None and not link.hello.leds:
                continue
            link.set_leds(fix, "blink")
            if pending:
                link.set_leds(pending, "on", replace=False)
            if last:
                link.set_leds(last, "on", replace=False)


# -- the command ------------------------------------------------------------------------------------
def _frame_path(config: Config) -> Path:
    if config.frame:
        return Path(config.frame)
    import platformdirs

    return Path(platformdirs.user_cache_dir("chessery")) / "frame.png"


class DemoBoard:
    """The simulated board in its own process (``chessery sim-board``), so that its timing is not
    disturbed by this process's drawing: ``path`` is the pty to open, ``done`` is set when the
    script has been played."""

    def __init__(self, variant: Variant, lines: list[str], faults: str = "", protocol: str = "chessery") -> None:
        """``faults``: the simulated board's ``--faults`` (bench/soak.py pulls its cable);
        ``protocol``: ``dgt`` or ``millennium`` for an emulated board of that make."""
        import subprocess
        import tempfile

        self._dir = tempfile.TemporaryDirectory(prefix="chessery-demo-")
        script = Path(self._dir.name) / "demo.txt"
        script.write_text("\n".join(lines) + "\n", encoding="utf-8")
        self.done = threading.Event()
        command = [sys.executable, "-m", "controller.cli", "sim-board", "--variant", variant.name, "--script",
                   str(script), "--link", str(Path(self._dir.name) / "board"), "--while-stdin-open"]
        if faults:
            command += ["--faults", faults]
        if protocol != "chessery":
            command += ["--protocol", protocol]
        # Its stdin is a pipe nobody writes to: when this process dies, however it dies, the
        # pipe closes and the board stops instead of serving a pty nobody reads, for ever.
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                     cwd=Path(__file__).resolve().parent.parent)
        assert self.proc.stdout is not None
        self.path = self.proc.stdout.readline().strip()
        if not self.path:
            raise RuntimeError(f"the simulated board did not start (exit status {self.proc.wait()})")
        threading.Thread(target=self._watch, name="demo board", daemon=True).start()

    def _watch(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            if line.strip() == "done":
                self.done.set()

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(5)
        except Exception:
            self.proc.kill()
        self._dir.cleanup()


def demo_script(variant: Variant, moves_text: str | None, watched: bool, identity: bool = False) -> list[str]:
    """The demo game's event script: the Opera game for chess, a recorded game for the variants
    in ``controller.demo_games``, else a seeded random game. ``identity``: placements name
    their pieces (a board that reads them)."""
    from .demo_games import DEMO_GAMES
    from .event_scripts import OPERA_GAME, Style, random_game, script_for_moves

    if moves_text:
        moves = moves_text.split()
    elif variant.name == "chess":
        moves = list(OPERA_GAME)
    elif variant.name in DEMO_GAMES:
        moves = list(DEMO_GAMES[variant.name])
    else:
        moves = random_game(variant, 60, seed=1)
    # Drags that barely rest on the squares they cross (shown as provisional readings on the way).
    style = Style(capture="alternate", castle="alternate", slide=True, slide_rest_ms=5,
                  think_ms=1500 if watched else 400, hand_ms=400 if watched else 120, identity=identity)
    return script_for_moves(variant, moves, style)


def _status_path(config: Config) -> Path:
    if config.status_file:
        return Path(config.status_file)
    from .status import default_path

    return default_path()


def run_service(args: argparse.Namespace) -> int:
    config = configure(args)
    setup_logging(config.link_log)  # before anything that may have something to say
    variant = engine.find_variant(config.variant)
    from .ports import check_port

    for url in config.port:
        warning = check_port(url)  # a URL that can never work stops here, with one line
        if warning:
            log.warning("%s", warning)
    layout = None
    if config.layout:
        from hardware.layout import load_layout

        layout = load_layout(config.layout)
    mode = config.display
    if mode == "windowed" and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        log.info("no screen (DISPLAY is not set): running headless")
        mode = "headless"
    answers: list[str] = []
    board: DemoBoard | None = None
    demo_lines: list[str] = []
    demo_protocol = "chessery"
    if not config.port:
        # A DGT or Millennium board asked for and none plugged in: the demo plays on an emulated
        # board of that make, where the game fits one 8x8 board.
        if config.board != "chessery":
            if variant.geometry.size == 64:
                demo_protocol = config.board
            else:
                log.warning("a %s board has 64 squares and %s has %d cells: the demo plays on our own "
                            "simulated board", config.board, variant.name, variant.geometry.size)
        demo_lines = demo_script(variant, args.demo_moves, watched=mode != "headless",
                                 identity=demo_protocol != "chessery")
        answers = [line.split(None, 1)[1] for line in demo_lines if line.startswith("choose ")]
        if config.layout:
            log.info("the simulated board numbers its sensors by engine cell; --layout ignored")
            layout = None
        config = replace(config, port=(), orientation=0, board=demo_protocol)
    if args.answers:
        from firmware_bridge.script import Choose, load_script

        answers = [c.answer for c in load_script(args.answers, variant) if isinstance(c, Choose)]
    sensor_map = SensorMap(variant, layout, config.orientation, boards=max(1, len(config.port)))
    store = GameStore(config.db or None, demo=bool(demo_lines))
    from display.window import Window

    frame = _frame_path(config) if mode == "headless" else None
    if frame is not None:
        frame.parent.mkdir(parents=True, exist_ok=True)
    if demo_lines:
        board = DemoBoard(variant, demo_lines, protocol=demo_protocol)
        config = replace(config, port=(board.path,))
        log.info("demo game on a simulated %sboard at %s",
                 "" if demo_protocol == "chessery" else f"{demo_protocol} ", board.path)
    service = Service(config, variant, store, sensor_map, answers=answers,
                      answer_delay_ms=0 if mode == "headless" else DEMO_ANSWER_MS, print_moves=mode == "headless",
                      status_path=_status_path(config))
    window = Window(mode, config.size, snapshot=frame, title=f"Chessery: {variant.title}",
                    on_input=lambda ev: service.inputs.put(("touch", ev)))
    service.window = window
    if frame is not None:
        write_safely(sys.stdout, f"frame: {frame}\n")

    def on_signal(signum: int, _frame: object) -> None:
        service.request_stop()  # the window stops after the controller's last frame

    previous = {sig: signal.signal(sig, on_signal) for sig in (signal.SIGTERM, signal.SIGINT)}
    service.start()
    if board is not None and (args.exit_when_done or mode == "headless"):
        threading.Thread(target=_stop_when_demo_done, args=(service, board), daemon=True).start()
    try:
        window.run()
    finally:
        service.stop()
        if board is not None:
            board.stop()
        store.close()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    return exit_status(service)


def exit_status(service: Service) -> int:
    """0 after a requested stop; 1, with the reason on the log, when the referee stopped by
    itself (so systemd restarts it and the journal says why)."""
    if service.error is None:
        return 0
    exc = service.error
    log.error("the referee stopped: %s: %s", type(exc).__name__, exc)
    return 1


def _stop_when_demo_done(service: Service, board) -> None:
    """Headless demo: end once the script is played and the game has come to rest."""
    while not service.stopping.is_set():
        if board.done.wait(0.2):
            service.finish_when_at_rest()
            return
