"""The cost of a touch on the screen that chooses a move (``Referee.touch``), against the same
choice made on the board (a lift and a put-back, the question after it, its answer) and one
``Position.legal_moves()``, all measured in this run on the same positions.

    ./dev bench touch [--rounds N]

Each round plays Illusionary Piece Chess's four choices from the start, each choice a random
candidate: once by touches, once by lifts and put-backs. Before every decision the core is
``prepare``d, as the service does while it waits for the next input, so a decision only matches.
Reported per decision: p50, p99, max (ms) and the p50 ratios. Goal: p99 under 1 ms (issue 11's
"core decision p99 < 1 ms").
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from functools import partial

import engine
from controller.inference import Event, Referee


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(p / 100 * len(values)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=300)
    args = parser.parse_args()
    variant = engine.find_variant("illusionary")
    rng = random.Random(1)
    touch_ms: list[float] = []
    board_ms: list[float] = []
    listing_ms: list[float] = []
    for _ in range(args.rounds):
        cells = []
        pos = engine.start_position(variant)
        for _choice in range(4):
            move = rng.choice(pos.legal_moves())
            cells.append(move.frm)
            pos.push(move)
        by_touch = Referee(engine.start_position(variant))
        by_board = Referee(engine.start_position(variant))
        now = 0
        for cell in cells:
            now += 1000
            t0 = time.perf_counter()
            by_touch.position.legal_moves()
            listing_ms.append((time.perf_counter() - t0) * 1000)
            by_touch.prepare()
            t0 = time.perf_counter()
            d = by_touch.touch(cell, now)
            touch_ms.append((time.perf_counter() - t0) * 1000)
            assert len(d.accepted) == 1
            spent = 0.0
            steps = [partial(by_board.event, Event(cell, False, now)),
                     partial(by_board.event, Event(cell, True, now + 100)),
                     partial(by_board.tick, now + 900), partial(by_board.answer, "yes", now + 950)]
            for step in steps:
                by_board.prepare()
                t0 = time.perf_counter()
                d = step()
                spent += (time.perf_counter() - t0) * 1000
            board_ms.append(spent)
            assert len(d.accepted) == 1
        assert by_touch.position.fen() == by_board.position.fen()
    print(f"{len(touch_ms)} choices in {args.rounds} rounds")
    for name, xs in (("touch (one decision)", touch_ms), ("lift + put back + question (four)", board_ms),
                     ("legal_moves() alone", listing_ms)):
        print(f"  {name:36} p50 {statistics.median(xs):.3f}  p99 {pct(xs, 99):.3f}  max {max(xs):.3f} ms")
    ref = statistics.median(listing_ms)
    print(f"  p50 ratios to legal_moves(): touch {statistics.median(touch_ms) / ref:.2f}, "
          f"on the board {statistics.median(board_ms) / ref:.2f}")


if __name__ == "__main__":
    main()
