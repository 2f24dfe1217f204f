"""A DGT clock (DGT 3000, or the older XL) plugged into a DGT board, driven over the board's line
as PicoChess drives it: the clock counts both times itself once set (SETNRUN), shows the last
move as text for a moment (DGT 3000 only: the XL has no letters), and its lever is the referee's
clock button. Pure: bytes to send out, messages in; the driver writes and reads.

Facts (DGT's ``dgtbrd.h``): one clock command at a time, the next only after the acknowledgement
(it comes within a second or two, and only while the board is in an update mode); the version
acknowledgement carries the clock's version (main in the high nibble: 2 and up is a DGT 3000); a
times message with status bit 0x20 says no clock is plugged in; status bit 0x02 is the lever.

With no clock on the line nothing answers the version question: after :data:`PROBE_S` the clock
counts as absent and every later command is dropped, so a board without a clock works as before.
"""

from __future__ import annotations

import collections
import enum
import logging
from collections.abc import Callable

from ..board_link import ClockSide
from . import dgt_codec as D

log = logging.getLogger(__name__)

#: How long to wait for the clock's version before taking it to be absent, and for any
#: acknowledgement before sending the next command anyway.
PROBE_S = 2.0
ACK_WAIT_S = 2.0
#: How long the last move stays on a DGT 3000's display before the times come back.
MOVE_SHOWN_S = 2.0


class ClockState(enum.Enum):
    UNKNOWN = "unknown"
    ABSENT = "absent"
    PRESENT = "present"


class DgtClockLine:
    def __init__(self, write: Callable[[bytes], object], on_button: Callable[[str], None] | None = None) -> None:
        self._write = write
        self.on_button = on_button
        self.state = ClockState.UNKNOWN
        self.version: tuple[int, int] | None = None
        self._queue: collections.deque[bytes] = collections.deque()
        self._sent_at: float | None = None  # a command waits for its acknowledgement
        self._asked_at: float | None = None
        self._end_at: float | None = None  # when to bring the times back after a move's text
        self.lever_right_high: bool | None = None
        self.times: D.ClockTimes | None = None
        self.acks = 0
        self.failed_acks = 0

    @property
    def ascii(self) -> bool:
        """A DGT 3000 (letters on its display)."""
        return self.version is not None and self.version[0] >= 2

    def probe(self, now: float) -> None:
        """Ask the clock's version (the board must be in an update mode to answer)."""
        self.state = ClockState.UNKNOWN
        self._queue.clear()
        self._asked_at = now
        self._send(D.clock_command(D.CLOCK_VERSION), now)

    def show(self, left_ms: int, right_ms: int, running: ClockSide | None, move_text: str, now: float,
             hold: bool = False) -> None:
        """Both times, which side runs (``"left"``, ``"right"``, None: stopped), and the move just
        played on a DGT 3000's display for :data:`MOVE_SHOWN_S`. ``hold``: only queue it (the
        next :meth:`tick` sends it), while the board's line must stay free."""
        if self.state is ClockState.ABSENT:
            return
        flags = {"left": D.RUN_LEFT, "right": D.RUN_RIGHT}.get(running or "", D.RUN_PAUSE)
        self._queue.clear()  # what is still waiting is out of date
        self._queue.append(D.setnrun(left_ms, right_ms, flags))
        if move_text and self.ascii:
            self._queue.append(D.ascii_text(move_text))
            self._end_at = None
        if not hold:
            self._pump(now)

    def handle(self, message: D.ClockTimes | D.ClockAck, now: float) -> None:
        match message:
            case D.ClockAck() as ack:
                self.acks += 1
                if not ack.ok:
                    self.failed_acks += 1
                    log.warning("DGT clock: acknowledgement with error %s", ack)
                if ack.ack1 == D.CLOCK_VERSION:
                    self.version = (ack.ack2 >> 4, ack.ack2 & 0x0F)
                    if self.state is not ClockState.PRESENT:
                        log.info("DGT clock %d.%d on the board's line", *self.version)
                        # Its times (and the lever) now, so that the first press is seen as one.
                        self._write(bytes((D.SEND_CLK,)))
                    self.state = ClockState.PRESENT
                elif ack.ack1 == D.CLOCK_ASCII and ack.ok:
                    self._end_at = now + MOVE_SHOWN_S
                if ack.ack1 & 0x80 == 0:  # the answer to our command: the line is free for the next
                    self._sent_at = None
                    self._pump(now)
            case D.ClockTimes() as times:
                if not times.connected:
                    if self.state is not ClockState.ABSENT:
                        log.info("DGT board: no clock plugged in")
                    self.state = ClockState.ABSENT
                    self._queue.clear()
                    self._sent_at = None
                    return
                self.times = times
                if self.state is ClockState.UNKNOWN:
                    self.state = ClockState.PRESENT
                lever = times.right_high
                if self.lever_right_high is not None and lever != self.lever_right_high:
                    log.info("DGT clock: lever pressed")
                    if self.on_button is not None:
                        self.on_button("clock")
                self.lever_right_high = lever

    def tick(self, now: float) -> None:
        if self.state is ClockState.UNKNOWN and self._asked_at is not None and now - self._asked_at > PROBE_S:
            log.info("DGT board: no clock answered; running without one")
            self.state = ClockState.ABSENT
            self._queue.clear()
            self._sent_at = None
        if self._sent_at is not None and now - self._sent_at > ACK_WAIT_S:
            self.failed_acks += 1
            self._sent_at = None
            self._pump(now)
        if self._end_at is not None and now >= self._end_at:
            self._end_at = None
            self._queue.append(D.clock_command(D.CLOCK_END))
        self._pump(now)

    def _pump(self, now: float) -> None:
        if self._sent_at is None and self._queue and self.state is not ClockState.ABSENT:
            self._send(self._queue.popleft(), now)

    def _send(self, data: bytes, now: float) -> None:
        self._sent_at = now
        self._write(data)
