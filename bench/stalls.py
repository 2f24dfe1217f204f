"""Host stalls during play: does the referee still record the game the hands played?

    ./dev bench stalls [--games N] [--plies N] [--stall-ms MIN,MAX] [--every-ms MIN,MAX]

Real historical games (``tests/data/pgn/historical-games.pgn``) played by the hand model of
``tests/hand_model.py`` (drags, bounces, overlapping hands, fast replies; identity board) on the
simulated board (the firmware's code on a real pty, in this process), into ``chessery run
--headless`` in its own process. Once with the service left alone, once with the whole service
process frozen (SIGSTOP ... SIGCONT) for a random ``--stall-ms`` every random ``--every-ms``: a
host that stalls (swapping, a busy SD card, a throttled CPU) while the board goes on reporting.

Reported per run: games recorded move for move, questions asked and wrong-board guidance shown
(none are due: every game is legal and every hand sequence readable), the number of stalls. A
decision that relies on the wall clock (a deadline fired at "now" when the service wakes up,
before the events the board sent during the stall were read) shows as a misread game.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import engine
from firmware_bridge.script import parse_script
from firmware_bridge.simboard import SimBoard

REPO = Path(__file__).resolve().parent.parent


def play(moves: list[str], seed: int, stall: tuple[int, int] | None,
         every: tuple[int, int]) -> tuple[bool, int, int, int, str]:
    """One game; returns (recorded move for move, questions, guidance, stalls, where it went
    wrong)."""
    from tests.hand_model import Hands, game_script

    variant = engine.find_variant("chess")
    lines = game_script(engine.start_position(variant), moves, Hands(identity=True), seed=seed)
    board = SimBoard(variant, identity=True)
    board.start()
    tmp = tempfile.TemporaryDirectory()
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    proc = subprocess.Popen(
        [sys.executable, "-m", "controller.cli", "run", "--headless", "--no-gpio", "--port", board.path,
         "--db", str(Path(tmp.name) / "games.sqlite3"), "--frame", str(Path(tmp.name) / "frame.png")],
        cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out: list[str] = []
    err: list[str] = []
    got_all = threading.Event()

    def read_out() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            if not line.startswith("frame:"):
                out.append(line.strip())
                if len(out) >= len(moves):
                    got_all.set()

    def read_err() -> None:
        assert proc.stderr is not None
        err.extend(proc.stderr)

    threading.Thread(target=read_out, daemon=True).start()
    threading.Thread(target=read_err, daemon=True).start()
    stalls = 0
    stop = threading.Event()
    rng = random.Random(seed)

    def staller() -> None:
        nonlocal stalls
        while not stop.wait(rng.randint(*every) / 1000):
            if stall is None or proc.poll() is not None:
                continue
            proc.send_signal(signal.SIGSTOP)
            time.sleep(rng.randint(*stall) / 1000)
            proc.send_signal(signal.SIGCONT)
            stalls += 1

    try:
        board.start_script(parse_script("\n".join(lines), variant))
        threading.Thread(target=staller, daemon=True).start()
        board.done.wait(600)
        got_all.wait(10)
    finally:
        stop.set()
        time.sleep(0.05)
        proc.send_signal(signal.SIGCONT)
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
        board.stop()
        tmp.cleanup()
    text = "".join(err)
    k = next((i for i, (a, b) in enumerate(zip(out, moves, strict=False)) if a != b), min(len(out), len(moves)))
    where = f"ply {k + 1}: recorded {out[k:k + 3]}, played {moves[k:k + 3]}" if out != moves else ""
    return out == moves, text.count("Which move did you make?"), text.count("Board does not match"), stalls, where


def main() -> None:
    from tests.historical_games import historical_games

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--plies", type=int, default=30)
    parser.add_argument("--stall-ms", default="50,300")
    parser.add_argument("--every-ms", default="300,1500")
    args = parser.parse_args()
    stall = tuple(int(x) for x in args.stall_ms.split(","))
    every = tuple(int(x) for x in args.every_ms.split(","))
    games = historical_games()[:args.games]
    for label, stalling in (("no stalls", None), (f"stalls of {args.stall_ms} ms every {args.every_ms} ms", stall)):
        results = [play(list(moves[:args.plies]), n, stalling, every) for n, moves in enumerate(games)]  # type: ignore[arg-type]
        ok = sum(r[0] for r in results)
        print(f"{label}: {ok}/{len(results)} games move for move ({args.plies} plies each); "
              f"questions {sum(r[1] for r in results)}, wrong-board guidance {sum(r[2] for r in results)}, "
              f"stalls {sum(r[3] for r in results)}")
        for n, r in enumerate(results):
            if not r[0]:
                print(f"  game {n}: misread (questions {r[1]}, guidance {r[2]}, stalls {r[3]}) at {r[4]}")


if __name__ == "__main__":
    main()
