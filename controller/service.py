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
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TextIO

import engine
from engine import Variant

from .board_map import SensorMap
from .config import Config, load_config
from .inference import Event
from .session import Session, Update
from .store import GameStore

log = logging.getLogger("chessery")

#: Put on a link's event queue behind everything its board sent: see Service.finish_when_at_rest.
_DRAINED = object()

#: Pause before the demo player answers a question on a screen someone watches (ms).
DEMO_ANSWER_MS = 700


def configure(args: argparse.Namespace) -> Config:
    """The configuration file with the command line's options on top."""
    config = load_config(args.config)
    over: dict = {}
    if args.variant:
        over["variant"] = args.variant
    if args.port:
        over["port"] = tuple(args.port)
    if args.layout:
        over["layout"] = args.layout
    if args.orientation is not None:
        over["orientation"] = args.orientation
    if args.db:
        over["db"] = args.db
    if args.frame:
        over["frame"] = args.frame
    if args.headless:
        over["display"] = "headless"
    elif args.kiosk:
        over["display"] = "kiosk"
    if args.no_gpio:
        over["gpio"] = replace(config.gpio, enabled=False)
    return replace(config, **over)


class Service:
    def __init__(self, config: Config, variant: Variant, store: GameStore, sensor_map: SensorMap, *,
                 answers: list[str] | None = None, answer_delay_ms: int = 0, out: TextIO | None = None,
                 err: TextIO | None = None, window=None, print_moves: bool = True) -> None:
        self.config = config
        self.variant = variant
        self.store = store
        self.map = sensor_map
        self.out = out or sys.stdout
        self.err = err or sys.stderr
        self.window = window
        self.print_moves = print_moves
        self.inputs: queue.Queue[tuple] = queue.Queue()
        self.stopping = threading.Event()
        self.finished = threading.Event()  # the controller loop has ended
        self.links: list = []
        self.panel = None
        self.error: BaseException | None = None
        self._t0 = time.monotonic()
        identity = config.identity == "true"
        self.session = Session(variant, store, identity=identity, timing=config.timing, now=self.now())
        self._answers = list(answers or [])
        self._answer_delay = answer_delay_ms
        self._answer_at: int | None = None
        self._answered_prompt = None
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
        self._leds: tuple | None = None
        self._last_status = None
        #: Called on the controller thread with each update, right after it was committed.
        self.on_update: Callable[[Update], None] | None = None
        #: Called on the controller thread with the status just shown (screen, panel, board lights).
        self.on_show: Callable[[object], None] | None = None

    def now(self) -> int:
        return int((time.monotonic() - self._t0) * 1000)

    # -- life cycle ---------------------------------------------------------------------------------
    def start(self) -> Service:
        from firmware_bridge.link import Link

        for i, (url, offset) in enumerate(zip(self.config.port, self.map.offsets(), strict=True)):
            link = Link(url, cell_offset=offset, name=f"board {i + 1} ({url})" if len(self.config.port) > 1 else url,
                        states_in_events=True)
            self.links.append(link)
        self._open_panel()
        for i, link in enumerate(self.links):
            link.start()
            self._spawn(f"forward {link.name}", self._forward, i, link)
        self._spawn("controller", self._loop)
        self._show()
        return self

    def _spawn(self, name: str, target, *args) -> None:
        t = threading.Thread(target=target, args=args, name=name, daemon=True)
        t.start()
        self._threads.append(t)

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

        pins = {name: getattr(gpio, name) for name in ("confirm", "takeback", "menu", "led_ok", "led_attention",
                                                        "buzzer", "encoder_a", "encoder_b")}
        self.panel, reason = open_panel(pins, lambda word: self.inputs.put(("button", word)), gpio.pin_factory)
        if self.panel is None:
            print(f"chessery: no GPIO ({reason}); running without buttons, lights and buzzer", file=self.err)

    def _forward(self, index: int, link) -> None:
        """One path per port for events and state changes, so they reach the controller in the
        order the link produced them."""
        from firmware_bridge.events import LinkStatus

        while not self.stopping.is_set():
            try:
                item = link.events.get(timeout=0.2)
            except queue.Empty:
                continue
            if isinstance(item, LinkStatus):
                self.inputs.put(("link", index, item))
            elif item is _DRAINED:
                self.inputs.put(("drained", index))
            else:
                self.inputs.put(("sensor", index, item))

    def finish_when_at_rest(self) -> None:
        """Stop once everything the boards have sent so far is handled and the game is at rest
        (no deadline, nothing asked); for a scripted board that has played its script. Blocks
        until each link has answered a ping and a snapshot: every frame sent before them has
        then been handled, and a marker put on the link's queue now comes out after all their
        events (the forwarder is the queue's only reader)."""
        from firmware_bridge.events import LinkState
        from firmware_bridge.link import LinkError

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
                timeout = 0.5
                deadline = self._next_deadline()
                if deadline is not None:
                    timeout = max(0.0, (deadline - self.now()) / 1000)
                try:
                    item = self.inputs.get_nowait()
                except queue.Empty:
                    self.session.prepare()  # index the new position while the hands are away
                    try:
                        item = self.inputs.get(timeout=timeout)
                    except queue.Empty:
                        item = ("tick",)
                self._handle(item)
                # Drain what arrived meanwhile before redrawing: one frame per burst.
                while True:
                    try:
                        self._handle(self.inputs.get_nowait())
                    except queue.Empty:
                        break
                self._due()
                if self._finish_at_rest and self._at_rest():
                    self._handle(("quit",))
                self._show()
        except BaseException as exc:  # reported by run_service; the service must not hang
            self.error = exc
            log.exception("controller stopped")
            if self.window is not None:
                self.window.stop()
        finally:
            self.finished.set()

    def _next_deadline(self) -> int | None:
        d = self.session.deadline
        if self._answer_at is not None:
            d = self._answer_at if d is None else min(d, self._answer_at)
        return d

    def _due(self) -> None:
        now = self.now()
        if self.session.deadline is not None and now >= self.session.deadline:
            self._report(self.session.tick(now))
        self._maybe_answer()

    def _handle(self, item: tuple) -> None:
        kind = item[0]
        now = self.now()
        if kind == "sensor":
            _, index, ev = item
            self._track(index, ev)
            if not self._synced:
                return  # part of the board the first sync reads
            cell = self.map.cell_of[ev.cell] if 0 <= ev.cell < self.map.sensors else -1
            if cell < 0:
                return
            piece = 0
            if self.session.identity and ev.piece:
                from firmware_bridge.events import code_for_piece
                with contextlib.suppress(ValueError):
                    piece = code_for_piece(self.variant, ev.piece)
            t = self._event_time(index, ev, now)
            self._catch_up(t)
            self._report(self.session.event(Event(cell, ev.placed, t, piece, resync=ev.synthetic)))
        elif kind == "link":
            _, index, status = item
            self._link_state(index, status)
        elif kind == "drained":
            self._drained.add(item[1])
            self._finish_at_rest = len(self._drained) == len(self.links)
        elif kind == "button":
            self._report(self.session.button(item[1], now))
        elif kind == "touch":
            self._touch(item[1], now)
        elif kind == "quit":
            self._show()  # the last frame
            self.stopping.set()
            if self.window is not None:
                self.window.stop()
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

    def _touch(self, ev, now: int) -> None:
        from display.window import ChoiceClicked, QuitRequested

        if isinstance(ev, ChoiceClicked):
            try:
                self._report(self.session.answer(ev.key, now))
            except ValueError as exc:  # the question changed under the finger
                log.info("touch ignored: %s", exc)
        elif isinstance(ev, QuitRequested):
            self.stopping.set()

    def _link_state(self, index: int, status) -> None:
        from firmware_bridge.events import LinkState

        link = self.links[index]
        if status.occupancy is not None:
            self._boards[index] = (list(status.occupancy), list(status.pieces or (None,) * len(status.occupancy)))
        if status.state is LinkState.CONNECTED:
            first = index not in self._connected
            self._connected.add(index)
            if len(self._connected) == len(self.links):
                self._notice = ""
            if self.config.identity == "auto" and link.hello is not None:
                self.session.set_identity(link.hello.identity, self.now())
            if first and len(self._connected) == len(self.links):
                t = min(int((status.host_time - self._t0) * 1000), self.now())
                self._report(self.session.sync(self._readings(), t))
                self._synced = True
        elif status.state is LinkState.DISCONNECTED or (status.state is LinkState.CONNECTING
                                                         and index in self._connected):
            self._notice = f"Board disconnected ({link.name}): keep playing, it catches up when back"
        self._leds = None  # a reconnected board lost its lights

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
        if self.print_moves:
            for text in update.undone:
                print(f"undo {text}", file=self.out)
            for text in update.accepted:
                print(text, file=self.out)
            if update.undone or update.accepted:
                self.out.flush()
        if self.panel is not None and update.accepted:
            self.panel.beep("move")
        if self.on_update is not None:
            self.on_update(update)
        status = self.session.status
        if status != self._last_status:
            if self.print_moves and status.message and (self._last_status is None
                                                        or status.message != self._last_status.message):
                print(f"chessery: {status.message}", file=self.err)
            if self.panel is not None and status.kind == "ask":
                self.panel.beep("ask")
            if self.panel is not None and status.kind == "fix":
                self.panel.beep("error")
            self._last_status = status

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
                print(f"chessery: demo answer {answer!r} does not fit: {exc}", file=self.err)

    # -- output -------------------------------------------------------------------------------------
    def _show(self) -> None:
        status = self.session.status
        if self.window is not None:
            from .screen import view_of

            self.window.show(view_of(self.session, self._notice))
        if self.panel is not None:
            state = "waiting" if self._notice else "attention" if status.kind in ("ask", "fix") else "ok"
            if self.panel.state != state:
                self.panel.show(state)
        self._board_leds(status)
        if self.on_show is not None:
            self.on_show(status)

    def _board_leds(self, status) -> None:
        if not self.links:
            return
        fix = tuple(sorted(self.map.sensor_of[f.cell] for f in status.fixes if f.cell in self.map.sensor_of))
        pending = tuple(sorted(self.map.sensor_of[c] for c in status.cells if c in self.map.sensor_of)) \
            if status.kind == "ask" else ()
        want = (fix, pending)
        if want == self._leds:
            return
        self._leds = want
        for link in self.links:
            if link.hello is not None and not link.hello.leds:
                continue
            link.set_leds(fix, "blink")
            if pending:
                link.set_leds(pending, "on", replace=False)


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

    def __init__(self, variant: Variant, lines: list[str]) -> None:
        import subprocess
        import tempfile

        self._dir = tempfile.TemporaryDirectory(prefix="chessery-demo-")
        script = Path(self._dir.name) / "demo.txt"
        script.write_text("\n".join(lines) + "\n", encoding="utf-8")
        self.done = threading.Event()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "controller.cli", "sim-board", "--variant", variant.name, "--script", str(script),
             "--link", str(Path(self._dir.name) / "board")],
            stdout=subprocess.PIPE, text=True, cwd=Path(__file__).resolve().parent.parent)
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


def demo_script(variant: Variant, moves_text: str | None, watched: bool) -> list[str]:
    """The demo game's event script: the Opera game for chess, else a seeded random game."""
    from .event_scripts import OPERA_GAME, Style, random_game, script_for_moves

    if moves_text:
        moves = moves_text.split()
    elif variant.name == "chess":
        moves = list(OPERA_GAME)
    else:
        moves = random_game(variant, 60, seed=1)
    # Drags that barely rest on the squares they cross (shown as provisional readings on the way).
    style = Style(capture="alternate", castle="alternate", slide=True, slide_rest_ms=5,
                  think_ms=1500 if watched else 400, hand_ms=400 if watched else 120)
    return script_for_moves(variant, moves, style)


def run_service(args: argparse.Namespace) -> int:
    config = configure(args)
    variant = engine.find_variant(config.variant)
    layout = None
    if config.layout:
        from hardware.layout import load_layout

        layout = load_layout(config.layout)
    mode = config.display
    if mode == "windowed" and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        print("chessery: no screen (DISPLAY is not set): running headless", file=sys.stderr)
        mode = "headless"
    answers: list[str] = []
    board: DemoBoard | None = None
    demo_lines: list[str] = []
    if not config.port:
        demo_lines = demo_script(variant, args.demo_moves, watched=mode != "headless")
        answers = [line.split(None, 1)[1] for line in demo_lines if line.startswith("choose ")]
        if config.layout:
            print("chessery: the simulated board numbers its sensors by engine cell; --layout ignored", file=sys.stderr)
            layout = None
        config = replace(config, port=(), orientation=0)
    if args.answers:
        from firmware_bridge.script import Choose, load_script

        answers = [c.answer for c in load_script(args.answers, variant) if isinstance(c, Choose)]
    sensor_map = SensorMap(variant, layout, config.orientation, boards=max(1, len(config.port)))
    store = GameStore(config.db or None)
    logging.basicConfig(level=logging.WARNING, format="chessery: %(name)s: %(message)s",
                        filename=config.link_log or None)
    from display.window import Window

    frame = _frame_path(config) if mode == "headless" else None
    if frame is not None:
        frame.parent.mkdir(parents=True, exist_ok=True)
    if demo_lines:
        board = DemoBoard(variant, demo_lines)
        config = replace(config, port=(board.path,))
        print(f"chessery: demo game on a simulated board at {board.path}", file=sys.stderr)
    service = Service(config, variant, store, sensor_map, answers=answers,
                      answer_delay_ms=0 if mode == "headless" else DEMO_ANSWER_MS, print_moves=mode == "headless")
    window = Window(mode, config.size, snapshot=frame, title=f"Chessery: {variant.title}",
                    on_input=lambda ev: service.inputs.put(("touch", ev)))
    service.window = window
    if frame is not None:
        print(f"frame: {frame}", flush=True)
    stop_requested = threading.Event()

    def on_signal(signum: int, _frame: object) -> None:
        stop_requested.set()
        service.stopping.set()
        window.stop()

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
    if service.error is not None:
        raise service.error
    return 0


def _stop_when_demo_done(service: Service, board) -> None:
    """Headless demo: end once the script is played and the game has come to rest."""
    while not service.stopping.is_set():
        if board.done.wait(0.2):
            service.finish_when_at_rest()
            return
