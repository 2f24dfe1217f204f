"""Build Mathematichess's demo game for ``controller/demo_games.py``: a game that ends by itself,
with a winner, as short as the rules allow.

Stage two needs both hands empty, so no game is shorter than 81 placements and a terminator a
side (164 plies). Both terminators are played at once (plies 3 and 4, each taking off the piece
its side put down first), so the board fills up to 160 pieces and 9 empty cells. Black places
last, and the nine holes it leaves are each fenced in by black men of one kind (two at a corner,
three or four elsewhere): nine secured black territories. White, to move, can then change no
cell of them nor any of their settlers (R19), and every move in Mathematichess goes to an empty
cell or swaps with a piece next to one: White has no move, and the game ends (R22) with Black
owning the whole score. The order of the placements is seeded, so the board fills up all over.

    .venv/bin/python -m tools.mathematichess_demo [--seed 7]
"""

from __future__ import annotations

import argparse
import random

import engine
from engine import start_position

#: The nine holes and, for each, the kind of the black men around it.
HOLES = {"a1": "P", "m1": "P", "a13": "P", "m13": "P", "d4": "F", "j4": "F", "g7": "G", "d10": "G", "j10": "N"}
KINDS = "KQTRBNGPF"


def build(seed: int) -> list[str]:
    variant = engine.find_variant("mathematichess")
    names = variant.geometry.names
    cell_of = {name: i for i, name in enumerate(names)}
    rng = random.Random(seed)
    black: dict[int, str] = {}
    for hole, kind in HOLES.items():
        cell = cell_of[hole]
        for direction in ("N", "E", "S", "W"):
            other = variant.geometry.neighbour(cell, direction)
            if other >= 0:
                black[other] = kind
    holes = {cell_of[h] for h in HOLES}
    free = [c for c in range(len(names)) if c not in holes and c not in black]
    rng.shuffle(free)
    left = {k: 9 for k in KINDS}
    for kind in black.values():
        left[kind] -= 1
    black_rest = [k for k in KINDS for _ in range(left[k])]
    # White's first man is taken off by its terminator: it has 80 to place on the board.
    white_pieces = [k for k in KINDS for _ in range(9)]
    rng.shuffle(white_pieces)
    white_first, white_rest = white_pieces[0], white_pieces[1:]
    black_first = black_rest.pop(rng.randrange(len(black_rest)))
    rng.shuffle(black_rest)
    black_cells = sorted(black)
    rng.shuffle(black_cells)
    # 80 white and 80 black men fill the 160 cells: black's fence cells first in black's list.
    n_black_free = 80 - len(black_cells)
    white_cells, black_free = free[: len(free) - n_black_free], free[len(free) - n_black_free:]
    black_plan = list(zip(black_cells + black_free, [black[c] for c in black_cells] + black_rest, strict=True))
    rng.shuffle(black_plan)
    white_plan = list(zip(white_cells, white_rest, strict=True))
    first_w, first_b = white_cells[0], black_plan[0][0]
    moves = [f"{white_first}@{names[first_w]}", f"{black_first}@{names[first_b]}",
             f"x{names[first_w]}", f"x{names[first_b]}"]
    for (wc, wk), (bc, bk) in zip(white_plan, black_plan, strict=True):
        moves += [f"{wk}@{names[wc]}", f"{bk}@{names[bc]}"]
    return moves


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    moves = build(args.seed)
    pos = start_position(engine.find_variant("mathematichess"))
    for i, text in enumerate(moves):
        assert pos.outcome() is None, (i, text)
        pos.push_text(text)
    print(f"{len(moves)} plies, {pos.outcome()}")
    print(" ".join(moves))


if __name__ == "__main__":
    main()
