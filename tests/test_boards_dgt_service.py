"""A DGT 3000 plugged into a DGT board, through ``chessery run``: after each move the referee's
clock is shown on it (both times, White on the left, the move just played), and its lever is the
clock button -- issue 27."""

from __future__ import annotations

from pathlib import Path

from controller.event_scripts import Style
from firmware_bridge.boards import dgt_codec as D
from firmware_bridge.boards.emulators import DgtEmulator
from tests.emulated_boards import eventually
from tests.emulated_games import play_through_service
from tests.pty_games import TIMEOUT, Run


def test_the_service_shows_its_clock_and_the_last_move_on_the_boards_dgt_3000(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('time_control = "5+3"\n', encoding="utf-8")
    moves = ["e2e4", "e7e5", "g1f3"]
    style = Style(capture="victim", castle="king", identity=True, think_ms=300, hand_ms=60)
    board, _run, _lines = play_through_service(tmp_path, "dgt", moves, style, args=("--config", str(config)),
                                               clock=(2, 2))
    assert (D.CLOCK_VERSION, b"") in board.clock_commands  # asked on connecting
    times = [data for command, data in board.clock_commands if command == D.CLOCK_SETNRUN]
    shown = [data[:8].decode().strip() for command, data in board.clock_commands if command == D.CLOCK_ASCII]
    assert shown and shown[-1] == "g1f3"
    left = times[-1][0] * 3600 + times[-1][1] * 60 + times[-1][2]
    right = times[-1][3] * 3600 + times[-1][4] * 60 + times[-1][5]
    # White moved twice, Black once, each with 3 s added: both near 5 minutes, Black's running.
    assert 295 <= left <= 306 and 295 <= right <= 303 and times[-1][6] == D.RUN_RIGHT


def test_the_dgt_clocks_lever_is_the_clock_button(tmp_path: Path) -> None:
    db, frame = tmp_path / "games.sqlite3", tmp_path / "frame.png"
    board = DgtEmulator("chess", clock=(2, 2)).start()
    run: Run | None = None
    try:
        run = Run(board.path, db, frame, "--board", "dgt")
        assert run.next_line() == f"frame: {frame}"
        # The driver asked the clock's version, then its times (the lever as it stands now).
        assert eventually(lambda: sum(1 for m in board.sent if m[0] == 0x8D) >= 2, TIMEOUT)
        board.press_lever()
        run.wait_err(lambda said: "Clock button: White to move, nothing moved on the board yet" in said,
                     "the lever's press, said as the clock button's")
        assert run.stop() == 0
    finally:
        if run is not None:
            run.end()
        board.stop()
