"""Colours and fonts. The fonts ship in ``display/assets`` (DejaVu Sans, whose chess glyphs
U+2654..U+265F draw the standard pieces), so no system font is assumed."""

from __future__ import annotations

from importlib import resources

import pygame

Colour = tuple[int, int, int]

BACKGROUND: Colour = (38, 44, 52)
PANEL: Colour = (50, 57, 67)
TEXT: Colour = (236, 238, 240)
TEXT_DIM: Colour = (170, 178, 188)
LABEL: Colour = (200, 206, 214)
SQUARES: tuple[Colour, Colour] = ((238, 216, 180), (176, 132, 96))  # light, dark
RING_WEDGES: tuple[Colour, Colour] = ((206, 190, 160), (138, 104, 78))
#: Frames of the regions a step must stay within (Dream Chess 47's supersquares), in region order.
STEP_REGIONS: tuple[Colour, ...] = ((0, 140, 120), (215, 95, 20))
ACCENT: Colour = (255, 196, 40)
BUTTON: Colour = (72, 81, 94)
BUTTON_SELECTED: Colour = (110, 92, 30)
BUTTON_BORDER: Colour = (140, 150, 162)
RESULT: Colour = (255, 214, 90)

# Highlights: (RGB, alpha) tints over a cell, chosen to differ from every square and side colour.
LAST_MOVE = ((250, 240, 60), 120)
CHECK = ((235, 20, 20), 160)
PENDING = ((40, 170, 255), 140)
#: The winning line of a line game (Zeta): tinted and framed.
LINE = ((30, 200, 90), 150)
FIX: Colour = (230, 0, 200)
#: The ring round a marked piece (an illusionary man): a ribbon colour unlike every square and side.
MARK: Colour = (120, 60, 235)
SHARED_TERRITORY: Colour = (128, 128, 128)

#: Side colours by side name (Triscacia: blue, green, red); (fill, outline).
SIDE_COLOURS: dict[str, tuple[Colour, Colour]] = {
    "white": ((250, 250, 240), (20, 20, 20)),
    "black": ((35, 35, 35), (228, 228, 228)),
    "blue": ((40, 100, 225), (12, 12, 30)),
    "green": ((30, 160, 70), (10, 28, 10)),
    "red": ((215, 40, 40), (30, 8, 8)),
    "yellow": ((245, 205, 30), (30, 24, 0)),
    "orange": ((245, 135, 20), (30, 15, 0)),
    "purple": ((140, 60, 200), (15, 5, 25)),
}
_FALLBACK = ("white", "black", "blue", "green", "red", "yellow", "orange", "purple")


def side_colours(sides: tuple[str, ...], side: int) -> tuple[Colour, Colour]:
    """(fill, outline) of a side: by its name when known, else by its place in turn order."""
    if 0 <= side < len(sides) and sides[side].lower() in SIDE_COLOURS:
        return SIDE_COLOURS[sides[side].lower()]
    order = _FALLBACK if len(sides) <= 2 else _FALLBACK[2:]
    return SIDE_COLOURS[order[side % len(order)]]


def _asset(name: str) -> str:
    return str(resources.files("display").joinpath("assets", name))


_FONTS: dict[tuple[int, bool], pygame.font.Font] = {}


def font(size: int, bold: bool = False) -> pygame.font.Font:
    """DejaVu Sans (or Bold) at ``size`` pixels. Cached; a ``pygame.quit()`` elsewhere invalidates
    Font objects, so the cache is dropped whenever SDL_ttf had to be initialised again."""
    if not pygame.font.get_init():
        pygame.font.init()
        _FONTS.clear()
    key = (max(6, size), bold)
    found = _FONTS.get(key)
    if found is None:
        found = _FONTS[key] = pygame.font.Font(_asset("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"), key[0])
    return found
