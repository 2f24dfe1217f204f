"""The search bench's positions (``--first-ply`` takes them past an opening stage, Triscacia's
thirty placements, where what time buys differs from the placing itself) and its ``--scores``
table."""

from __future__ import annotations

import pytest

from bench.search import positions, scores_by_depth
from engine import find_variant, start_position


def test_positions_start_with_the_start_then_random_plies() -> None:
    ps = positions("triscacia", 3, 1)
    start = start_position(find_variant("triscacia"))
    assert ps[0].hash == start.hash
    assert all(6 <= len(p.history) - len(start.history) < 30 for p in ps[1:])


def test_first_ply_leaves_the_start_out_and_plays_past_the_placement() -> None:
    start = start_position(find_variant("triscacia"))
    ps = positions("triscacia", 3, 1, first=30)
    assert len(ps) == 3
    assert all(len(p.history) - len(start.history) >= 30 for p in ps)
    assert all(sum(p.hands[s].values()) == 0 for p in ps for s in range(3))  # every man is placed


def test_scores_by_depth_prints_the_static_score_and_each_iteration(capsys: pytest.CaptureFixture[str]) -> None:
    scores_by_depth("chess", 2, 2, 1)
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("# search: --variants chess --scores 2")
    rows = [line.split() for line in lines[1:]]
    assert len(rows) == 2
    for row in rows:
        assert row[0] == "chess" and row[1] == "static" and row[3::2] == ["d1", "d2"]
        assert all(x.lstrip("-").isdigit() for x in row[2::2])  # a score after each label
