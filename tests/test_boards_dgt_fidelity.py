"""DGT boards as real ones behave (issue 27): the Revelation II recognised from what it says, its
lights for both firmware generations (a move's two squares, "off" with field 0x40), clock
messages framed on the board's line, the DGT 3000 clock, and the Bluetooth board's half-speed
scan. Driver and emulator on a real pseudo-terminal; the emulator's bytes read through pyserial."""

from __future__ import annotations

import threading

import pytest
import serial

from firmware_bridge.boards import dgt_clock
from firmware_bridge.boards import dgt_codec as D
from firmware_bridge.boards.dgt import DgtDriver
from firmware_bridge.boards.dgt_clock import ClockState
from firmware_bridge.boards.dgt_scan import ScanPeriod
from firmware_bridge.boards.emulators import DgtEmulator
from tests.emulated_boards import TIMEOUT, driver_on, eventually, until


def raw_exchange(board: DgtEmulator, data: bytes, expect: int) -> bytes:
    """Write ``data`` to the emulated board as a host would and read ``expect`` bytes back."""
    with serial.serial_for_url(board.path, timeout=TIMEOUT) as port:
        port.write(data)
        return port.read(expect) if expect else b""


# -- the codec -------------------------------------------------------------------------------------

def test_revelation_ii_is_told_by_the_version_at_the_start_of_its_long_serial_number() -> None:
    assert D.revelation_by_serial("3.250010001")
    assert not D.revelation_by_serial("0000012345")  # ten decimal characters: a plain board
    assert not D.revelation_by_serial("REVII01234")  # what the driver once looked for: no DGT board says it


def test_light_commands_and_clock_framing() -> None:
    assert D.leds_command(True, 12, 28) == bytes((0x60, 0x04, 0x01, 12, 28, 0x00))  # e7 and e5
    assert D.leds_clear() == bytes((0x60, 0x04, 0x00, 0x40, 0x40, 0x00))
    assert D.clock_command(D.CLOCK_VERSION) == bytes((0x2B, 0x03, 0x03, 0x09, 0x00))
    text = D.ascii_text("  BEST  ")
    assert text[:4] == bytes((0x2B, 0x0C, 0x03, 0x0C)) and text[4:12] == b"  BEST  " and len(text) == 14
    assert D.setnrun(5 * 60_000, 4 * 60_000 + 59_000, D.RUN_LEFT) == bytes(
        (0x2B, 0x0A, 0x03, 0x0A, 0, 5, 0, 0, 4, 59, 0x01, 0x00))


def test_bwtime_reads_times_and_acknowledgements() -> None:
    reader = D.DgtReader()
    # right 0:04:59, left 1:05:00 (BCD), lever high on the right, running
    (times,) = reader.feed(bytes((0x8D, 0, 10, 0x00, 0x04, 0x59, 0x01, 0x05, 0x00, 0x03)))
    assert times == D.ClockTimes(left_ms=3_900_000, right_ms=299_000, status=0x03)
    assert times.connected and times.right_high
    # the version acknowledgement of a DGT 3000 2.2: ack0 0x10, ack1 0x09, ack2 0x22
    (ack,) = reader.feed(bytes((0x8D, 0, 10, 0x0A, 0x10, 0x09, 0x0A, 0x22, 0x00, 0x00)))
    assert ack == D.ClockAck(0x10, 0x09, 0x22, 0x00) and ack.ok
    (none,) = reader.feed(bytes((0x8D, 0, 10, 0, 0, 0, 0, 0, 0, 0x20)))
    assert isinstance(none, D.ClockTimes) and not none.connected


# -- the emulator answers as a real board -----------------------------------------------------------------

def test_emulator_lights_a_moves_two_squares_not_the_range_between() -> None:
    with DgtEmulator("chess", revelation=True) as board:
        raw_exchange(board, D.leds_command(True, 12, 28), 0)  # e7e5
        assert eventually(lambda: board.led_commands == 1)
        assert board.lit == {12, 28}
        raw_exchange(board, D.leds_clear(), 0)
        assert eventually(lambda: board.led_commands == 2) and board.lit == set()


def test_emulator_firmware_3_21_ignores_off() -> None:
    with DgtEmulator("chess", revelation=True, firmware=(3, 21)) as board:
        raw_exchange(board, D.leds_command(True, 12, 28) + D.leds_clear() + D.leds_command(False, 12, 12), 0)
        assert eventually(lambda: board.led_commands == 3)
        assert board.lit == {12, 28}


def test_emulator_reads_clock_messages_whole_and_answers_version_and_acks() -> None:
    with DgtEmulator("chess", clock=(2, 2)) as board:
        # Update mode, then a clock text whose bytes include 0x42 ("B", a dump request) and 0x45.
        out = raw_exchange(board, bytes((0x4B,)) + D.ascii_text("  BEST  ") + D.clock_command(D.CLOCK_VERSION), 20)
        first, second = D.DgtReader().feed(out)
        assert first == D.ClockAck(0x10, D.CLOCK_ASCII, 0, 0)
        assert second == D.ClockAck(0x10, D.CLOCK_VERSION, 0x22, 0)
        assert board.clock_text == "  BEST  "
        assert not any(m[0] == 0x86 for m in board.sent)  # no board dump: "B" was text, not a command


def test_emulator_without_a_clock_answers_no_clock_command() -> None:
    with DgtEmulator("chess") as board:
        out = raw_exchange(board, bytes((0x4B,)) + D.clock_command(D.CLOCK_VERSION) + bytes((0x45,)), 8)
        assert D.DgtReader().feed(out) == [D.SerialNumber("12345")]  # only the serial number's answer


# -- the driver -------------------------------------------------------------------------------------

def test_driver_recognises_a_revelation_ii_and_lights_squares_in_pairs() -> None:
    with DgtEmulator("chess", revelation=True) as board, driver_on(board, DgtDriver) as link:
        assert link.hello is not None and link.hello.lights and link.hello.firmware == "3.25"
        link.set_leds([12, 28, 6], "on")  # e2, e4, g1: all off, then (e4, e2) and (g1, g1)
        assert until(link, lambda: board.lit == {52, 36, 62})
        link.set_leds([], "off")
        assert until(link, lambda: board.lit == set())


def test_driver_lights_nothing_on_firmware_that_cannot_clear_them() -> None:
    with DgtEmulator("chess", revelation=True, firmware=(3, 21)) as board, driver_on(board, DgtDriver) as link:
        assert link.hello is not None and not link.hello.lights
        link.set_leds([12, 28], "on")
        link.ping(TIMEOUT)
        assert board.led_commands == 0


@pytest.mark.parametrize(("revelation", "forced", "lights"), [(True, False, False), (False, True, True)])
def test_configuration_forces_the_revelation_reading(revelation: bool, forced: bool, lights: bool) -> None:
    with (DgtEmulator("chess", revelation=revelation, firmware=(3, 25)) as board,
          driver_on(board, DgtDriver, revelation=forced) as link):
        assert link.hello is not None and link.hello.lights is lights


def test_dgt_3000_shows_both_times_and_the_move_and_its_lever_is_the_clock_button(monkeypatch) -> None:
    monkeypatch.setattr(dgt_clock, "MOVE_SHOWN_S", 0.0)
    pressed = threading.Event()
    def button(name: str) -> None:
        if name == "clock":
            pressed.set()

    with DgtEmulator("chess", clock=(2, 2)) as board, driver_on(board, DgtDriver, on_button=button) as link:
        assert until(link, lambda: link.clock.state is ClockState.PRESENT)
        assert link.clock.version == (2, 2) and link.clock.ascii
        link.show_clock(300_000, 280_000, "right", "e2e4")
        assert until(link, lambda: (0x0C, b"e2e4    \x00") in board.clock_commands)
        assert round(board.clock_ms[0]) == 300_000 and board.clock_running == 0x02  # right runs
        assert until(link, lambda: board.clock_commands[-1][0] == D.CLOCK_END and board.clock_text == "")
        assert until(link, lambda: link.clock.times is not None)  # the running clock reports its times
        assert not pressed.is_set()
        board.press_lever()
        assert pressed.wait(TIMEOUT)


def test_a_board_without_a_clock_works_as_before(monkeypatch) -> None:
    monkeypatch.setattr(dgt_clock, "PROBE_S", 0.2)
    with DgtEmulator("chess") as board, driver_on(board, DgtDriver) as link:
        assert until(link, lambda: link.clock.state is ClockState.ABSENT)
        sent = len(board.clock_commands)
        link.show_clock(300_000, 300_000, "left", "e2e4")
        link.ping(TIMEOUT)
        assert len(board.clock_commands) == sent  # nothing more is sent to an absent clock
        board.play("lift e2\nplace e4\n", timeout=TIMEOUT)
        assert until(link, lambda: link.pieces()[28] == "P")


# -- Bluetooth: half-speed scans --------------------------------------------------------------------

def updates(period: float, n: int) -> list[tuple[float, int]]:
    out, t = [], 0.0
    for i in range(n):
        t += period * (1 + (i % 3) / 7)
        square = (i * 17) % 64
        out.append((t - t % period + square / 64 * period + 6, square))
    return sorted(out)


def test_a_bluetooth_board_is_known_by_its_port_and_measured_at_half_speed() -> None:
    assert DgtDriver("/dev/rfcomm0").bluetooth and DgtDriver("/dev/rfcomm0").scan_ms == 500
    assert not DgtDriver("/dev/ttyACM0").bluetooth and DgtDriver("/dev/ttyACM0").scan_ms == 250
    assert DgtDriver("/dev/ttyUSB0", bluetooth=True).bluetooth
    usb, bt = ScanPeriod(), ScanPeriod(half_speed=True)
    for t, square in updates(470, 60):
        usb.observe(square, t)
        bt.observe(square, t)
    assert 470 <= bt.ms <= 480
    assert usb.ms == 250  # read at the USB range, a half-speed board would be trusted too soon
