"""The offline DGT bench's account of a stopped game: which moves the computed board never
showed (``never_shown``), from what a board scanning its squares in turn reports."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import engine
from bench.dgt_offline import dgt_reports, never_shown
from tests.historical_games import historical_games

REPO = Path(__file__).resolve().parent.parent

CHESS = engine.find_variant("chess")
SCAN_MS = 220.0
#: With scan phase 0, e4 (wire square 36) is visited at 123.75 ms and 343.75 ms; d5 (27) at
#: 92.8 ms, 312.8 ms and 532.8 ms.
MOVES = ["e2e4", "d7d5", "e4d5"]


def test_a_pawn_taken_before_the_scan_came_round_was_never_shown() -> None:
    # e4 is filled at 200 and left at 300, between two of its visits; Black's pawn stands on d5
    # from 240 to 310, between two of d5's; White's takes its place at 320, seen at 532.8.
    actions = [(10.0, "lift", "e2", None, 0), (200.0, "place", "e4", "P", 0),
               (210.0, "lift", "d7", None, 1), (240.0, "place", "d5", "p", 1),
               (300.0, "lift", "e4", None, 2), (310.0, "lift", "d5", None, 2), (320.0, "place", "d5", "P", 2)]
    reports = dgt_reports(actions, CHESS, SCAN_MS, 0.0)
    assert never_shown(CHESS, MOVES, reports) == {0, 1}


def test_moves_that_rest_a_scan_are_all_shown() -> None:
    actions = [(10.0, "lift", "e2", None, 0), (100.0, "place", "e4", "P", 0),
               (500.0, "lift", "d7", None, 1), (600.0, "place", "d5", "p", 1),
               (1000.0, "lift", "d5", None, 2), (1010.0, "lift", "e4", None, 2), (1100.0, "place", "d5", "P", 2)]
    reports = dgt_reports(actions, CHESS, SCAN_MS, 0.0)
    assert never_shown(CHESS, MOVES, reports) == set()


def _tail(over_ms: int) -> tuple[list[list[str]], int]:
    """The moves ``--over-ms`` lists for the first game at one phase, and how many moves the
    summary counts as shown (with the move before)."""
    out = subprocess.run([sys.executable, "-m", "bench.dgt_offline", "--games", "1", "--seeds", "0",
                          "--phases", "1", "--over-ms", str(over_ms)],
                         cwd=REPO, capture_output=True, text=True, timeout=120, check=True).stdout
    listed = out.split(f"shown, over {over_ms} ms")[1].split("  referee CPU")[0].splitlines()[1:]
    shown = next(line for line in out.splitlines() if "the board showed it and the move before" in line)
    return [line.split() for line in listed], int(shown.split(": ")[1].split()[0])


def test_the_tail_listing_names_each_shown_move_over_the_bound() -> None:
    """``--over-ms``: every move the board showed that took longer, with the move played at
    that ply; at 0 ms, every move the summary counts as shown."""
    everything, shown = _tail(0)
    assert len(everything) == shown > 0
    tail, _ = _tail(100)
    game = historical_games()[0]
    assert tail and all(float(ms) > 100 and game[int(ply) - 1] == move for ms, _seed, ply, move, *_ in tail)
    assert len(tail) < len(everything)


def _row(out: str, name: str) -> dict[str, float]:
    """A summary row's count and percentiles (``moves``, ``p50``... ``max``)."""
    line = next(line for line in out.splitlines() if name in line)
    words = line.split(": ", 1)[1].replace(" ms", "").split()
    row = {"moves": float(words[0])}
    row.update({words[i]: float(words[i + 1]) for i in range(2, len(words) - 1, 2)})
    return row


def test_the_moves_shown_are_timed_from_the_touch_and_from_the_report() -> None:
    """The board reports a change after the hand made it, so each move's wait from the board's
    report is no longer than its wait from the hand's touch: the same moves, and no percentile
    larger (the issue's goal counts from the last event the referee had, the report)."""
    out = subprocess.run([sys.executable, "-m", "bench.dgt_offline", "--games", "2", "--seeds", "0",
                          "--phases", "1"], cwd=REPO, capture_output=True, text=True, timeout=120, check=True).stdout
    touch = _row(out, "last touch -> final, the board showed it and the move before")
    report = _row(out, "board's last report -> final, the board showed it and the move before")
    assert touch["moves"] == report["moves"] > 50
    assert all(report[p] <= touch[p] for p in ("p50", "p95", "p99", "max"))
    # (A scan's reporting lies between: most of the wait from the touch is the board's.)
    assert report["p50"] < touch["p50"]
