"""The Millennium ChessLink protocol (ChessLink, Exclusive, eONE; 38400 baud, 7 data bits, odd
parity, 1 stop bit), from the board maker's published description.

Every message, both ways, is printable ASCII: a command letter (upper case from the host, the
same letter in lower case in the board's reply), data as upper-case hex digits or piece letters,
then a block check: the XOR of every character before it, as two upper-case hex digits. The
board ignores a command whose check is wrong.

==========  ===========================  =========================================
host        board                        meaning
==========  ===========================  =========================================
``S``       ``s`` + 64 piece letters     the board, a8 b8 ... h8, a7 ... h1; ``.`` empty
``V``       ``v`` + 4 hex                firmware version (high, low)
``L`` ...   ``l``                        slot time (2 hex, units of 4.096 ms), then 81 LED
                                         patterns (2 hex each: bits 7..0, one per slot)
``X``       ``x``                        all LEDs off
``W`` a d   ``w`` a d                    write setting ``a`` (2 hex) = ``d`` (2 hex)
``R`` a     ``r`` a d                    read setting ``a``
``T``       (none)                       reset
==========  ===========================  =========================================

Settings: 0x01 scan time (units of 2.048 ms; 20 = 40.96 ms, the default, 15 the least); 0x02
automatic reports (0 every scan, 1 none, 2 timed, 3 on any change, 4..7 on change after 2..5
stable scans); 0x03 the timed report interval (units of 4.096 ms). Automatic reports have the
same form as the reply to ``S`` and may arrive between any command and its reply, so replies are
matched by their letter.

Replies to ``R`` come in other shapes from boards of other makers that speak this protocol (the
value alone, or more digits than two): the reader takes an ``r`` reply of 2, 4 or 6 hex digits,
whichever length its check digits fit, and the driver logs what it can read of it.

Parity: the line is 7 data bits with odd parity, which a UART supplies. A Bluetooth serial link
(RFCOMM) carries bytes as they are and sets no parity: there :func:`with_odd_parity` puts the
parity in bit 7 of each character (the board reads 7O1 on its side of the radio module).

LEDs: 81, at the corners of the squares: LED 1 at the a8 corner, 9 at the a1 corner, 73 at h8,
81 at h1 (numbered down each file line from the 8th rank, file line by file line).
"""

from __future__ import annotations

from dataclasses import dataclass

#: Reply letter -> total length in characters, the two check digits included.
REPLY_LENGTHS = {"s": 67, "v": 7, "l": 3, "x": 3, "w": 7, "r": 7}
#: Other lengths a reply may have (tried after the usual one, where its check digits fit).
OTHER_LENGTHS = {"r": (5, 9)}
PIECE_LETTERS = frozenset("KQRBNPkqrbnp")
SETTING_SCAN_TIME = 0x01
SETTING_AUTO_REPORT = 0x02
SETTING_REPORT_TIME = 0x03
AUTO_EVERY_SCAN, AUTO_OFF, AUTO_TIMED, AUTO_ON_CHANGE = 0, 1, 2, 3
SCAN_UNIT_MS = 2.048
SLOT_UNIT_MS = 4.096
LED_COUNT = 81


def check(text: str) -> str:
    """The block check of ``text``: XOR of its characters, two upper-case hex digits."""
    value = 0
    for ch in text:
        value ^= ord(ch) & 0x7F
    return f"{value:02X}"


def command(text: str) -> bytes:
    """A command as sent: its text and the block check (7-bit ASCII; the UART adds parity)."""
    return (text + check(text)).encode("ascii")


def with_odd_parity(data: bytes) -> bytes:
    """Each 7-bit character with bit 7 set where that makes its count of ones odd (7O1 on a
    link that leaves parity to the sender)."""
    return bytes(b & 0x7F | (0x80 if bin(b & 0x7F).count("1") % 2 == 0 else 0) for b in data)


def write_setting(address: int, value: int) -> bytes:
    return command(f"W{address:02X}{value:02X}")


def read_setting(address: int) -> bytes:
    """``R``: the board answers ``r`` with the address and the byte stored there."""
    return command(f"R{address:02X}")


def leds_command(slot: int, patterns: list[int]) -> bytes:
    """``L``: a slot time (units of 4.096 ms) and 81 LED patterns, LED 1 first."""
    if len(patterns) != LED_COUNT:
        raise ValueError(f"expected {LED_COUNT} LED patterns, got {len(patterns)}")
    return command(f"L{slot:02X}" + "".join(f"{p & 0xFF:02X}" for p in patterns))


def corner_leds(square: int) -> tuple[int, int, int, int]:
    """The 0-based LED numbers at the four corners of a wire square (0 = a8 ... 63 = h1)."""
    file, row = square % 8, square // 8  # row 0 is the 8th rank
    return (file * 9 + row, file * 9 + row + 1, (file + 1) * 9 + row, (file + 1) * 9 + row + 1)


@dataclass(frozen=True)
class Status:
    pieces: tuple[str | None, ...]  # 64 FEN letters by wire square (0 = a8); None: empty


@dataclass(frozen=True)
class Reply:
    """Any other reply: its letter and the data between the letter and the check."""

    letter: str
    data: str


MillenniumMessage = Status | Reply


class MillenniumReader:
    """Characters in, messages out. Pure (no I/O). A message starts at a known reply letter;
    when its length is there and its check matches it is taken, else the reader drops that one
    character and looks for the next reply letter, so a garbled message costs only itself.

    ``errors``: ``stray`` characters outside any message, ``bad_check`` messages whose check
    digits do not match, ``bad_value`` status replies with a character that is not a piece."""

    def __init__(self) -> None:
        self._buf = ""
        self.errors: dict[str, int] = {"stray": 0, "bad_check": 0, "bad_value": 0}

    @property
    def error_total(self) -> int:
        return sum(self.errors.values())

    def reset(self) -> None:
        self._buf = ""

    def feed(self, data: bytes) -> list[MillenniumMessage]:
        # Bit 7 is the parity bit on a line read as 8 bits; the characters are 7-bit.
        self._buf += bytes(b & 0x7F for b in data).decode("ascii")
        out: list[MillenniumMessage] = []
        buf = self._buf
        while buf:
            length = REPLY_LENGTHS.get(buf[0])
            if length is None:
                self.errors["stray"] += 1
                buf = buf[1:]
                continue
            if len(buf) < length:
                length = self._other_length(buf) or length  # a short reply need not wait for more
            if len(buf) < length:
                # A message cut short by noise must not hold back the ones behind it: if a later
                # reply letter starts a complete, well-checked message, skip to it.
                later = next((p for p in range(1, len(buf)) if self._valid_at(buf, p)), None)
                if later is None:
                    break
                self.errors["stray"] += later
                buf = buf[later:]
                continue
            text, digits = buf[:length - 2], buf[length - 2:length]
            if check(text) != digits.upper():
                other = self._other_length(buf)
                if other is None:
                    self.errors["bad_check"] += 1
                    buf = buf[1:]
                    continue
                length, text = other, buf[:other - 2]
            message = self._decode(text)
            if message is None:
                self.errors["bad_value"] += 1
                buf = buf[1:]
                continue
            out.append(message)
            buf = buf[length:]
        self._buf = buf
        return out

    def _other_length(self, buf: str) -> int | None:
        """A length other than the usual that the reply at the start of ``buf`` has (its check
        digits fit, its data is hex); None when there is none."""
        for length in OTHER_LENGTHS.get(buf[0], ()):
            if len(buf) >= length and check(buf[:length - 2]) == buf[length - 2:length].upper() \
                    and self._decode(buf[:length - 2]) is not None:
                return length
        return None

    def _valid_at(self, buf: str, at: int) -> bool:
        length = REPLY_LENGTHS.get(buf[at])
        if length is None or len(buf) - at < length:
            return False
        text = buf[at:at + length - 2]
        return check(text) == buf[at + length - 2:at + length].upper() and self._decode(text) is not None

    def _decode(self, text: str) -> MillenniumMessage | None:
        letter, data = text[0], text[1:]
        if letter == "s":
            if any(ch != "." and ch not in PIECE_LETTERS for ch in data):
                return None
            return Status(tuple(None if ch == "." else ch for ch in data))
        if letter != "s" and any(ch not in "0123456789ABCDEFabcdef" for ch in data):
            return None
        return Reply(letter, data)
