"""CRC, COBS, piece bytes and the message codec: known answers and round trips."""

from __future__ import annotations

import binascii

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_bridge.codec import PayloadError, body, decode_frame, encode
from firmware_bridge.events import code_for_piece, piece_for_code, piece_text, piece_value
from firmware_bridge.firmware import protocol as P
from firmware_bridge.framer import Framer
from firmware_bridge.messages import (
    Error,
    Event,
    Heartbeat,
    Hello,
    Ping,
    RequestSnapshot,
    SetLeds,
    SetParams,
    Snapshot,
)

# -- CRC ----------------------------------------------------------------------------------------------


def test_crc_check_value_of_ccitt_false():
    assert P.crc16(b"123456789") == 0x29B1
    assert P.crc16_portable(b"123456789") == 0x29B1


@given(st.binary(max_size=300), st.integers(0, 0xFFFF))
def test_portable_crc_equals_crc_hqx(data, start):
    assert P.crc16_portable(data, start) == binascii.crc_hqx(data, start)


# -- COBS: the examples of the COBS paper / Wikipedia ------------------------------------------------
SEQ_254 = bytes(range(1, 255))
COBS_VECTORS = [
    (b"\x00", b"\x01\x01"),
    (b"\x00\x00", b"\x01\x01\x01"),
    (b"\x00\x11\x00", b"\x01\x02\x11\x01"),
    (b"\x11\x22\x00\x33", b"\x03\x11\x22\x02\x33"),
    (b"\x11\x22\x33\x44", b"\x05\x11\x22\x33\x44"),
    (b"\x11\x00\x00\x00", b"\x02\x11\x01\x01\x01"),
    (SEQ_254, b"\xff" + SEQ_254),
    (b"\x00" + SEQ_254, b"\x01\xff" + SEQ_254),
    (SEQ_254 + b"\xff", b"\xff" + SEQ_254 + b"\x02\xff"),
    (bytes(range(2, 256)) + b"\x00", b"\xff" + bytes(range(2, 256)) + b"\x01\x01"),
    (bytes(range(3, 256)) + b"\x00\x01", b"\xfe" + bytes(range(3, 256)) + b"\x02\x01"),
    (b"", b"\x01"),
]


@pytest.mark.parametrize(("data", "encoded"), COBS_VECTORS)
def test_cobs_known_vectors(data, encoded):
    assert P.cobs_encode(data) == encoded
    assert P.cobs_decode(encoded) == data


@given(st.binary(max_size=700))
def test_cobs_round_trip_has_no_zero_and_bounded_overhead(data):
    encoded = P.cobs_encode(data)
    assert 0 not in encoded
    assert len(encoded) <= len(data) + len(data) // 254 + 1
    assert P.cobs_decode(encoded) == data


def test_cobs_decode_rejects_a_code_past_the_end_and_a_zero_code():
    assert P.cobs_decode(b"\x05\x11\x22") is None
    assert P.cobs_decode(b"\x02\x11\x00") is None


# -- piece bytes -------------------------------------------------------------------------------------------


def test_piece_bytes_of_the_first_two_sides_are_ascii_fen_letters():
    assert P.piece_byte(0, "N") == ord("N")
    assert P.piece_byte(1, "N") == ord("n")
    assert P.piece_byte(2, "N") == 0x8E
    assert piece_text(0x50) == "P" and piece_text(0x70) == "p" and piece_text(0x8E) == "2N"
    assert piece_text(0) is None and piece_text(1) is None and piece_text(0x5B) is None
    for text in ("K", "q", "2N", "5Z"):
        assert piece_text(piece_value(text)) == text
    for bad in ("", "KK", "9Q", "?", "é"):
        with pytest.raises(ValueError):
            piece_value(bad)


def test_piece_bytes_follow_engine_codes_of_every_chess_piece():
    import engine

    chess = engine.find_variant("chess")
    for code in chess.all_codes():
        value = piece_for_code(chess, code)
        assert piece_text(value) == chess.symbol(code)
        assert code_for_piece(chess, chess.symbol(code)) == code
    with pytest.raises(ValueError, match="no piece 'Z'"):
        code_for_piece(chess, "Z")


# -- messages ------------------------------------------------------------------------------------------------
u16 = st.integers(0, 0xFFFF)
u32 = st.integers(0, 0xFFFFFFFF)
piece = st.sampled_from([0, 1, 0x41, 0x50, 0x6B, 0x7A, 0x8E, 0xFA])

MESSAGES = st.one_of(
    st.builds(Hello, u32, st.integers(1, 256), st.integers(0, 3), st.tuples(*[st.integers(0, 255)] * 3), u16,
              u16, u16, u16, u16, st.just(1), u16),
    st.builds(Event, st.integers(0, 255), st.sampled_from([0, 1]), piece, u32, u16),
    st.builds(Snapshot, u32, st.just(True), st.lists(piece, min_size=1, max_size=256).map(bytes), u16),
    st.builds(Snapshot, u32, st.just(False), st.lists(st.sampled_from([0, 1]), min_size=1, max_size=256).map(bytes),
              u16),
    st.builds(Heartbeat, u32, u16, u16),
    st.builds(Error, st.integers(1, 8), u16, u16),
    st.builds(RequestSnapshot, u16),
    st.builds(SetLeds, st.integers(0, 3), st.lists(st.integers(0, 255), max_size=256).map(tuple), st.booleans(),
              u16),
    st.builds(Ping, u16, u16),
    st.builds(SetParams, u16, u16, u16, u16),
)


@given(MESSAGES)
def test_every_message_round_trips_through_the_wire(message):
    wire = encode(message)
    assert wire.endswith(b"\x00") and wire.count(0) == 1
    assert len(wire) - 1 <= P.MAX_ENCODED
    accept = P.BOARD_TYPES if isinstance(message, Hello | Event | Snapshot | Heartbeat | Error) else P.HOST_TYPES
    framer = Framer(accept)
    assert framer.feed(wire) == [message]
    assert framer.error_total == 0
    raw = body(message)
    assert P.cobs_decode(wire[:-1]) == raw


def test_largest_frame_fits_the_size_limit():
    snapshot = Snapshot(0, True, bytes([0x50]) * 256, 0xFFFF)
    assert len(body(snapshot)) == P.MAX_BODY
    assert len(encode(snapshot)) - 1 <= P.MAX_ENCODED


@pytest.mark.parametrize(("mtype", "payload", "why"), [
    (P.EVENT, bytes([3, 2, 0, 0, 0, 0, 0]), "action 2"),
    (P.EVENT, bytes([3, 1, 0x20, 0, 0, 0, 0]), "piece byte 0x20"),
    (P.HELLO, P.pack_hello(1, 0, 0, (1, 0, 0), 0, 250, 5, 20), "0 cells"),
    (P.SNAPSHOT, bytes([0, 0, 0, 0, 0, 0, 9, 0xFF]), "does not match"),
    (P.SNAPSHOT, bytes([0, 0, 0, 0, 7, 0, 8, 0xFF]), "does not match"),
    (P.SNAPSHOT, bytes([0, 0, 0, 0, 0, 0, 0]), "no cells"),
])
def test_payload_fields_out_of_range_are_refused(mtype, payload, why):
    with pytest.raises(PayloadError, match=why):
        decode_frame(mtype, 0, payload)
