"""The DGT e-board wire protocol (serial 9600 8N1), as published by DGT in ``dgtbrd.h``.

Host to board: single command bytes (a few commands carry data, such as the Revelation II's
``SET_LEDS``). Board to host: messages that start with ``id | 0x80``, then the message's total
length (the three header bytes included) as 14 bits in two 7-bit bytes, most significant first,
then the payload. Only the first byte of a message has bit 7 set, so a reader that lost its place
finds the next message at the next such byte.

Clock commands ride on the board's line (a DGT 3000 or XL plugged into the board): ``0x2B``, then
the count of the bytes after it, then ``0x03``, the clock command, its data and ``0x00``. The board
answers in update modes (``SEND_UPDATE``, ``SEND_UPDATE_NICE``) with a ``BWTIME`` message that is
either the clock's times and lever or, marked by ``0x0A`` in a low nibble, an acknowledgement.

Squares are numbered as wired: 0 = a8, 1 = b8, ... 7 = h8, 8 = a7, ... 63 = h1 (seen from the
side of the board where the white pieces start when it is placed as printed). Piece codes: 0
empty, 1..6 white P R N B K Q, 7..12 black p r n b k q.
"""

from __future__ import annotations

from dataclasses import dataclass

# -- commands (host to board) ---------------------------------------------------------------------
SEND_RESET = 0x40  # idle mode, no updates
SEND_CLK = 0x41  # answer with the clock's times (a BWTIME message)
SEND_BRD = 0x42  # answer with a board dump
SEND_UPDATE_BRD = 0x44  # field updates from now on (no clock messages)
SEND_UPDATE_NICE = 0x4B  # field updates, and clock messages on change
SEND_SERIALNR = 0x45  # answer with the serial number
RETURN_LONG_SERIALNR = 0x55  # answer with the long serial number
SEND_VERSION = 0x4D  # answer with the firmware version
SET_LEDS = 0x60  # Revelation II only: 0x60 0x04 pattern start end 0x00
CLOCK_MESSAGE = 0x2B  # 0x2B size 0x03 command data... 0x00 (size: the bytes after it)

#: SET_LEDS: a start field of 0x40 (past h1) with pattern "off" clears every light, on firmware
#: newer than 3.21; up to 3.21 only pattern 0x01 is honoured (an "off" is ignored).
LEDS_ALL = 0x40
LEDS_CLEAR_FROM = (3, 22)

# -- clock commands (inside CLOCK_MESSAGE) ----------------------------------------------------------
CLOCK_START, CLOCK_END_MESSAGE = 0x03, 0x00
CLOCK_DISPLAY = 0x01
CLOCK_END = 0x03  # back to showing the times
CLOCK_BUTTON = 0x08
CLOCK_VERSION = 0x09
CLOCK_SETNRUN = 0x0A  # left h m s, right h m s, flags
CLOCK_BEEP = 0x0B
CLOCK_ASCII = 0x0C  # DGT 3000: eight characters and a beep
#: SETNRUN flags
RUN_LEFT, RUN_RIGHT, RUN_PAUSE = 0x01, 0x02, 0x04
#: Acknowledgements: ack0 is 0x10 when fine; ack1 is the command acknowledged (bit 7: the clock's own)
ACK_OK = 0x10
ACK_BUTTON = 0x88

# -- messages (board to host) ---------------------------------------------------------------------
MESSAGE_BIT = 0x80
MSG_BOARD_DUMP = MESSAGE_BIT | 0x06
MSG_BWTIME = MESSAGE_BIT | 0x0D
MSG_FIELD_UPDATE = MESSAGE_BIT | 0x0E
MSG_SERIALNR = MESSAGE_BIT | 0x11
MSG_VERSION = MESSAGE_BIT | 0x13
MSG_LONG_SERIALNR = MESSAGE_BIT | 0x22

SIZE_BOARD_DUMP = 67
SIZE_FIELD_UPDATE = 5
SIZE_SERIALNR = 8
SIZE_VERSION = 5
SIZE_BWTIME = 10
#: Sizes a message of a known id must have; a header announcing another size is noise.
FIXED_SIZES = {MSG_BOARD_DUMP: SIZE_BOARD_DUMP, MSG_FIELD_UPDATE: SIZE_FIELD_UPDATE,
               MSG_SERIALNR: SIZE_SERIALNR, MSG_VERSION: SIZE_VERSION, MSG_BWTIME: SIZE_BWTIME}
#: Longest message accepted from an unknown id (the protocol allows 14 bits; nothing real is this long).
MAX_SIZE = 512

#: Piece code -> FEN letter (None: empty).
PIECES: tuple[str | None, ...] = (None, "P", "R", "N", "B", "K", "Q", "p", "r", "n", "b", "k", "q")
CODES = {letter: code for code, letter in enumerate(PIECES) if letter}


def leds_command(on: bool, start: int, end: int) -> bytes:
    """Revelation II: light (or clear) the squares ``start`` and ``end`` (wire numbers): the two
    squares of a move, as the programs that drive real boards send them; not a range."""
    return bytes((SET_LEDS, 0x04, 1 if on else 0, start, end, 0x00))


def leds_clear() -> bytes:
    """Revelation II, firmware newer than 3.21: every light off."""
    return leds_command(False, LEDS_ALL, LEDS_ALL)


def clock_command(command: int, data: bytes = b"") -> bytes:
    """A clock command framed for the board's line."""
    return bytes((CLOCK_MESSAGE, len(data) + 3, CLOCK_START, command)) + data + bytes((CLOCK_END_MESSAGE,))


def _hms(ms: int) -> tuple[int, int, int]:
    s = max(0, ms) // 1000
    return min(9, s // 3600), s // 60 % 60, s % 60


def setnrun(left_ms: int, right_ms: int, running: int) -> bytes:
    """Set both times (the clock shows and counts them itself); ``running``: ``RUN_LEFT``,
    ``RUN_RIGHT`` or ``RUN_PAUSE``."""
    lh, lm, ls = _hms(left_ms)
    rh, rm, rs = _hms(right_ms)
    return clock_command(CLOCK_SETNRUN, bytes((lh, lm, ls, rh, rm, rs, running)))


def ascii_text(text: str, beep: int = 0) -> bytes:
    """DGT 3000: up to eight characters on the display (then ``CLOCK_END`` brings the times back)."""
    chars = text.encode("ascii", "replace")[:8].ljust(8)
    return clock_command(CLOCK_ASCII, chars + bytes((beep & 0x0F,)))


def revelation_by_serial(long_serial: str) -> bool:
    """The long serial number is ten ASCII decimal characters on every DGT board; a Revelation II
    starts it with its firmware version (``3.250010001``: a dot where plain boards have digits)."""
    return len(long_serial) >= 4 and long_serial[1] == "." and long_serial[0].isdigit() \
        and long_serial[2:4].isdigit()


@dataclass(frozen=True)
class BoardDump:
    pieces: tuple[str | None, ...]  # 64 FEN letters by wire square (0 = a8), None: empty or unknown code


@dataclass(frozen=True)
class FieldUpdate:
    square: int
    piece: str | None


@dataclass(frozen=True)
class SerialNumber:
    text: str
    long: bool = False


@dataclass(frozen=True)
class Version:
    major: int
    minor: int


@dataclass(frozen=True)
class ClockTimes:
    """The clock's times (ms, whole seconds) and state, left and right as the players see them."""

    left_ms: int
    right_ms: int
    status: int

    @property
    def connected(self) -> bool:
        return not self.status & 0x20

    @property
    def right_high(self) -> bool:
        """The lever: high on the right player's side."""
        return bool(self.status & 0x02)


@dataclass(frozen=True)
class ClockAck:
    ack0: int
    ack1: int
    ack2: int
    ack3: int

    @property
    def ok(self) -> bool:
        return self.ack0 == ACK_OK


@dataclass(frozen=True)
class Other:
    """A well-formed message this driver has no use for (clock times, battery, ...)."""

    id: int
    payload: bytes


DgtMessage = BoardDump | FieldUpdate | SerialNumber | Version | ClockTimes | ClockAck | Other


def header(message_id: int, size: int) -> bytes:
    return bytes((message_id, (size >> 7) & 0x7F, size & 0x7F))


def decode(message_id: int, payload: bytes) -> DgtMessage | None:
    """A message from its id and payload (the bytes after the header); None when it is not one."""
    if message_id == MSG_BOARD_DUMP:
        if any(b >= len(PIECES) for b in payload):
            return None
        return BoardDump(tuple(PIECES[b] for b in payload))
    if message_id == MSG_FIELD_UPDATE:
        square, code = payload
        if square > 63 or code >= len(PIECES):
            return None
        return FieldUpdate(square, PIECES[code])
    if message_id in (MSG_SERIALNR, MSG_LONG_SERIALNR):
        return SerialNumber(payload.decode("ascii", "replace"), long=message_id == MSG_LONG_SERIALNR)
    if message_id == MSG_VERSION:
        return Version(payload[0], payload[1])
    if message_id == MSG_BWTIME:
        return decode_bwtime(payload)
    return Other(message_id, payload)


def decode_bwtime(p: bytes) -> ClockTimes | ClockAck | None:
    """The seven bytes of a BWTIME message: an acknowledgement when a low nibble of byte 0 or 3
    is 0x0A (its four bytes are spread over the seven, high bits apart), else the times."""
    if (p[0] & 0x0F) == 0x0A or (p[3] & 0x0F) == 0x0A:
        return ClockAck((p[1] & 0x7F) | ((p[3] << 3) & 0x80), (p[2] & 0x7F) | ((p[3] << 2) & 0x80),
                        (p[4] & 0x7F) | ((p[0] << 3) & 0x80), (p[5] & 0x7F) | ((p[0] << 2) & 0x80))

    def seconds(h: int, m: int, s: int) -> int | None:
        mins, secs = (m >> 4) * 10 + (m & 0x0F), (s >> 4) * 10 + (s & 0x0F)
        if (h & 0x0F) > 9 or mins > 59 or secs > 59:
            return None
        return (h & 0x0F) * 3600 + mins * 60 + secs

    right, left = seconds(p[0], p[1], p[2]), seconds(p[3], p[4], p[5])
    if right is None or left is None:
        return None
    return ClockTimes(left * 1000, right * 1000, p[6])


class DgtReader:
    """Bytes in, messages out; resynchronises on any byte with bit 7 set. Pure (no I/O).

    ``errors`` counts what was thrown away: ``stray`` bytes outside any message, ``cut``
    messages another header interrupted, ``bad_size`` headers of impossible length, ``bad_value``
    payloads with out-of-range squares or piece codes."""

    def __init__(self) -> None:
        self._buf = bytearray()
        self.errors: dict[str, int] = {"stray": 0, "cut": 0, "bad_size": 0, "bad_value": 0}

    @property
    def error_total(self) -> int:
        return sum(self.errors.values())

    def reset(self) -> None:
        self._buf.clear()

    def feed(self, data: bytes) -> list[DgtMessage]:
        out: list[DgtMessage] = []
        buf = self._buf
        for byte in data:
            if byte & MESSAGE_BIT:
                if buf:
                    self.errors["cut"] += 1
                buf[:] = bytes((byte,))
                continue
            if not buf:
                self.errors["stray"] += 1
                continue
            buf.append(byte)
            if len(buf) < 3:
                continue
            size = (buf[1] << 7) | buf[2]
            expected = FIXED_SIZES.get(buf[0])
            if size < 3 or size > MAX_SIZE or (expected is not None and size != expected):
                self.errors["bad_size"] += 1
                buf.clear()
                continue
            if len(buf) == size:
                message = decode(buf[0], bytes(buf[3:]))
                if message is None:
                    self.errors["bad_value"] += 1
                else:
                    out.append(message)
                buf.clear()
        return out
