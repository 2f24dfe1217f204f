"""Time to render one frame at 800x480 (the official Pi 7" display), against the floor of a plain
``Surface.fill`` + ``pygame.display.flip`` of the same size measured in the same run.

    ./dev bench render [--frames N]

Each frame is ``render(view, screen)`` + ``flip()`` on the display surface (SDL's dummy driver
unless SDL_VIDEODRIVER says otherwise), with the view alternating between two positions so that
every frame really draws. Cases: the chess start position, and a full 13x13 board (162 pieces,
7 empty cells tinted as territories with their values written on them).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from dataclasses import replace

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame

from display.gallery import territory_board
from display.render import render
from display.view import Highlights, View, view_from_position
from engine import find_variant, start_position

SIZE = (800, 480)


def chess_views() -> tuple[View, View]:
    pos = start_position(find_variant("chess"))
    first = view_from_position(pos)
    pos.push_text("e2e4")
    return first, view_from_position(pos)


def territory_views() -> tuple[View, View]:
    view = territory_board()
    assert sum(p is not None for p in view.pieces) == 162 and view.scores and len(view.scores.territories) == 7
    return view, replace(view, highlights=Highlights(last_move=(0, 1)))


def per_frame(screen: pygame.Surface, frames: int, draw) -> float:
    draw(0)  # warm caches (fonts, sprites): a running display has them warm too
    start = time.perf_counter()
    for i in range(frames):
        draw(i)
        pygame.display.flip()
    return (time.perf_counter() - start) / frames * 1000


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--frames", type=int, default=200)
    args = ap.parse_args(argv)
    pygame.display.init()
    screen = pygame.display.set_mode(SIZE)
    floor = per_frame(screen, args.frames, lambda i: screen.fill((i % 256, 0, 0)))
    print(f"driver {pygame.display.get_driver()}, {SIZE[0]}x{SIZE[1]}, {args.frames} frames each")
    print(f"floor: fill + flip            {floor:8.3f} ms/frame")
    for name, views in (("8x8 chess start", chess_views()), ("13x13 + territories", territory_views())):
        ms = per_frame(screen, args.frames, lambda i, v=views: render(v[i % 2], screen))
        print(f"{name:<30}{ms:8.3f} ms/frame  {ms / floor:7.1f}x floor  ({1000 / ms:6.0f} frames/s)")
    pygame.display.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main())
