"""Search speed per variant, beside the move generator's own cost, and the engine's memory.

    ./dev bench search [--variants chess,zeta] [--movetime 1.0]
        [--positions 3] [--perft-depth 2] [--memory-seconds 3]
    ./dev bench search --core [--core-games 6]
    ./dev bench search --depth 3 [--variants ...] [--positions 3]
    ./dev bench search --reach 0.5,2.0 [--variants ...] [--positions 3] [--first-ply N]
    ./dev bench search --scores 4 [--variants ...] [--positions 3] [--first-ply N]

For each variant, in the same run: the search's nodes per second over ``--positions`` positions
(the start, then positions after seeded random plies; ``--movetime`` seconds each), and
``perft``'s cost per node at ``--perft-depth`` from the start (microseconds per leaf counted and
per position played: perft pushes the interior positions and counts the last ply in bulk, so its
cost per *played* position is the comparable figure: a search node generates, pushes and
evaluates). ``--memory-seconds``: the peak resident memory (VmHWM) of a ``chessery engine``
process after a search of that many seconds in chess and in Mathematichess (UCI dialogue over
pipes, the real process).

``--depth N``: instead of a time, the nodes each search needs to finish depth N in the same
positions (royal-fury and triscacia one less, mathematichess 1): a figure that does not depend on
the machine's load, for comparing two versions of the search (pruning, ordering).

``--reach T1,T2``: the depth each search finishes in T1 and in T2 seconds of CPU time (the
clock ``bench/strength.py --clock cpu`` gives a side) from the same positions: what more time
buys a variant (the 2 s against 0.5 s matches).

``--scores N``: per position, the static evaluation and each iteration's score to depth N, for
the side to move: how the search's view changes as it looks deeper. ``--first-ply F`` (with
``--reach`` and ``--scores``): positions after F to F+23 random plies only (30: Triscacia's play,
past its thirty placements).

``--core``: the referee's decision core (``bench/latency.py``'s core bench, chess) timed twice in
the same run: alone, and while a ``chessery engine`` process searches (``go infinite``) beside
it at niceness 10, which is how a game against the computer runs it (``controller/uci_player.py``):
the engine in its own process never holds the referee's interpreter.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import time
from pathlib import Path

from controller.uci_player import ENGINE_NICENESS
from engine import Position, find_variant, start_position, variant_names
from engine.search import Info, Limits, Searcher

ROOT = Path(__file__).resolve().parent.parent


def positions(name: str, count: int, seed: int, first: int | None = None) -> list[Position]:
    """The start, then positions after 6 to 29 seeded random plies; with ``first``, only positions
    after ``first`` to ``first + 23`` random plies."""
    v = find_variant(name)
    rng = random.Random(seed)
    out = [] if first is not None else [start_position(v)]
    first = 6 if first is None else first
    while len(out) < count:
        pos = start_position(v)
        for _ in range(rng.randrange(first, first + 24)):
            moves = pos.legal_moves()
            if not moves or pos.outcome() is not None:
                break
            pos.push(rng.choice(moves))
        if pos.outcome() is None and pos.legal_moves():
            out.append(pos)
    return out


def perft_cost(name: str, depth: int) -> tuple[int, int, float]:
    """(leaves, positions played, seconds) of perft from the start."""
    pos = start_position(find_variant(name))
    played = 0
    rules = pos.variant.rules

    def walk(d: int) -> int:
        nonlocal played
        moves = rules.legal_moves(pos)
        if d == 1:
            return len(moves)
        total = 0
        for m in moves:
            pos.push(m)
            played += 1
            total += walk(d - 1)
            pos.pop()
        return total

    start = time.perf_counter()
    leaves = walk(depth)
    return leaves, played + 1, time.perf_counter() - start


def engine_memory(variant: str, seconds: float) -> int:
    """Peak resident kB of a ``chessery engine`` process after a search of ``seconds``."""
    proc = subprocess.Popen([sys.executable, "-m", "controller.cli", "engine"], cwd=ROOT, text=True,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert proc.stdin is not None and proc.stdout is not None
    try:
        proc.stdin.write(f"setoption name UCI_Variant value {variant}\nposition startpos\n"
                         f"go movetime {int(seconds * 1000)}\n")
        proc.stdin.flush()
        for line in proc.stdout:
            if line.startswith("bestmove"):
                break
        status = Path(f"/proc/{proc.pid}/status").read_text()
        peak = next(int(line.split()[1]) for line in status.splitlines() if line.startswith("VmHWM:"))
        proc.stdin.write("quit\n")
        proc.stdin.flush()
        proc.wait(timeout=30)
        return peak
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=30)


def core_beside_a_search(games: int, plies: int) -> None:
    from latency import core_bench  # (bench/latency.py, beside this script)

    print("## the referee's core alone", flush=True)
    core_bench("chess", games, plies)
    proc = subprocess.Popen([sys.executable, "-m", "controller.cli", "engine"], cwd=ROOT, text=True,
                            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL)
    assert proc.stdin is not None
    os.setpriority(os.PRIO_PROCESS, proc.pid, ENGINE_NICENESS)  # as controller/uci_player.py runs it
    try:
        proc.stdin.write("position startpos moves e2e4 e7e5 g1f3 b8c6\ngo infinite\n")
        proc.stdin.flush()
        time.sleep(0.5)  # a bench, not a test: let the search get going
        print("## the referee's core while a chessery engine process searches", flush=True)
        core_bench("chess", games, plies)
        proc.stdin.write("stop\nquit\n")
        proc.stdin.flush()
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=30)


#: Variants whose nodes are slow enough that the fixed depth is lowered (see the docstring).
SHALLOWER = {"royal-fury": 1, "triscacia": 1, "triscacia-10x10": 1}
ONE_PLY = {"mathematichess"}


def nodes_to_depth(variants: str, depth: int, count: int, seed: int) -> None:
    print(f"# search: --variants {variants} --depth {depth} --positions {count} --seed {seed}", flush=True)
    print(f"{'variant':20s} {'depth':>5s} {'nodes':>9s} {'seconds':>8s}", flush=True)
    for name in [n for n in variants.split(",") if n]:
        d = 1 if name in ONE_PLY else max(1, depth - SHALLOWER.get(name, 0))
        nodes = 0
        start = time.perf_counter()
        for pos in positions(name, count, seed):
            nodes += Searcher(find_variant(name), hash_mb=64).search(pos, Limits(depth=d)).nodes
        print(f"{name:20s} {d:5d} {nodes:9d} {time.perf_counter() - start:8.1f}", flush=True)


def _first_flag(first: int | None) -> str:
    """``--first-ply`` as a header line repeats it (nothing when the default positions were used)."""
    return "" if first is None else f" --first-ply {first}"


def depth_reached(variants: str, times: str, count: int, seed: int, first: int | None = None) -> None:
    """The depth each search finishes in each of ``times`` (seconds of this process's CPU, as
    ``bench/strength.py --clock cpu`` gives a side), from the same positions: what more time
    buys a variant."""
    spans = [float(t) for t in times.split(",")]
    print(f"# search: --variants {variants} --reach {times} --positions {count} --seed {seed}{_first_flag(first)}",
          flush=True)
    print(f"{'variant':20s} " + " ".join(f"{f'depths at {t:g} s':>24s}" for t in spans), flush=True)
    for name in [n for n in variants.split(",") if n]:
        reached: list[list[int]] = [[] for _ in spans]
        for pos in positions(name, count, seed, first):
            for i, span in enumerate(spans):
                result = Searcher(find_variant(name)).search(pos, Limits(movetime=span), clock=time.process_time)
                reached[i].append(result.depth)
        print(f"{name:20s} " + " ".join(f"{' '.join(map(str, d)):>24s}" for d in reached)
              + "   means " + " ".join(f"{sum(d) / len(d):.2f}" for d in reached), flush=True)


def scores_by_depth(variants: str, depth: int, count: int, seed: int, first: int | None = None) -> None:
    """Per position, the static evaluation and the score of each iteration to ``depth`` (for the
    side to move): how the search's view changes as it looks deeper (in Triscacia it falls, the
    two opponents' worst moves compounding)."""
    print(f"# search: --variants {variants} --scores {depth} --positions {count} --seed {seed}{_first_flag(first)}",
          flush=True)
    for name in [n for n in variants.split(",") if n]:
        v = find_variant(name)
        for pos in positions(name, count, seed, first):
            searcher = Searcher(v)
            infos: list[Info] = []
            searcher.search(pos, Limits(depth=depth), on_info=infos.append)
            print(f"{name:20s} static {searcher.evaluator.relative(pos, pos.side):7d}  "
                  + "  ".join(f"d{i.depth} {i.score:7d}" for i in infos), flush=True)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--variants", default=",".join(variant_names()))
    p.add_argument("--movetime", type=float, default=1.0)
    p.add_argument("--positions", type=int, default=3)
    p.add_argument("--perft-depth", type=int, default=2)
    p.add_argument("--memory-seconds", type=float, default=3.0)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--core", action="store_true", help="only the referee's core p99 alone and beside a search")
    p.add_argument("--core-games", type=int, default=6)
    p.add_argument("--depth", type=int, default=0, help="nodes to finish this depth instead of nodes a second")
    p.add_argument("--reach", default="", metavar="SECONDS,...",
                   help="the depth finished in each of these CPU times, per position, instead of nodes a second")
    p.add_argument("--scores", type=int, default=0, metavar="DEPTH",
                   help="per position, the static score and each iteration's score to DEPTH")
    p.add_argument("--first-ply", type=int, default=None,
                   help="--reach and --scores: positions after FIRST to FIRST+23 random plies only, not the start "
                        "(30: past Triscacia's placement)")
    args = p.parse_args()
    if args.reach:
        depth_reached(args.variants, args.reach, args.positions, args.seed, args.first_ply)
        return
    if args.scores:
        scores_by_depth(args.variants, args.scores, args.positions, args.seed, args.first_ply)
        return
    if args.core:
        core_beside_a_search(args.core_games, 80)
        return
    if args.depth:
        nodes_to_depth(args.variants, args.depth, args.positions, args.seed)
        return
    print(f"# search: --variants {args.variants} --movetime {args.movetime} --positions {args.positions} "
          f"--perft-depth {args.perft_depth} --memory-seconds {args.memory_seconds}", flush=True)
    print(f"{'variant':20s} {'nodes/s':>8s} {'depth':>6s} {'us/node':>8s}   {'perft us/leaf':>13s} "
          f"{'us/played':>9s}", flush=True)
    for name in [n for n in args.variants.split(",") if n]:
        nodes = 0
        seconds = 0.0
        depths = []
        for pos in positions(name, args.positions, args.seed):
            searcher = Searcher(find_variant(name), hash_mb=64)
            start = time.perf_counter()
            result = searcher.search(pos, Limits(movetime=args.movetime))
            seconds += time.perf_counter() - start
            nodes += result.nodes
            depths.append(result.depth)
        leaves, played, pt = perft_cost(name, args.perft_depth)
        nps = nodes / seconds if seconds else 0
        print(f"{name:20s} {nps:8.0f} {sum(depths) / len(depths):6.1f} {1e6 / nps if nps else 0:8.0f}   "
              f"{1e6 * pt / leaves:13.1f} {1e6 * pt / played:9.0f}", flush=True)
    if args.memory_seconds > 0:
        for variant in ("chess", "mathematichess"):
            print(f"engine process peak RSS after a {args.memory_seconds:g} s search ({variant}): "
                  f"{engine_memory(variant, args.memory_seconds) / 1024:.0f} MB", flush=True)


if __name__ == "__main__":
    main()
