"""The DGT e-board driver (USB or serial, 9600 8N1); the wire protocol is in ``dgt_codec``.

Greeting: reset (idle), serial number, long serial number, version, a board dump, then "update
nice" mode (field updates, and the clock's messages when its times change: only in an update mode
does the board pass the clock's answers on), then the clock's version (``dgt_clock``: a DGT 3000
shows both times and the last move, its lever is the clock button; no clock, no difference).

Field updates are fed on as events at once: a board scans its 64 squares in turn (a full scan
takes 200-250 ms), so updates of one move can come in square order rather than in the order the
hands moved, and a piece dragged across the board reports the squares it passed. The referee's
inference reads them as it reads any sensor events. They are never trusted alone: once the
board has been quiet for ``quiet_ms`` (1 s) after an update, the driver asks for a dump and
delivers whatever differs as synthetic corrections. Not sooner: a dump holds the line for 70 ms,
and a field update of the next player's hand that falls in it waits behind it (asked one scan
after every move, 4 % of the real-time bench's field updates waited behind a dump or a reply,
up to 83 ms: docs/boards.md, Timing). A damaged message still asks for a dump at once.

The referee trusts that a piece rests where it was reported once the scan has come round to
that square again with no change (``Timing.scan_ms``): one scan after the report. So the driver
declares the board's scan period, learnt from when its field updates arrive (``dgt_scan``;
250 ms, the slowest DGT scan, until it knows), and keeps the line from the board free while a
report may be due: for one scan and :data:`REPORT_MARGIN_MS` after a field update it asks
nothing the board answers (a dump takes 70 ms on the line, a serial number 8 ms, and a field
update would wait behind them), and liveness polls and periodic dumps wait for it.

Liveness: the serial number is asked when nothing came from the board for ``poll_ms`` and no
dump is awaited (any message shows it alive, and a question asked while the hands are at work
only stands in front of their reports); a dump every ``check_ms`` (a field update lost whole leaves no other trace),
after the same quiet as the moves' dump, or after ``CHECK_ANYWAY`` such periods without one
as soon as no report is due; no message for ``silence_timeout`` or an I/O error ends the
session, and the driver reconnects and resynchronises from a dump.

Lights: only the Revelation II (the DGT board with square lights) is sent SET_LEDS. DGT defines
the long serial number as ten decimal characters, so a name in it cannot tell; the driver takes a
board to be one when its long serial number starts with a firmware version (``3.25...``, as the
Revelation II answers), when the port's name says ``REVII`` (the Bluetooth name PicoChess looks
for), or when the configuration says so (``dgt.revelation``, docs/configuration.md). Each SET_LEDS
lights a move's two squares (start and end field, not a range), so the lit squares go out in
pairs; on firmware newer than 3.21 "off" with start field 0x40 first clears every light. Firmware
up to 3.21 honours only "on": its lights could never be cleared, so the driver lights nothing on
it (and says so once). The board shows a square lit or dark: every pattern but ``off`` is steady.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any, ClassVar

from ..board_link import BoardHello, ClockSide
from . import dgt_codec as D
from .dgt_clock import DgtClockLine
from .dgt_scan import ScanPeriod
from .driver import BoardDriver

log = logging.getLogger(__name__)

#: After a field update, how long beyond one scan a report of the next visit may still come
#: (the line's 5 ms per update, the reader's wake-up).
REPORT_MARGIN_MS = 20
#: How long the board stays quiet after a field update before the driver checks the updates
#: against a dump (ms): well past a move's own reports, and past the quick replies of the
#: hand model (see the module's docstring).
QUIET_MS = 1000
#: Periodic checks put off by field updates (``check_ms`` each) before one is asked anyway.
CHECK_ANYWAY = 4
#: A field update is a timing measure when nothing came from the board for this long before it
#: (its own 5 bytes take 5.2 ms at 9600 baud: a shorter gap means it waited on the line).
IDLE_BEFORE_S = 0.008


class DgtDriver(BoardDriver):
    kind = "dgt"
    serial_options: ClassVar[dict[str, Any]] = {"baudrate": 9600, "bytesize": 8, "parity": "N", "stopbits": 1}

    def __init__(self, url: str, *, quiet_ms: int | None = None, poll_ms: int = 1000, check_ms: int = 3000,
                 revelation: bool | None = None, bluetooth: bool | None = None,
                 on_button: Callable[[str], None] | None = None, **options: Any) -> None:
        """``quiet_ms``: after the last field update, wait this long, then compare with a dump
        (default ``QUIET_MS``; never less than one scan and ``REPORT_MARGIN_MS``, which keeps
        the line free for the reports of a move's squares). ``poll_ms``: ask the serial number
        when nothing came from the board for this long (liveness). ``check_ms``: compare with a
        dump this often anyway (a field update lost whole leaves no other trace).
        ``revelation``: whether the board is a Revelation II (None: recognise it). ``bluetooth``:
        whether the port is a Bluetooth link, which halves the scan speed (None: an ``rfcomm``
        port is). ``on_button``: called with ``"clock"`` when the DGT clock's lever is pressed."""
        super().__init__(url, **options)
        self.quiet_ms = quiet_ms
        self.revelation = revelation
        self.bluetooth = "rfcomm" in url.lower() if bluetooth is None else bluetooth
        self.scan = ScanPeriod(half_speed=self.bluetooth)
        self.clock = DgtClockLine(self._write, on_button)
        self._said_no_lights = False
        self._heard_at = 0.0  # when the latest message from the board arrived
        self._updated_at: float | None = None  # ... the latest field update
        self.poll_ms = poll_ms
        self.check_ms = check_ms
        self._checked = 0.0
        self._dump_due: float | None = None  # when to check field updates against a dump
        self._dump_asked: float | None = None
        self._polled = 0.0
        self._serial_text = ""
        self._long_serial = ""
        self._version = ""
        self._firmware: tuple[int, int] | None = None

    def _new_reader(self) -> D.DgtReader:
        return D.DgtReader()

    def _greet(self, now: float) -> None:
        self._dump_due = None
        self._write(bytes((D.SEND_RESET, D.SEND_SERIALNR, D.RETURN_LONG_SERIALNR, D.SEND_VERSION)))
        self._ask_board(now)
        self._write(bytes((D.SEND_UPDATE_NICE,)))
        self.clock.probe(now)
        self._polled = now

    def _ask_board(self, now: float) -> None:
        self._dump_asked = self._checked = now
        self._write(bytes((D.SEND_BRD,)))

    def _send_ping(self, now: float) -> None:
        self._polled = now
        self._write(bytes((D.SEND_SERIALNR,)))

    @property
    def scan_ms(self) -> int:
        """The board's full scan period as far as the driver knows it (see ``dgt_scan``)."""
        return self.scan.ms

    def _quiet_s(self) -> float:
        """How long after a field update the board must stay quiet before a dump is asked (s)."""
        least = self.scan_ms + REPORT_MARGIN_MS
        return max(least, QUIET_MS if self.quiet_ms is None else self.quiet_ms) / 1000

    def _report_due(self, now: float) -> bool:
        """A field update may still come of a square's next visit after the latest report."""
        return self._updated_at is not None and now - self._updated_at < (self.scan_ms + REPORT_MARGIN_MS) / 1000

    def _handle(self, message: D.DgtMessage, now: float) -> None:
        idle = now - self._heard_at >= IDLE_BEFORE_S
        self._heard_at = now
        match message:
            case D.FieldUpdate(square, piece):
                self.counts["field_updates"] += 1
                if idle:
                    before = self.scan.ms
                    self.scan.observe(square, now * 1000)
                    if self.scan.ms != before and self.hello is not None:
                        self._update_info()
                self._square_changed(square, piece, now)
                self._updated_at = now
                self._dump_due = now + self._quiet_s()
            case D.BoardDump(pieces):
                self.counts["dumps"] += 1
                self._dump_asked = None
                self._board_read(pieces, now, synthetic=True)
            case D.SerialNumber(text, long):
                if long:
                    self._long_serial = text
                else:
                    self._serial_text = text
                self._update_info()
                self._answered(now)
            case D.Version(major, minor):
                self._version = f"{major}.{minor:02d}"
                self._firmware = (major, minor)
                self._update_info()
            case D.ClockTimes() | D.ClockAck():
                self.counts["clock_messages"] += 1
                self.clock.handle(message, now)
            case D.Other():
                self.counts["other_messages"] += 1

    @property
    def is_revelation(self) -> bool:
        if self.revelation is not None:
            return self.revelation
        return D.revelation_by_serial(self._long_serial) or "REVII" in self.url.upper()

    def _lights_usable(self) -> bool:
        """A Revelation II whose firmware can put its lights out again (newer than 3.21)."""
        if not self.is_revelation or self._firmware is None:
            return False
        if self._firmware < D.LEDS_CLEAR_FROM:
            if not self._said_no_lights:
                self._said_no_lights = True
                log.warning("%s: Revelation II firmware %s cannot clear its lights; lights not used", self.name,
                            self._version)
            return False
        return True

    def show_clock(self, left_ms: int, right_ms: int, running: ClockSide | None, move_text: str = "") -> None:
        """On a DGT clock plugged into the board: both times (the clock counts them), which side
        runs (``"left"``, ``"right"``, None), and the last move (DGT 3000). Nothing without a clock."""
        with self._lock:
            if self._serial is not None:
                now = time.monotonic()
                # The clock's answer would stand on the line in front of a field update's report.
                self.clock.show(left_ms, right_ms, running, move_text, now, hold=self._report_due(now))

    def _update_info(self) -> None:
        leds = self._lights_usable()
        had_leds = self.hello is not None and self.hello.lights
        number = int(self._serial_text) if self._serial_text.isdigit() else 0
        self.hello = BoardHello("dgt", cells=64, identity=True, lights=leds, scan_ms=self.scan_ms,
                                firmware=self._version, board_id=number, serial=self._long_serial or self._serial_text,
                                heartbeat_ms=self.poll_ms)
        if leds and not had_leds:
            self._push_leds()

    def _tick(self, now: float) -> None:
        if self._dump_due is not None and now >= self._dump_due:
            self._dump_due = None
            self._ask_board(now)
        if self._dump_asked is not None and now - self._dump_asked > self.retry_interval:
            self._ask_board(now)
        if self._report_due(now):
            return  # what the board answers would stand on the line in front of a report
        self.clock.tick(now)
        if self._dump_asked is None and now - max(self._polled, self._heard_at) > self.poll_ms / 1000:
            self._send_ping(now)  # (a dump being asked for shows the board alive as well)
        since = now - self._checked
        if since > self.check_ms / 1000 and self._dump_asked is None and (
                self._updated_at is None or now - self._updated_at >= self._quiet_s()
                or since > CHECK_ANYWAY * self.check_ms / 1000):
            self._ask_board(now)

    def _send_leds(self, wire: dict[int, str]) -> None:
        # Each command lights a start and an end square: the lit squares go two at a time.
        squares = sorted(wire)
        data = bytearray(D.leds_clear())
        for i in range(0, len(squares), 2):
            pair = squares[i:i + 2]
            data += D.leds_command(True, pair[0], pair[-1])
        self._write(bytes(data))
