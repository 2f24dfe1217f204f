"""The chess clock through the whole pipeline: the simulated board on a real pty plays into
``chessery run --headless --time-control ...`` (its own process); the clock values the service
stored after each move (the mover's time left, the PGN's ``[%clk]``) must match the game's own
clock -- the board's times of each move's final placement -- within one display frame; increment,
US delay, flag fall (a loss, or a draw against a lone king), and a restart that resumes the clock."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path

import engine
from controller.event_scripts import Style, script_for_moves
from controller.store import GameStore
from firmware_bridge.script import Place, parse_script
from firmware_bridge.simboard import SimBoard
from tests.test_e2e_service import TIMEOUT, Run, latest_game

CHESS = engine.find_variant("chess")
#: One display frame at 30 frames a second: the tolerance the issue sets.
FRAME_MS = 34
MOVES = ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "d2d3", "f8c5"]


class TimedBoard:
    """A simulated board that notes the board-clock time of every placement, per ply."""

    def __init__(self, moves: list[str], thinks: list[int], fen: str | None = None) -> None:
        self.place_times: dict[int, int] = {}  # script line -> board ms
        self.board = SimBoard(CHESS, on_command=self._on_command)
        if fen is not None:
            raise NotImplementedError
        lines: list[str] = []
        self.ply_of_line: dict[int, int] = {}
        ply = -1
        for line in script_for_moves(CHESS, moves, Style(think_ms=100, hand_ms=40)):
            if line.startswith("# "):
                ply += 1
                lines.append(line)
                lines.append(f"sleep {thinks[ply]}")
                continue
            lines.append(line)
            self.ply_of_line[len(lines)] = ply
        self.commands = parse_script("\n".join(lines), CHESS)
        self.placed = threading.Condition()

    def _on_command(self, command) -> None:
        if isinstance(command, Place):
            with self.placed:
                self.place_times[command.line] = self.board._now()
                self.placed.notify_all()

    def completed(self) -> list[int]:
        """Per ply, the board time of its last placement."""
        done: dict[int, int] = {}
        for line, t in sorted(self.place_times.items()):
            done[self.ply_of_line[line]] = t
        return [done[p] for p in sorted(done)]


def stored_clocks(db: Path) -> list[int]:
    con = sqlite3.connect(db)
    try:
        return [ms for (ms,) in con.execute("SELECT ms FROM ply_clocks ORDER BY ply")]
    finally:
        con.close()


def read_moves(run: Run, n: int) -> list[str]:
    got: list[str] = []
    while len(got) < n:
        line = run.next_line()
        if not line.startswith("undo "):
            got.append(line)
    return got


def wait_for_err(run: ClockRun, text: str) -> None:
    """Wait until the service's stderr says ``text`` (stderr lines arrive on a queue)."""
    deadline = threading.Event()
    timer = threading.Timer(TIMEOUT, deadline.set)
    timer.start()
    try:
        while not deadline.is_set():
            if any(text in line for line in run.err):
                return
            run.err_event.wait(0.5)
            run.err_event.clear()
        raise AssertionError(f"never said {text!r}: {''.join(run.err)[-2000:]}")
    finally:
        timer.cancel()


class ClockRun(Run):
    def __init__(self, port: str, db: Path, frame: Path, *extra: str) -> None:
        self.err_event = threading.Event()
        super().__init__(port, db, frame, *extra)

    def _read_err(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.err.append(line)
            self.err_event.set()


def check_chain(values: list[int], done: list[int], start_ms: int, bonus: Callable[[int], int],
                tolerance: int = FRAME_MS, first: int = 1) -> None:
    """values[k]: the mover's time after ply k; from ply ``first`` on, each equals that side's
    previous value minus the time since the opponent's move completed, plus ``bonus(used)``."""
    for k in range(first, len(values)):
        before = values[k - 2] if k >= 2 else start_ms
        used = done[k] - done[k - 1]
        want = before - used + bonus(used)
        assert abs(values[k] - want) <= tolerance, f"ply {k + 1}: clock {values[k]} ms, expected {want} ms"


def test_increment_clock_follows_the_board(tmp_path: Path) -> None:
    thinks = [300, 900, 200, 1400, 600, 250, 1100, 400]
    tb = TimedBoard(MOVES, thinks)
    tb.board.start()
    db, frame = tmp_path / "g.sqlite3", tmp_path / "f.png"
    run = ClockRun(tb.board.path, db, frame, "--time-control", "1+2")
    try:
        assert run.next_line() == f"frame: {frame}"
        tb.board.start_script(tb.commands)
        assert read_moves(run, len(MOVES)) == MOVES
        assert tb.board.done.wait(TIMEOUT)
        assert run.stop() == 0
    finally:
        if run.proc.poll() is None:
            run.proc.kill()
        tb.board.stop()
    values = stored_clocks(db)
    assert len(values) == len(MOVES)
    check_chain(values, tb.completed(), 60_000, lambda used: 2_000)
    assert 60_000 - 2 * thinks[0] < values[0] <= 62_000  # white's first: from the game's start


def test_us_delay_charges_only_time_beyond_the_delay(tmp_path: Path) -> None:
    thinks = [300, 1600, 200, 400, 2200, 250]
    moves = MOVES[:6]
    tb = TimedBoard(moves, thinks)
    tb.board.start()
    db, frame = tmp_path / "g.sqlite3", tmp_path / "f.png"
    run = ClockRun(tb.board.path, db, frame, "--time-control", "1d1")
    try:
        assert run.next_line() == f"frame: {frame}"
        tb.board.start_script(tb.commands)
        assert read_moves(run, len(moves)) == moves
        assert tb.board.done.wait(TIMEOUT)
        assert run.stop() == 0
    finally:
        if run.proc.poll() is None:
            run.proc.kill()
        tb.board.stop()
    values = stored_clocks(db)
    check_chain(values, tb.completed(), 60_000, lambda used: min(used, 1_000))
    assert values[1] < 60_000 - 400 and values[2] == 60_000  # black went past the delay, white not


def test_flag_fall_loses_the_game(tmp_path: Path) -> None:
    # 6 s each with 0 increment; black thinks 7 s over its second move
    thinks = [100, 200, 100, 7_000]
    tb = TimedBoard(MOVES[:4], thinks)
    tb.board.start()
    db, frame = tmp_path / "g.sqlite3", tmp_path / "f.png"
    run = ClockRun(tb.board.path, db, frame, "--time-control", "0.1")
    try:
        assert run.next_line() == f"frame: {frame}"
        tb.board.start_script(tb.commands)
        assert read_moves(run, 3) == MOVES[:3]
        wait_for_err(run, "Game over: 1-0 (time forfeit)")
        assert tb.board.done.wait(TIMEOUT)
        assert run.stop() == 0
    finally:
        if run.proc.poll() is None:
            run.proc.kill()
        tb.board.stop()
    with GameStore(db) as store:
        record = latest_game(store)
    assert (record.result, record.termination) == ("1-0", "time_forfeit")
    assert record.moves == tuple(MOVES[:3])  # the move after the flag fell does not count


def test_restart_resumes_the_clock(tmp_path: Path) -> None:
    thinks = [300, 500, 400, 600, 350, 450, 500, 300]
    tb = TimedBoard(MOVES, thinks)
    tb.board.start()
    db, frame = tmp_path / "g.sqlite3", tmp_path / "f.png"
    # the first four plies, then the service stops; the players wait for it before going on
    first = tb.commands[:next(i for i, c in enumerate(tb.commands) if getattr(c, "line", 0)
                               and tb.ply_of_line.get(c.line) == 4)]
    rest = tb.commands[len(first):]
    run = ClockRun(tb.board.path, db, frame, "--time-control", "1+1")
    try:
        assert run.next_line() == f"frame: {frame}"
        tb.board.start_script(first)
        assert read_moves(run, 4) == MOVES[:4]
        assert tb.board.done.wait(TIMEOUT)
        assert run.stop() == 0
        before = stored_clocks(db)
        run = ClockRun(tb.board.path, db, frame, "--time-control", "1+1")
        assert run.next_line() == f"frame: {frame}"
        tb.board.start_script(rest)
        assert read_moves(run, 4) == MOVES[4:]
        assert tb.board.done.wait(TIMEOUT)
        assert run.stop() == 0
    finally:
        if run.proc.poll() is None:
            run.proc.kill()
        tb.board.stop()
    values = stored_clocks(db)
    assert values[:4] == before
    done = tb.completed()
    # ply 5 (white, after the restart): no more than its time before plus the increment, and the
    # time the service was down is not charged: at most the think time since it came back.
    assert values[2] + 1_000 - (done[4] - done[3]) - FRAME_MS <= values[4] <= values[2] + 1_000
    check_chain(values, done, 60_000, lambda used: 1_000, first=5)
