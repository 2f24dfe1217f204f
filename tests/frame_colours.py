"""What a game's last frame (the PNG ``chessery run`` leaves) shows, told by its colours."""

from __future__ import annotations

import pygame

import engine
from display import theme


def frame_shows(image: pygame.Surface, name: str) -> bool:
    """The board (the frame's left square) holds each side's piece colour (within a small
    tolerance: piece pictures are shaded)."""
    _w, h = image.get_size()
    colours = {tuple(image.get_at((x, y))[:3]) for x in range(0, h, 2) for y in range(0, h, 2)}
    sides = tuple(engine.find_variant(name).sides)

    def near(fill: tuple[int, int, int]) -> bool:
        return any(sum(abs(a - b) for a, b in zip(c, fill, strict=True)) <= 24 for c in colours)

    return all(near(theme.side_colours(sides, s)[0]) for s in range(len(sides)))
