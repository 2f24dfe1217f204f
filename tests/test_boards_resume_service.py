"""A game resumed on a Millennium board standing turned round (cable right: it sends h1 first),
through ``chessery run`` twice on one games file: the second run tells the driver the stored
game's position, so the board is not read mirrored (issue 27)."""

from __future__ import annotations

from pathlib import Path

from controller.store import GameStore
from firmware_bridge.boards.emulators import MillenniumEmulator
from tests.pty_games import TIMEOUT, Run


def test_a_game_resumed_on_a_turned_millennium_is_read_the_right_way(tmp_path: Path) -> None:
    db, frame = tmp_path / "games.sqlite3", tmp_path / "frame.png"
    board = MillenniumEmulator("chess", turned=True).start()
    runs: list[Run] = []
    try:
        first = Run(board.path, db, frame, "--board", "millennium")
        runs.append(first)
        assert first.next_line() == f"frame: {frame}"
        board.play("lift e2\nplace e4\nsleep 700\nlift e7\nplace e5\n", timeout=TIMEOUT)
        assert [first.next_line(), first.next_line()] == ["e2e4", "e7e5"]
        assert first.stop() == 0
        # The service comes back to the game under way; the board still stands turned round.
        second = Run(board.path, db, frame, "--board", "millennium")
        runs.append(second)
        assert second.next_line() == f"frame: {frame}"
        second.wait_err(lambda said: "the board stands turned round" in said, "the turned board noticed")
        board.play("lift g1\nplace f3\n", timeout=TIMEOUT, wait_for_host=False)
        assert second.next_line() == "g1f3"
        assert second.stop() == 0
    finally:
        for run in runs:
            run.end()
        board.stop()
    with GameStore(db) as store:
        record = store.latest()
        assert record is not None and record.moves == ("e2e4", "e7e5", "g1f3")
