"""What every board driver shares: the host link's interface (see ``firmware_bridge.link``) over a
board that reads piece identity on 64 squares and speaks its maker's protocol.

A driver implements :class:`~firmware_bridge.board_link.BoardLink`, as our own
:class:`~firmware_bridge.link.Link` does: the same ``events`` queue of :class:`SensorEvent` and
:class:`LinkStatus` values (with ``states_in_events``), ``hello`` (a
:class:`~firmware_bridge.board_link.BoardHello` saying whether the board reads pieces and has
announced lights), ``request_snapshot``, ``ping``, ``set_leds``... So the controller has no
per-board code.

The model is kept as the link's is: events delivered in order, applied to the CONNECTED status's
board, always give the model; whenever the board's own full report (a dump, a status) differs
from the model, the differences are delivered (in an order hands can make: ``hand_order``) and
the model adopts the board's word. Cells are in Chessery's 8x8 numbering (a1 = 0, b1 = 1, ... h8 = 63, plus
``cell_offset``); both makers number the wire from a8, and a board turned round is recognised
from the start position (see :meth:`BoardDriver._orient`).

One reader thread owns the port (the reconnect loop is :class:`~firmware_bridge.port_link.PortLink`'s,
shared with Link): it opens it through ``serial.serial_for_url`` with the board's
line settings, greets the board, and reconnects with back-off after an I/O error or a silence
longer than ``silence_timeout``; the first full report after a reconnect tells, as synthetic
events, whatever the players did meanwhile.
"""

from __future__ import annotations

import logging
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Any, ClassVar

import serial

from ..board_link import LIGHT_PATTERNS, BoardKind, LightPattern, LinkError
from ..events import LIFT, PLACE, LinkState, LinkStatus, SensorEvent
from ..port_link import PortLink
from .hand_order import hand_order

log = logging.getLogger(__name__)

try:
    import termios

    _TERMIOS_ERRORS: tuple[type[Exception], ...] = (termios.error,)
except ImportError:  # not a POSIX system
    _TERMIOS_ERRORS = ()

SQUARES = 64
#: The start position by wire square (0 = a8): what a board placed as printed shows.
START_WIRE: tuple[str | None, ...] = (
    tuple("rnbqkbnr") + tuple("p" * 8) + (None,) * 32 + tuple("P" * 8) + tuple("RNBQKBNR"))


def wire_to_cell(square: int) -> int:
    """Wire square (0 = a8, 7 = h8, 63 = h1) -> Chessery cell (0 = a1, 63 = h8)."""
    return (7 - square // 8) * 8 + square % 8


def cell_to_wire(cell: int) -> int:
    return (7 - cell // 8) * 8 + cell % 8


class BoardDriver(PortLink):
    """Base of the DGT and Millennium drivers. Subclasses set ``kind`` and ``serial_options`` and
    implement ``_new_reader``, ``_greet``, ``_handle``, ``_tick``, ``_ask_board``, ``_send_ping``
    and ``_send_leds``; they report what the board says through ``_board_read`` (a full board),
    ``_square_changed`` (one square) and ``_answered`` (any reply: the board is alive)."""

    kind: ClassVar[BoardKind]
    serial_options: ClassVar[dict[str, Any]] = {}
    log = log
    session_end = "closed"

    def __init__(self, url: str, *, cell_offset: int = 0, silence_timeout: float = 3.0,
                 retry_interval: float = 0.5, backoff: tuple[float, float] = (0.05, 2.0),
                 read_timeout: float = 0.01, on_state: Callable[[LinkStatus], None] | None = None,
                 states_in_events: bool = False, name: str | None = None) -> None:
        super().__init__(url, cell_offset=cell_offset, retry_interval=retry_interval, backoff=backoff,
                         read_timeout=read_timeout, on_state=on_state, states_in_events=states_in_events, name=name)
        self.silence_timeout = silence_timeout
        #: None until decided; True when the board stands turned round (a8 wired where h1 is).
        self.flipped: bool | None = None
        #: What the board should show (this board's cells, a1 = 0), when a game is resumed.
        self._expected: tuple[str | None, ...] | None = None
        self._model: list[str | None] | None = None
        self._reader = self._new_reader()
        self._reads = 0  # full board reports handled
        self._replies = 0  # answers to ping
        self._session_answered = False
        self._leds: dict[int, str] = {}  # cell (this board) -> pattern
        #: Host time of the board's latest report of any square change (for latency numbers).
        self.last_report = 0.0
        #: The cell (this board) where a piece was last put down, as delivered (``hand_order``).
        self._last_placed: int | None = None

    # start, close, state, wait_connected: PortLink's.

    # -- what the controller reads (cells, occupancy, pieces, stats: PortLink's) --------------------
    def _picture(self) -> tuple[tuple[bool, ...], tuple[str | None, ...]] | None:
        model = self._model
        if model is None:
            return None
        return tuple(p is not None for p in model), tuple(model)

    def _decode_errors(self) -> Counter[str]:
        return Counter(self._reader.errors)

    # -- commands -----------------------------------------------------------------------------------
    def request_snapshot(self, timeout: float = 2.0) -> tuple[bool, ...]:
        """Ask for the whole board and wait until the model agrees with it (differences arrive
        as synthetic events first)."""
        with self._changed:
            if self._serial is None:
                raise LinkError(f"{self.name}: not connected")
            before = self._reads
            self._ask_board(time.monotonic())
            if not self._changed.wait_for(lambda: self._reads > before, timeout):
                raise LinkError(f"{self.name}: no board report within {timeout} s")
            return self.occupancy()

    def ping(self, timeout: float = 1.0) -> float:
        """Round trip (s) of the board's cheapest question."""
        with self._changed:
            if self._serial is None:
                raise LinkError(f"{self.name}: not connected")
            before = self._replies
            sent = time.monotonic()
            self._send_ping(sent)
            if not self._changed.wait_for(lambda: self._replies > before, timeout):
                raise LinkError(f"{self.name}: no answer within {timeout} s")
            return time.monotonic() - sent

    def set_leds(self, cells: Iterable[int], pattern: LightPattern = "on", replace: bool = True) -> None:
        """Light ``cells`` (controller numbering). Does nothing on a board that has not
        announced lights; remembered and sent again after a reconnect."""
        if pattern not in LIGHT_PATTERNS:
            raise ValueError(f"unknown light pattern {pattern!r} (expected one of {', '.join(LIGHT_PATTERNS)})")
        with self._lock:
            mine = {c - self.cell_offset for c in cells if 0 <= c - self.cell_offset < SQUARES}
            if replace:
                self._leds.clear()
            for cell in mine:
                if pattern == "off":
                    self._leds.pop(cell, None)
                else:
                    self._leds[cell] = pattern
            self._push_leds()

    def _push_leds(self) -> None:
        if self.hello is None or not self.hello.lights or self._serial is None:
            return
        flip = bool(self.flipped)
        self._send_leds({cell_to_wire(63 - c if flip else c): p for c, p in self._leds.items()})

    # -- subclass hooks -------------------------------------------------------------------------------
    def _new_reader(self) -> Any:
        raise NotImplementedError

    def _greet(self, now: float) -> None:
        raise NotImplementedError

    def _handle(self, message: Any, now: float) -> None:
        raise NotImplementedError

    def _tick(self, now: float) -> None:
        """Called about every read timeout: polls, retries, deferred requests."""

    def _ask_board(self, now: float) -> None:
        raise NotImplementedError

    def _send_ping(self, now: float) -> None:
        raise NotImplementedError

    def _send_leds(self, wire: dict[int, str]) -> None:
        raise NotImplementedError

    def _damaged(self, now: float) -> None:
        """The reader threw bytes away: something the board said may be lost."""
        self._ask_board(now)

    # -- what subclasses report (reader thread, lock held) ----------------------------------------------
    def _answered(self, now: float) -> None:
        self._replies += 1
        if not self._session_answered:
            self._session_answered = True
            self._maybe_connected()

    def expect_position(self, pieces: Sequence[str | None]) -> None:
        """The position a resumed game stands at (this board's 64 cells, a1 = 0): the first
        report is read whichever way round matches it better, so a board turned round (a
        Millennium with its cable on the right sends h1 first) is not read mirrored on resume.
        (:meth:`BoardLink.expect_position`; DGT and Millennium boards both need it.)"""
        with self._lock:
            self._expected = tuple(pieces)

    def _orient(self, wire: Sequence[str | None]) -> None:
        """Decide once whether the board is turned round: from the first report showing the start
        position either way round, else from the resumed game's position (``expect_position``),
        whichever way matches more squares; otherwise it counts as wired."""
        if self.flipped is not None:
            return
        if tuple(wire) == START_WIRE:
            self.flipped = False
        elif tuple(reversed(wire)) == START_WIRE:
            self.flipped = True
        elif self._expected is not None and len(self._expected) == SQUARES:
            expected = self._expected
            wired = sum(wire[cell_to_wire(c)] == expected[c] for c in range(SQUARES))
            turned = sum(wire[63 - cell_to_wire(c)] == expected[c] for c in range(SQUARES))
            if turned != wired:
                self.flipped = turned > wired
                log.info("%s: the resumed game's position matches the board read %s (%d of 64 squares, %d the "
                         "other way)", self.name, "turned round" if self.flipped else "as wired",
                         max(wired, turned), min(wired, turned))
        if self.flipped:
            log.warning("%s: the board stands turned round (white on the 7th and 8th ranks as wired); "
                        "reading it that way", self.name)

    def _to_cells(self, wire: Sequence[str | None]) -> list[str | None]:
        cells: list[str | None] = [None] * SQUARES
        for square, piece in enumerate(wire):
            cell = wire_to_cell(square)
            cells[63 - cell if self.flipped else cell] = piece
        return cells

    def _board_read(self, wire: Sequence[str | None], now: float, *, synthetic: bool) -> None:
        """A full report of the board (wire order). ``synthetic``: its differences from the
        model are corrections (a dump checking field updates, a report after a reconnect), not
        the board's own report of a change."""
        first = self._model is None
        if first:
            self._orient(wire)
        cells = self._to_cells(wire)
        if first:
            self._model = cells
        else:
            assert self._model is not None
            changed = self._reconcile(cells, now, synthetic=synthetic or not self._session_synced)
            if changed:
                self.last_report = now
        self._reads += 1
        self.last_snapshot_at = time.time()
        self._session_synced = True
        self._maybe_connected()

    def _square_changed(self, square: int, piece: str | None, now: float) -> None:
        """One square's new content, as the board reported it."""
        if self._model is None or not self._session_synced:
            return  # the full report being waited for includes it
        self.last_report = now
        cell = wire_to_cell(square)
        if self.flipped:
            cell = 63 - cell
        old = self._model[cell]
        if old == piece:
            self.counts["repeats"] += 1
            return
        if old is not None:
            self._deliver(cell, LIFT, old, now, synthetic=False)
        if piece is not None:
            self._deliver(cell, PLACE, piece, now, synthetic=False)
        self._model[cell] = piece

    def _reconcile(self, cells: list[str | None], now: float, *, synthetic: bool) -> bool:
        model = self._model
        assert model is not None
        # One report's changes carry no order: deliver them in one hands can make (hand_order).
        changes = hand_order(model, cells, self._last_placed)
        for cell, action, piece in changes:
            self._deliver(cell, action, piece, now, synthetic=synthetic)
        model[:] = cells
        if synthetic and changes:
            self.counts["corrections"] += 1
        return bool(changes)

    def _deliver(self, cell: int, action: str, piece: str | None, now: float, *, synthetic: bool) -> None:
        self.counts["synthetic" if synthetic else "events"] += 1
        if action == PLACE:
            self._last_placed = cell
        self.events.put(SensorEvent(cell=cell + self.cell_offset, action=action, piece=piece, board_ms=None,
                                    host_time=now, synthetic=synthetic, seq=None))

    # -- the reader thread ------------------------------------------------------------------------------
    def _thread_name(self) -> str:
        return f"{self.kind} {self.name}"

    def _open(self) -> serial.SerialBase:
        try:
            return serial.serial_for_url(self.url, timeout=self.read_timeout, write_timeout=1.0, **self.serial_options)
        except _TERMIOS_ERRORS as exc:
            # Linux refuses (EINVAL) to set 7 bits with parity again on a pseudo-terminal that
            # already has them, as when the emulator's pty is reopened after a silence; opening
            # it once with the defaults clears that. A real serial device never gets here.
            log.debug("%s: %s; opening with the default line settings first", self.name, exc)
            try:
                serial.serial_for_url(self.url, timeout=self.read_timeout).close()
                return serial.serial_for_url(self.url, timeout=self.read_timeout, write_timeout=1.0,
                                             **self.serial_options)
            except _TERMIOS_ERRORS as again:
                raise serial.SerialException(f"cannot set the line up: {again}") from None

    def _session(self, port: serial.SerialBase) -> str | None:
        self.counts["sessions"] += 1
        self._reader.reset()
        with self._changed:
            self._session_synced = False
            self._session_answered = False
            self._set_state(LinkState.CONNECTING, f"opened {self.url}")
        with self._write_lock:
            self._serial = port
        now = time.monotonic()
        with self._lock:
            self._greet(now)
        last_heard = now
        while not self.stopping.is_set():
            heard, data = self._read_some(port)
            now = time.monotonic()
            with self._changed:
                if data:
                    errors = self._reader.error_total
                    messages = self._reader.feed(data)
                    if messages:
                        last_heard = now
                    for message in messages:
                        self.counts["messages"] += 1
                        self._handle(message, now)
                    if self._reader.error_total > errors:
                        self._damaged(now)
                self._tick(now)
                self._changed.notify_all()
            self._handled(heard)
            if self._silent(port, last_heard, now, self.silence_timeout):
                self.counts["silences"] += 1
                return f"no answer from the board for {now - last_heard:.1f} s"
        return None

    def _maybe_connected(self) -> None:
        if self._session_answered and self._session_synced and self._state is not LinkState.CONNECTED:
            if self._in_outage:
                log.warning("%s: back after %.1f s", self.name, time.monotonic() - self._outage_since)
                self._in_outage = False
            self._set_state(LinkState.CONNECTED, f"in sync with the {self.kind} board")
            self._push_leds()  # a board that was away lost its lights

    # _set_state, _emit: PortLink's.
