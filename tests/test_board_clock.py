"""A board's stamps on the service clock: a host that reads late does not move the hands' times."""

from __future__ import annotations

from controller.board_clock import WINDOW, BoardClock

FAR = 10**9  # "now" far ahead: no clamping


def test_a_late_read_keeps_the_board_s_time() -> None:
    clock = BoardClock()
    # the board booted 1,000 ms after the service; the line takes 5 ms
    assert clock.time_of(100, 1_105, FAR) == 1_105
    assert clock.time_of(900, 1_905, FAR) == 1_905
    # the host stalls: this change is read 3 s late, the next one promptly again
    assert clock.time_of(1_500, 5_505, FAR) == 2_505
    assert clock.time_of(2_000, 3_005, FAR) == 3_005


def test_a_run_of_late_reads_keeps_the_board_s_gaps() -> None:
    clock = BoardClock()
    clock.time_of(0, 1_005, FAR)
    # eleven seconds of a starved host: every change comes in late, in a burst
    times = [clock.time_of(board, 14_000, FAR) for board in (400, 1_400, 2_900)]
    assert times == [1_405, 2_405, 3_905]


def test_the_fastest_read_sets_the_offset() -> None:
    clock = BoardClock()
    assert clock.time_of(0, 1_050, FAR) == 1_050  # the first read was slow
    assert clock.time_of(500, 1_505, FAR) == 1_505
    assert clock.time_of(600, 1_640, FAR) == 1_605  # slower than that one: its time is the board's


def test_a_board_restart_starts_the_offset_afresh() -> None:
    clock = BoardClock()
    clock.time_of(50_000, 51_005, FAR)
    # the board rebooted 60 s into the game: its clock went back
    assert clock.time_of(300, 60_305, FAR) == 60_305
    assert clock.time_of(800, 60_805, FAR) == 60_805


def test_the_u32_wrap_is_a_fresh_start() -> None:
    clock = BoardClock()
    clock.time_of(2**32 - 10, 1_000, FAR)
    assert clock.time_of(20, 1_030, FAR) == 1_030


def test_a_reconnected_board_is_learned_again() -> None:
    clock = BoardClock()
    clock.time_of(1_000, 2_005, FAR)
    # unplugged; the board restarted and ran longer than before it was plugged back
    clock.restart()
    assert clock.time_of(90_000, 200_005, FAR) == 200_005


def test_a_slow_board_clock_is_followed() -> None:
    clock = BoardClock()
    # the board's clock loses 1 % against the host's: each second it is 10 ms further behind
    times = [clock.time_of(990 * k, 1_000 * k + 5, FAR) for k in range(WINDOW * 3)]
    last = 990 * (WINDOW * 3 - 1)
    # the offset is the smallest over the last WINDOW events: at most WINDOW seconds' drift behind
    assert 1_000 * (WINDOW * 3 - 1) + 5 - times[-1] <= 10 * WINDOW
    assert times[-1] - last > 10 * WINDOW  # it did move on from the first offset


def test_never_later_than_now() -> None:
    clock = BoardClock()
    clock.time_of(0, 1_000, FAR)
    assert clock.time_of(500, 1_500, 1_200) == 1_200
