"""``chessery sim-board`` as another program uses it: a subprocess whose first stdout line is
the port path, played against by a real Link."""

from __future__ import annotations

import os
import select
import subprocess
import sys
from pathlib import Path

import pytest

from firmware_bridge import Link, LinkState, LinkStatus
from tests.child import Child
from tests.child import read_line as plain_read_line

ROOT = Path(__file__).resolve().parents[1]
WAIT = 10.0


def sim_board(*args: str) -> Child:
    return Child.chessery("sim-board", *args, env={**os.environ, "PYTHONPATH": str(ROOT)})


def read_line(proc: Child, what: str = "a line from sim-board", timeout: float = WAIT) -> str:
    return proc.line(what, timeout)


def test_sim_board_prints_its_path_first_then_plays_the_script_to_a_link(tmp_path: Path) -> None:
    script = tmp_path / "opening.txt"
    script.write_text("# 1. e4 e5\nlift e2\nplace e4\nchoose nothing\nsleep 30\nlift e7\nplace e5\n")
    link_path = tmp_path / "board"
    proc = sim_board("--variant", "chess", "--script", str(script), "--identity", "--faults", "reset@3",
                     "--seed", "5", "--link", str(link_path), "--heartbeat-ms", "100")
    link = None
    try:
        path = read_line(proc, "the board's path")
        assert path == str(link_path) and os.path.islink(path)
        link = Link.open(path)
        assert link.wait_connected(WAIT)
        events = [link.events.get(timeout=WAIT) for _ in range(4)]
        assert [(e.action, e.cell, e.piece) for e in events] == [
            ("lift", 12, "P"), ("place", 28, "P"), ("lift", 52, "p"), ("place", 36, "p")]
        assert read_line(proc, "'done' after the script") == "done"
        link.ping(WAIT)
        assert link.stats["resets"] == 1
        assert proc.stop(WAIT) == 0
        assert not os.path.lexists(path)  # the board cleaned up its symlink
        seen: list[LinkStatus] = []
        while not seen or seen[-1].state is not LinkState.DISCONNECTED:
            seen.append(link.states.get(timeout=WAIT))
    finally:
        if link is not None:
            link.close()
        proc.end()


def test_without_a_host_the_script_waits_and_no_wait_plays_at_once(tmp_path):
    script = tmp_path / "one.txt"
    script.write_text("lift e2\n")
    proc = sim_board("--variant", "chess", "--script", str(script), "--no-wait", "--linger", "0")
    with proc:
        path = read_line(proc, "the board's path")
        assert read_line(proc, "'done' after the script") == "done"  # played with no host
        assert proc.wait(timeout=WAIT) == 0
    # (Whether the path still exists when this test reads it depends on the machine's load: the
    # board may have played its one line and left already.)
    assert path.endswith("/board") and not os.path.lexists(path)  # and it cleaned up its symlink


@pytest.mark.parametrize(("args", "script", "message"), [
    (["--variant", "nochess"], "lift e2\n", "chessery sim-board: unsupported variant"),
    (["--variant", "chess"], "lift e2\nlift e9\n", "s.txt:2: no cell 'e9' on chess"),
    (["--variant", "chess"], "lift e3\n", "s.txt:1: lift e3: the cell is empty"),
    (["--variant", "chess", "--faults", "flip=lots"], "lift e2\n", "bad fault 'flip=lots'"),
])
def test_bad_arguments_fail_with_one_line_and_no_path(tmp_path, args, script, message):
    path = tmp_path / "s.txt"
    path.write_text(script)
    with sim_board(*args, "--script", str(path)) as proc:
        out = proc.rest("sim-board to refuse", WAIT)
        assert proc.wait(timeout=WAIT) == 2
        err = proc.said
    assert out == []
    assert message in err and err.count("\n") == 1


def test_missing_script_file(tmp_path):
    with sim_board("--variant", "chess", "--script", str(tmp_path / "nope.txt")) as proc:
        out = proc.rest("sim-board to refuse", WAIT)
        assert proc.wait(timeout=WAIT) == 2 and out == []
        assert "nope.txt: cannot read script" in proc.said


def test_a_demo_board_stops_when_the_process_that_started_it_is_killed(tmp_path: Path) -> None:
    """``chessery run`` with no port starts ``sim-board`` as a child (controller.service.DemoBoard).
    Killed with -9, it cannot stop its board: the board must notice by itself (its stdin closes)
    and not serve a pty nobody reads for ever."""
    parent = subprocess.Popen(
        [sys.executable, "-c", "import engine, sys, threading\n"
         "from controller.service import DemoBoard\n"
         "board = DemoBoard(engine.find_variant('chess'), ['lift e2', 'place e4'])\n"
         "print(board.proc.pid, board.path, flush=True)\n"
         "threading.Event().wait()\n"],
        cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, stdout=subprocess.PIPE, text=True)
    try:
        assert parent.stdout is not None
        pid_text, path = plain_read_line(parent.stdout, "the demo board's pid and path", WAIT).split()
        board = os.pidfd_open(int(pid_text))
        assert os.path.lexists(path)
        assert not select.select([board], [], [], 0.5)[0], "the board stopped while its parent lived"
        parent.kill()
        ready, _, _ = select.select([board], [], [], 20)
        assert ready, "the board outlived the process that started it"
        os.close(board)
    finally:
        parent.kill()
        parent.wait(WAIT)
