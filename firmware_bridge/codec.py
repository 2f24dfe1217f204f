"""Messages to wire bytes and back: ``encode(message)`` and ``decode_frame(type, seq, payload)``.

The byte layouts come from :mod:`firmware_bridge.firmware.protocol`, the module the board runs,
so host and firmware cannot drift apart. ``encode`` takes the sequence number from the message.
"""

from __future__ import annotations

from engine.errors import ChesseryError

from .firmware import protocol as P
from .messages import (
    Error,
    Event,
    Heartbeat,
    Hello,
    Message,
    Ping,
    RequestSnapshot,
    SetLeds,
    SetParams,
    Snapshot,
)


class PayloadError(ChesseryError, ValueError):
    """A frame whose CRC is good but whose payload does not fit its type."""


def payload_of(message: Message) -> tuple[int, bytes]:
    """(message type, payload bytes)."""
    match message:
        case Hello():
            return P.HELLO, P.pack_hello(message.board_id, message.cells, message.caps, message.firmware,
                                         message.boot_id, message.heartbeat_ms, message.scan_ms,
                                         message.debounce_ms, message.token)
        case Event():
            return P.EVENT, P.pack_event(message.cell, message.action, message.piece, message.time_ms)
        case Snapshot():
            return P.SNAPSHOT, P.pack_snapshot(message.time_ms, message.states, message.identity)
        case Heartbeat():
            return P.HEARTBEAT, P.pack_heartbeat(message.time_ms, message.boot_id)
        case Error():
            return P.ERROR, P.pack_error(message.code, message.ref_seq)
        case RequestSnapshot():
            return P.REQUEST_SNAPSHOT, b""
        case SetLeds():
            flags = P.LEDS_REPLACE if message.replace else 0
            return P.SET_LEDS, P.pack_set_leds(message.cells, message.pattern, flags)
        case Ping():
            return P.PING, P.pack_ping(message.token)
        case SetParams():
            return P.SET_PARAMS, P.pack_set_params(message.scan_ms, message.debounce_ms, message.heartbeat_ms)
    raise TypeError(f"not a protocol message: {message!r}")


def encode(message: Message) -> bytes:
    """Wire bytes of one frame (COBS, delimiter included)."""
    mtype, payload = payload_of(message)
    return P.encode_frame(mtype, message.seq, payload)


def body(message: Message) -> bytes:
    """The frame before byte stuffing: header, payload, CRC."""
    mtype, payload = payload_of(message)
    return P.frame_body(mtype, message.seq, payload)


def decode_frame(mtype: int, seq: int, payload: bytes) -> Message:
    """A message from a frame the deframer accepted; raises PayloadError when fields do not fit."""
    match mtype:
        case P.HELLO:
            proto, board_id, cells, caps, firmware, boot_id, heartbeat_ms, scan_ms, debounce_ms, token = (
                P.unpack_hello(payload))
            if not 1 <= cells <= P.MAX_CELLS:
                raise PayloadError(f"HELLO with {cells} cells")
            return Hello(board_id, cells, caps, firmware, boot_id, heartbeat_ms, scan_ms, debounce_ms, token,
                         proto, seq)
        case P.EVENT:
            cell, action, piece, time_ms = P.unpack_event(payload)
            if action not in (P.ACTION_LIFT, P.ACTION_PLACE):
                raise PayloadError(f"EVENT with action {action}")
            if piece not in (P.PIECE_NONE, P.PIECE_UNKNOWN) and P.piece_of_byte(piece) is None:
                raise PayloadError(f"EVENT with piece byte 0x{piece:02x}")
            return Event(cell, action, piece, time_ms, seq)
        case P.SNAPSHOT:
            fields = P.unpack_snapshot(payload)
            if fields is None:
                raise PayloadError("SNAPSHOT whose data does not match its format and cell count")
            time_ms, fmt, cells, data = fields
            if cells < 1:
                raise PayloadError("SNAPSHOT of no cells")
            return Snapshot(time_ms, fmt == P.SNAPSHOT_PIECES, P.snapshot_states(fmt, cells, data), seq)
        case P.HEARTBEAT:
            time_ms, boot_id = P.unpack_heartbeat(payload)
            return Heartbeat(time_ms, boot_id, seq)
        case P.ERROR:
            code, ref_seq = P.unpack_error(payload)
            return Error(code, ref_seq, seq)
        case P.REQUEST_SNAPSHOT:
            return RequestSnapshot(seq)
        case P.SET_LEDS:
            pattern, flags, cells = P.unpack_set_leds(payload)
            return SetLeds(pattern, tuple(cells), bool(flags & P.LEDS_REPLACE), seq)
        case P.PING:
            return Ping(P.unpack_ping(payload), seq)
        case P.SET_PARAMS:
            scan_ms, debounce_ms, heartbeat_ms = P.unpack_set_params(payload)
            return SetParams(scan_ms, debounce_ms, heartbeat_ms, seq)
    raise PayloadError(f"unknown message type 0x{mtype:02x}")
