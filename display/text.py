"""Text on the panel: fitting a line into a width, wrapping, the panel's smallest size, and
:class:`Column`, which writes blocks top-down and records every text box in the layout."""

from __future__ import annotations

import pygame

from . import theme
from .layout import Layout
from .pieces import disc_sprite
from .view import View


def number_text(value: float) -> str:
    """A score or territory value: whole numbers without a decimal point."""
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def put_text(surface: pygame.Surface, layout: Layout, image: pygame.Surface, text: str, rect: pygame.Rect,
             role: str) -> None:
    """Blit a rendered text and record its box in the layout (tests check nothing is cut off)."""
    surface.blit(image, rect)
    layout.texts.append((text, rect, role))


#: The smallest panel text in pixels: on a 480x320 screen the panel's sizes scale down to about
#: 11 px, which is hard to read at arm's length; 13 px DejaVu Sans still is.
MIN_PANEL_PX = 13


def panel_px(size: float, s: float) -> int:
    return max(MIN_PANEL_PX, round(size * s))


class Column:
    """Writes blocks top-down in a rectangle and records every text box it draws."""

    def __init__(self, surface: pygame.Surface, layout: Layout, rect: pygame.Rect, s: float) -> None:
        self.surface, self.layout, self.rect, self.s = surface, layout, rect, s
        self.y = rect.top

    @property
    def room(self) -> int:
        return self.rect.bottom - self.y

    def space(self, px: float) -> None:
        # Clamped: a gap before lines that no longer fit must not eat room below this column.
        self.y = min(self.rect.bottom, self.y + round(px * self.s))

    def line(self, text: str, size: float, bold: bool = False, colour: theme.Colour = theme.TEXT,
             swatch: tuple[theme.Colour, theme.Colour] | None = None, right: str = "",
             band: theme.Colour | None = None) -> bool:
        """One line: optional side swatch, text on the left, optional text flush right."""
        f = theme.font(panel_px(size, self.s), bold)
        hgt = f.get_linesize()
        if hgt > self.room:
            return False
        if band is not None:
            pygame.draw.rect(self.surface, band, (self.rect.x - 4, self.y, self.rect.w + 8, hgt),
                             border_radius=4)
        x = self.rect.x
        if swatch is not None:
            dot = round(hgt * 0.8)
            self.surface.blit(disc_sprite("", swatch[0], swatch[1], dot), (x, self.y + (hgt - dot) // 2))
            x += dot + round(6 * self.s)
        right_w = 0
        if right:
            img = f.render(right, True, colour)
            rect = img.get_rect(topright=(self.rect.right, self.y))
            put_text(self.surface, self.layout, img, right, rect, "panel")
            right_w = img.get_width() + round(10 * self.s)
        self.fit(text, size, bold, colour, x, self.rect.right - right_w - x)
        self.y += hgt
        return True

    def fit(self, text: str, size: float, bold: bool, colour: theme.Colour, x: int, width: int,
             role: str = "panel", y: int | None = None) -> pygame.Rect | None:
        if not text or width <= 0:
            return None
        img = fitted_text(text, panel_px(size, self.s), bold, colour, width)
        rect = img.get_rect(topleft=(x, self.y if y is None else y))
        put_text(self.surface, self.layout, img, text, rect, role)
        return rect

    def wrapped(self, text: str, size: float, bold: bool = False, colour: theme.Colour = theme.TEXT,
                max_lines: int = 3) -> None:
        f = theme.font(panel_px(size, self.s), bold)
        lines = wrap(text, f, self.rect.w)
        if len(lines) > max_lines:
            # The last line takes the rest: line() shrinks it a little or cuts it with an ellipsis.
            lines = [*lines[:max_lines - 1], " ".join(lines[max_lines - 1:])]
        for line in lines:
            if not self.line(line, size, bold, colour):
                return


def fitted_text(text: str, px: int, bold: bool, colour: theme.Colour, width: int) -> pygame.Surface:
    """``text`` rendered no wider than ``width``: a little smaller if that suffices, else cut with
    an ellipsis."""
    for size in (px, round(px * 0.9), round(px * 0.8)):
        f = theme.font(size, bold)
        if f.size(text)[0] <= width:
            return f.render(text, True, colour)
    f = theme.font(round(px * 0.8), bold)
    cut = text
    while cut and f.size(cut + "…")[0] > width:
        cut = cut[:-1]
    return f.render(cut + "…" if cut else "…", True, colour)


def wrap(text: str, f: pygame.font.Font, width: int) -> list[str]:
    lines: list[str] = []
    for para in text.splitlines() or [""]:
        cur = ""
        for word in para.split():
            trial = f"{cur} {word}" if cur else word
            if f.size(trial)[0] <= width or not cur:
                cur = trial
            else:
                lines.append(cur)
                cur = word
        lines.append(cur)
    return lines


def side_name(view: View, side: int) -> str:
    return view.sides[side].capitalize() if 0 <= side < len(view.sides) else f"Side {side + 1}"
