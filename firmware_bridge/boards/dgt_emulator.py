"""The DGT e-board emulator (see ``board_emulator`` and docs/boards.md), with an optional DGT clock
plugged into it.

As a real board answers (DGT's ``dgtbrd.h``; written from it, not from the driver's codec):

* Single command bytes; ``SET_LEDS`` (Revelation II) carries four more bytes, and a clock message
  (``0x2B``) carries the count of the bytes after it: the board reads them whole, so the bytes of
  a clock text are never taken for commands.
* ``SET_LEDS`` lights its start and end squares (a move's two squares, not a range). Firmware up
  to 3.21 honours only pattern 0x01; newer firmware also puts lights out, all of them when the
  start field is 0x40.
* The long serial number is ten characters: digits on a plain board; on a Revelation II its
  firmware version first (``3.25`` and six digits).
* Clock commands reach the clock when one is plugged in; in the update modes (``0x43``, ``0x4B``)
  the board passes the clock's acknowledgement on as a ``BWTIME`` message, and in those modes the
  clock's times too (``0x4B``: when they change). The clock counts the running side down once set
  (SETNRUN), shows text (DGT 3000) until told to end it, and its lever flips on :meth:`press_lever`.
"""

from __future__ import annotations

from .board_emulator import BoardEmulator

FEN_ORDER = "PRNBKQprnbkq"  # the DGT piece codes 1..12, in this order


def _bcd(n: int) -> int:
    return (n // 10) << 4 | n % 10


class DgtEmulator(BoardEmulator):
    """A DGT e-board: single-byte commands, messages ``id|0x80, size>>7, size&0x7F, payload``."""

    protocol = "dgt"
    default_scan_ms = 220.0
    bits_per_byte_ms = 10 / 9.6  # 9600 baud, 8N1

    def __init__(self, variant: str = "chess", *, revelation: bool = False, serial: str = "12345",
                 firmware: tuple[int, int] | None = None, clock: tuple[int, int] | None = None, **options) -> None:
        """``revelation``: a Revelation II (square lights). ``firmware``: the board's version
        (default 3.25 for a Revelation II, else 3.01).
        ``clock``: the version of a DGT clock plugged in (``(2, 2)``: a DGT 3000; None: none)."""
        super().__init__(variant, **options)
        self.revelation = revelation
        self.serial = serial
        self.firmware = firmware or ((3, 25) if revelation else (3, 1))
        self.clock = clock
        self.update_mode = 0  # 0: idle, else the command that set the mode (0x43, 0x44, 0x4B)
        self.lit: set[int] = set()  # squares lit (Revelation II)
        self.led_commands = 0  # SET_LEDS commands received, whatever the board
        self.clock_commands: list[tuple[int, bytes]] = []  # (command, data) of each clock message
        self.clock_text = ""  # what a DGT 3000 shows instead of the times ("" : the times)
        self.clock_ms = [0.0, 0.0]  # left, right
        self.clock_running = 0  # 0x01 left, 0x02 right, else stopped
        self.lever_right_high = False
        self._clock_last = 0.0
        self._clock_shown: tuple[int, int, bool] | None = None
        self._pending = bytearray()
        self._scan_pos = 0.0  # squares scanned since boot (fractional)
        self._last_scan_at = 0.0

    def _boot(self, now: float) -> None:
        super()._boot(now)
        self.update_mode = 0
        self.lit.clear()
        self._pending.clear()
        self._last_scan_at = now

    @staticmethod
    def _message(code: int, payload: bytes) -> bytes:
        size = 3 + len(payload)
        return bytes((0x80 | code, size >> 7, size & 0x7F)) + payload

    def _piece_code(self, piece: str | None) -> int:
        return 0 if piece is None else 1 + FEN_ORDER.index(piece)

    def long_serial(self) -> str:
        digits = "".join(ch for ch in self.serial if ch.isdigit())
        if self.revelation:
            major, minor = self.firmware
            return f"{major}.{minor:02d}" + digits.rjust(6, "0")[-6:]
        return digits.rjust(10, "0")[-10:]

    def press_lever(self) -> None:
        """A player presses the clock's lever (it flips to the other side)."""
        with self._lock:
            self.lever_right_high = not self.lever_right_high
            self._send_times(force=True)

    def _from_host(self, data: bytes, now: float) -> None:
        self._pending += data
        while self._pending:
            cmd = self._pending[0]
            if cmd == 0x60:  # SET_LEDS: 0x60 0x04 pattern start end 0x00
                if len(self._pending) < 6:
                    return
                _, _, pattern, start, end, _ = self._pending[:6]
                del self._pending[:6]
                self.led_commands += 1
                if self.revelation:
                    self._leds(pattern, start, end)
                continue
            if cmd == 0x2B:  # clock message: 0x2B size 0x03 command data... 0x00
                if len(self._pending) < 2 or len(self._pending) < 2 + self._pending[1]:
                    return
                size = self._pending[1]
                body = bytes(self._pending[2:2 + size])
                del self._pending[:2 + size]
                if size >= 3 and body[0] == 0x03 and body[-1] == 0x00:
                    self._clock_command(body[1], body[2:-1], now)
                continue
            del self._pending[0]
            if cmd == 0x40:
                self.update_mode = 0
            elif cmd == 0x41:  # the clock's times, in any mode
                self._send_times(force=True, asked=True)
            elif cmd == 0x42:
                self._send(self._message(0x06, bytes(self._piece_code(p) for p in self.seen)))
                self.host_ready.set()
            elif cmd in (0x43, 0x44, 0x4B):
                self.update_mode = cmd
            elif cmd == 0x45:
                self._send(self._message(0x11, self.serial.encode("ascii")[:5].rjust(5, b"0")))
            elif cmd == 0x55:
                self._send(self._message(0x22, self.long_serial().encode("ascii")))
            elif cmd == 0x4D:
                self._send(self._message(0x13, bytes(self.firmware)))

    def _leds(self, pattern: int, start: int, end: int) -> None:
        if pattern == 0x01:
            self.lit |= {s for s in (start, end) if s < 64}
        elif pattern == 0x00 and self.firmware > (3, 21):
            if start == 0x40:
                self.lit.clear()
            else:
                self.lit -= {start, end}

    # -- the clock -------------------------------------------------------------------------------------
    def _clock_command(self, command: int, data: bytes, now: float) -> None:
        self.clock_commands.append((command, data))
        if self.clock is None:
            return  # nothing on the clock's socket: no answer
        if command == 0x0A and len(data) >= 7:  # SETNRUN: left h m s, right h m s, flags
            self.clock_ms = [(data[0] * 3600 + data[1] * 60 + data[2]) * 1000.0,
                             (data[3] * 3600 + data[4] * 60 + data[5]) * 1000.0]
            self.clock_running = data[6] & 0x03 if not data[6] & 0x04 else 0
            self._clock_last = now
        elif command == 0x0C and len(data) >= 8:  # ASCII (DGT 3000 only)
            if self.clock[0] >= 2:
                self.clock_text = data[:8].decode("ascii", "replace")
        elif command == 0x03:  # END: the times again
            self.clock_text = ""
        ack2 = (self.clock[0] << 4 | self.clock[1]) if command == 0x09 else 0
        if self.update_mode in (0x43, 0x4B):
            self._send_ack(0x10, command, ack2, 0)

    def _send_ack(self, ack0: int, ack1: int, ack2: int, ack3: int) -> None:
        # The four bytes spread over seven, a 0x0A low nibble in bytes 0 and 3 marking an ack.
        b0 = 0x0A | ((ack2 >> 3) & 0x10) | ((ack3 >> 2) & 0x20)
        b3 = 0x0A | ((ack0 >> 3) & 0x10) | ((ack1 >> 2) & 0x20)
        self._send(self._message(0x0D, bytes((b0, ack0 & 0x7F, ack1 & 0x7F, b3, ack2 & 0x7F, ack3 & 0x7F, 0))))

    def _send_times(self, force: bool = False, asked: bool = False) -> None:
        if not asked and (self.clock is None or self.update_mode not in (0x43, 0x4B)):
            return
        if self.clock is None:  # asked: all zeros and "no clock connected"
            self._send(self._message(0x0D, bytes((0, 0, 0, 0, 0, 0, 0x20))))
            return
        shown = (int(self.clock_ms[0]) // 1000, int(self.clock_ms[1]) // 1000, self.lever_right_high)
        if not force and self.update_mode == 0x4B and shown == self._clock_shown:
            return
        self._clock_shown = shown

        def hms(ms: float) -> bytes:
            s = int(ms) // 1000
            return bytes((s // 3600, _bcd(s // 60 % 60), _bcd(s % 60)))

        status = (0x01 if self.clock_running else 0) | (0x02 if self.lever_right_high else 0)
        self._send(self._message(0x0D, hms(self.clock_ms[1]) + hms(self.clock_ms[0]) + bytes((status,))))

    def _tick_clock(self, now: float) -> None:
        if self.clock is None or not self.clock_running:
            return
        side = 0 if self.clock_running == 0x01 else 1
        self.clock_ms[side] = max(0.0, self.clock_ms[side] - (now - self._clock_last))
        self._clock_last = now
        self._send_times()

    def _scan(self, now: float) -> None:
        self._tick_clock(now)
        # The scan walks the squares in wire order, 64 per scan period.
        elapsed = now - self._last_scan_at
        self._last_scan_at = now
        start = self._scan_pos
        self._scan_pos += 64 * elapsed / self.scan_ms
        for i in range(int(start), int(self._scan_pos)):
            square = i % 64
            if self.physical[square] != self.seen[square]:
                self.seen[square] = self.physical[square]
                if self.update_mode:
                    self._reporting_change = True
                    self._send(self._message(0x0E, bytes((square, self._piece_code(self.seen[square])))))

    def _scan_reached(self, square: int) -> bool:
        # (the next tick scans from here: within two squares of it, whatever the tick's length)
        return (int(self._scan_pos) - square) % 64 < 2

    def _damage(self, data: bytes) -> bytes:
        return data[:-1]  # cut short: the next message's header ends it
