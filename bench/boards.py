"""Move latency on DGT and Millennium boards, next to each board's own scan period.

    PYTHONPATH=. .venv/bin/python bench/boards.py [--moves N]

A board emulator (real pty, the board's own scan timing) plays a seeded random chess game with
captures both ways and pieces dragged across squares into the service (driver -> controller
thread -> session with its SQLite commit). For each move: the time from the board's last
message reporting a change before the move was committed (a DGT field update, a Millennium
status report) to the commit. The board's scan time is not in it (the board had not reported
the move before); a driver that waits for quiet, or a dump, shows in it.

Goals: DGT within one full scan + 50 ms; Millennium within two scans + 50 ms (common DGT
software waits 250-500 ms of quiet and then asks for a dump). Reported against the board's scan
period measured in the same run.
"""

from __future__ import annotations

import argparse
import bisect
import queue
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine
from controller.event_scripts import Style, random_game, script_for_moves
from firmware_bridge.script import parse_script


def pct(values: list[float], p: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, round(p / 100 * (len(s) - 1)))]


def bench(kind: str, n_moves: int) -> None:
    from controller.board_map import SensorMap
    from controller.config import Config, GpioConfig
    from controller.service import Service
    from controller.store import GameStore
    from firmware_bridge.boards.emulators import EMULATORS

    variant = engine.find_variant("chess")
    moves = random_game(variant, n_moves, seed=3)
    style = Style(think_ms=400, hand_ms=120, capture="alternate", slide=True, slide_rest_ms=5, identity=True)
    commands = parse_script("\n".join(script_for_moves(variant, moves, style)), variant)
    board = EMULATORS[kind]("chess").start()
    tmp = tempfile.TemporaryDirectory()
    store = GameStore(Path(tmp.name) / "bench.sqlite3")
    config = Config(port=(board.path,), board=kind, gpio=GpioConfig(enabled=False))
    service = Service(config, variant, store, SensorMap(variant), print_moves=False)
    accepted: queue.Queue[tuple[float, int]] = queue.Queue()  # when, moves added (an amend adds none)

    def on_update(update) -> None:
        if update.accepted:
            accepted.put((time.monotonic(), len(update.accepted) - len(update.undone)))

    service.on_update = on_update
    service.start()
    board.start_script(commands)
    latencies: list[float] = []
    try:
        deadline = time.monotonic() + 60 + n_moves * 2
        game = 0
        while game < len(moves) and time.monotonic() < deadline:
            at, added = accepted.get(timeout=30)
            game += added
            reports = board.change_reports
            i = bisect.bisect_right(reports, at)
            if i:
                latencies.append((at - reports[i - 1]) * 1000)
    finally:
        service.stop()
        board.stop()
        store.close()
        tmp.cleanup()
    scan = board.scan_ms if kind == "dgt" else board.settings[0x01] * 2.048  # type: ignore[attr-defined]
    goal = scan + 50 if kind == "dgt" else 2 * scan + 50
    p99 = pct(latencies, 99)
    print(f"{kind}: {len(latencies)} moves committed ({len(latencies) - game} amended); scan period {scan:.0f} ms")
    print(f"  last change report -> move committed: p50 {pct(latencies, 50):.1f} ms  p99 {p99:.1f} ms  "
          f"max {max(latencies):.1f} ms   (goal {goal:.0f} ms: {'met' if p99 <= goal else 'NOT met'} at p99; "
          f"p50/scan {pct(latencies, 50) / scan:.2f}, p99/scan {p99 / scan:.2f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=40)
    args = parser.parse_args()
    for kind in ("dgt", "millennium"):
        bench(kind, args.moves)


if __name__ == "__main__":
    main()
