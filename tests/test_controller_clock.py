"""The pure chess clock: parsing time controls, sudden death, Fischer increment, US and Bronstein
delay, several periods, three sides, pause, flag fall, takeback and the saved state."""

from __future__ import annotations

import pytest

from controller.clock import Clock, TimeControlError, format_clock, parse_time_control, pgn_clock


def test_parse_and_write_back() -> None:
    tc = parse_time_control("40/90+30,30+30")
    assert [(p.moves, p.minutes, p.increment_s) for p in tc.periods] == [(40, 90, 30), (0, 30, 30)]
    assert tc.text == "40/90+30,30+30"
    assert tc.pgn == "40/5400+30:1800+30"
    assert parse_time_control("5+3").pgn == "300+3"
    assert parse_time_control("5").pgn == "300"
    assert parse_time_control("5d3").periods[0].delay == "us"
    assert parse_time_control("5b3").periods[0].delay == "bronstein"


@pytest.mark.parametrize("text", ["", "5+", "abc", "40/90", "90,30", "0"])
def test_bad_controls_are_one_line_errors(text: str) -> None:
    with pytest.raises(TimeControlError) as exc:
        parse_time_control(text)
    assert "\n" not in str(exc.value)


def test_sudden_death_runs_only_the_side_to_move_and_flags() -> None:
    c = Clock(parse_time_control("1"))
    c.start(0)
    assert c.left(0, 10_000) == 50_000 and c.left(1, 10_000) == 60_000
    assert c.press(10_000) is None
    assert c.left(0, 30_000) == 50_000 and c.left(1, 30_000) == 40_000
    assert c.flag_at() == 70_000
    assert c.check_flag(69_999) is None
    assert c.check_flag(70_000) == 1
    assert c.press(71_000) == 1  # too late


def test_fischer_increment() -> None:
    c = Clock(parse_time_control("5+3"))
    c.start(0)
    c.press(4_000)
    assert c.left(0, 4_000) == 300_000 - 4_000 + 3_000


def test_us_delay_waits_before_running() -> None:
    c = Clock(parse_time_control("5d3"))
    c.start(0)
    assert c.left(0, 2_000) == 300_000
    assert c.left(0, 5_000) == 298_000
    c.press(2_500)
    assert c.left(0, 2_500) == 300_000
    assert c.flag_at() == 2_500 + 300_000 + 3_000


def test_bronstein_delay_gives_back_at_most_the_delay() -> None:
    c = Clock(parse_time_control("5b3"))
    c.start(0)
    c.press(2_000)
    assert c.left(0, 2_000) == 300_000
    c.press(12_000)  # black used 10 s, gets 3 back
    assert c.left(1, 12_000) == 293_000


def test_second_period_time_arrives_after_the_40th_move() -> None:
    c = Clock(parse_time_control("2/1,1"))  # 2 moves in 1 minute, then 1 minute more
    c.start(0)
    t = 0
    for _ in range(2):
        t += 1_000
        c.press(t)  # white
        t += 1_000
        c.press(t)  # black
    assert c.left(0, t) == 60_000 - 2_000 + 60_000
    assert c.period == [1, 1]


def test_three_sides_turn_in_order() -> None:
    c = Clock(parse_time_control("1"), nsides=3)
    c.start(0)
    c.press(1_000)
    c.press(3_000)
    assert c.turn == 2
    assert c.seconds(6_000) == (59.0, 58.0, 57.0)
    c.press(6_000)
    assert c.turn == 0


def test_pause_stops_the_time() -> None:
    c = Clock(parse_time_control("1"))
    c.start(0)
    c.pause(5_000)
    assert c.left(0, 50_000) == 55_000
    assert c.flag_at() is None and c.next_change(50_000) is None
    c.resume(50_000)
    assert c.left(0, 51_000) == 54_000


def test_takeback_gives_the_turn_back_not_the_time() -> None:
    c = Clock(parse_time_control("1+2"))
    c.start(0)
    c.press(5_000)
    c.takeback(7_000)
    assert c.turn == 0 and c.moves == [0, 0]
    assert c.left(0, 8_000) == 57_000 - 1_000
    assert c.left(1, 8_000) == 58_000


def test_saved_state_resumes_where_it_was() -> None:
    c = Clock(parse_time_control("5d3"))
    c.start(0)
    c.press(10_000)
    text = c.to_json(15_000)
    back = Clock.from_json(text)
    assert not back.running
    assert back.seconds(99_999) == c.seconds(15_000)
    back.resume(100_000)
    assert back.left(1, 101_000) == c.left(1, 16_000)


def test_next_change_is_the_next_visible_tick() -> None:
    c = Clock(parse_time_control("1"))
    c.start(0)
    assert c.next_change(250) == 1_000
    assert c.next_change(55_050) == 55_100  # under ten seconds: tenths


def test_formats() -> None:
    assert format_clock(581_000) == "9:41"
    assert format_clock(3_909_000) == "1:05:09"
    assert format_clock(7_340) == "7.3"
    assert pgn_clock(581_000) == "0:09:41"
    assert pgn_clock(580_200) == "0:09:41"


@pytest.mark.parametrize(("fen", "flagged", "result", "termination"), [
    ("4k3/8/8/8/8/8/8/4K2Q w - - 0 1", 1, "1-0", "time_forfeit"),
    ("4k3/8/8/8/8/8/8/4K2Q w - - 0 1", 0, "1/2-1/2", "timeout_vs_insufficient_material"),
    ("4k3/8/8/8/8/8/8/4K2N b - - 0 1", 1, "1/2-1/2", "timeout_vs_insufficient_material"),
    ("4k2p/8/8/8/8/8/8/4K2N b - - 0 1", 1, "1-0", "time_forfeit"),  # K+N can mate a king with a pawn
    ("4k3/8/8/8/8/8/8/4K2P b - - 0 1", 1, "1-0", "time_forfeit"),
])
def test_flag_fall_result_follows_fide(fen: str, flagged: int, result: str, termination: str) -> None:
    import engine
    from controller.game_clock import flag_outcome

    pos = engine.parse_fen(engine.find_variant("chess"), fen)
    outcome = flag_outcome(pos, flagged)
    assert (outcome.result(), outcome.termination) == (result, termination)
