"""A host that stalls while the board goes on: ``chessery run`` is frozen (SIGSTOP) while a pawn
rests on the square it crosses, and the board reports the rest of the move during the stall. On
waking, the referee's clock is long past the moment that rest would have become a move; the
board's reports (with their own times, before that moment) must still decide."""

from __future__ import annotations

import signal
from pathlib import Path

from firmware_bridge.simboard import SimBoard
from tests.pty_games import TIMEOUT, Run


def test_a_move_the_board_finished_while_the_host_was_frozen_is_read_as_finished(tmp_path: Path) -> None:
    board = SimBoard("chess").start()
    run = Run(board.path, tmp_path / "games.sqlite3", tmp_path / "frame.png")
    try:
        assert run.next_line() == f"frame: {tmp_path / 'frame.png'}"
        board.play("lift e2\nplace e3", timeout=TIMEOUT)
        run.wait_err(lambda said: "e2e3 (provisional)" in said, "e2e3 shown as provisional")
        run.proc.send_signal(signal.SIGSTOP)
        try:
            # The pawn goes on to e4 within the drag time, then the host stays frozen well past it.
            board.play("sleep 60\nlift e3\nsleep 20\nplace e4\nsleep 600", timeout=TIMEOUT, wait_for_host=False)
        finally:
            run.proc.send_signal(signal.SIGCONT)
        assert run.next_line() == "e2e4", "".join(run.err)
        assert run.stop() == 0
    finally:
        run.end()
        board.stop()
