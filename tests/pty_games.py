"""Games played on a board's pty into ``chessery run --headless`` in its own process: the service
as a child (:class:`Run`), the game its printed lines describe (:func:`replay_stream`,
:func:`read_game`), a whole game driven from an event script (:func:`play_game`), and hands that
keep a set number of plies ahead of the referee (:class:`Player`).

    board = SimBoard(CHESS).start()
    game = play_game(tmp_path, board, commands, moves)   # stops the board too
    assert game.record.result == "1-0"
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import engine
from controller.store import GameRecord, GameStore
from firmware_bridge.board_set import BoardSet
from firmware_bridge.pty_board import PtyBoard
from firmware_bridge.script import Command, parse_script
from tests.child import REPO, Child, chessery_args, chessery_env

__all__ = ["REPO", "TIMEOUT", "PlayedGame", "Player", "Run", "latest_game", "play_game", "read_game",
           "replay_stream"]

CHESS = engine.find_variant("chess")
#: How long one line, one script or one exit is waited for.
TIMEOUT = 30.0


class Run(Child):
    """``chessery run --headless --no-gpio --port PORT --db DB --frame FRAME EXTRA...`` in its own
    process group, ended (with the simulated board it may start) when the test leaves the
    ``with`` block or calls :meth:`end`."""

    def __init__(self, port: str, db: Path, frame: Path, *extra: str) -> None:
        super().__init__(chessery_args("run", "--headless", "--no-gpio", "--port", port, "--db", str(db),
                                       "--frame", str(frame), *extra), env=chessery_env())

    def next_line(self, timeout: float = TIMEOUT) -> str:
        """The next line it printed (a move, ``undo MOVE``, the frame's path)."""
        return self.line("a line on stdout", timeout)


def latest_game(store: GameStore) -> GameRecord:
    """The newest game in ``store``; the test expects one."""
    record = store.latest()
    assert record is not None, f"no game in {store.path}"
    return record


def replay_stream(lines: list[str], base: list[str] | None = None) -> list[str]:
    """The game a stream of printed moves and ``undo MOVE`` lines describes (after ``base``, the
    moves a resumed game already had)."""
    game: list[str] = list(base or [])
    for line in lines:
        if line.startswith("undo "):
            assert game and game[-1] == line[5:], f"undo of {line[5:]} but the game ends {game[-1:]}"
            game.pop()
        else:
            game.append(line)
    return game


def read_game(run: Run, expected: list[str], lines: list[str], base: list[str] | None = None) -> None:
    """Read printed lines until they describe ``expected``."""
    while replay_stream(lines, base) != expected:
        lines.append(run.next_line())
        assert len(replay_stream(lines, base)) <= len(expected) + 1, replay_stream(lines, base)


@dataclass
class PlayedGame:
    printed: list[str]  # what the service printed after the frame's path
    record: GameRecord  # the game as stored
    frame: Path  # the service's last headless frame
    err: str  # what the service said on stderr


def play_game(tmp_path: Path, board: PtyBoard[Any], commands: Sequence[Command], moves: Sequence[str],
              *args: str, settled: Callable[[str], bool] | None = None) -> PlayedGame:
    """``chessery run ARGS`` on ``board`` (started); once it shows its first frame the board plays
    ``commands``; every line it prints is read until they describe ``moves``. Then the script
    must have played to its end, (``settled``) what the service said on stderr must satisfy it,
    and the service must stop cleanly; the board is stopped in any case. The printed game and the
    stored one must both be ``moves``."""
    db, frame = tmp_path / "games.sqlite3", tmp_path / "frame.png"
    printed: list[str] = []
    try:
        with Run(board.path, db, frame, *args) as run:
            assert run.next_line() == f"frame: {frame}"
            board.start_script(commands)
            read_game(run, list(moves), printed)
            assert board.done.wait(TIMEOUT), f"the board's script did not end within {TIMEOUT:g} s"
            assert board.error is None, board.error
            if settled is not None:
                run.wait_err(settled, "the service to show the game's end")
            assert run.stop() == 0
    finally:
        board.stop()
    assert replay_stream(printed) == list(moves)
    with GameStore(db) as store:
        record = latest_game(store)
    assert record.moves == tuple(moves)
    return PlayedGame(printed, record, frame, run.said)


class Player:
    """Plays a script on the board one ply at a time (the script's ``# N. move`` comments start
    each ply) in its own thread, starting ply ``i`` only once ``allow(n)`` has been called with
    ``n > i``: the hands never get more than a given number of plies ahead of the referee."""

    def __init__(self, board: PtyBoard[Any] | BoardSet, lines: list[str], variant: engine.Variant = CHESS) -> None:
        chunks: list[list[str]] = []
        for line in lines:
            if line.startswith("# ") or not chunks:
                chunks.append([])
            chunks[-1].append(line)
        self.board = board
        self.plies = [parse_script("\n".join(chunk), variant) for chunk in chunks]
        self.finished = threading.Event()
        self.error: BaseException | None = None
        self._allowed = 0
        self._stop = False
        self._changed = threading.Condition()
        threading.Thread(target=self._run, name="player", daemon=True).start()

    def allow(self, plies: int) -> None:
        with self._changed:
            self._allowed = max(self._allowed, plies)
            self._changed.notify_all()

    def stop(self) -> None:
        with self._changed:
            self._stop = True
            self._changed.notify_all()

    def _may_play(self, ply: int) -> bool:
        return self._allowed > ply or self._stop

    def _run(self) -> None:
        try:
            for i, ply in enumerate(self.plies):
                with self._changed:
                    if not self._changed.wait_for(partial(self._may_play, i), TIMEOUT):
                        raise TimeoutError(f"ply {i + 1} was never allowed")
                    if self._stop:
                        return
                self.board.play(ply, timeout=TIMEOUT, wait_for_host=i == 0)
            self.finished.set()
        except BaseException as exc:  # reported by the test
            self.error = exc

