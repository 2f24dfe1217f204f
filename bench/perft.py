"""Perft speed: Chessery's general engine against python-chess on the same positions, same run.

Both count the last ply without playing it (bulk counting). Prints nodes per second for each and
the ratio ours/theirs (>1 means Chessery is faster).

    .venv/bin/python bench/perft.py [--quick]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import chess

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import find_variant, parse_fen
from engine.perft import perft

POSITIONS = [
    ("startpos", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 4, 5),
    ("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 3, 4),
    ("position3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 4, 5),
    ("position4", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 3, 4),
    ("position5", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 3, 4),
    ("position6", "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", 3, 4),
]


def their_perft(board: chess.Board, depth: int) -> int:
    if depth == 1:
        return board.legal_moves.count()
    total = 0
    for move in board.legal_moves:
        board.push(move)
        total += their_perft(board, depth - 1)
        board.pop()
    return total


def timed(fn, *args) -> tuple[int, float]:  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    nodes = fn(*args)
    return nodes, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="shallower depths")
    args = parser.parse_args()
    variant = find_variant("chess")
    total_ours = total_theirs = 0.0
    total_nodes = 0
    print(f"{'position':<11} {'depth':>5} {'nodes':>10} {'ours n/s':>10} {'py-chess n/s':>12} {'ratio':>6}")
    for name, fen, quick_depth, depth in POSITIONS:
        d = quick_depth if args.quick else depth
        ours_nodes, ours_t = timed(perft, parse_fen(variant, fen), d)
        theirs_nodes, theirs_t = timed(their_perft, chess.Board(fen), d)
        assert ours_nodes == theirs_nodes, (name, ours_nodes, theirs_nodes)
        total_ours += ours_t
        total_theirs += theirs_t
        total_nodes += ours_nodes
        print(f"{name:<11} {d:>5} {ours_nodes:>10} {ours_nodes / ours_t:>10.0f} {theirs_nodes / theirs_t:>12.0f}"
              f" {theirs_t / ours_t:>6.2f}")
    print(f"{'total':<11} {'':>5} {total_nodes:>10} {total_nodes / total_ours:>10.0f}"
          f" {total_nodes / total_theirs:>12.0f} {total_theirs / total_ours:>6.2f}")
    print(f"ratio ours/python-chess (nodes per second): {total_theirs / total_ours:.2f}")


if __name__ == "__main__":
    main()
