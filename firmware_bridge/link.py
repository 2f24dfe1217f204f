"""The host link: one sensor board on one serial port, kept in sync whatever the cable does.

    link = Link.open("/dev/ttyACM0")          # or loop://, socket://host:port, spy://PATH?file=dump
    link.wait_connected(5.0)
    event = link.events.get(timeout=1.0)       # SensorEvent, see events.py
    link.set_leds([12, 28], "blink")
    link.close()

Ports are opened only through ``serial.serial_for_url``. One reader thread owns the port: it
opens it, greets the board (PING, REQUEST_SNAPSHOT), decodes frames with the pure
:class:`~firmware_bridge.framer.Framer`, and puts :class:`SensorEvent` values on ``events``.

It keeps a model of the board and guarantees that the events it delivers, applied in order to
the first snapshot, always give the model, and that the model comes back to the board's true
state after any fault (a lost frame, an overflow, a reset, an event that does not fit):
:mod:`firmware_bridge.board_sync` holds the model and those rules. Beyond them:

* a port that fails (USB pulled) or a board that goes silent longer than ``silence_timeout``
  (default: four heartbeats) ends the session; the thread reopens the same URL with exponential
  back-off, logging the outage once, and the snapshot after reconnecting reports, as synthetic
  events, whatever the players did in the meantime;
* a board reset (a new ``boot_id`` in HELLO or HEARTBEAT) is handled like a reconnect, and the
  lights and parameters the host had set are sent again (:mod:`firmware_bridge.board_settings`).
* questions back off (:mod:`firmware_bridge.board_asks`): an unanswered PING or REQUEST_SNAPSHOT
  is asked again after ``retry_interval``, doubling up to ``retry_cap``, and a garbled answer
  brings the next ask forward; when frames keep being rejected the link says why, once,
  in ``problem`` and on a status (a board of another protocol version, a line that garbles
  everything, a board with another number of cells than ``expected_cells``).

States and their statuses (``state``, ``states``, ``on_state``, ``states_in_events``) are
:class:`~firmware_bridge.port_link.PortLink`'s, as every link to a board on a port has them.
"""

from __future__ import annotations

import dataclasses
import itertools
import logging
import time
from collections import Counter
from collections.abc import Callable, Iterable

import serial

from .board_asks import Asks
from .board_clock import BoardClock
from .board_link import BoardHello, LinkError
from .board_settings import LED_PATTERNS, BoardSettings, light_code
from .board_sync import BoardSync
from .codec import encode
from .events import LinkState, LinkStatus, SensorEvent, piece_text
from .firmware import protocol as P
from .framer import Framer
from .messages import Error, Event, Heartbeat, Hello, Message, Ping, RequestSnapshot, SetLeds, SetParams, Snapshot
from .port_link import PortLink

log = logging.getLogger(__name__)

#: Frames rejected in a row (across reconnects) while not in sync, before the link names the
#: cause (a board of another protocol version, a line that garbles everything).
UNREADABLE_FRAMES = 6


__all__ = ["LED_PATTERNS", "Link", "LinkError", "hello_of"]


def hello_of(hello: Hello) -> BoardHello:
    """Our board's HELLO frame as every link tells what its board said."""
    return BoardHello("chessery", cells=hello.cells, identity=hello.identity, lights=hello.leds,
                      scan_ms=hello.scan_ms, firmware=".".join(map(str, hello.firmware)), board_id=hello.board_id,
                      boot_id=hello.boot_id, heartbeat_ms=hello.heartbeat_ms)


class Link(PortLink):
    log = log
    def __init__(
        self,
        url: str,
        *,
        cell_offset: int = 0,
        silence_timeout: float | None = None,
        retry_interval: float = 0.5,
        backoff: tuple[float, float] = (0.05, 2.0),
        read_timeout: float = 0.02,
        baudrate: int = 115200,
        on_state: Callable[[LinkStatus], None] | None = None,
        states_in_events: bool = False,
        name: str | None = None,
        expected_cells: int | None = None,
        retry_cap: float = 4.0,
    ) -> None:
        """``url``: anything ``serial_for_url`` opens (a device path too). ``cell_offset`` is
        added to every cell number (two boards of one game on two ports). ``silence_timeout``
        (s): no valid frame for that long ends the session (default: four board heartbeats, at
        least 0.5 s). ``retry_interval`` (s): an unanswered PING or REQUEST_SNAPSHOT is sent
        again after it, then after twice as long each time it stays unanswered, up to
        ``retry_cap`` (s). ``backoff`` (s): first and longest wait between reconnect attempts.
        ``states_in_events``: put each LinkStatus on ``events`` too, in order with the events.
        ``expected_cells``: the board must announce this many cells (the layout's sensors); a
        board with another count is named as a ``problem`` and never reaches CONNECTED."""
        super().__init__(url, cell_offset=cell_offset, retry_interval=retry_interval, backoff=backoff,
                         read_timeout=read_timeout, on_state=on_state, states_in_events=states_in_events, name=name)
        self.silence_timeout = silence_timeout
        self.baudrate = baudrate
        self.expected_cells = expected_cells
        self._asks = Asks(retry_interval, retry_cap)
        # ``problem`` (PortLink): a board of another protocol version, every frame garbled, a
        # board of the wrong size; "" once in sync. ``counts``: frames, events, synthetic, gaps,
        # inconsistent, snapshots, resets, sessions, silences, board errors (board_<name>) and
        # the framer's error classes.
        #: The latest HELLO frame as the board sent it (``hello`` is what every link tells).
        self.hello_frame: Hello | None = None
        self._framer = Framer()
        self._sync = BoardSync(self.name, self.counts, self._deliver, self._hold)
        self._board_clock = BoardClock()
        self._tx_seq = itertools.count()
        self._tokens = itertools.cycle(range(1, 0x10000))
        self._hello_count = 0
        self._snapshot_count = 0
        self._answers: dict[int, float] = {}  # ping token -> when the HELLO answering it came
        self._session_hello = False
        self._rejects_in_a_row = 0  # frames rejected since the last good one, across reconnects
        self._restored_at = -1e9
        self._problems_logged: set[str] = set()
        self._settings = BoardSettings()

    # -- life cycle -------------------------------------------------------------------------------
    @classmethod
    def open(cls, url: str, **options) -> Link:
        """Create a link and start its reader thread (it connects in the background)."""
        return cls(url, **options).start()

    # start, close, state, wait_connected: PortLink's.

    # cells, occupancy, pieces, stats: PortLink's, from these two.
    def _picture(self) -> tuple[tuple[bool, ...], tuple[str | None, ...]] | None:
        model = self._sync.model
        if model is None:
            return None
        return tuple(bool(v) for v in model), tuple(piece_text(v) for v in model)

    def _decode_errors(self) -> Counter[str]:
        return self._framer.errors

    # -- commands -----------------------------------------------------------------------------------
    def request_snapshot(self, timeout: float = 2.0) -> tuple[bool, ...]:
        """Ask the board for all its cells and wait until the model is reconciled with them
        (differences arrive as synthetic events first). Returns the occupancy."""
        with self._changed:
            before = self._snapshot_count
            self._ask_snapshot(time.monotonic())
            if not self._changed.wait_for(lambda: self._snapshot_count > before, timeout):
                raise LinkError(f"{self.name}: no snapshot within {timeout} s")
            return self.occupancy()

    def ping(self, timeout: float = 1.0) -> float:
        """Round trip to the board in seconds (PING answered by HELLO)."""
        token = next(self._tokens)
        sent = time.monotonic()
        self._send(Ping(token), required=True)
        with self._changed:
            if not self._changed.wait_for(lambda: token in self._answers, timeout):
                raise LinkError(f"{self.name}: no answer to ping within {timeout} s")
            return self._answers.pop(token) - sent

    def set_leds(self, cells: Iterable[int], pattern: str | int = "on", replace: bool = True) -> None:
        """Light ``cells`` (controller numbering) with a pattern: off, on, blink, fast. With
        ``replace`` every other light goes off. Remembered and sent again after a reconnect or a
        board reset; cells outside this board (cell_offset) are ignored."""
        code = light_code(pattern)
        with self._lock:
            size = len(self._sync.model) if self._sync.model is not None else P.MAX_CELLS
            mine = sorted({c - self.cell_offset for c in cells if 0 <= c - self.cell_offset < size})
            self._settings.light(mine, code, replace)
            if self.hello is None or self.hello.lights:  # a board without lights is sent none
                self._send(SetLeds(code, tuple(mine), replace))

    def set_params(self, scan_ms: int | None = None, debounce_ms: int | None = None,
                   heartbeat_ms: int | None = None, timeout: float = 1.0) -> Hello:
        """Change the board's scan period, debounce time and heartbeat (ms); None keeps one.
        Returns the board's HELLO with the values now in force; remembered across resets."""
        params = SetParams(*(P.KEEP if v is None else v for v in (scan_ms, debounce_ms, heartbeat_ms)))
        with self._changed:
            self._settings.params = params
            before = self._hello_count
            self._send(params, required=True)
            if not self._changed.wait_for(lambda: self._hello_count > before, timeout):
                raise LinkError(f"{self.name}: the board did not confirm the parameters within {timeout} s")
            assert self.hello_frame is not None
            return self.hello_frame

    # -- the reader thread ------------------------------------------------------------------------------
    def _open(self) -> serial.SerialBase:
        return serial.serial_for_url(self.url, baudrate=self.baudrate, timeout=self.read_timeout, write_timeout=1.0)

    def _session(self, port: serial.SerialBase) -> str | None:
        """One connection: greet, then read until the port fails (raises), the board goes
        silent (returns the reason) or the link is closed (returns None)."""
        self.counts["sessions"] += 1
        self._framer.reset()
        with self._changed:
            if self._sync.new_session():
                self._changed.notify_all()
            self._board_clock.restart()  # the board may have restarted while away
            self._session_hello = False
            self._session_synced = False
            self._asks.snapshot_asked = None
            self._set_state(LinkState.CONNECTING, f"opened {self.url}")
        with self._write_lock:
            self._serial = port
        now = time.monotonic()
        self._asks.greeted(now)
        self._write(b"\x00" + self._frame(Ping(0)))  # the lone 0x00 ends any half-sent frame
        with self._lock:
            self._ask_snapshot(now)
        last_frame = now
        while not self.stopping.is_set():
            heard, data = self._read_some(port)
            now = time.monotonic()
            if data:
                errors = self._framer.error_total
                messages = self._framer.feed(data)
                if messages:
                    last_frame = now
                    self._rejects_in_a_row = 0
                with self._changed:
                    for message in messages:
                        self._handle(message, now)
                    if self._framer.error_total > errors:
                        self._rejects_in_a_row += self._framer.error_total - errors
                        self._damaged(now)
                    self._changed.notify_all()
            self._handled(heard)
            if self._silent(port, last_frame, now, self._silence_limit()):
                self.counts["silences"] += 1
                last_error = f" (last bad frame: {self._framer.last_error})" if self._framer.last_error else ""
                return f"no frame from the board for {now - last_frame:.1f} s{last_error}"
            self._retry(now)
        return None

    def _damaged(self, now: float) -> None:
        """A frame was garbled: if it may have been the answer we wait for, ask again sooner
        than the retry interval (long snapshots are the likeliest to be hit) -- but no sooner
        than a tenth of it, growing as the asks stay unanswered: a board of another protocol
        version or a line that garbles every frame must not turn each bad answer into two new
        questions."""
        if self._asks.snapshot_due(now, garbled=True):
            self._ask_snapshot(now)
        if not self._session_hello and self._asks.ping_due(now, garbled=True):
            self._send_ping(now)
        if self._rejects_in_a_row >= UNREADABLE_FRAMES and not (self._session_hello and self._session_synced):
            self._set_problem(self._framer.unreadable_reason())

    def _send_ping(self, now: float) -> None:
        self._asks.pinged(now)
        self._send(Ping(0))

    def _silence_limit(self) -> float:
        if self.silence_timeout is not None:
            return self.silence_timeout
        if self.hello is None:
            return 2.0
        return max(0.5, 4 * self.hello.heartbeat_ms / 1000)

    def _retry(self, now: float) -> None:
        if not self._session_hello and self._asks.ping_due(now):
            self._send_ping(now)
        with self._lock:
            if self._asks.snapshot_due(now):
                self._ask_snapshot(now)

    # -- frames from the board (reader thread, lock held) ----------------------------------------
    def _handle(self, message: Message, now: float) -> None:
        self.counts["frames"] += 1
        if self._sync.board_reset(message, now):
            self._session_hello = False  # restore lights and parameters on its HELLO
            self._board_clock.restart()
        if not self._sync.in_order(message, now):
            return  # a repeat
        if isinstance(message, Event | Snapshot | Heartbeat):
            self._board_clock.note(message.time_ms, round(now * 1000))
        match message:
            case Hello():
                self._on_hello(message, now)
            case Event():
                self._on_event(message, now)
            case Snapshot():
                self._on_snapshot(message, now)
            case Error():
                self._on_error(message, now)

    def _on_hello(self, hello: Hello, now: float) -> None:
        if self._sync.resized(hello.cells):
            # Events cannot be told as changes of the old model: a consumer takes a new baseline
            # from the CONNECTED status that the next snapshot brings.
            self._session_synced = False
            self._set_state(LinkState.CONNECTING, f"the board now has {hello.cells} cells")
            self._ask_snapshot(now)
        self.hello = hello_of(hello)
        self.hello_frame = hello
        self._hello_count += 1
        self._asks.hello_came()
        if hello.token:
            self._answers[hello.token] = now
            if len(self._answers) > 64:  # answers nobody waits for any more
                self._answers.pop(next(iter(self._answers)))
        if not self._session_hello:
            self._session_hello = True
            self._restore_settings()
        self._maybe_connected()

    def _on_event(self, event: Event, now: float) -> None:
        if self._sync.model is None:
            return  # before the first snapshot: it is part of the baseline that snapshot gives
        if self.problem and self._wrong_size():
            return  # a board we do not referee; a board of the right size brings a new baseline
        self._sync.event(event, now)

    def _hold(self, now: float) -> None:
        """Ask for a snapshot unless one is asked already (``BoardSync`` holds the events)."""
        if self._asks.snapshot_asked is None:
            self._ask_snapshot(now)

    def _on_snapshot(self, snapshot: Snapshot, now: float) -> None:
        self.counts["snapshots"] += 1
        self.last_snapshot_at = time.time()
        self._sync.snapshot(snapshot.states, now)
        self._asks.snapshot_came()
        self._snapshot_count += 1
        self._session_synced = True
        self._maybe_connected()

    def _on_error(self, error: Error, now: float) -> None:
        self.counts[f"board_{error.name}"] += 1
        if error.code == P.ERR_OVERFLOW:
            log.warning("%s: the board lost events (output overflow); requesting a snapshot", self.name)
            self._sync.hold(now)
        elif error.code in (P.ERR_BAD_CRC, P.ERR_TRUNCATED):
            # A garbled command may have been lights: send them again, but not once per error,
            # or a line that garbles every command would echo each error with new commands.
            if now - self._restored_at >= self.retry_interval:
                self._restored_at = now
                self._restore_settings()
        else:
            log.warning("%s: the board rejected a frame: %s (seq %d)", self.name, error.name, error.ref_seq)

    def _deliver(self, cell: int, action: str, piece: int, now: float, event: Event | None) -> None:
        self.counts["synthetic" if event is None else "events"] += 1
        self.events.put(SensorEvent(
            cell=cell + self.cell_offset, action=action, piece=piece_text(piece),
            board_ms=None if event is None else event.time_ms, host_time=now,
            changed_at=None if event is None else self._changed_at(event.time_ms),
            synthetic=event is None, seq=None if event is None else event.seq))

    def _changed_at(self, board_ms: int) -> float | None:
        host_ms = self._board_clock.host_ms(board_ms)
        return None if host_ms is None else host_ms / 1000

    def _maybe_connected(self) -> None:
        if self._session_hello and self._session_synced and self._state is not LinkState.CONNECTED:
            if self._wrong_size():
                return
            if self._in_outage:
                log.warning("%s: back after %.1f s", self.name, time.monotonic() - self._outage_since)
                self._in_outage = False
            self._set_state(LinkState.CONNECTED, f"in sync with board {self.hello.board_id:08x}" if self.hello else "")

    def _wrong_size(self) -> bool:
        """A board whose HELLO announces another number of cells than the layout has sensors:
        named once, and the link stays out of sync until a board of the right size answers."""
        if self.expected_cells is None or self.hello is None or self.hello.cells == self.expected_cells:
            return False
        self._set_problem(f"the board has {self.hello.cells} cells but the layout has {self.expected_cells} "
                          f"sensors: check --variant/--layout, or the board's firmware")
        return True

    def _ask_snapshot(self, now: float) -> None:
        self._asks.snapshot_sent(now)
        self._send(RequestSnapshot())

    def _restore_settings(self) -> None:
        for message in self._settings.restore(self.hello is None or self.hello.lights):
            self._send(message)

    # -- writing ------------------------------------------------------------------------------------------
    def _frame(self, message: Message) -> bytes:
        return encode(_with_seq(message, next(self._tx_seq) & 0xFFFF))

    def _send(self, message: Message, required: bool = False) -> None:
        if not self._write(self._frame(message)) and required:
            raise LinkError(f"{self.name}: not connected")

    def _set_problem(self, problem: str) -> None:
        """Name why the board cannot be reached: logged once per link (it may last through many
        reconnects), and told to the consumer as a status whose state has not changed."""
        with self._changed:
            if problem == self.problem or self._state is LinkState.CLOSED:
                return
            self.problem = problem
            if problem not in self._problems_logged:
                self._problems_logged.add(problem)
                log.error("%s: %s", self.name, problem)
            self._emit(self._state, self._state, problem)

    # _set_state, _emit: PortLink's.


def _with_seq(message: Message, seq: int) -> Message:
    return dataclasses.replace(message, seq=seq)
