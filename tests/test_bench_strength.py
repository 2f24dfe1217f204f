"""The strength bench's matches can be cut and taken up again (``--resume``)."""

from __future__ import annotations

import pytest

from bench.strength import MatchSpec, match, resumed

SPEC = MatchSpec("zeta-short", "random", 0.01, 1, 200, 20, "cpu")


def test_a_resumed_match_counts_the_games_already_played(capsys: pytest.CaptureFixture[str]) -> None:
    earlier = [SPEC.line(0, "W", 30, False), SPEC.line(1, "D", 200, True), "zeta-short vs random ..."]
    tally = match(SPEC, 2, earlier)
    assert (tally.wins, tally.draws, tally.losses, tally.adjudicated, tally.plies) == (1, 1, 0, 1, [30, 200])
    assert "game " not in capsys.readouterr().out  # nothing played again


def test_only_games_of_the_same_settings_count() -> None:
    other = MatchSpec("zeta-short", "random", 0.02, 1, 200, 20, "cpu")
    lines = [other.line(0, "L", 10, False), SPEC.line(3, "W", 12, False)]
    assert resumed(SPEC, lines) == {3: ("W", 12, False, "")}


def test_the_games_left_are_played_and_printed(capsys: pytest.CaptureFixture[str]) -> None:
    tally = match(SPEC, 2, [SPEC.line(0, "W", 30, False)])
    out = capsys.readouterr().out.splitlines()
    assert [line for line in out if line.startswith("game ")] == [
        SPEC.line(1, "W" if tally.wins == 2 else "D" if tally.draws else "L", tally.plies[-1], False)]
    assert resumed(SPEC, out).keys() == {1}


def test_three_sides_say_who_won_the_games_lost(capsys: pytest.CaptureFixture[str]) -> None:
    # Triscacia's losses are of two kinds: mated by the right-hand opponent, or the left-hand one
    # mating the right-hand one; a line keeps which, and a resumed match counts them.
    spec = MatchSpec("triscacia", "time", 0.5, 2, 200, 20, "cpu")
    earlier = [spec.line(0, "L", 40, False, "left"), spec.line(1, "L", 50, False, "right"),
               spec.line(2, "L", 60, False, "left"), spec.line(3, "W", 70, False)]
    assert earlier[0].endswith(" adj=0 won=left")
    tally = match(spec, 4, earlier)
    assert (tally.wins, tally.losses, tally.lost_to) == (1, 3, {"left": 2, "right": 1})
    assert "game " not in capsys.readouterr().out


def test_a_time_match_of_another_multiple_keeps_its_own_games() -> None:
    # Lines written before --factor existed carry none: they are the 4x matches.
    four = MatchSpec("triscacia", "time", 0.5, 2, 200, 20, "cpu")
    twenty = MatchSpec("triscacia", "time", 0.1, 2, 200, 20, "cpu", factor=20.0)
    old = four.line(0, "W", 70, False)
    assert "factor" not in old
    new = twenty.line(1, "L", 40, False, "left")
    assert " factor=20.0 " in new
    legacy_twenty = new.replace(" factor=20.0", "")  # the same settings at the default multiple
    assert resumed(four, [old, new]) == {0: ("W", 70, False, "")}
    assert resumed(twenty, [old, new, legacy_twenty]) == {1: ("L", 40, False, "left")}
