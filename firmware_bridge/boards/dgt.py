"""The DGT e-board driver (USB or serial, 9600 8N1); the wire protocol is in ``dgt_codec``.

Greeting: reset (idle), serial number, long serial number, version, a board dump, then update
mode (field updates only; we have no use for the clock messages of "update nice").

Field updates are fed on as events at once: a board scans its 64 squares in turn (a full scan
takes 200-250 ms), so updates of one move can come in square order rather than in the order the
hands moved, and a piece dragged across the board reports the squares it passed. The referee's
inference reads them as it reads any sensor events. They are never trusted alone: once the
board has been quiet for ``quiet_ms`` after an update, the driver asks for a dump and delivers
whatever differs as synthetic corrections.

The referee trusts that a piece rests where it was reported once the scan has come round to
that square again with no change (``Timing.scan_ms``): one scan after the report. So the driver
declares the board's scan period, learnt from when its field updates arrive (``dgt_scan``;
250 ms, the slowest DGT scan, until it knows), and keeps the line from the board free while a
report may be due: for one scan and :data:`REPORT_MARGIN_MS` after a field update it asks
nothing the board answers (a dump takes 70 ms on the line, a serial number 8 ms, and a field
update would wait behind them), so the quiet dump comes after that and liveness polls and
periodic dumps wait for it.

Liveness: the serial number is asked every ``poll_ms`` (and a dump every ``check_ms``, since a
field update lost whole leaves no other trace); no message for ``silence_timeout`` or an
I/O error ends the session, and the driver reconnects and resynchronises from a dump.

Lights: only a board whose long serial number starts with ``REVII`` (the Revelation II, the DGT
board with square lights) is sent SET_LEDS; it shows a square lit or dark, so every pattern
other than ``off`` lights it steadily.
"""

from __future__ import annotations

import logging
from typing import Any, ClassVar

from ..board_link import BoardHello
from . import dgt_codec as D
from .dgt_scan import ScanPeriod
from .driver import BoardDriver

log = logging.getLogger(__name__)

#: After a field update, how long beyond one scan a report of the next visit may still come
#: (the line's 5 ms per update, the reader's wake-up).
REPORT_MARGIN_MS = 20
#: A field update is a timing measure when nothing came from the board for this long before it
#: (its own 5 bytes take 5.2 ms at 9600 baud: a shorter gap means it waited on the line).
IDLE_BEFORE_S = 0.008


class DgtDriver(BoardDriver):
    kind = "dgt"
    serial_options: ClassVar[dict[str, Any]] = {"baudrate": 9600, "bytesize": 8, "parity": "N", "stopbits": 1}

    def __init__(self, url: str, *, quiet_ms: int | None = None, poll_ms: int = 1000, check_ms: int = 3000,
                 **options: Any) -> None:
        """``quiet_ms``: after the last field update, wait this long, then compare with a dump
        (default: one scan and ``REPORT_MARGIN_MS``, the least that keeps the line free).
        ``poll_ms``: ask the serial number this often (liveness). ``check_ms``: compare with a
        dump this often anyway (a field update lost whole leaves no other trace)."""
        super().__init__(url, **options)
        self.quiet_ms = quiet_ms
        self.scan = ScanPeriod()
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

    def _new_reader(self) -> D.DgtReader:
        return D.DgtReader()

    def _greet(self, now: float) -> None:
        self._dump_due = None
        self._write(bytes((D.SEND_RESET, D.SEND_SERIALNR, D.RETURN_LONG_SERIALNR, D.SEND_VERSION)))
        self._ask_board(now)
        self._write(bytes((D.SEND_UPDATE_BRD,)))
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
                quiet = self.quiet_ms if self.quiet_ms is not None else self.scan_ms + REPORT_MARGIN_MS
                self._dump_due = now + quiet / 1000
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
                self._version = f"{major}.{minor}"
                self._update_info()
            case D.Other():
                self.counts["other_messages"] += 1

    def _update_info(self) -> None:
        leds = self._long_serial.upper().startswith("REVII")
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
        if now - self._polled > self.poll_ms / 1000:
            self._send_ping(now)
        if now - self._checked > self.check_ms / 1000 and self._dump_asked is None:
            self._ask_board(now)

    def _send_leds(self, wire: dict[int, str]) -> None:
        data = bytearray(D.leds_command(False, 0, 63))
        for square in sorted(wire):
            data += D.leds_command(True, square, square)
        self._write(bytes(data))
