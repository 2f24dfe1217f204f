"""What the DGT driver asks the board, and when: a question the board answers holds the line
(a dump 70 ms at 9600 baud), and a field update of the hands that falls in it waits behind it.
So the driver checks a move's updates against a dump only once the board has been quiet for
``QUIET_MS``, puts its periodic check off while the hands are at work, and asks the serial
number only when nothing came from the board for ``poll_ms``.

The driver is driven on the host's clock given here (its ``_handle`` and ``_tick`` take it),
writing to a real pyserial ``loop://`` port, so what it sent is read back byte for byte."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import serial

from firmware_bridge.boards import dgt_codec as D
from firmware_bridge.boards.dgt import CHECK_ANYWAY, QUIET_MS, REPORT_MARGIN_MS, DgtDriver
from firmware_bridge.boards.driver import START_WIRE
from firmware_bridge.boards.emulators import DgtEmulator

DUMP, SERIAL = bytes((D.SEND_BRD,)), bytes((D.SEND_SERIALNR,))


@pytest.fixture
def driver() -> Iterator[DgtDriver]:
    """A DGT driver greeted at t = 0 on a loop port, its greeting read away."""
    link = DgtDriver("loop://", poll_ms=1000, check_ms=3000)
    port = serial.serial_for_url("loop://", timeout=0.05)
    link._serial = port
    with link._lock:
        link._greet(0.0)
    assert DUMP in port.read(64)
    answer_dump(link, 0.0)
    yield link
    port.close()


def answer_dump(link: DgtDriver, at: float) -> None:
    with link._lock:
        link._handle(D.BoardDump(START_WIRE), at)


def sent(link: DgtDriver) -> bytes:
    assert link._serial is not None
    return link._serial.read(64)


def update(link: DgtDriver, at: float, square: int = 52) -> None:
    with link._lock:
        link._handle(D.FieldUpdate(square, None), at)


def tick(link: DgtDriver, at: float) -> bytes:
    with link._lock:
        link._tick(at)
    return sent(link)


def test_a_moves_updates_are_checked_by_a_dump_only_after_a_second_of_quiet(driver: DgtDriver) -> None:
    update(driver, 10.0)
    one_scan = (driver.scan_ms + REPORT_MARGIN_MS) / 1000
    # One scan after the update (when the dump used to be asked) the line stays free.
    assert tick(driver, 10.0 + one_scan + 0.01) == b""
    # Another update of the same move moves the check on.
    update(driver, 10.5, square=36)
    assert tick(driver, 10.5 + QUIET_MS / 1000 - 0.01) == b""
    assert tick(driver, 10.5 + QUIET_MS / 1000 + 0.001) == DUMP


def test_a_quiet_below_one_scan_is_raised_to_one_scan(driver: DgtDriver) -> None:
    driver.quiet_ms = 50
    update(driver, 10.0)
    assert tick(driver, 10.1) == b""  # a report of the square's next visit may still come
    assert tick(driver, 10.0 + (driver.scan_ms + REPORT_MARGIN_MS) / 1000 + 0.001) == DUMP


def test_the_serial_number_is_asked_only_after_a_silence(driver: DgtDriver) -> None:
    # Messages every 0.6 s for 3 s: the board is heard from, no question is needed.
    for k in range(1, 6):
        update(driver, 0.6 * k, square=k)
        assert SERIAL not in tick(driver, 0.6 * k + 0.3)
    # A second after the last: the moves' check, whose answer shows the board alive too.
    assert tick(driver, 3.0 + QUIET_MS / 1000 + 0.001) == DUMP
    answer_dump(driver, 4.1)
    assert tick(driver, 4.1 + 0.99) == b""
    # Then nothing for longer than poll_ms: asked.
    assert tick(driver, 4.1 + 1.01) == SERIAL


def test_the_periodic_check_waits_for_quiet_but_not_for_ever(driver: DgtDriver) -> None:
    # Updates every 0.5 s: never quiet for QUIET_MS, so no dump until CHECK_ANYWAY checks were due.
    t = 0.0
    dumps: list[float] = []
    while t < CHECK_ANYWAY * 3.0 + 1.0:
        t += 0.5
        update(driver, t, square=int(t * 2) % 64)
        at = t + (driver.scan_ms + REPORT_MARGIN_MS) / 1000 + 0.001  # (no report due then)
        if DUMP in tick(driver, at):
            dumps.append(at)
            answer_dump(driver, t + 0.3)
    assert len(dumps) == 1 and CHECK_ANYWAY * 3.0 < dumps[0] < CHECK_ANYWAY * 3.0 + 0.5


def test_the_emulators_line_holds_a_field_update_behind_a_dump() -> None:
    """What the driver's waits are for: the emulated board, like a real one, sends one message
    at a time at 9600 baud, so a change its scan finds while a dump is on the line is reported
    after the dump's 67 bytes. The line's times are the emulator's model (``line_log``: due
    times computed from the bytes), not measured."""
    board = DgtEmulator("chess")
    with board, board._lock:  # (the board thread waits: nothing is written or scanned meanwhile)
        now = board._now()
        board._from_host(bytes((D.SEND_UPDATE_NICE, D.SEND_BRD)), now)
        board.physical[52] = None  # e2 lifted (wire square 52)
        board._scan_pos, board._last_scan_at = 52.0, now - 10  # the scan reaches e2 ...
        board._scan(now)  # ... while the dump is still on the line
        dump, update = board.line_log[-2:]
    assert dump.head[0] == 0x80 | 0x06 and update.head[:4] == bytes((0x8E, 0, 5, 52)) and update.change
    assert update.due - dump.due == pytest.approx(5 * board.bits_per_byte_ms / 1000)
    assert dump.due - dump.queued == pytest.approx(67 * board.bits_per_byte_ms / 1000, abs=0.002)
