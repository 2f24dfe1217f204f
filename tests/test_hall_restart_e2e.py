"""A remote game survives a restart of either side: two ``chessery run`` processes, each
refereeing its own simulated board (real ptys held by the test: the boards and their pieces stay
while a service is down), one Mosquitto the test starts. Board A plays White with Black
``remote:B``; board B the other way round. Mid-game, B's service is killed (SIGKILL: nothing
said, nothing saved beyond what it stored) and A's player moves meanwhile; B comes back on the
same games file and shows that move to carry out. Later A's service is killed with B's move
just made, and A, back, shows it. The game goes on; both boards store and print every move once.
"""

from __future__ import annotations

import signal
from pathlib import Path

import engine
from controller.event_scripts import script_for_moves
from engine import Position, format_fen, start_position
from firmware_bridge.simboard import SimBoard
from tests.hall_rig import Recorder
from tests.test_e2e_service import TIMEOUT, Run

CHESS = engine.find_variant("chess")
GAME = ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "d2d3", "f8c5", "c2c3", "d7d6"]


class Side:
    """One board: the simulated board (kept for the whole test) and its service (restartable)."""

    def __init__(self, tmp_path: Path, name: str, other: str, remote_side: str, broker_url: str) -> None:
        self.name = name
        self.board = SimBoard(CHESS).start()
        folder = tmp_path / name
        folder.mkdir()
        self.db, self.frame = folder / "games.sqlite3", folder / "frame.png"
        self.config = folder / "chessery.toml"
        self.config.write_text(f'hall = "{broker_url}"\nhall_board = "{name}"\n'
                               f'status_file = "{folder / "status.json"}"\n'
                               f'[players]\n{remote_side} = "remote:{other}"\n', encoding="utf-8")
        self.runs: list[Run] = []
        self.printed: list[str] = []  # every move any of its runs printed, in order

    def start(self) -> None:
        run = Run(self.board.path, self.db, self.frame, "--config", str(self.config))
        self.runs.append(run)
        assert run.next_line() == f"frame: {self.frame}"

    @property
    def run(self) -> Run:
        return self.runs[-1]

    def kill(self) -> None:
        self.run.proc.send_signal(signal.SIGKILL)
        self.run.proc.wait(TIMEOUT)

    def hands(self, pos: Position, text: str) -> None:
        """The player at this board carries out ``text``; the service prints it."""
        lines = script_for_moves(CHESS, [text], fen=format_fen(pos))
        self.board.start_script("\n".join(line for line in lines if not line.startswith("choose")) + "\n")
        assert self.board.done.wait(TIMEOUT), f"board {self.name} never played {text}"
        line = self.run.next_line()
        self.printed.append(line)
        assert line == text, f"board {self.name} printed {line!r} for {text}"

    def shows(self, text: str, mover: str) -> None:
        """The screen (the service's stderr) says what to lift for the other board's ``text``."""
        said = f"({mover}) plays {text}: lift"
        assert self.run.wait_err(lambda err: any(said in line for line in err)), \
            f"board {self.name} never showed {text}: {''.join(self.run.err)[-1500:]}"

    def close(self) -> None:
        for run in self.runs:
            if run.proc.poll() is None:
                run.proc.kill()
                run.proc.wait(TIMEOUT)
            for stream in (run.proc.stdout, run.proc.stderr):
                if stream is not None:
                    stream.close()
        self.board.stop()


def test_a_remote_game_plays_on_after_either_sides_service_is_killed_and_restarted(tmp_path, broker) -> None:
    from controller.store import GameStore

    recorder = Recorder(broker.port)
    a = Side(tmp_path, "A", "B", "black", broker.url)
    b = Side(tmp_path, "B", "A", "white", broker.url)
    sides = {"A": a, "B": b}
    try:
        a.start()
        b.start()
        pos = start_position(CHESS)

        def play(n: int, *, kill_after_move: Side | None = None) -> None:
            """The game's move ``n``: made on the mover's board, shown and carried out on the
            other (whose service, with ``kill_after_move``, is killed before it learns of the
            move and started again)."""
            text = GAME[n]
            here, there = (a, b) if pos.side == 0 else (b, a)
            if kill_after_move is there:
                there.kill()
            here.hands(pos, text)
            if kill_after_move is there:
                # the move is in the broker (the hall saw it) while the other side is down
                recorder.wait(lambda: recorder.moves(here.name)[-1:] == [text])
                there.start()
            there.shows(text, here.name)
            there.hands(pos, text)
            pos.push_text(text)

        for n in range(4):
            play(n)
        play(4, kill_after_move=b)  # B's service is down while A's player makes White's 3rd move
        for n in range(5, 7):
            play(n)
        play(7, kill_after_move=a)  # and A's while B's player makes Black's 4th
        for n in range(8, len(GAME)):
            play(n)
        for side in sides.values():
            assert side.printed == GAME, side.name  # each move printed once, across its runs
            assert side.run.stop() == 0
            with GameStore(side.db) as store:
                records = [store.game(g) for g in store.game_ids()]
                assert [r.moves for r in records if r is not None] == [tuple(GAME)], side.name
        # the hall saw each board's moves once each, in order, across the restarts
        assert len(a.runs) == len(b.runs) == 2
        recorder.wait(lambda: all(len(recorder.moves(name)) >= len(GAME) for name in sides))
        for name in sides:
            assert recorder.moves(name) == GAME, name
    finally:
        recorder.close()
        for side in sides.values():
            side.close()
