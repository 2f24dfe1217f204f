"""Touch buttons: a prompt's choices in the panel and an operator menu over the whole window,
laid out in as few columns as hold their labels at a finger's size."""

from __future__ import annotations

import math

import pygame

from . import theme
from .layout import Layout
from .pieces import sprite
from .text import Column, fitted_text, panel_px, put_text, wrap
from .view import Choice, Prompt, View

#: Button heights (least and most), the gap between buttons and the label size, in pixels at
#: 800x480.
BUTTON_MIN, BUTTON_MAX, BUTTON_GAP, BUTTON_TEXT = 52, 76, 8, 20


def _button_widths(prompt: Prompt, s: float, compact: bool = False) -> list[int]:
    """Widths the buttons need for their whole labels (``compact``: for the short ones)."""
    f = theme.font(panel_px(BUTTON_TEXT, s))
    pad = round(20 * s)
    piece = round(BUTTON_MIN * s * 0.8) + round(8 * s)
    return [f.size(_choice_text(c, compact))[0] + (piece if c.piece else 0) + pad for c in prompt.choices]


def _columns_that_fit(prompt: Prompt, width: int, s: float, compact: bool = False) -> int:
    """The most columns (up to 4) whose buttons still hold their labels."""
    gap = round(BUTTON_GAP * s)
    need = max(_button_widths(prompt, s, compact), default=0)
    fit = [c for c in range(1, 5) if (width - (c - 1) * gap) // c >= need]
    return fit[-1] if fit else 1


def prompt_height(prompt: Prompt | None, width: int, s: float) -> int:
    """The least height a prompt needs: its title and buttons of the minimum touch size."""
    if prompt is None:
        return 0
    f = theme.font(panel_px(21, s), True)
    title = min(2, len(wrap(prompt.title, f, width))) * f.get_linesize() + round(6 * s)
    rows = math.ceil(len(prompt.choices) / _columns_that_fit(prompt, width, s, compact=True))
    return title + rows * round(BUTTON_MIN * s) + max(0, rows - 1) * round(BUTTON_GAP * s)


def draw_prompt(view: View, col: Column) -> None:
    """The open prompt's title and its choices as a grid of touch buttons, in the panel."""
    prompt = view.prompt
    assert prompt is not None
    col.wrapped(prompt.title, 21, bold=True, colour=theme.ACCENT, max_lines=2)
    col.space(6)
    n = len(prompt.choices)
    if n == 0 or col.room <= 0:
        return
    s = col.s
    gap = round(BUTTON_GAP * s)
    min_h, max_h = round(BUTTON_MIN * s), round(BUTTON_MAX * s)
    px = panel_px(BUTTON_TEXT, s)
    # Fewest columns with touch-sized buttons that hold their labels; failing that, more columns
    # with short labels (a piece picture and its count say enough); failing that, shorter buttons.
    full = _columns_that_fit(prompt, col.rect.w, s)
    short = max(full, _columns_that_fit(prompt, col.rect.w, s, compact=True))
    cols = short
    for c in range(1, short + 1):
        rows = math.ceil(n / c)
        if (col.room - (rows - 1) * gap) // rows >= min_h:
            cols = c
            break
    rows = math.ceil(n / cols)
    bw = (col.rect.w - (cols - 1) * gap) // cols
    bh = max(1, min(max_h, (col.room - (rows - 1) * gap) // rows))
    # All pictured pieces drop their names together, so the buttons read alike.
    compact = max(_button_widths(prompt, s), default=0) > bw
    for i, choice in enumerate(prompt.choices):
        r, c = divmod(i, cols)
        rect = pygame.Rect(col.rect.x + c * (bw + gap), col.y + r * (bh + gap), bw, bh)
        selected = i == prompt.selected
        pygame.draw.rect(col.surface, theme.BUTTON_SELECTED if selected else theme.BUTTON, rect,
                         border_radius=round(8 * s))
        pygame.draw.rect(col.surface, theme.ACCENT if selected else theme.BUTTON_BORDER, rect,
                         width=max(2, round((4 if selected else 2) * s)), border_radius=round(8 * s))
        col.layout.choices.append(rect)
        x = rect.x + round(10 * s)
        if choice.piece is not None:
            size = round(min(bh * 0.8, bw * 0.4))
            col.surface.blit(sprite(choice.piece, view.sides, size), (x, rect.centery - size // 2))
            x += size + round(8 * s)
        room = rect.right - round(10 * s) - x
        text = _choice_text(choice, compact)
        img = fitted_text(text, px, selected, theme.TEXT, room)
        where = img.get_rect(midleft=(x, rect.centery)) if choice.piece else img.get_rect(
            center=((x + rect.right - round(10 * s)) / 2, rect.centery))
        if img.get_height() <= rect.h:
            put_text(col.surface, col.layout, img, text, where, "button")
    col.y += rows * (bh + gap)


def draw_menu(menu: Prompt, view: View, surface: pygame.Surface, layout: Layout, s: float) -> None:
    """An operator menu screen over the whole window: its title, then a grid of touch buttons
    (``menu.columns`` wide, else as many columns as the labels allow)."""
    pygame.draw.rect(surface, theme.PANEL, layout.panel)
    pad = max(6, round(14 * s))
    col = Column(surface, layout, layout.panel.inflate(-2 * pad, -2 * pad), s)
    col.wrapped(menu.title, 24, bold=True, colour=theme.ACCENT, max_lines=2)
    col.space(8)
    n = len(menu.choices)
    if n == 0 or col.room <= 0:
        return
    gap = round(BUTTON_GAP * s)
    cols = menu.columns or _columns_that_fit(menu, col.rect.w, s)
    rows = math.ceil(n / cols)
    px = panel_px(BUTTON_TEXT + 2, s)
    # Many buttons (a variant list that grew): rather more columns than the menu asks for, with
    # narrower buttons, than buttons too short to carry their labels (labels shrink to the width).
    need = theme.font(px).get_height()
    while cols < n and (col.room - (rows - 1) * gap) // rows < need:
        cols += 1
        rows = math.ceil(n / cols)
    bw = (col.rect.w - (cols - 1) * gap) // cols
    bh = max(1, min(round(BUTTON_MAX * 1.2 * s), (col.room - (rows - 1) * gap) // rows))
    # Many choices (the variant list grows) make short buttons: a smaller label still fits.
    px = min(panel_px(BUTTON_TEXT + 2, s), max(8, bh * 3 // 4))
    for i, choice in enumerate(menu.choices):
        r, c = divmod(i, cols)
        rect = pygame.Rect(col.rect.x + c * (bw + gap), col.y + r * (bh + gap), bw, bh)
        selected = i == menu.selected
        pygame.draw.rect(surface, theme.BUTTON_SELECTED if selected else theme.BUTTON, rect,
                         border_radius=round(8 * s))
        pygame.draw.rect(surface, theme.ACCENT if selected else theme.BUTTON_BORDER, rect,
                         width=max(2, round((4 if selected else 2) * s)), border_radius=round(8 * s))
        layout.choices.append(rect)
        img = fitted_text(choice.label, px, selected, theme.TEXT, rect.w - round(12 * s))
        if img.get_height() <= rect.h:
            put_text(surface, layout, img, choice.label, img.get_rect(center=rect.center), "button")
    col.y += rows * (bh + gap)


def _choice_text(choice: Choice, compact: bool = False) -> str:
    """A button's label; ``compact`` drops the name of a pictured piece, keeping its count."""
    if compact and choice.piece is not None:
        return f"×{choice.count}" if choice.count is not None else ""
    return f"{choice.label}  ×{choice.count}" if choice.count is not None else choice.label
