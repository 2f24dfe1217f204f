"""Engine commands: ``variants``, ``moves``, ``perft``. Output formats are interfaces: scripts
and testers parse them (one item per line; perft's last line is the count alone)."""

from __future__ import annotations

import argparse

from engine import find_variant, parse_fen, start_position, variant_names
from engine.perft import divide, perft


def _position(args: argparse.Namespace):
    variant = find_variant(args.variant)
    return parse_fen(variant, args.fen) if args.fen else start_position(variant)


def cmd_variants(args: argparse.Namespace) -> int:
    for name in variant_names():
        print(name)
    return 0


def cmd_moves(args: argparse.Namespace) -> int:
    pos = _position(args)
    for move in pos.legal_moves():
        print(pos.move_text(move))
    return 0


def cmd_perft(args: argparse.Namespace) -> int:
    if args.depth < 0:
        raise ValueError(f"bad depth {args.depth}: must be 0 or more")
    pos = _position(args)
    if args.divide:
        total = 0
        for text, count in divide(pos, args.depth) if args.depth > 0 else []:
            print(f"{text}: {count}")
            total += count
        print(total if args.depth > 0 else 1)
    else:
        print(perft(pos, args.depth))
    return 0


def _depth(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"bad depth {text!r}: not a whole number") from None


def add_commands(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("variants", help="list the variants, one name per line")
    p.set_defaults(handler=cmd_variants)
    p = sub.add_parser("moves", help="legal moves of a position, one per line")
    p.add_argument("variant")
    p.add_argument("--fen", help="position (default: the variant's start)")
    p.set_defaults(handler=cmd_moves)
    p = sub.add_parser("perft", help="count leaf nodes; the last line is the count alone")
    p.add_argument("variant")
    p.add_argument("depth", type=_depth)
    p.add_argument("--fen", help="position (default: the variant's start)")
    p.add_argument("--divide", action="store_true", help="also print each root move's count")
    p.set_defaults(handler=cmd_perft)
