"""What every host link to one board on one serial port shares, whatever the board speaks: one
reader thread owns the port, opens it by URL, runs one session per connection and reconnects
with back-off after an I/O error or a silence, logging an outage once; the life cycle and the
waiting the controller does. :class:`~firmware_bridge.link.Link` (our protocol) and
:class:`~firmware_bridge.boards.driver.BoardDriver` (DGT, Millennium) are its two kinds.

It implements the parts of :class:`~firmware_bridge.board_link.BoardLink` that do not depend on
the board's protocol: the life cycle, the state and its statuses, the waiting, and the model as
the controller reads it. A subclass implements ``_session(port)`` (greet, then read until the
port fails, which raises, the board goes silent, which returns the reason, or the link is
closed, which returns None), ``_picture`` (its model as occupancy and pieces) and
``_decode_errors``, and the board's commands; it may open the port its own way (``_open``).

States (``state``, the ``states`` queue and the optional ``on_state`` callback, which runs on the
reader thread and must not block): IDLE -> CONNECTING -> CONNECTED -> DISCONNECTED -> ... -> CLOSED
(IDLE -> DISCONNECTED when the device is not there at the start).

A consumer that needs states and events in one order (the controller: a CONNECTED status is its
baseline, and every later event applies on top of it) opens the link with ``states_in_events``:
each :class:`LinkStatus` is then also put on ``events``, after every event delivered before the
change and before every event after it, with the model as of that point. ``states`` and
``on_state`` are separate channels and cannot give that order.
"""

from __future__ import annotations

import contextlib
import logging
import queue
import threading
import time
from abc import abstractmethod
from collections import Counter
from collections.abc import Callable
from typing import ClassVar, Self

import serial

from .board_link import BoardHello, BoardLink
from .events import EventQueue, LinkState, LinkStatus


class PortLink(BoardLink):
    #: Where the reader thread's messages go (each kind logs under its own module's name).
    log: ClassVar[logging.Logger] = logging.getLogger(__name__)
    #: The outage reason when a session ends without one.
    session_end = "the session ended"

    def __init__(self, url: str, *, cell_offset: int, retry_interval: float, backoff: tuple[float, float],
                 read_timeout: float, on_state: Callable[[LinkStatus], None] | None, states_in_events: bool,
                 name: str | None) -> None:
        self.url = url
        self.name = name or url
        self.cell_offset = cell_offset
        self.retry_interval = retry_interval
        self.backoff = backoff
        self.read_timeout = read_timeout
        self.on_state = on_state
        self.states_in_events = states_in_events
        #: Why the link cannot reach the board, when it can tell ("" when none).
        self.problem = ""
        #: Unix time of the latest state change, and of the latest full report of the board
        #: (None: none yet).
        self.state_since = time.time()
        self.last_snapshot_at: float | None = None
        #: What the board said about itself.
        self.hello: BoardHello | None = None
        #: SensorEvent values for the controller, in order (and LinkStatus values with
        #: ``states_in_events``).
        self.events = EventQueue()
        #: (time.monotonic(), events.puts): every byte that reached the port before that moment
        #: has been read and its events queued (the first ``puts`` of them).
        self.drained: tuple[float, int] | None = None
        #: LinkStatus values, one per state change.
        self.states: queue.Queue[LinkStatus] = queue.Queue()
        self.stopping = threading.Event()
        self.counts: Counter[str] = Counter()
        self._lock = threading.RLock()
        self._changed = threading.Condition(self._lock)
        self._write_lock = threading.Lock()
        self._serial: serial.SerialBase | None = None
        self._state = LinkState.IDLE
        self._session_synced = False
        self._in_outage = False
        self._outage_since = 0.0
        self._thread: threading.Thread | None = None

    # -- life cycle -------------------------------------------------------------------------------
    def start(self) -> Self:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name=self._thread_name(), daemon=True)
            self._thread.start()
        return self

    def close(self, timeout: float = 2.0) -> None:
        """Stop the reader thread and close the port."""
        self.stopping.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout)
        self._set_state(LinkState.CLOSED, "closed")

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- what the controller reads ------------------------------------------------------------------
    @property
    def state(self) -> LinkState:
        return self._state

    def wait_connected(self, timeout: float | None = None) -> bool:
        """True once the link is in sync with a board (False on timeout or when closed)."""
        with self._changed:
            self._changed.wait_for(lambda: self._state in (LinkState.CONNECTED, LinkState.CLOSED), timeout)
            return self._state is LinkState.CONNECTED

    @property
    def cells(self) -> int:
        """Cells of the board (0 before the first full report)."""
        with self._lock:
            picture = self._picture()
            return 0 if picture is None else len(picture[0])

    def occupancy(self) -> tuple[bool, ...]:
        """The model now: occupied or not, per board cell (index + cell_offset = controller
        cell). It may already include events still queued in ``events``: a consumer of the
        queue takes its baseline from the CONNECTED ``LinkStatus`` instead."""
        with self._lock:
            picture = self._picture()
            return () if picture is None else picture[0]

    def pieces(self) -> tuple[str | None, ...]:
        """The model on identity boards: piece text per board cell (None: empty or unknown)."""
        with self._lock:
            picture = self._picture()
            return () if picture is None else picture[1]

    @property
    def stats(self) -> Counter[str]:
        with self._lock:
            return self.counts + self._decode_errors()

    @abstractmethod
    def _picture(self) -> tuple[tuple[bool, ...], tuple[str | None, ...]] | None:
        """The model as (occupancy, pieces) per board cell; None before the first full report
        (called with the lock held)."""
        raise NotImplementedError

    @abstractmethod
    def _decode_errors(self) -> Counter[str]:
        """The decoder's error classes, counted since the link opened (lock held)."""
        raise NotImplementedError

    # -- the reader thread ------------------------------------------------------------------------------
    def _run(self) -> None:
        delay = self.backoff[0]
        while not self.stopping.is_set():
            try:
                port = self._open()
            except ValueError as exc:  # a URL that can never be opened: no point retrying
                self.log.error("%s: cannot use %s: %s", self.name, self.url, exc)
                self._set_state(LinkState.CLOSED, f"bad port URL: {exc}")
                return
            except (serial.SerialException, OSError) as exc:
                self._outage(f"cannot open {self.url}: {exc}")
                if self.stopping.wait(delay):
                    break
                delay = min(delay * 2, self.backoff[1])
                continue
            try:
                reason = self._session(port)
            except (serial.SerialException, OSError) as exc:
                reason = f"lost {self.url}: {exc}"
            finally:
                with self._write_lock:
                    self._serial = None
                with contextlib.suppress(serial.SerialException, OSError):
                    port.close()
            if self.stopping.is_set():
                break
            delay = self.backoff[0] if self._session_synced else min(delay * 2, self.backoff[1])
            self._outage(reason or self.session_end)
            if self.stopping.wait(delay):
                break
        self._set_state(LinkState.CLOSED, "closed")

    def _thread_name(self) -> str:
        return f"link {self.name}"

    def _open(self) -> serial.SerialBase:
        return serial.serial_for_url(self.url, timeout=self.read_timeout, write_timeout=1.0)

    def _outage(self, reason: str) -> None:
        if not self._in_outage:
            self.log.warning("%s: %s; reconnecting with back-off (further failures are not logged)", self.name, reason)
            self._in_outage = True
            self._outage_since = time.monotonic()
        else:
            self.log.debug("%s: %s", self.name, reason)
        self._set_state(LinkState.DISCONNECTED, reason)

    @abstractmethod
    def _session(self, port: serial.SerialBase) -> str | None:
        raise NotImplementedError

    def _read_some(self, port: serial.SerialBase) -> tuple[float, bytes]:
        """What the port holds (or, when it holds nothing, up to one byte within the read
        timeout), and the moment the read began. An empty port marks ``drained`` at once: all
        read before then is handled, and a blocking read may follow. The session marks it
        again with :meth:`_handled` once it has handled what this read returned."""
        heard = time.monotonic()
        waiting = port.in_waiting
        if not waiting:
            self._handled(heard)
        return heard, port.read(waiting if waiting > 0 else 1)

    @staticmethod
    def _silent(port: serial.SerialBase, since: float, now: float, limit: float) -> bool:
        """Whether the board has said nothing for longer than ``limit`` (s) since ``since``.
        Bytes already waiting on the port say it did speak: only the host was slow to read them
        (a loaded machine, a process stopped or starved for seconds). Ending the session then
        would lose them (a port is flushed when it is opened again) and with them the moves the
        hands made meanwhile; they are read first."""
        return now - since > limit and not port.in_waiting

    def _handled(self, heard: float) -> None:
        """Every byte that reached the port before ``heard`` is read and its events queued."""
        self.drained = (heard, self.events.puts)

    def _set_state(self, state: LinkState, reason: str) -> None:
        with self._changed:
            previous = self._state
            if state is previous or previous is LinkState.CLOSED:
                return
            self._state = state
            self.state_since = time.time()
            if state is LinkState.CONNECTED:
                self.problem = ""
            self.log.info("%s: from %s to %s (%s)", self.name, previous.value, state.value, reason)
            self._emit(state, previous, reason)

    def _emit(self, state: LinkState, previous: LinkState, reason: str) -> None:
        """Tell a status (a state change, or a ``problem`` in an unchanged state) on every channel."""
        with self._changed:
            picture = self._picture()
            status = LinkStatus(state, previous, reason, time.monotonic(),
                                None if picture is None else picture[0], None if picture is None else picture[1],
                                problem=self.problem)
            self.states.put(status)
            if self.states_in_events:
                # Under the lock that every model change and event delivery holds: the status
                # lands between the events it reflects and the ones after it.
                self.events.put(status)
            self._changed.notify_all()
            if self.on_state is not None:
                self.on_state(status)

    # -- writing ------------------------------------------------------------------------------------------
    def _write(self, data: bytes) -> bool:
        with self._write_lock:
            port = self._serial
            if port is None:
                return False
            try:
                port.write(data)
                return True
            except (serial.SerialException, OSError) as exc:
                self.log.debug("%s: write failed: %s", self.name, exc)  # the reader thread notices and reconnects
                return False
