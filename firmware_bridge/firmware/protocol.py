"""The sensor-board wire protocol: constants, frames, payload layouts (CRC and COBS: ``crc_cobs``).

Portable: this module runs unchanged on the board (MicroPython on a Raspberry Pi Pico) and on
the host (CPython), so both sides share one definition of the bytes. It therefore uses only
what MicroPython has: no dataclasses, no typing, no ``from __future__``, no slice deletion on
bytearrays. docs/protocol.md is the specification; this module follows it.

Frame on the wire::

    COBS( version u8 | type u8 | seq u16 | payload ... | crc u16 ) 0x00

All multi-byte integers are big-endian. The CRC is CRC-16/CCITT-FALSE over version..payload.
"""

import struct

try:
    from firmware_bridge.firmware.crc_cobs import cobs_decode, cobs_encode, crc16
    from firmware_bridge.firmware.crc_cobs import crc16_portable as crc16_portable
except ImportError:  # on the board: the modules sit flat in its root
    from crc_cobs import cobs_decode, cobs_encode, crc16  # type: ignore[no-redef]
    from crc_cobs import crc16_portable as crc16_portable  # type: ignore[no-redef]

VERSION = 1

# -- message types (the high bit says the direction: set = host to board) -------------------------
HELLO = 0x01
EVENT = 0x02
SNAPSHOT = 0x03
HEARTBEAT = 0x04
ERROR = 0x05
REQUEST_SNAPSHOT = 0x81
SET_LEDS = 0x82
PING = 0x83
SET_PARAMS = 0x84

TYPE_NAMES = {
    HELLO: "HELLO", EVENT: "EVENT", SNAPSHOT: "SNAPSHOT", HEARTBEAT: "HEARTBEAT", ERROR: "ERROR",
    REQUEST_SNAPSHOT: "REQUEST_SNAPSHOT", SET_LEDS: "SET_LEDS", PING: "PING", SET_PARAMS: "SET_PARAMS",
}
BOARD_TYPES = (HELLO, EVENT, SNAPSHOT, HEARTBEAT, ERROR)
HOST_TYPES = (REQUEST_SNAPSHOT, SET_LEDS, PING, SET_PARAMS)

# -- payload lengths: (shortest, longest) ------------------------------------------------------------
MAX_CELLS = 256
PAYLOAD_LENGTHS = {
    HELLO: (21, 21),
    EVENT: (7, 7),
    SNAPSHOT: (7, 7 + MAX_CELLS),
    HEARTBEAT: (6, 6),
    ERROR: (3, 3),
    REQUEST_SNAPSHOT: (0, 0),
    SET_LEDS: (2, 2 + MAX_CELLS),
    PING: (2, 2),
    SET_PARAMS: (6, 6),
}
HEADER_LEN = 4  # version, type, seq
CRC_LEN = 2
MAX_BODY = HEADER_LEN + 7 + MAX_CELLS + CRC_LEN  # the largest frame: SNAPSHOT with 256 piece bytes
# COBS adds one code byte per started block of 254 bytes.
MAX_ENCODED = MAX_BODY + (MAX_BODY + 253) // 254

# -- field values -----------------------------------------------------------------------------
ACTION_LIFT = 0  # a piece left the cell ("up")
ACTION_PLACE = 1  # a piece arrived on the cell ("down")

CAP_IDENTITY = 0x01  # the board reads which piece stands on a cell
CAP_LEDS = 0x02  # the board has a light per cell

SNAPSHOT_BITMAP = 0  # one bit per cell, cell i in byte i >> 3, bit i & 7 (least significant first)
SNAPSHOT_PIECES = 1  # one piece byte per cell

PIECE_NONE = 0x00  # event: no identity reported; snapshot: empty cell
PIECE_UNKNOWN = 0x01  # snapshot/reading: occupied, but the piece could not be identified

LED_OFF = 0
LED_ON = 1
LED_BLINK = 2  # 500 ms on, 500 ms off
LED_FAST = 3  # 125 ms on, 125 ms off
LED_PATTERNS = (LED_OFF, LED_ON, LED_BLINK, LED_FAST)
LEDS_REPLACE = 0x01  # SET_LEDS flag: every cell not listed goes off

NO_SEQ = 0xFFFF  # ERROR.ref_seq when the error concerns no readable frame

# Error codes. 1..6 double as the receiver's error classes (the host counts them by name).
ERR_BAD_CRC = 1
ERR_TRUNCATED = 2
ERR_WRONG_VERSION = 3
ERR_OVERSIZED = 4
ERR_UNKNOWN_TYPE = 5
ERR_BAD_PAYLOAD = 6
ERR_OVERFLOW = 7  # the board's output queue overflowed: events were lost
ERR_SENSOR = 8  # a hardware fault (a multiplexer that reads all ones, ...)
ERROR_NAMES = {
    ERR_BAD_CRC: "bad_crc", ERR_TRUNCATED: "truncated", ERR_WRONG_VERSION: "wrong_version",
    ERR_OVERSIZED: "oversized", ERR_UNKNOWN_TYPE: "unknown_type", ERR_BAD_PAYLOAD: "bad_payload",
    ERR_OVERFLOW: "overflow", ERR_SENSOR: "sensor",
}
FRAME_ERRORS = (ERR_BAD_CRC, ERR_TRUNCATED, ERR_WRONG_VERSION, ERR_OVERSIZED, ERR_UNKNOWN_TYPE, ERR_BAD_PAYLOAD)

# Parameter ranges the board accepts in SET_PARAMS; KEEP leaves a parameter as it is.
KEEP = 0xFFFF
SCAN_MS_RANGE = (1, 1000)
DEBOUNCE_MS_RANGE = (0, 1000)
HEARTBEAT_MS_RANGE = (50, 10000)


# -- frames -------------------------------------------------------------------------------------
def frame_body(mtype, seq, payload=b"", version=VERSION):
    """The unstuffed frame: header, payload and CRC."""
    body = bytearray(struct.pack(">BBH", version, mtype, seq & 0xFFFF))
    body.extend(payload)
    body.extend(struct.pack(">H", crc16(body)))
    return bytes(body)


def encode_frame(mtype, seq, payload=b"", version=VERSION):
    """Wire bytes of one frame, delimiter included."""
    return cobs_encode(frame_body(mtype, seq, payload, version)) + b"\x00"


class Deframer:
    """Splits a byte stream at 0x00, un-stuffs, checks size, CRC, version, type and length.

    ``feed(data)`` returns the good frames as ``(type, seq, payload)`` tuples; every rejected
    frame increments ``errors[code]`` and is appended to ``rejected`` as ``(code, seq)`` (seq is
    NO_SEQ when the frame could not be trusted that far) for a receiver that answers errors.
    Nothing here raises on malformed input; empty frames (0x00 0x00) are ignored silently,
    which lets a sender flush the receiver with a lone 0x00.
    """

    def __init__(self, accept):
        self.accept = accept  # the message types this receiver understands
        self.buf = bytearray()
        self.discarding = False  # inside an oversized frame, waiting for its delimiter
        self.errors = {}
        for code in FRAME_ERRORS:
            self.errors[code] = 0
        self.frames = 0
        self.rejected = []
        self.foreign_version = None  # the version byte of the latest wrong_version frame

    def reset(self):
        self.buf = bytearray()
        self.discarding = False

    def _reject(self, code, seq=NO_SEQ):
        self.errors[code] += 1
        self.rejected.append((code, seq))
        if len(self.rejected) > 16:  # a receiver that never drains it must not grow forever
            self.rejected = self.rejected[-16:]

    def feed(self, data):
        out = []
        start = 0
        n = len(data)
        while start < n:
            end = data.find(b"\x00", start)
            if end < 0:
                self._accumulate(data[start:])
                break
            self._accumulate(data[start:end])
            if self.discarding:
                self.discarding = False
            elif self.buf:
                frame = self._decode(bytes(self.buf))
                if frame is not None:
                    out.append(frame)
            self.buf = bytearray()
            start = end + 1
        return out

    def _accumulate(self, chunk):
        if self.discarding or not chunk:
            return
        if len(self.buf) + len(chunk) > MAX_ENCODED:
            self._reject(ERR_OVERSIZED)
            self.buf = bytearray()
            self.discarding = True
            return
        self.buf.extend(chunk)

    def _decode(self, encoded):
        body = cobs_decode(encoded)
        if body is None or len(body) < HEADER_LEN + CRC_LEN:
            self._reject(ERR_TRUNCATED)
            return None
        if crc16(body[:-CRC_LEN]) != (body[-2] << 8 | body[-1]):
            self._reject(ERR_BAD_CRC)
            return None
        version, mtype, seq = struct.unpack_from(">BBH", body, 0)
        if version != VERSION:
            self.foreign_version = version
            self._reject(ERR_WRONG_VERSION, seq)
            return None
        if mtype not in self.accept:
            self._reject(ERR_UNKNOWN_TYPE, seq)
            return None
        payload = body[HEADER_LEN:-CRC_LEN]
        shortest, longest = PAYLOAD_LENGTHS[mtype]
        if len(payload) < shortest:
            self._reject(ERR_TRUNCATED, seq)
            return None
        if len(payload) > longest:
            self._reject(ERR_BAD_PAYLOAD, seq)
            return None
        self.frames += 1
        return (mtype, seq, payload)


# -- payloads: board to host ---------------------------------------------------------------------
def pack_hello(board_id, cells, caps, firmware, boot_id, heartbeat_ms, scan_ms, debounce_ms, token=0):
    major, minor, patch = firmware
    return struct.pack(">BIHBBBBHHHHH", VERSION, board_id, cells, caps, major, minor, patch,
                       boot_id, heartbeat_ms, scan_ms, debounce_ms, token)


def unpack_hello(payload):
    """(protocol, board_id, cells, caps, (major, minor, patch), boot_id, heartbeat_ms, scan_ms,
    debounce_ms, token)"""
    f = struct.unpack(">BIHBBBBHHHHH", payload)
    return (f[0], f[1], f[2], f[3], (f[4], f[5], f[6]), f[7], f[8], f[9], f[10], f[11])


def pack_event(cell, action, piece, time_ms):
    return struct.pack(">BBBI", cell, action, piece, time_ms & 0xFFFFFFFF)


def unpack_event(payload):
    """(cell, action, piece, time_ms)"""
    return struct.unpack(">BBBI", payload)


def pack_snapshot(time_ms, states, identity):
    """``states[cell]``: 0 empty, else occupied (a piece byte when ``identity``)."""
    cells = len(states)
    head = struct.pack(">IBH", time_ms & 0xFFFFFFFF, SNAPSHOT_PIECES if identity else SNAPSHOT_BITMAP, cells)
    if identity:
        return head + bytes(states)
    bits = bytearray((cells + 7) >> 3)
    for cell in range(cells):
        if states[cell]:
            bits[cell >> 3] |= 1 << (cell & 7)
    return head + bytes(bits)


def unpack_snapshot(payload):
    """(time_ms, format, cells, data) or None when the data length does not fit the header.

    ``data`` is the raw bitmap or piece bytes; use :func:`snapshot_states` to expand it."""
    time_ms, fmt, cells = struct.unpack_from(">IBH", payload, 0)
    data = payload[7:]
    if fmt == SNAPSHOT_BITMAP:
        need = (cells + 7) >> 3
    elif fmt == SNAPSHOT_PIECES:
        need = cells
    else:
        return None
    if cells > MAX_CELLS or len(data) != need:
        return None
    return (time_ms, fmt, cells, data)


def snapshot_states(fmt, cells, data):
    """Per-cell states of a snapshot: bitmap -> 0/1, pieces -> the piece bytes."""
    if fmt == SNAPSHOT_PIECES:
        return bytes(data)
    out = bytearray(cells)
    for cell in range(cells):
        if data[cell >> 3] & (1 << (cell & 7)):
            out[cell] = 1
    return bytes(out)


def pack_heartbeat(time_ms, boot_id):
    return struct.pack(">IH", time_ms & 0xFFFFFFFF, boot_id)


def unpack_heartbeat(payload):
    """(time_ms, boot_id)"""
    return struct.unpack(">IH", payload)


def pack_error(code, ref_seq=NO_SEQ):
    return struct.pack(">BH", code, ref_seq)


def unpack_error(payload):
    """(code, ref_seq)"""
    return struct.unpack(">BH", payload)


# -- payloads: host to board ---------------------------------------------------------------------
def pack_set_leds(cells, pattern, flags=LEDS_REPLACE):
    return bytes([pattern, flags]) + bytes(cells)


def unpack_set_leds(payload):
    """(pattern, flags, cells bytes)"""
    return (payload[0], payload[1], bytes(payload[2:]))


def pack_ping(token):
    return struct.pack(">H", token)


def unpack_ping(payload):
    return struct.unpack(">H", payload)[0]


def pack_set_params(scan_ms, debounce_ms, heartbeat_ms):
    return struct.pack(">HHH", scan_ms, debounce_ms, heartbeat_ms)


def unpack_set_params(payload):
    """(scan_ms, debounce_ms, heartbeat_ms); KEEP (0xFFFF) means keep the current value."""
    return struct.unpack(">HHH", payload)


# -- piece bytes ---------------------------------------------------------------------------------
# A piece byte is 0x40 + 32 * side + letter index (A = 1 .. Z = 26): for the first two sides it is
# simply the ASCII FEN letter (white 'N' = 0x4E, black 'n' = 0x6E), and sides 2..5 continue the
# pattern (0x81.., 0xA1.., 0xC1.., 0xE1..), so a hex dump of a two-player game reads as FEN.
MAX_SIDES = 6


def piece_byte(side, letter):
    """Piece byte for side ``side`` (0-based) and an upper-case kind letter; raises ValueError."""
    index = ord(letter) - 0x40 if len(letter) == 1 else 0
    if not 0 <= side < MAX_SIDES or not 1 <= index <= 26:
        raise ValueError(f"no piece byte for side {side} letter {letter!r}")
    return 0x40 + 32 * side + index


def piece_of_byte(value):
    """(side, upper-case letter) of a piece byte, or None for 0x00/0x01 and invalid bytes."""
    if value < 0x41:
        return None
    side, index = divmod(value - 0x40, 32)
    if not 1 <= index <= 26 or side >= MAX_SIDES:
        return None
    return (side, chr(0x40 + index))
