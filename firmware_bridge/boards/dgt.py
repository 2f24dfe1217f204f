"""The DGT e-board driver (USB or serial, 9600 8N1); the wire protocol is in ``dgt_codec``.

Greeting: reset (idle), serial number, long serial number, version, a board dump, then update
mode (field updates only; we have no use for the clock messages of "update nice").

Field updates are fed on as events at once: a board scans its 64 squares in turn (a full scan
takes 200-250 ms), so updates of one move can come in square order rather than in the order the
hands moved, and a piece dragged across the board reports the squares it passed. The referee's
inference reads them as it reads any sensor events. They are never trusted alone: once the
board has been quiet for ``quiet_ms`` after an update, the driver asks for a dump and delivers
whatever differs as synthetic corrections.

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

from . import dgt_codec as D
from .driver import BoardDriver, BoardInfo

log = logging.getLogger(__name__)


class DgtDriver(BoardDriver):
    kind = "dgt"
    serial_options: ClassVar[dict[str, Any]] = {"baudrate": 9600, "bytesize": 8, "parity": "N", "stopbits": 1}

    #: The slowest full scan of a DGT board (200-250 ms): one scan's field updates come in square
    #: order, and a piece standing for less than a scan may never be reported.
    scan_ms = 250

    def __init__(self, url: str, *, quiet_ms: int = 60, poll_ms: int = 1000, check_ms: int = 3000,
                 **options: Any) -> None:
        """``quiet_ms``: after the last field update, wait this long, then compare with a dump.
        ``poll_ms``: ask the serial number this often (liveness). ``check_ms``: compare with a
        dump this often anyway (a field update lost whole leaves no other trace)."""
        super().__init__(url, **options)
        self.quiet_ms = quiet_ms
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

    def _handle(self, message: D.DgtMessage, now: float) -> None:
        match message:
            case D.FieldUpdate(square, piece):
                self.counts["field_updates"] += 1
                self._square_changed(square, piece, now)
                self._dump_due = now + self.quiet_ms / 1000
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
        had_leds = self.hello is not None and self.hello.leds
        number = int(self._serial_text) if self._serial_text.isdigit() else 0
        self.hello = BoardInfo("dgt", board_id=number, serial=self._long_serial or self._serial_text,
                               firmware=self._version, identity=True, leds=leds, heartbeat_ms=self.poll_ms,
                               scan_ms=self.scan_ms)
        if leds and not had_leds:
            self._push_leds()

    def _tick(self, now: float) -> None:
        if self._dump_due is not None and now >= self._dump_due:
            self._dump_due = None
            self._ask_board(now)
        if self._dump_asked is not None and now - self._dump_asked > self.retry_interval:
            self._ask_board(now)
        if now - self._polled > self.poll_ms / 1000:
            self._send_ping(now)
        if now - self._checked > self.check_ms / 1000 and self._dump_asked is None:
            self._ask_board(now)

    def _send_leds(self, wire: dict[int, str]) -> None:
        data = bytearray(D.leds_command(False, 0, 63))
        for square in sorted(wire):
            data += D.leds_command(True, square, square)
        self._write(bytes(data))
