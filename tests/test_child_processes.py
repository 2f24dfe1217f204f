"""tests/child.py, which every test that starts a process relies on not to hang the suite: a read
that gets nothing fails in its time and says what it waited for; ending a child ends the
processes it started too."""

from __future__ import annotations

import os
import select
import subprocess
import sys

import pytest

from tests.child import Child, chessery_env, ended, read_line

SILENT = "import sys, time; print('hello', flush=True); print('half', end='', flush=True); time.sleep(120)"
PARENT = ("import subprocess, sys, time\n"
          "p = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(120)'])\n"
          "print(p.pid, flush=True)\n"
          "time.sleep(120)\n")


def test_a_read_that_gets_nothing_fails_in_its_time_naming_what_it_waited_for() -> None:
    with Child([sys.executable, "-c", SILENT]) as child:
        assert child.line("the greeting", 30) == "hello"
        with pytest.raises(AssertionError, match=r"waited 0\.3 s for the second line from .*nothing on stderr"):
            child.line("the second line", 0.3)
        assert child.proc.poll() is None
        assert child.line_within(0.3) is None  # a look at a random moment: nothing yet, no failure
    assert child.proc.poll() is not None  # ended by the with block


def test_a_plain_pipe_read_gives_up_on_half_a_line() -> None:
    proc = subprocess.Popen([sys.executable, "-c", SILENT], stdout=subprocess.PIPE, start_new_session=True)
    with ended(proc):
        assert proc.stdout is not None
        assert read_line(proc.stdout, "the greeting", 30) == "hello"
        with pytest.raises(AssertionError, match=r"for the rest of the line; got b'half' so far"):
            read_line(proc.stdout, "the rest of the line", 0.3)
    assert proc.returncode is not None


def test_ending_a_child_ends_the_processes_it_started() -> None:
    with Child([sys.executable, "-c", PARENT]) as child:
        grandchild = os.pidfd_open(int(child.line("the grandchild's pid", 30)))
    try:
        assert select.select([grandchild], [], [], 30)[0], "the grandchild outlived the test"
    finally:
        os.close(grandchild)


def test_a_child_that_ends_early_is_reported_with_its_status_and_stderr() -> None:
    with (Child([sys.executable, "-c", "import sys; sys.exit('no board here')"]) as child,
          pytest.raises(AssertionError, match=r"ended \(status 1\) before the path.*no board here")):
        child.line("the path", 30)
    with (Child([sys.executable, "-c", "import sys; sys.exit('gone')"]) as child,
          pytest.raises(AssertionError, match=r"ended \(status 1\).*gone")):
        child.line_within(30)


def test_a_simulated_board_killed_by_its_test_leaves_nothing_in_the_system_s_temporary_folder(tmp_path) -> None:
    # A board with no --link makes a folder for its pty's link and removes it when it stops; a
    # board killed with SIGKILL cannot. The children make such folders in the test process's
    # own folder (tests/conftest.py), removed when the test process exits.
    script = tmp_path / "s.txt"
    script.write_text("sleep 10\n")
    tmp = os.environ["TMPDIR"]
    with Child.chessery("sim-board", "--variant", "chess", "--script", str(script), "--no-wait",
                        env=chessery_env()) as board:
        link = board.line("the board's pty path")
    assert board.proc.returncode == -9  # killed, as the tests end every child
    folder = os.path.dirname(link)
    assert os.path.dirname(folder) == tmp and os.path.isdir(folder)  # left behind, but in our folder
