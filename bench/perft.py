"""Perft speed: Chessery's general engine against python-chess on the same positions, same run,
then every shipped variant next to FIDE chess.

Times are this process's CPU time. Part 1: both engines count the last ply without playing it
(bulk counting); it prints nodes per second for each and the ratio ours/theirs (>1 means Chessery
is faster). Part 2 walks every variant's tree from sampled positions (random plies from the
start, so the middle game is measured too), every node visited (moves listed, children pushed
and popped), and prints the cost per node against FIDE chess measured the same way in the same
run; multi-royal variants are also compared with their single-royal twin on the same board.

    ./dev bench perft [--quick] [--variants-only]
"""

from __future__ import annotations

import argparse
import time

import chess

from engine import find_variant, parse_fen, start_position, variant_names
from engine.perft import perft
from engine.position import Position
from engine.variant import Variant

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
    # CPU time of this process: on a busy machine, wall time measures the neighbours too
    start = time.process_time()
    nodes = fn(*args)
    return nodes, time.process_time() - start


#: multi-royal variant -> its single-royal twin on the same board
TWINS = {"tweedle": "sqchess"}


def sample_positions(variant: Variant, count: int, plies: int, seed: int = 1) -> list[Position]:
    """Positions after ``plies`` random legal plies (fewer if the game ends), seeded."""
    import random

    rng = random.Random(seed)
    out = []
    for _ in range(count):
        pos = start_position(variant)
        for _ in range(rng.randrange(plies // 2, plies + 1)):
            moves = pos.legal_moves()
            if not moves or pos.outcome():
                break
            pos.push(rng.choice(moves))
        out.append(Position(variant, pos.board[:], pos.side, castling=pos.castling, ep=pos.ep,
                            halfmove=pos.halfmove, fullmove=pos.fullmove, hands=[dict(h) for h in pos.hands],
                            extra=dict(pos.extra)))
    return out


def visit(pos: Position, depth: int) -> int:
    """Every node of the tree to ``depth`` visited: its legal moves listed, each child pushed and
    popped. Returns the nodes visited. Unlike bulk-counted perft this costs the same per node
    whatever the branching factor, so variants on different boards compare fairly."""
    moves = pos.legal_moves()
    if depth <= 1:
        return 1
    total = 1
    for move in moves:
        pos.push(move)
        total += visit(pos, depth - 1)
        pos.pop()
    return total


def variant_speed(name: str, budget: float, positions: list[Position] | None = None) -> tuple[int, float]:
    """Nodes visited and CPU seconds (this process's, so other load on the machine counts
    little) of a depth-3 walk (depth 2 where one ply is already large) over sampled positions,
    until ``budget`` CPU seconds are spent."""
    variant = find_variant(name)
    nodes = 0
    spent = 0.0
    for pos in positions if positions is not None else sample_positions(variant, 40, 24):
        depth = 3 if len(pos.legal_moves()) < 100 else 2
        start = time.process_time()
        nodes += visit(pos, depth)
        spent += time.process_time() - start
        if spent > budget:
            break
    return nodes, spent


def variants_report(budget: float, rounds: int = 3, only: list[str] | None = None) -> None:
    """Every variant (or ``only``) next to FIDE chess. Each is measured in ``rounds`` rounds,
    all variants in turn per round, on the same positions; the best round counts. On a shared
    machine another process's burst slows whichever variant runs then, and taking the best of
    interleaved rounds keeps such bursts out of the ratios."""
    print()
    print(f"{'variant':<22} {'nodes':>9} {'n/s':>9} {'us/node':>8} {'x FIDE':>7}")
    names = ["chess", *[n for n in (only or variant_names()) if n != "chess"]]
    positions = {name: sample_positions(find_variant(name), 40, 24) for name in names}
    best: dict[str, tuple[int, float]] = {}
    for _ in range(rounds):
        for name in names:
            nodes, spent = variant_speed(name, budget / rounds, positions[name])
            if name not in best or nodes / spent > best[name][0] / best[name][1]:
                best[name] = (nodes, spent)
    rates = {name: nodes / spent for name, (nodes, spent) in best.items()}
    for name in names:
        nodes, spent = best[name]
        print(f"{name:<22} {nodes:>9} {rates[name]:>9.0f} {1e6 / rates[name]:>8.2f}"
              f" {rates['chess'] / rates[name]:>7.2f}")
    for multi, single in TWINS.items():
        if multi in rates and single in rates:
            print(f"{multi} per node vs its single-royal twin {single}: {rates[single] / rates[multi]:.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="shallower depths")
    parser.add_argument("--variants-only", action="store_true", help="only part 2, every variant vs FIDE")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds per variant (best counts)")
    parser.add_argument("--variants", nargs="+", metavar="NAME", help="only these variants (and FIDE chess)")
    args = parser.parse_args()
    if not args.variants_only:
        fide_vs_python_chess(args.quick)
    variants_report(1.0 if args.quick else 4.0, args.rounds, args.variants)


def fide_vs_python_chess(quick: bool) -> None:
    variant = find_variant("chess")
    total_ours = total_theirs = 0.0
    total_nodes = 0
    print(f"{'position':<11} {'depth':>5} {'nodes':>10} {'ours n/s':>10} {'py-chess n/s':>12} {'ratio':>6}")
    for name, fen, quick_depth, depth in POSITIONS:
        d = quick_depth if quick else depth
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
