"""Display commands: ``render`` draws one frame of a position to a PNG, with no display attached."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

#: Accepted frame sizes: from a small status screen up to 8K.
MIN_SIZE = (160, 120)
MAX_SIZE = (7680, 4320)


def parse_size(text: str) -> tuple[int, int]:
    """``"800x480"`` -> ``(800, 480)``; ``ValueError`` with a one-line reason otherwise."""
    m = re.fullmatch(r"\s*(\d+)\s*[xX]\s*(\d+)\s*", text)
    if not m:
        raise ValueError(f"bad size {text!r}: expected WIDTHxHEIGHT such as 800x480")
    w, h = int(m.group(1)), int(m.group(2))
    if not (MIN_SIZE[0] <= w <= MAX_SIZE[0] and MIN_SIZE[1] <= h <= MAX_SIZE[1]):
        raise ValueError(f"bad size {text!r}: width must be {MIN_SIZE[0]}..{MAX_SIZE[0]} "
                         f"and height {MIN_SIZE[1]}..{MAX_SIZE[1]}")
    return w, h


def cmd_render(args: argparse.Namespace) -> int:
    size = parse_size(args.size)
    out = Path(args.out)
    if out.suffix.lower() != ".png":
        raise ValueError(f"--out {args.out!r}: the frame is written as PNG, name a .png file")
    if not out.parent.is_dir():
        raise ValueError(f"--out {args.out!r}: directory {str(out.parent)!r} does not exist")
    from engine import find_variant, parse_game_fen, start_position

    variant = find_variant(args.variant)
    pos = parse_game_fen(variant, args.fen) if args.fen else start_position(variant)

    # Heavy imports only here: ``chessery variants`` must not pay for pygame.
    import pygame

    from .render import render
    from .view import view_from_position
    from .window import save_png

    surface = pygame.Surface(size)
    render(view_from_position(pos), surface)
    try:
        save_png(surface, out)
    except (pygame.error, OSError) as exc:
        raise ValueError(f"cannot write {args.out!r}: {exc}") from None
    print(out)
    return 0


def add_commands(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("render", help="draw one frame of a position to a PNG file")
    p.add_argument("variant")
    p.add_argument("--fen", help="position (default: the variant's start)")
    p.add_argument("--size", default="800x480", help="frame size WIDTHxHEIGHT (default 800x480)")
    p.add_argument("--out", required=True, help="PNG file to write")
    p.set_defaults(handler=cmd_render)
