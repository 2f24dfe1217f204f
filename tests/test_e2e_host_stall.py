"""A host that stalls while the board goes on: ``chessery run`` is frozen (SIGSTOP) while a pawn
rests on the square it crosses, and the board reports the rest of the move during the stall. On
waking, the referee's clock is long past the moment that rest would have become a move; the
board's reports (with their own times, before that moment) must still decide."""

from __future__ import annotations

import signal
import threading
from pathlib import Path

from firmware_bridge.simboard import SimBoard
from tests.test_e2e_service import TIMEOUT, Run


class WatchedRun(Run):
    """``Run`` that also signals when stderr says ``text``."""

    def __init__(self, *args: object, text: str) -> None:
        self.text = text
        self.said = threading.Event()
        super().__init__(*args)  # type: ignore[arg-type]

    def _read_err(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.err.append(line)
            if self.text in line:
                self.said.set()


def test_a_move_the_board_finished_while_the_host_was_frozen_is_read_as_finished(tmp_path: Path) -> None:
    board = SimBoard("chess").start()
    run = WatchedRun(board.path, tmp_path / "games.sqlite3", tmp_path / "frame.png", text="e2e3 (provisional)")
    try:
        assert run.next_line() == f"frame: {tmp_path / 'frame.png'}"
        board.play("lift e2\nplace e3", timeout=TIMEOUT)
        assert run.said.wait(TIMEOUT), "".join(run.err)
        run.proc.send_signal(signal.SIGSTOP)
        try:
            # The pawn goes on to e4 within the drag time, then the host stays frozen well past it.
            board.play("sleep 60\nlift e3\nsleep 20\nplace e4\nsleep 600", timeout=TIMEOUT, wait_for_host=False)
        finally:
            run.proc.send_signal(signal.SIGCONT)
        assert run.next_line() == "e2e4", "".join(run.err)
        assert run.stop() == 0
    finally:
        if run.proc.poll() is None:
            run.proc.kill()
        board.stop()
