"""FIDE perft, Chessery against python-chess, counted in machine instructions.

CPU time on a shared machine moves with the other processes (caches, frequency, hyper-threads):
the same run of ``bench/perft.py`` gave 0.76 to 1.03 on a loaded two-core box. Instructions
executed do not depend on load, so this runs each engine under ``valgrind --tool=callgrind``
(it must be installed) on perft depth 3 of four standard positions, once with the search and
once without it (imports, variant compile, position set-up), and compares the differences: the
instructions the searches themselves cost.

    ./dev bench perft_instructions [--depth 3]
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FENS = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
]

# Run from the repository root (``-c`` puts the working directory first on the path).
OURS = """
from engine import find_variant, parse_fen
from engine.perft import perft
variant = find_variant("chess")
print(sum(perft(parse_fen(variant, fen), {depth}) for fen in {fens!r}))
"""

THEIRS = """
import chess
from bench.perft import their_perft
print(sum(their_perft(chess.Board(fen), {depth}) if {depth} else 1 for fen in {fens!r}))
"""


def instructions(script: str) -> tuple[int, str]:
    """Instructions callgrind counted for running ``script``, and what it printed."""
    with tempfile.TemporaryDirectory() as tmp:
        out = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/cg.out",
                              sys.executable, "-c", script], capture_output=True, text=True, check=True, cwd=ROOT)
    found = re.search(r"Collected : (\d+)", out.stderr)
    if not found:
        raise SystemExit(f"no instruction count from valgrind:\n{out.stderr[-2000:]}")
    return int(found.group(1)), out.stdout.strip()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--depth", type=int, default=3)
    args = parser.parse_args()
    if not shutil.which("valgrind"):
        raise SystemExit("valgrind is not installed (apt install valgrind)")
    counts = {}
    for name, template in (("chessery", OURS), ("python-chess", THEIRS)):
        full, nodes = instructions(template.format(depth=args.depth, fens=FENS))
        base, _ = instructions(template.format(depth=0, fens=FENS))
        counts[name] = full - base
        print(f"{name:<13} {nodes:>9} leaves  {full / 1e6:>8.0f} M instructions, {base / 1e6:>5.0f} M of them"
              f" start-up: {(full - base) / 1e6:>6.0f} M for the search")
    print(f"ratio python-chess/chessery (instructions for the same search; >1 means Chessery is faster): "
          f"{counts['python-chess'] / counts['chessery']:.2f}")


if __name__ == "__main__":
    main()
