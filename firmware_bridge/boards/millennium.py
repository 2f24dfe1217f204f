"""The Millennium ChessLink driver (ChessLink, Exclusive, eONE; 38400 baud 7O1); the wire
protocol is in ``millennium_codec``.

Greeting: ``V`` (version: the board is there), the settings (scan time; a report on every
change, within the scan that sees it), then ``S`` for the whole board. From then on the board sends
its whole board after every change; each report is compared with the model and the differences
are delivered as events (they are the board's own reports, so not synthetic). Replies are matched by
their letter, since reports arrive between any command and its reply. A garbled message (wrong
check digits) is dropped and the board asked with ``S`` at once.

Liveness: ``V`` every ``poll_ms``; silence or an I/O error ends the session and the driver
reconnects, then resynchronises from ``S``.

Settings: a ``W`` is confirmed only by an echo carrying the value written (an echo of the address
with another value is logged and the setting written again on the next poll). An ``R`` reply of
another shape than ``r``, address, value (third-party boards) is logged as far as it can be read
and the greeting goes on.

Parity: 7O1 is the UART's job; on a Bluetooth serial link (an ``rfcomm`` port, or
``soft_parity=True``) nothing supplies it, so the driver opens the line 8N1 and puts the odd parity
in bit 7 of each character it sends (``millennium_codec.with_odd_parity``); what it reads has
bit 7 stripped either way.

Lights: every ChessLink board has 81 LEDs at the square corners; a lit square lights its four
corners (``on`` steady, ``blink`` about twice a second, ``fast`` about eight times). No lights:
``X``.
"""

from __future__ import annotations

import collections
import logging
from typing import Any, ClassVar

import serial

from ..board_link import BoardHello
from . import millennium_codec as M
from .driver import BoardDriver

log = logging.getLogger(__name__)

#: Pattern -> LED bits (one bit per time slot, b7 first).
PATTERN_BITS = {"on": 0xFF, "blink": 0xF0, "fast": 0xAA}
#: The longest rest of a dragged piece on a square it crosses that is read as the slide going
#: on once the next player's hand is at work: a quick drag (docs/controller.md; the hand model's
#: quick drags rest up to 150 ms, ``tests/hand_model.py``).
QUICK_REST_MS = 150
#: Beyond that rest and one scan: the reader's and the line's part (a report takes 17 ms on the
#: line, but both reports of a rest alike).
DRAG_MARGIN_MS = 10
SLOT = 0x0F  # 15 x 4.096 ms = 61 ms per slot: "blink" is 4 slots on, 4 off (about 2 Hz)


class MillenniumDriver(BoardDriver):
    kind = "millennium"
    serial_options: ClassVar[dict[str, Any]] = {"baudrate": 38400, "bytesize": 7, "parity": "O", "stopbits": 1}

    def __init__(self, url: str, *, scan_time: int = 20, auto_report: int = M.AUTO_ON_CHANGE,
                 poll_ms: int = 1000, soft_parity: bool | None = None, **options: Any) -> None:
        """``scan_time``: units of 2.048 ms (20: 41 ms, the board's default; 15 the least).
        ``auto_report``: 3 (every change, as soon as a scan sees it) or 4..7 (a change seen by
        2..5 scans in a row). The default, 3, is the makers' advice for quick play (the host
        does the debouncing): a piece going on from a square is reported within one scan, so
        the referee can tell a piece at rest from one pausing on its way one scan and a quick
        drag's rest after its report (``drag_ms`` in the hello). A board debouncing for two scans would report a
        change two to three scans late, and a piece pausing on its way only once it had stood
        still again somewhere, however long its slide went on."""
        super().__init__(url, **options)
        #: Parity made here, not by a UART (a Bluetooth serial link: an rfcomm port).
        self.soft_parity = "rfcomm" in url.lower() if soft_parity is None else soft_parity
        self.scan_time = scan_time
        self.auto_report = auto_report
        self.poll_ms = poll_ms
        self._polled = 0.0
        self._status_asked: float | None = None
        self._settings_confirmed: set[int] = set()
        self._reads_pending: collections.deque[int] = collections.deque()  # R asked, oldest first
        #: The board's settings as first read (address -> value), before ours were written.
        self.found_settings: dict[int, int] = {}

    @property
    def scan_ms(self) -> float:
        return self.scan_time * M.SCAN_UNIT_MS

    @property
    def drag_ms(self) -> int:
        """The referee's drag wait on this board: a rest on a crossed square up to
        ``QUICK_REST_MS`` and one scan, and the margin (201 ms at the default 41 ms scan). The
        board reports a piece's arrival by the first scan after it came and its leaving by the
        first scan after it left, so a rest is reported up to one scan longer than it was: a
        quick drag resting 93 ms can be reported as 123 ms, which the two scans and 35 ms asked
        for before (117 ms) read as a move to that square once the next player's hand was on a
        man. Only moves that could slide on wait it; those that cannot are final at the
        referee's ``settle_ms``, within the goal of two scans + 50 ms."""
        if self.auto_report != M.AUTO_ON_CHANGE:
            return 0  # a debounced report says nothing so soon: the referee's own wait
        return round(QUICK_REST_MS + self.scan_ms + DRAG_MARGIN_MS)

    def _wanted(self) -> dict[int, int]:
        return {M.SETTING_SCAN_TIME: self.scan_time, M.SETTING_AUTO_REPORT: self.auto_report}

    def _new_reader(self) -> M.MillenniumReader:
        return M.MillenniumReader()

    def _greet(self, now: float) -> None:
        self._settings_confirmed.clear()
        self._send_ping(now)
        # The settings live in the board's EEPROM and outlast us: what the board had before is
        # read first and logged, for an owner who wants it back for other software.
        wanted = self._wanted()
        self._reads_pending.clear()
        for address in wanted:
            self._reads_pending.append(address)
            self._write(M.read_setting(address))
        for address, value in wanted.items():
            self._write(M.write_setting(address, value))
        self._ask_board(now)

    def _ask_board(self, now: float) -> None:
        self._status_asked = now
        self._write(M.command("S"))

    def _send_ping(self, now: float) -> None:
        self._polled = now
        self._write(M.command("V"))

    def _handle(self, message: M.MillenniumMessage, now: float) -> None:
        match message:
            case M.Status(pieces):
                self.counts["reports"] += 1
                self._status_asked = None
                self._board_read(pieces, now, synthetic=False)
            case M.Reply("v", data):
                if self.hello is None or self.hello.firmware != data:
                    self.hello = BoardHello("millennium", cells=64, identity=True, lights=True, drag_ms=self.drag_ms,
                                            firmware=data, heartbeat_ms=self.poll_ms)
                    self._push_leds()
                self._answered(now)
            case M.Reply("w", data):
                self._echoed(data)
            case M.Reply("r", data):
                self._setting_read(data)
            case M.Reply(letter, _):
                self.counts[f"reply_{letter}"] += 1

    def _echoed(self, data: str) -> None:
        """A ``w`` echo: the setting is confirmed when it carries the value written."""
        address, value = int(data[:2], 16), int(data[2:4], 16)
        wanted = self._wanted().get(address)
        if wanted is None or value == wanted:
            self._settings_confirmed.add(address)
            return
        self.counts["settings_not_taken"] += 1
        log.warning("%s: the board echoed setting %02X as %02X, not the %02X written; writing it again", self.name,
                    address, value, wanted)

    def _setting_read(self, data: str) -> None:
        """An ``r`` reply. The usual shape is the address and the value; a board of another make
        may answer the value alone (taken for the oldest setting asked) or more digits (the
        first two read as the value): logged as read, never a reason to stop."""
        if len(data) >= 4:
            address, value = int(data[:2], 16), int(data[2:4], 16)
        elif self._reads_pending:
            address, value = self._reads_pending[0], int(data, 16)
        else:
            self.counts["reply_r_other"] += 1
            log.info("%s: the board answered a setting read with r%s, which does not say which setting; going on",
                     self.name, data)
            return
        if len(data) != 4:
            self.counts["reply_r_other"] += 1
            log.info("%s: the board answered a setting read in another shape (r%s); read as setting %02X = %02X",
                     self.name, data, address, value)
        if address in self._reads_pending:
            self._reads_pending.remove(address)
        if address not in self.found_settings:  # (after a reconnect it reads ours)
            self.found_settings[address] = value
            log.info("%s: the board's setting %02X was %02X (now %02X)", self.name, address, value,
                     self._wanted().get(address, value))

    def _damaged(self, now: float) -> None:
        self.counts["bad_messages"] += 1
        self._ask_board(now)

    def _tick(self, now: float) -> None:
        if self._status_asked is not None and now - self._status_asked > self.retry_interval:
            self._ask_board(now)
        if now - self._polled > self.poll_ms / 1000:
            self._send_ping(now)
            for address, value in self._wanted().items():
                if address not in self._settings_confirmed:  # a garbled W: say it again
                    self._write(M.write_setting(address, value))

    def _open(self) -> serial.SerialBase:
        if not self.soft_parity:
            return super()._open()
        # The link carries 8-bit bytes as they are: the parity goes into bit 7 ourselves (_write).
        return serial.serial_for_url(self.url, timeout=self.read_timeout, write_timeout=1.0, baudrate=38400,
                                     bytesize=8, parity="N", stopbits=1)

    def _write(self, data: bytes) -> bool:
        return super()._write(M.with_odd_parity(data) if self.soft_parity else data)

    def _send_leds(self, wire: dict[int, str]) -> None:
        if not wire:
            self._write(M.command("X"))
            return
        leds = [0] * M.LED_COUNT
        for square, pattern in wire.items():
            for led in M.corner_leds(square):
                leds[led] |= PATTERN_BITS[pattern]
        self._write(M.leds_command(SLOT, leds))
