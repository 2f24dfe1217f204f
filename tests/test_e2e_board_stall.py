"""Stalls past the link's silence limit in the middle of a game, on a loaded machine: the simulated
board (``chessery sim-board``, its own process on a real pty) and the service (``chessery run``,
its own process) are each stopped with SIGSTOP for longer than the link's silence limit (four of
the board's 250 ms heartbeats: 1 s) while the game goes on, then let go with SIGCONT.

- The host stopped while the hands play on: the board's frames wait on the port. The link used to
  wake, read one byte, call the board silent and reconnect, and opening the port again discarded
  every frame waiting: the snapshot then showed the game six plies on, more than the referee
  works out, and the service said "Board does not match the game" (seen as
  ``test_e2e_clock.py::test_increment_clock_follows_the_board`` failing with two whole suites
  at once). Now bytes waiting on the port are read before a silence is judged.
- The board stopped: it really is silent, the link reconnects, and the moves the hands make once
  it runs again are read as played (live, or from the snapshot when they were made while the
  port was closed).
"""

from __future__ import annotations

import signal
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.child import Child, chessery_env
from tests.pty_games import TIMEOUT, Run, replay_stream

#: The link's silence limit for the simulated board (four heartbeats of 250 ms), and how long
#: each stall lasts at least: well past it.
SILENCE_S = 1.0
STALL_S = 2.5
OPENING = ["e2e4", "e7e5"]
GOING_ON = ["g1f3", "b8c6", "f1c4", "g8f6", "d2d3", "f8c5"]


def script(gap_ms: int, pause_ms: int) -> str:
    """The opening with 300 ms between plies, ``pause_ms`` of thought, then the rest of the game
    ``gap_ms`` apart."""
    lines: list[str] = []
    for i, move in enumerate(OPENING + GOING_ON):
        lines += [f"lift {move[:2]}", f"place {move[2:]}"]
        lines.append(f"sleep {300 if i < len(OPENING) - 1 else pause_ms if i == len(OPENING) - 1 else gap_ms}")
    return "\n".join(lines) + "\n"


class StallGame:
    """``chessery sim-board`` playing a script (its link under the test's directory) and
    ``chessery run --headless`` on it; both ended by the test."""

    def __init__(self, tmp_path: Path, text: str) -> None:
        path = tmp_path / "script.txt"
        path.write_text(text)
        self.frame = tmp_path / "frame.png"
        self.board = Child.chessery("sim-board", "--variant", "chess", "--script", str(path),
                                    "--link", str(tmp_path / "board"), env=chessery_env())
        self.run: Run | None = None
        self.printed: list[str] = []
        port = self.board.line("the board's pty path")
        self.run = Run(port, tmp_path / "games.sqlite3", self.frame)
        assert self.run.next_line() == f"frame: {self.frame}"

    def read(self, moves: list[str]) -> None:
        """Read printed lines until the game is ``moves``."""
        assert self.run is not None
        while replay_stream(self.printed) != moves:
            self.printed.append(self.run.next_line())
            assert len(replay_stream(self.printed)) <= len(moves), self.printed

    def end(self) -> None:
        for child in (self.run, self.board):
            if child is not None:
                child.proc.send_signal(signal.SIGCONT)  # (a stopped process is killed all the same)
                child.end()


@pytest.fixture
def stall_game(tmp_path: Path) -> Iterator[list[StallGame]]:
    games: list[StallGame] = []
    yield games
    for game in games:
        game.end()


def hold_stopped(child: Child, since: float) -> None:
    """Keep ``child`` stopped until ``STALL_S`` after ``since``, then let it go on. (The stall
    is the point: nothing is waited for here.)"""
    left = STALL_S - (time.monotonic() - since)
    if left > 0:
        time.sleep(left)
    child.proc.send_signal(signal.SIGCONT)


def test_moves_made_while_the_host_was_stopped_past_the_silence_limit_are_read(tmp_path: Path,
                                                                               stall_game: list[StallGame]) -> None:
    stall_game.append(game := StallGame(tmp_path, script(gap_ms=150, pause_ms=600)))
    assert game.run is not None
    game.read(OPENING)
    game.run.proc.send_signal(signal.SIGSTOP)  # the host stalls; the hands play the rest
    stopped = time.monotonic()
    try:
        assert game.board.line("the board's end of the script") == "done"
    finally:
        hold_stopped(game.run, stopped)
    game.read(OPENING + GOING_ON)
    said = game.run.wait_err(lambda s: "Black played f8c5. White to move" in s, "the last move's status")
    assert "reconnecting" not in said and "does not match" not in said, said
    assert game.run.stop() == 0


def test_a_board_stopped_past_the_silence_limit_comes_back_and_the_game_goes_on(
        tmp_path: Path, stall_game: list[StallGame]) -> None:
    stall_game.append(game := StallGame(tmp_path, script(gap_ms=300, pause_ms=400)))
    assert game.run is not None
    game.read(OPENING)
    game.board.proc.send_signal(signal.SIGSTOP)  # the board and its hands stall
    stopped = time.monotonic()
    try:
        game.run.wait_err(lambda s: "reconnecting" in s, f"the link to call the board silent ({SILENCE_S:g} s)",
                          TIMEOUT)
    finally:
        hold_stopped(game.board, stopped)
    game.read(OPENING + GOING_ON)
    said = game.run.wait_err(lambda s: "Black played f8c5. White to move" in s, "the last move's status")
    assert "back after" in said and "does not match" not in said, said
    assert game.board.line("the board's end of the script") == "done"
    assert game.run.stop() == 0
