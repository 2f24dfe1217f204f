"""Soak: many games back to back through the whole pipeline, watching for leaks.

    ./dev bench soak [--games N] [--every K]

The simulated board runs in its own process (``chessery sim-board``: the reference firmware's
code behind a real pty) and plays N short games in a row, each ending in checkmate, and after
each one the players set the start position up again, which starts the next game. This process
runs the service: the host link (pyserial), the controller thread and the session committing to
a real SQLite file. Reported:

* RSS and open file descriptors of this process (link, referee, SQLite) at the start, every K
  games and at the end, and of the board's process at the start and the end (goal: flat);
* every move accounted for: each game in the database has exactly the moves the hands played
  and the mate's result, and the number of accepted moves equals the number played;
* the rate: games, moves and board events per second of wall time.
"""

from __future__ import annotations

import argparse
import difflib
import os
import sys
import tempfile
import threading
import time
from functools import partial
from pathlib import Path

import engine
from controller.event_scripts import Style, script_for_moves

#: Short games that end in checkmate, with their results; the soak cycles through them.
MATES = (
    ("f2f3 e7e5 g2g4 d8h4", "0-1"),                  # fool's mate
    ("e2e4 e7e5 f1c4 b8c6 d1h5 g8f6 h5f7", "1-0"),    # scholar's mate (a capture)
    ("e2e4 g7g5 d2d4 f7f6 d1h5", "1-0"),              # the fool's mate, reversed
)


def rss_kb(pid: int | str = "self") -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def open_fds(pid: int | str = "self") -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def reset_lines(variant: engine.Variant, moves: list[str]) -> list[str]:
    """Hand events that put the start position back up after ``moves`` (an occupancy board:
    pieces off the board first, then the empty start cells filled)."""
    pos = engine.start_position(variant)
    start: dict[int, bool] = {}
    final: dict[int, bool] = {}
    for text in moves:
        move = pos.parse_move(text)
        for cell, before, after in move.changes:
            start.setdefault(cell, before != 0)
            final[cell] = after != 0
        pos.push(move)
    assert pos.outcome() is not None, f"{' '.join(moves)} does not end the game"
    names = variant.geometry.names
    lifts = [f"lift {names[c]}" for c in sorted(final) if final[c] and not start[c]]
    places = [f"place {names[c]}" for c in sorted(final) if start[c] and not final[c]]
    out: list[str] = []
    for line in lifts + places:
        out += [line, "sleep 30"]
    return out


def soak_script(variant: engine.Variant, games: int) -> tuple[list[str], list[tuple[list[str], str]]]:
    style = Style(think_ms=80, hand_ms=40, capture="alternate", reaction_ms=80)
    lines: list[str] = []
    played: list[tuple[list[str], str]] = []
    for n in range(games):
        text, result = MATES[n % len(MATES)]
        moves = text.split()
        lines += [f"# game {n + 1}", *script_for_moves(variant, moves, style), "sleep 250",
                  *reset_lines(variant, moves), "sleep 200"]
        played.append((moves, result))
    return lines, played


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000, help="games to play (default 1000)")
    parser.add_argument("--every", type=int, default=100, help="print RSS and fds every this many games")
    parser.add_argument("--faults", default="", help="the board's --faults (chessery sim-board), e.g. pause=1500@40")
    args = parser.parse_args()

    from controller.board_map import SensorMap
    from controller.config import Config, GpioConfig
    from controller.service import DemoBoard, Service
    from controller.store import GameStore

    variant = engine.find_variant("chess")
    lines, played = soak_script(variant, args.games)
    tmp = tempfile.TemporaryDirectory(prefix="chessery-soak-")
    db = Path(tmp.name) / "soak.sqlite3"
    board = DemoBoard(variant, lines, args.faults)  # `chessery sim-board` in its own process, on a real pty
    store = GameStore(db)
    service = Service(Config(port=(board.path,), gpio=GpioConfig(enabled=False)), variant, store,
                      SensorMap(variant), print_moves=False)
    accepted = 0
    finished = 0
    progress = threading.Condition()

    def on_update(update) -> None:
        nonlocal accepted, finished
        with progress:
            accepted += len(update.accepted) - len(update.undone)
            if update.accepted and service.session.phase == "over":
                finished += 1
                progress.notify_all()

    service.on_update = on_update
    samples: list[tuple[int, float, int, int]] = []  # (games finished, seconds, RSS kB, fds)
    t0 = time.monotonic()
    service.start()
    if not service.links[0].wait_connected(30):
        raise SystemExit("soak: the simulated board never connected")
    start_rss, start_fds = rss_kb(), open_fds()
    board_start = (rss_kb(board.proc.pid), open_fds(board.proc.pid))
    samples.append((0, 0.0, start_rss, start_fds))
    print(f"soak: {args.games} games, {sum(len(m) for m, _ in played)} moves, "
          f"{sum(1 for line in lines if line.startswith(('lift', 'place')))} board events; database {db}")
    print(f"  start: this process RSS {start_rss} kB, {start_fds} fds; board process RSS {board_start[0]} kB, "
          f"{board_start[1]} fds")
    def reached(mark: int) -> bool:
        return finished >= mark or board.done.is_set() or service.finished.is_set()

    next_mark = args.every
    try:
        while True:
            with progress:
                progress.wait_for(partial(reached, next_mark), timeout=5.0)
                done_games = finished
            if service.finished.is_set():
                raise SystemExit(f"soak: the service stopped: {service.error!r}")
            while done_games >= next_mark and next_mark <= args.games:
                elapsed = time.monotonic() - t0
                samples.append((done_games, elapsed, rss_kb(), open_fds()))
                print(f"  {done_games:>5} games  {elapsed:8.1f} s  RSS {samples[-1][2]} kB  fds {samples[-1][3]}",
                      flush=True)
                next_mark += args.every
            if board.done.is_set():
                break
        board_end = (rss_kb(board.proc.pid), open_fds(board.proc.pid))
        service.finish_when_at_rest()
        if not service.finished.wait(120):
            raise SystemExit("soak: the game never came to rest after the script")
        elapsed = time.monotonic() - t0
        end_rss, end_fds = rss_kb(), open_fds()
        link_stats = service.links[0].stats
    finally:
        service.stop()
        board.stop()
    records = [store.game(i) for i in store.game_ids()]
    store.close()
    tmp.cleanup()

    mates = [r for r in records if r.moves]  # the last reset opens one more game, still empty
    # Line the stored games up with the played ones: a game lost shows as a gap, not as every
    # later game being "wrong".
    want = [(" ".join(m), r) for m, r in played]
    got = [(" ".join(r.moves), r.result if r.termination == "checkmate" else f"{r.result} ({r.termination})")
           for r in mates]
    wrong: list[tuple[str, list[int], list[tuple[str, str]]]] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, want, got, autojunk=False).get_opcodes():
        if op != "equal":
            wrong.append((op, list(range(i1 + 1, i2 + 1)), got[j1:j2]))
    stored_moves = sum(len(r.moves) for r in records)
    played_moves = sum(len(m) for m, _ in played)
    events = sum(1 for line in lines if line.startswith(("lift", "place")))
    print(f"  end:   this process RSS {end_rss} kB ({end_rss - start_rss:+d}), {end_fds} fds "
          f"({end_fds - start_fds:+d}); board process RSS {board_end[0]} kB "
          f"({board_end[0] - board_start[0]:+d}), {board_end[1]} fds ({board_end[1] - board_start[1]:+d})")
    print(f"  games stored {len(mates)} of {len(played)}; moves stored {stored_moves} of {played_moves} played, "
          f"accepted (net of corrections) {accepted}")
    print(f"  link: {link_stats['sessions']} sessions, {link_stats['silences']} silences (the board starved for "
          f"longer than the silence limit), {link_stats['synthetic']} synthetic events, {link_stats['gaps']} gaps")
    for change, games_played, stored in wrong[:10]:
        print(f"    {change}: played game(s) {games_played}, stored {stored}")
    print(f"  rate: {len(mates) / elapsed:.2f} games/s, {stored_moves / elapsed:.1f} moves/s, "
          f"{events / elapsed:.1f} board events/s over {elapsed:.1f} s (the script's own pauses included: "
          f"{script_ms(lines) / 1000:.1f} s of sleeps and hand times)")
    ok = not wrong and len(mates) == len(played) and stored_moves == played_moves == accepted
    print(f"  every move accounted for: {'yes' if ok else 'NO'}")
    return 0 if ok else 1


def script_ms(lines: list[str]) -> int:
    return sum(int(line.split()[1]) for line in lines if line.startswith("sleep "))


if __name__ == "__main__":
    sys.exit(main())
