"""The hand model's stress run on Royal Fury: seeded random games (charges, chains, swaps) played
by ``tests/hand_model.py`` on an occupancy and an identity board, straight into the core.

    ./dev bench royal_fury_hands [--seeds 0-90] [--swap 0.5,0]

Reported: games recorded move for move out of those played, per share of swaps (``--swap``: how
often a game swaps when it can, ``tests/royal_fury_games.random_game``), and for each game
misread the first ply that differs. Goal: every game move for move.
"""

from __future__ import annotations

import argparse

import engine
from controller.replay import Replayer
from firmware_bridge.script import parse_script


def seeds_of(text: str) -> list[int]:
    """``0-90`` (a range, end excluded) or ``21,25,27``."""
    if "-" in text:
        start, end = text.split("-")
        return list(range(int(start), int(end)))
    return [int(x) for x in text.split(",")]


def stress(seeds: list[int], swap: float) -> tuple[int, int]:
    from tests.hand_model import Hands, game_script_with_plies
    from tests.royal_fury_games import RF, random_game

    ok = total = 0
    for seed in seeds:
        moves = random_game(seed, swap=swap)
        for identity in (False, True):
            lines, _plies = game_script_with_plies(engine.start_position(RF), moves, Hands(identity=identity),
                                                   seed=seed)
            r = Replayer(engine.start_position(RF), identity=identity)
            r.run(parse_script("\n".join(lines), RF))
            got = r.texts()
            total += 1
            ok += got == moves
            if got != moves:
                ply = next((i for i, (a, b) in enumerate(zip(got, moves, strict=False)) if a != b),
                           min(len(got), len(moves)))
                print(f"  swap {swap}, seed {seed}, {'identity' if identity else 'occupancy'} board: ply {ply + 1}: "
                      f"{got[ply:ply + 2]} recorded, {moves[ply:ply + 2]} played ({len(got)}/{len(moves)} moves)")
    return ok, total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", default="0-90", help="a range (end excluded) or a comma-separated list")
    parser.add_argument("--swap", default="0.5,0", help="comma-separated shares of swaps")
    args = parser.parse_args()
    seeds = seeds_of(args.seeds)
    for swap in (float(x) for x in args.swap.split(",")):
        ok, total = stress(seeds, swap)
        print(f"Royal Fury, swap {swap}: {ok}/{total} games recorded move for move "
              f"(seeds {args.seeds}, occupancy and identity boards)")


if __name__ == "__main__":
    main()
