"""Millennium boards as real ones behave (issue 27): ``R`` replies of other shapes read and
tolerated, a ``W`` echo checked for the value written, a board turned round (cable right, h1
first) read the right way when a game is resumed, and odd parity made in software where the
link (Bluetooth) does not supply it. Driver and emulator on a real pseudo-terminal."""

from __future__ import annotations

import pytest
import serial

from firmware_bridge.boards import millennium_codec as M
from firmware_bridge.boards.emulators import MillenniumEmulator
from firmware_bridge.boards.millennium import MillenniumDriver
from tests.emulated_boards import TIMEOUT, driver_on, eventually, until


def test_reader_takes_r_replies_of_other_lengths() -> None:
    reader = M.MillenniumReader()
    short = "r14" + M.check("r14")
    long = "r011400" + M.check("r011400")
    usual = "r0114" + M.check("r0114")
    assert reader.feed((short + long + usual).encode()) == [M.Reply("r", "14"), M.Reply("r", "011400"),
                                                            M.Reply("r", "0114")]
    assert reader.error_total == 0


def test_odd_parity_in_bit_7() -> None:
    out = M.with_odd_parity(M.command("V"))  # "V56"
    assert out == bytes((0xD6, 0xB5, 0xB6))  # "V", "5" and "6" have four ones each: bit 7 set
    assert all(bin(b).count("1") % 2 == 1 for b in M.with_odd_parity(bytes(range(128))))
    assert bytes(b & 0x7F for b in out) == b"V56"


@pytest.mark.parametrize("shape", ["value", "long"])
def test_r_replies_of_other_shapes_are_logged_and_the_greeting_goes_on(shape: str, caplog) -> None:
    caplog.set_level("INFO")
    with MillenniumEmulator("chess", r_shape=shape) as board, driver_on(board, MillenniumDriver) as link:
        assert until(link, lambda: len(link.found_settings) == 2)
        assert link.found_settings == {0x01: 20, 0x02: 0}
        assert link.stats["reply_r_other"] == 2 and link.stats["bad_check"] == 0
        assert "another shape" in caplog.text


def test_a_w_echo_with_another_value_is_not_taken_for_the_setting(caplog) -> None:
    with (MillenniumEmulator("chess", ignore_writes=(0x02,)) as board,
          driver_on(board, MillenniumDriver, poll_ms=100) as link):
        # (No pings meanwhile: a ping is the poll the driver writes the setting again with.)
        assert eventually(lambda: link.stats["settings_not_taken"] >= 2)  # written again, refused again
        assert board.raw_in.count(b"W0203") >= 2
        assert "echoed setting 02 as 00, not the 03 written" in caplog.text


def test_a_board_turned_round_is_read_the_right_way_when_a_game_is_resumed() -> None:
    moves = "lift e2\nplace e4\nlift e7\nplace e5\n"
    expected: list[str | None] = [None] * 64
    for square, piece in enumerate("RNBQKBNRPPPP.PPP" + "." * 12 + "P..." + "....p..." + "." * 8
                                   + "pppp.ppp" + "rnbqkbnr"):
        expected[square] = None if piece == "." else piece
    for told, flipped in ((False, None), (True, True)):
        with MillenniumEmulator("chess", turned=True) as board:
            first = MillenniumDriver(board.path).start()  # the game began: start position, turned round
            try:
                assert first.wait_connected(TIMEOUT) and first.flipped is True
            finally:
                first.close()
            board.play(moves, timeout=TIMEOUT, wait_for_host=False)  # played on; then the service restarts
            assert scanned(board)
            drain(board)
            link = MillenniumDriver(board.path)
            if told:
                link.expect_position(expected)
            link.start()
            try:
                assert link.wait_connected(TIMEOUT)
                assert link.flipped is flipped
                pieces = link.pieces()
                if told:
                    assert list(pieces) == expected
                else:  # the way it used to be: mirrored (e4's pawn read on d5)
                    assert pieces[28] is None and pieces[63 - 28] == "P"
            finally:
                link.close()


def scanned(board: MillenniumEmulator) -> bool:
    """The emulator's scan has seen what the hands did."""
    return eventually(lambda: board.seen == board.physical)


def drain(board: MillenniumEmulator) -> None:
    """Read what the board said while no host listened (the pty keeps it), as a host that
    empties its input on opening would: the next driver's first report is then the board now."""
    with serial.serial_for_url(board.path, timeout=0.3) as port:
        while port.read(4096):
            pass


def test_parity_is_made_in_software_on_a_bluetooth_link() -> None:
    assert MillenniumDriver("/dev/rfcomm0").soft_parity and not MillenniumDriver("/dev/ttyACM0").soft_parity
    # The board reads 7 bits: the parity bit is ours.
    with MillenniumEmulator("chess") as board, driver_on(board, MillenniumDriver, soft_parity=True) as link:
        link.ping(TIMEOUT)
        assert board.raw_in and all(bin(b).count("1") % 2 == 1 for b in board.raw_in)
        assert any(b & 0x80 for b in board.raw_in)
