"""Known answers for the DGT and Millennium codecs: frames as the makers' protocol descriptions
give them, check digits from a published ChessLink trace, and the readers' recovery from noise."""

from __future__ import annotations

import pytest

from firmware_bridge.boards import dgt_codec as D
from firmware_bridge.boards import millennium_codec as M
from firmware_bridge.boards.driver import START_WIRE, cell_to_wire, wire_to_cell

#: The start position as a DGT dump: a8..h8 (black r n b q k b n r), black pawns, 32 empty,
#: white pawns, a1..h1 (white R N B Q K B N R), in DGT piece codes.
START_DUMP = (bytes((0x86, 0x00, 0x43)) + bytes((8, 9, 10, 12, 11, 10, 9, 8)) + bytes([7] * 8) + bytes(32)
              + bytes([1] * 8) + bytes((2, 3, 4, 6, 5, 4, 3, 2)))


def test_dgt_board_dump_of_the_start_position() -> None:
    assert len(START_DUMP) == D.SIZE_BOARD_DUMP == 67
    (dump,) = D.DgtReader().feed(START_DUMP)
    assert dump == D.BoardDump(START_WIRE)
    assert dump.pieces[0] == "r" and dump.pieces[4] == "k" and dump.pieces[59] == "Q" and dump.pieces[63] == "R"


def test_dgt_field_update_serial_and_version() -> None:
    reader = D.DgtReader()
    # e2 (wire 52) emptied, e4 (wire 36) gets a white pawn; serial "12345"; version 3.1
    data = (bytes((0x8E, 0x00, 0x05, 52, 0)) + bytes((0x8E, 0x00, 0x05, 36, 1))
            + bytes((0x91, 0x00, 0x08)) + b"12345" + bytes((0x93, 0x00, 0x05, 3, 1)))
    assert reader.feed(data) == [D.FieldUpdate(52, None), D.FieldUpdate(36, "P"), D.SerialNumber("12345"),
                                 D.Version(3, 1)]
    assert reader.error_total == 0


def test_dgt_length_is_fourteen_bits_in_two_seven_bit_bytes() -> None:
    assert D.header(D.MSG_BOARD_DUMP, 67) == bytes((0x86, 0x00, 0x43))
    assert D.header(0x80 | 0x0F, 200) == bytes((0x8F, 0x01, 0x48))  # 200 = 1 * 128 + 72
    reader = D.DgtReader()
    other = D.header(0x8F, 200) + bytes(197)  # an unknown message of 200 bytes is skipped whole
    assert reader.feed(other + bytes((0x8E, 0, 5, 0, 8))) == [D.Other(0x8F, bytes(197)), D.FieldUpdate(0, "r")]


def test_dgt_reader_resynchronises_on_bit_seven() -> None:
    reader = D.DgtReader()
    noise = bytes((0x12, 0x7F, 0x8E, 0x00))  # stray bytes, then a message cut short
    messages = reader.feed(noise + START_DUMP[:40] + bytes((0x8E, 0, 5, 12, 0)) + START_DUMP)
    assert messages == [D.FieldUpdate(12, None), D.BoardDump(START_WIRE)]
    assert reader.errors["stray"] == 2 and reader.errors["cut"] == 2


def test_dgt_reader_drops_impossible_values() -> None:
    reader = D.DgtReader()
    assert reader.feed(bytes((0x8E, 0, 5, 64, 1, 0x8E, 0, 5, 3, 13, 0x8E, 0, 7))) == []
    assert reader.errors["bad_value"] == 2 and reader.errors["bad_size"] == 1
    assert reader.feed(bytes((0x8E, 0, 5, 63, 12))) == [D.FieldUpdate(63, "q")]


def test_dgt_revelation_leds_command() -> None:
    assert D.leds_command(True, 12, 12) == bytes((0x60, 0x04, 0x01, 12, 12, 0x00))
    assert D.leds_command(False, 0, 63) == bytes((0x60, 0x04, 0x00, 0, 63, 0x00))


def test_wire_squares_count_from_a8() -> None:
    assert [wire_to_cell(s) for s in (0, 7, 56, 63, 52, 36)] == [56, 63, 0, 7, 12, 28]  # a8 h8 a1 h1 e2 e4
    assert all(cell_to_wire(wire_to_cell(s)) == s for s in range(64))


# -- Millennium -------------------------------------------------------------------------------------
def test_millennium_check_digits_from_a_published_trace() -> None:
    # A ChessLink trace (python-mchess docs): the host sends "V56", the board answers "v010374".
    assert M.command("V") == b"V56"
    assert M.check("v0103") == "74"
    (reply,) = M.MillenniumReader().feed(b"v010374")
    assert reply == M.Reply("v", "0103")
    assert M.command("S") == b"S53" and M.command("X") == b"X58"


def test_millennium_status_of_the_start_position_with_parity_bits() -> None:
    text = "s" + "rnbqkbnr" + "p" * 8 + "." * 32 + "P" * 8 + "RNBQKBNR"
    frame = (text + M.check(text)).encode("ascii")
    assert len(frame) == M.REPLY_LENGTHS["s"] == 67
    # read as 8-bit bytes, the odd parity lands in bit 7: the reader ignores it
    with_parity = bytes(b | 0x80 if bin(b).count("1") % 2 == 0 else b for b in frame)
    (status,) = M.MillenniumReader().feed(with_parity)
    assert status == M.Status(START_WIRE)


def test_millennium_settings_and_leds_commands() -> None:
    assert M.write_setting(0x02, 0x04) == b"W0204" + M.check("W0204").encode()
    # R: 0x52 ^ 0x30 ^ 0x32 = 0x50; the reply echoes the address and gives the byte
    assert M.read_setting(0x02) == b"R0250"
    (reply,) = M.MillenniumReader().feed(b"r0200" + M.check("r0200").encode())
    assert reply == M.Reply("r", "0200")
    assert M.check("W0204") == f"{ord('W') ^ ord('0') ^ ord('2') ^ ord('0') ^ ord('4'):02X}"
    frame = M.leds_command(0x0F, [0] * 80 + [0xFF])
    assert len(frame) == 1 + 2 + 162 + 2 and frame.startswith(b"L0F00") and frame[-4:-2] == b"FF"
    with pytest.raises(ValueError):
        M.leds_command(1, [0] * 64)


def test_millennium_corner_leds_follow_the_description() -> None:
    # LED 1 at the a8 corner, 9 at a1, 73 at h8, 81 at h1 (0-based here: 0, 8, 72, 80)
    assert 0 in M.corner_leds(0) and 8 in M.corner_leds(56) and 72 in M.corner_leds(7) and 80 in M.corner_leds(63)
    assert sorted(M.corner_leds(0)) == [0, 1, 9, 10]


def test_millennium_reader_matches_replies_by_letter_through_noise() -> None:
    reader = M.MillenniumReader()
    status = "s" + "." * 64
    good = (status + M.check(status)).encode()
    bad = (status + "00").encode() if M.check(status) != "00" else (status + "01").encode()
    messages = reader.feed(b"zz" + bad + b"l" + M.check("l").encode() + good + b"x" + M.check("x").encode())
    assert messages == [M.Reply("l", ""), M.Status((None,) * 64), M.Reply("x", "")]
    assert reader.errors["bad_check"] >= 1 and reader.errors["stray"] >= 2


def test_millennium_a_cut_message_does_not_hold_back_the_next() -> None:
    reader = M.MillenniumReader()
    assert reader.feed(b"s.....") == []  # cut short by noise
    assert reader.feed(b"v010374") == [M.Reply("v", "0103")]
