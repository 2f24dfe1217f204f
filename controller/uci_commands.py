"""The ``chessery engine`` command: the UCI engine (``controller.uci``) on stdin/stdout."""

from __future__ import annotations

import argparse
import sys


def cmd_engine(args: argparse.Namespace) -> int:
    from .uci import UciEngine

    def write(line: str) -> None:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    engine = UciEngine(write, args.variant, seed=args.seed)
    for line in sys.stdin:
        if not engine.handle(line):
            return 0
    engine.finish()
    return 0


def add_commands(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("engine", help="play as a UCI engine on stdin/stdout (every variant: option UCI_Variant)")
    p.add_argument("--variant", default="chess", help="variant at start (name or file; UCI_Variant changes it)")
    p.add_argument("--seed", type=int, default=None, help="seed of the skill levels' noise (repeatable games)")
    p.set_defaults(handler=cmd_engine)
