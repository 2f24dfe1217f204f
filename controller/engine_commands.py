"""Engine commands: ``variants``, ``moves``, ``perft``, ``play``. Output formats are interfaces:
scripts and testers parse them (one item per line; perft's last line is the count alone; play
prints the position, then the outcome). Every command that takes a variant name also takes the
path of a variant file (docs/variants.md)."""

from __future__ import annotations

import argparse
import sys

from engine import IllegalMoveError, Outcome, Position, find_variant, parse_game_fen, start_position, variant_names
from engine.perft import divide, perft
from engine.variant import user_variant_names


def _position(args: argparse.Namespace):
    variant = find_variant(args.variant)
    return parse_game_fen(variant, args.fen) if args.fen else start_position(variant)


def cmd_variants(args: argparse.Namespace) -> int:
    """Shipped variants, then the user's own variant files (by name, usable like the others)."""
    for name in variant_names() + user_variant_names():
        print(name)
    return 0


def outcome_text(pos: Position, outcome: Outcome | None) -> str:
    """``*`` while the game goes on, else the result and the reason: ``1-0 checkmate``,
    ``1/2-1/2 stalemate``, or for more than two sides the winner's name (``blue checkmate``)."""
    if outcome is None:
        return "*"
    v = pos.variant
    return f"{outcome.result(v.nsides, v.sides)} {outcome.termination}"


def cmd_play(args: argparse.Namespace) -> int:
    pos = _position(args)
    for index, text in enumerate(args.moves, start=1):
        over = pos.outcome()
        if over is not None:
            raise IllegalMoveError(f"move {index} {text!r}: the game is already over ({outcome_text(pos, over)})")
        try:
            pos.push_text(text)
        except IllegalMoveError:
            raise IllegalMoveError(f"move {index} {text!r} is not legal in {pos.fen()}") from None
    print(pos.fen())
    print(outcome_text(pos, pos.outcome()))
    return 0


def cmd_moves(args: argparse.Namespace) -> int:
    """A finished position has no moves: none on stdout (scripts read one move a line) and the
    outcome on stderr for a person, exit status 0 (docs/notation.md, "Finished positions")."""
    pos = _position(args)
    for move in pos.variant.rules.playable_moves(pos):
        print(pos.move_text(move))
    over = pos.outcome()
    if over is not None:
        print(f"chessery moves: the game is over: {outcome_text(pos, over)}", file=sys.stderr)
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
    p = sub.add_parser("play", help="play moves; print the position, then the outcome (* while it goes on)")
    p.add_argument("variant")
    p.add_argument("moves", nargs="*", metavar="MOVE", help="moves in the notation 'chessery moves' prints")
    p.add_argument("--fen", help="position to start from (default: the variant's start)")
    p.set_defaults(handler=cmd_play)
