"""The Millennium ChessLink emulator (see ``board_emulator`` and docs/boards.md)."""

from __future__ import annotations

from typing import ClassVar

from .board_emulator import BoardEmulator


class MillenniumEmulator(BoardEmulator):
    """A Millennium ChessLink: ASCII commands and replies, each ending in the XOR of its
    characters as two upper-case hex digits."""

    protocol = "millennium"
    default_scan_ms = 20 * 2.048
    bits_per_byte_ms = 10 / 38.4  # 38400 baud, 7O1
    COMMAND_LENGTHS: ClassVar[dict[str, int]] = {"S": 3, "V": 3, "X": 3, "T": 3, "W": 7, "R": 5, "L": 1 + 2 + 162 + 2}

    def __init__(self, variant: str = "chess", *, r_shape: str = "address", ignore_writes: tuple[int, ...] = (),
                 **options) -> None:
        """``r_shape``: how the board answers ``R``: ``"address"`` (``r``, address, value: the
        ChessLink), ``"value"`` (the value alone) or ``"long"`` (address, value and two more
        digits), as boards of other makers do. ``ignore_writes``: settings the board keeps as
        they are, echoing what it keeps."""
        super().__init__(variant, **options)
        self.r_shape = r_shape
        self.ignore_writes = ignore_writes
        self.raw_in = bytearray()  # every byte from the host, as it came (parity bits and all)
        self.settings = {0x00: 0, 0x01: 20, 0x02: 0, 0x03: 50, 0x04: 15}
        if options.get("scan_ms"):
            self.settings[0x01] = max(15, round(self.scan_ms / 2.048))
        self.led_patterns = [0] * 81
        self.slot = 0
        self.bad_commands = 0
        self._pending = ""
        self._next_scan = 0.0
        self._reported: list[str | None] | None = None
        self._stable = 0
        self._next_timed = 0.0
        self._last_status = ""

    def _boot(self, now: float) -> None:
        super()._boot(now)
        self.led_patterns = [0] * 81
        self._pending = ""
        self._next_scan = now

    @staticmethod
    def _checked(text: str) -> bytes:
        value = 0
        for byte in text.encode("ascii"):
            value ^= byte
        return (text + format(value, "02X")).encode("ascii")

    def _status(self) -> bytes:
        text = "s" + "".join(p or "." for p in self.seen)
        if text != self._last_status:
            self._last_status = text
            self._reporting_change = True
        return self._checked(text)

    def lit_squares(self) -> set[int]:
        """Squares whose four corner LEDs are all lit in some slot (the lights the driver sets)."""
        out = set()
        for square in range(64):
            file, row = square % 8, square // 8
            corners = [self.led_patterns[f * 9 + r] for f in (file, file + 1) for r in (row, row + 1)]
            if all(corners):
                out.add(square)
        return out

    def _from_host(self, data: bytes, now: float) -> None:
        self.raw_in += data
        self._pending += bytes(b & 0x7F for b in data).decode("ascii")
        while self._pending:
            letter = self._pending[0]
            length = self.COMMAND_LENGTHS.get(letter)
            if length is None:
                self._pending = self._pending[1:]
                continue
            if len(self._pending) < length:
                return
            text, check = self._pending[:length - 2], self._pending[length - 2:length]
            if self._checked(text)[-2:].decode() != check.upper():
                self.bad_commands += 1  # the board ignores it
                self._pending = self._pending[1:]
                continue
            self._pending = self._pending[length:]
            self._command(text, now)

    def _command(self, text: str, now: float) -> None:
        letter, data = text[0], text[1:]
        if letter == "S":
            self._send(self._status())
            self.host_ready.set()
        elif letter == "V":
            self._send(self._checked("v0103"))
        elif letter == "X":
            self.led_patterns = [0] * 81
            self._send(self._checked("x"))
        elif letter == "L":
            self.slot = int(data[:2], 16)
            self.led_patterns = [int(data[2 + 2 * i:4 + 2 * i], 16) for i in range(81)]
            self._send(self._checked("l"))
        elif letter == "W":
            address, value = int(data[:2], 16), int(data[2:4], 16)
            if address == 0x01 and value < 15:
                value = 20
            if address in self.ignore_writes:
                self._send(self._checked(f"w{data[:2]}{self.settings.get(address, 0):02X}"))
                return
            self.settings[address] = value
            self._send(self._checked("w" + data[:4]))
        elif letter == "R":
            address = int(data[:2], 16)
            stored = f"{self.settings.get(address, 0):02X}"
            reply = {"value": stored, "long": f"{data[:2]}{stored}00"}.get(self.r_shape, f"{data[:2]}{stored}")
            self._send(self._checked("r" + reply))
        elif letter == "T":
            self._boot(now)

    def _scan(self, now: float) -> None:
        if now < self._next_scan:
            return
        self._next_scan = now + self.settings[0x01] * 2.048
        changed = self.seen != self.physical
        self.seen = list(self.physical)
        mode = self.settings[0x02] & 0x07
        if mode == 0:
            self._send(self._status())
        elif mode == 2:
            if now >= self._next_timed:
                self._next_timed = now + self.settings[0x03] * 4.096
                self._send(self._status())
        elif mode >= 3:
            self._stable = 0 if changed else self._stable + 1
            need = 0 if mode == 3 else mode - 2  # scans the board must stay unchanged
            if self._reported != self.seen and self._stable >= need:
                self._reported = list(self.seen)
                self._send(self._status())

    def _damage(self, data: bytes) -> bytes:
        last = data[-1:]
        return data[:-1] + (b"0" if last != b"0" else b"1")  # a wrong check digit
