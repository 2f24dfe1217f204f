"""The DGT e-board wire protocol (serial 9600 8N1), as published by DGT in ``dgtbrd.h``.

Host to board: single command bytes (a few commands carry data, such as the Revelation II's
``SET_LEDS``). Board to host: messages that start with ``id | 0x80``, then the message's total
length (the three header bytes included) as 14 bits in two 7-bit bytes, most significant first,
then the payload. Only the first byte of a message has bit 7 set, so a reader that lost its place
finds the next message at the next such byte.

Squares are numbered as wired: 0 = a8, 1 = b8, ... 7 = h8, 8 = a7, ... 63 = h1 (seen from the
side of the board where the white pieces start when it is placed as printed). Piece codes: 0
empty, 1..6 white P R N B K Q, 7..12 black p r n b k q.
"""

from __future__ import annotations

from dataclasses import dataclass

# -- commands (host to board) ---------------------------------------------------------------------
SEND_RESET = 0x40  # idle mode, no updates
SEND_BRD = 0x42  # answer with a board dump
SEND_UPDATE_BRD = 0x44  # field updates from now on (no clock messages)
SEND_UPDATE_NICE = 0x4B  # field updates, and clock messages on change
SEND_SERIALNR = 0x45  # answer with the serial number
RETURN_LONG_SERIALNR = 0x55  # answer with the long serial number
SEND_VERSION = 0x4D  # answer with the firmware version
SET_LEDS = 0x60  # Revelation II only: 0x60 0x04 pattern start end 0x00

# -- messages (board to host) ---------------------------------------------------------------------
MESSAGE_BIT = 0x80
MSG_BOARD_DUMP = MESSAGE_BIT | 0x06
MSG_FIELD_UPDATE = MESSAGE_BIT | 0x0E
MSG_SERIALNR = MESSAGE_BIT | 0x11
MSG_VERSION = MESSAGE_BIT | 0x13
MSG_LONG_SERIALNR = MESSAGE_BIT | 0x22

SIZE_BOARD_DUMP = 67
SIZE_FIELD_UPDATE = 5
SIZE_SERIALNR = 8
SIZE_VERSION = 5
#: Sizes a message of a known id must have; a header announcing another size is noise.
FIXED_SIZES = {MSG_BOARD_DUMP: SIZE_BOARD_DUMP, MSG_FIELD_UPDATE: SIZE_FIELD_UPDATE,
               MSG_SERIALNR: SIZE_SERIALNR, MSG_VERSION: SIZE_VERSION}
#: Longest message accepted from an unknown id (the protocol allows 14 bits; nothing real is this long).
MAX_SIZE = 512

#: Piece code -> FEN letter (None: empty).
PIECES: tuple[str | None, ...] = (None, "P", "R", "N", "B", "K", "Q", "p", "r", "n", "b", "k", "q")
CODES = {letter: code for code, letter in enumerate(PIECES) if letter}


def leds_command(on: bool, start: int, end: int) -> bytes:
    """Revelation II: light (or clear) the squares ``start``..``end`` (wire numbers)."""
    return bytes((SET_LEDS, 0x04, 1 if on else 0, start, end, 0x00))


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
class Other:
    """A well-formed message this driver has no use for (clock times, battery, ...)."""

    id: int
    payload: bytes


DgtMessage = BoardDump | FieldUpdate | SerialNumber | Version | Other


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
    return Other(message_id, payload)


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
