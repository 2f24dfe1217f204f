"""A board's stamps on the host's clock: a host that reads late does not move the hands' times."""

from __future__ import annotations

from firmware_bridge.board_clock import WINDOW_MS, BoardClock


def read(clock: BoardClock, board_ms: int, host_ms: int) -> int | None:
    """A change stamped ``board_ms`` read at ``host_ms``: its time on the host's clock."""
    clock.note(board_ms, host_ms)
    return clock.host_ms(board_ms)


def test_a_late_read_keeps_the_board_s_time() -> None:
    clock = BoardClock()
    # the board booted 1,000 ms after the host's zero; the line takes 5 ms
    assert read(clock, 100, 1_105) == 1_105
    assert read(clock, 900, 1_905) == 1_905
    # the host stalls: this change is read 3 s late, the next one promptly again
    assert read(clock, 1_500, 5_505) == 2_505
    assert read(clock, 2_000, 3_005) == 3_005


def test_a_run_of_late_reads_keeps_the_board_s_gaps() -> None:
    clock = BoardClock()
    read(clock, 0, 1_005)
    # eleven seconds of a starved host: every change comes in late, in a burst
    assert [read(clock, board, 14_000) for board in (400, 1_400, 2_900)] == [1_405, 2_405, 3_905]


def test_heartbeats_teach_the_offset_before_the_first_change() -> None:
    clock = BoardClock()
    assert clock.host_ms(0) is None
    clock.note(0, 1_050)  # a heartbeat read slowly, while the host was starting
    clock.note(250, 1_255)  # the next one promptly
    assert read(clock, 400, 1_900) == 1_405  # the game's first change, read half a second late


def test_the_fastest_read_sets_the_offset() -> None:
    clock = BoardClock()
    assert read(clock, 0, 1_050) == 1_050  # the first read was slow
    assert read(clock, 500, 1_505) == 1_505
    assert read(clock, 600, 1_640) == 1_605  # slower than that one: its time is the board's


def test_a_board_restart_starts_the_offset_afresh() -> None:
    clock = BoardClock()
    read(clock, 50_000, 51_005)
    # the board rebooted 60 s into the game: its clock went back
    assert read(clock, 300, 60_305) == 60_305
    assert read(clock, 800, 60_805) == 60_805


def test_the_u32_wrap_is_a_fresh_start() -> None:
    clock = BoardClock()
    read(clock, 2**32 - 10, 1_000)
    assert read(clock, 20, 1_030) == 1_030


def test_a_restarted_clock_is_learned_again() -> None:
    clock = BoardClock()
    read(clock, 1_000, 2_005)
    # unplugged; the board restarted and ran longer than before it was plugged back
    clock.restart()
    assert read(clock, 90_000, 200_005) == 200_005


def test_a_slow_board_clock_is_followed() -> None:
    clock = BoardClock()
    # the board's clock loses 1 % against the host's: each second it is 10 ms further behind
    n = 3 * WINDOW_MS // 1000
    times = [read(clock, 990 * k, 1_000 * k + 5) for k in range(n)]
    last = times[-1]
    assert last is not None
    # the smallest offset of the window's frames: at most the window's drift behind
    assert 1_000 * (n - 1) + 5 - last <= WINDOW_MS // 100 + 10
    assert last - 990 * (n - 1) > WINDOW_MS // 100  # it did move on from the first offset


def test_a_stall_full_of_heartbeats_keeps_the_offset() -> None:
    clock = BoardClock()
    read(clock, 0, 1_005)
    # the host stops for 10 s; forty heartbeats and a change wait in the port, then come at once
    for board in range(250, 10_001, 250):
        clock.note(board, 11_500)
    assert read(clock, 10_100, 11_500) == 11_105
