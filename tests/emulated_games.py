"""A whole game played by hands on an emulated maker board (DGT, Millennium) into ``chessery run
--board KIND`` in its own process, checked move for move in its output and its games file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import engine
from controller.event_scripts import Style, script_for_moves
from controller.store import GameStore
from firmware_bridge.boards.emulators import EMULATORS
from tests.pty_games import TIMEOUT, Player, Run, read_game, replay_stream

CHESS = engine.find_variant("chess")


def play_through_service(tmp_path: Path, kind: str, moves: list[str], style: Style, ahead: int = 2,
                         board: Any = None, variant: engine.Variant = CHESS, args: tuple[str, ...] = (),
                         close: range = range(0), **options) -> tuple[Any, Run, list[str]]:
    """Play ``moves`` on an emulated board of ``kind`` (or on ``board``, started: a set of
    boards whose first path is ``board.path``, the others given in ``args``) into ``chessery
    run``; the hands stay at most ``ahead`` plies in front of what the referee has printed, and
    only one ply in front for the plies (indices) in ``close``. Returns the board, the finished
    run, and the printed lines."""
    lines_text = script_for_moves(variant, moves, style)
    if board is None:
        board = EMULATORS[kind](variant.name, **options).start()
    db, frame = tmp_path / "games.sqlite3", tmp_path / "frame.png"
    run = Run(board.path, db, frame, "--board", kind, *args)
    player: Player | None = None
    lines: list[str] = []
    try:
        assert run.next_line() == f"frame: {frame}"
        player = Player(board, lines_text, variant)

        def allow(printed: int) -> None:
            # Ply ``printed + ahead - 1`` may start; one in ``close`` waits one ply longer.
            n = printed + ahead
            player.allow(n - 1 if ahead > 1 and n - 1 in close else n)

        allow(0)
        while replay_stream(lines) != moves:
            lines.append(run.next_line())
            assert len(replay_stream(lines)) <= len(moves), replay_stream(lines)
            allow(len(replay_stream(lines)))
        read_game(run, moves, lines)
        assert player.finished.wait(TIMEOUT), player.error
        assert run.stop() == 0
    finally:
        if player is not None:
            player.stop()
        run.end()
        board.stop()
    assert player.error is None
    with GameStore(db) as store:
        record = store.latest()
        assert record is not None and record.moves == tuple(moves)
    return board, run, lines
