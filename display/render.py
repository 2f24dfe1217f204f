"""Drawing a view onto a Surface: ``render(view, surface) -> Layout``.

Pure: the pixels depend on the view and the surface size only (sprites, fonts and per-geometry
measurements are cached, which changes speed, not output). The returned :class:`Layout` says
where things went: the board transform, each cell's rectangle, every text box drawn (so tests and
callers can check that nothing is cut off) and the prompt's buttons for hit-testing.

Sizes scale with the screen against 800x480 (either way up), so the official 7" Pi display and a
1080p monitor show the same composition. The parts live in their own modules: ``layout`` (where
things go), ``board_drawing`` (cells, labels, pieces), ``panel`` (status, clocks, scores, moves),
``prompts`` (touch buttons, the operator menu) and ``text`` (fitting and wrapping); this module
puts them together and keeps the names callers import from it.
"""

from __future__ import annotations

import pygame

from . import theme
from .board_drawing import cell_colour, draw_board, step_region_boxes
from .layout import Layout, plan
from .panel import CLOCK_PX, draw_panel
from .prompts import BUTTON_MIN as _BUTTON_MIN
from .prompts import BUTTON_TEXT as _BUTTON_TEXT
from .prompts import draw_menu
from .text import MIN_PANEL_PX, fitted_text, wrap
from .view import View

# The names callers and tests have imported from here since before the split.
__all__ = ["CLOCK_PX", "MIN_PANEL_PX", "_BUTTON_MIN", "_BUTTON_TEXT", "Layout", "cell_colour", "fitted_text",
           "render", "step_region_boxes", "wrap"]


def render(view: View, surface: pygame.Surface) -> Layout:
    """Draw ``view`` onto the whole of ``surface``; return where everything went."""
    w, h = surface.get_size()
    # The 800x480 reference turned either way: a portrait screen keeps the same text sizes.
    s = min(max(w, h) / 800, min(w, h) / 480)
    layout, label_px = plan(view, w, h, s)
    surface.fill(theme.BACKGROUND)
    if view.menu is not None:
        layout.panel = pygame.Rect(0, 0, w, h)
        draw_menu(view.menu, view, surface, layout, s)
        return layout
    draw_board(view, surface, layout, label_px)
    pygame.draw.rect(surface, theme.PANEL, layout.panel)
    draw_panel(view, surface, layout, s)
    return layout
