"""The panel beside or below the board: title, players, side to move, status, clocks, scores,
pieces in hand, the legend and the move list, with a prompt's buttons when one is open."""

from __future__ import annotations

import math

import pygame

from . import theme
from .layout import Layout
from .pieces import disc_sprite, sprite
from .prompts import BUTTON_MIN, draw_prompt, prompt_height
from .text import Column, fitted_text, number_text, panel_px, put_text, side_name
from .view import PieceView, View


def _clock(seconds: float) -> str:
    """A clock face: ``1:05:09``, ``9:41``, and tenths in the last ten seconds (``7.3``)."""
    if 0 < seconds < 10:
        tenths = math.ceil(round(seconds * 10, 3))
        return f"{tenths // 10}.{tenths % 10}"
    t = max(0, math.ceil(round(seconds, 3)))
    h, rest = divmod(t, 3600)
    return f"{h}:{rest // 60:02d}:{rest % 60:02d}" if h else f"{rest // 60}:{rest % 60:02d}"


#: Clock digits: large, bold, as on a tournament clock (pixels at 800x480).
CLOCK_PX = 40


def _draw_clocks(view: View, col: Column) -> None:
    """One box per side, side by side (stacked when they do not fit): the side's colour, its
    time in large digits; the running clock's box is lit, a flag at zero in the result colour."""
    assert view.clocks is not None
    n = len(view.clocks)
    gap = round(8 * col.s)
    big = theme.font(max(panel_px(CLOCK_PX, col.s), 18), True)
    faces = [_clock(secs) for secs in view.clocks]
    per_row = n if all(big.size(t)[0] + round(34 * col.s) <= (col.rect.w - (n - 1) * gap) // n for t in faces) else 1
    w = (col.rect.w - (per_row - 1) * gap) // per_row
    h = big.get_linesize() + round(6 * col.s)
    rows = math.ceil(n / per_row)
    if rows * h + (rows - 1) * gap > col.room:
        return
    for side, (secs, face) in enumerate(zip(view.clocks, faces, strict=True)):
        r, c = divmod(side, per_row)
        rect = pygame.Rect(col.rect.x + c * (w + gap), col.y + r * (h + gap), w, h)
        running = side == view.side_to_move and not view.result
        pygame.draw.rect(col.surface, theme.BUTTON_SELECTED if running else theme.BUTTON, rect,
                         border_radius=round(6 * col.s))
        if running:
            pygame.draw.rect(col.surface, theme.ACCENT, rect, width=max(2, round(3 * col.s)),
                             border_radius=round(6 * col.s))
        dot = round(h * 0.45)
        col.surface.blit(disc_sprite("", *theme.side_colours(view.sides, side), dot),
                         (rect.x + round(6 * col.s), rect.centery - dot // 2))
        colour = theme.RESULT if secs <= 0 else theme.TEXT
        img = big.render(face, True, colour)
        where = img.get_rect(midright=(rect.right - round(8 * col.s), rect.centery))
        put_text(col.surface, col.layout, img, face, where, "clock")
    col.y += rows * h + (rows - 1) * gap


def draw_panel(view: View, surface: pygame.Surface, layout: Layout, s: float) -> None:
    """Everything but the board, in ``layout.panel``: one column, or two on a wide, short panel."""
    pad = max(6, round(14 * s))
    inner = layout.panel.inflate(-2 * pad, -2 * pad)
    if inner.w <= 0 or inner.h <= 0:
        return
    if view.menu_button:
        bh = round(BUTTON_MIN * 0.8 * s)
        rect = pygame.Rect(inner.right - max(inner.w // 3, round(110 * s)), inner.bottom - bh,
                           max(inner.w // 3, round(110 * s)), bh)
        pygame.draw.rect(surface, theme.BUTTON, rect, border_radius=round(8 * s))
        pygame.draw.rect(surface, theme.BUTTON_BORDER, rect, width=max(2, round(2 * s)), border_radius=round(8 * s))
        img = fitted_text("Menu", panel_px(18, s), True, theme.TEXT, rect.w - round(8 * s))
        put_text(surface, layout, img, "Menu", img.get_rect(center=rect.center), "button")
        layout.menu_button = rect
        inner = pygame.Rect(inner.x, inner.y, inner.w, inner.h - bh - round(6 * s))
    if inner.w > 1.5 * inner.h:
        # A wide, short panel (below the board): status on the left, prompt or moves on the right.
        left_w = round(inner.w * 0.44)
        head = Column(surface, layout, pygame.Rect(inner.x, inner.y, left_w, inner.h), s)
        _draw_header(view, head)
        body = Column(surface, layout, pygame.Rect(inner.x + left_w + pad, inner.y, inner.w - left_w - pad,
                                                    inner.h), s)
    else:
        # A prompt always gets the room for its buttons; the status lines that do not fit then
        # wait until it is answered (the least important ones, at the end, go first).
        reserve = prompt_height(view.prompt, inner.w, s) if view.prompt else 0
        gap = round(10 * s)
        head = Column(surface, layout, pygame.Rect(inner.x, inner.y, inner.w, max(0, inner.h - reserve - gap)), s)
        _draw_header(view, head)
        top = head.y + gap
        body = Column(surface, layout, pygame.Rect(inner.x, top, inner.w, inner.bottom - top), s)
    if view.prompt is not None:
        draw_prompt(view, body)
        body.space(6)
        _draw_moves(view, body)  # the game stays in sight while the question is open
    else:
        _draw_legend(view, body)
        _draw_moves(view, body)


def _draw_header(view: View, col: Column) -> None:
    col.line(view.title, 25, bold=True)
    if view.players:
        col.line(view.players, 20, colour=theme.TEXT)
    col.space(4)
    if view.result:
        col.wrapped(view.result, 24, bold=True, colour=theme.RESULT, max_lines=2)
    elif view.side_to_move is not None:
        side = view.side_to_move
        col.line(f"{side_name(view, side)} to move", 21, swatch=theme.side_colours(view.sides, side))
    _draw_check_rules(view, col)
    if view.phase:
        col.line(view.phase.upper(), 17, bold=True, colour=theme.ACCENT)
    if view.status:
        col.wrapped(view.status, 19, max_lines=4)
    if view.clocks is not None:
        col.space(6)
        _draw_clocks(view, col)
    if view.scores is not None:
        col.space(6)
        col.line(view.scores.title, 18, bold=True, colour=theme.TEXT_DIM)
        for side, total in enumerate(view.scores.totals):
            col.line(side_name(view, side), 20, swatch=theme.side_colours(view.sides, side), right=number_text(total))
    for side, hand in enumerate(view.hands):
        if hand:
            _draw_hand(view, col, side, hand)


def _draw_check_rules(view: View, col: Column) -> None:
    """Three players: each side's line says whose king it may check and whose never; the side to
    move's line stands on a band."""
    for side, left, right in view.check_rules:
        band = theme.BUTTON if side == view.side_to_move else None
        col.line(f"{side_name(view, side)} checks {side_name(view, left)}, never {side_name(view, right)}", 16,
                 swatch=theme.side_colours(view.sides, side), band=band)


def _draw_hand(view: View, col: Column, side: int, hand: tuple[tuple[PieceView, int], ...]) -> None:
    """The side's pieces in hand with their counts: as many rows as they need (a full row
    continues on the next, no kind is left out); when the panel has no room for them all, the
    last row ends with ``+N`` kinds not shown."""
    f = theme.font(panel_px(18, col.s))
    hgt = round(f.get_linesize() * 1.5)
    if hgt > col.room:
        return
    x0 = col.rect.x
    label = f"{side_name(view, side)} hand:"
    name = f.render(label, True, theme.TEXT_DIM)
    put_text(col.surface, col.layout, name, label, name.get_rect(midleft=(x0, col.y + hgt / 2)), "panel")
    x = x0 + name.get_width() + round(6 * col.s)
    gap = round(8 * col.s)
    widths = [hgt + f.size(str(count))[0] + gap for _piece, count in hand]
    for i, (piece, count) in enumerate(hand):
        if x + widths[i] - gap > col.rect.right:
            if col.y + 2 * hgt > col.rect.bottom:  # no room for another row: say how many are left
                more = f"+{len(hand) - i}"
                img = f.render(more, True, theme.ACCENT)
                put_text(col.surface, col.layout, img, more,
                          img.get_rect(midright=(col.rect.right, col.y + hgt / 2)), "panel")
                break
            col.y += hgt
            x = x0 + round(12 * col.s)
        col.surface.blit(sprite(piece, view.sides, hgt), (x, col.y))
        x += hgt
        img = f.render(str(count), True, theme.TEXT)
        put_text(col.surface, col.layout, img, str(count), img.get_rect(midleft=(x, col.y + hgt / 2)), "panel")
        x += img.get_width() + gap
    col.y += hgt


def _draw_legend(view: View, col: Column) -> None:
    for note in view.notes:
        col.wrapped(note, 16, colour=theme.TEXT_DIM, max_lines=3)
    if view.notes:
        col.space(6)
    entries = [p for p in view.legend if not p.plain]
    if not entries:
        return
    f = theme.font(panel_px(17, col.s))
    hgt = round(f.get_linesize() * 1.25)
    per_row = 2 if col.rect.w > 360 * col.s else 1
    cell_w = col.rect.w // per_row
    for i in range(0, len(entries), per_row):
        if hgt > col.room:
            return
        for k, piece in enumerate(entries[i:i + per_row]):
            x = col.rect.x + k * cell_w
            col.surface.blit(sprite(piece, view.sides, hgt), (x, col.y))
            label = f"{piece.san}  {piece.name}" if piece.san else piece.name or piece.letter
            col.fit(label, 17, False, theme.TEXT, x + hgt + round(6 * col.s),
                     cell_w - hgt - round(12 * col.s), y=col.y + (hgt - f.get_linesize()) // 2)
        col.y += hgt
    col.space(8)


def _draw_moves(view: View, col: Column) -> None:
    if not view.moves:
        return
    nsides = max(1, len(view.sides))
    f = theme.font(panel_px(19, col.s))
    hgt = f.get_linesize()
    rows: list[tuple[int, list[tuple[int, str]]]] = []
    for i, text in enumerate(view.moves):
        ply = view.first_side + i
        number = view.first_move_number + ply // nsides
        if not rows or rows[-1][0] != number:
            rows.append((number, []))
        rows[-1][1].append((ply % nsides, text))
    fit = max(0, col.room // hgt)
    num_w = f.size(f"{rows[-1][0]}.")[0] + round(8 * col.s)
    move_w = (col.rect.w - num_w) // nsides
    for number, entries in rows[max(0, len(rows) - fit):] if fit else []:  # the latest rows that fit
        img = f.render(f"{number}.", True, theme.TEXT_DIM)
        where = img.get_rect(topright=(col.rect.x + num_w - round(8 * col.s), col.y))
        put_text(col.surface, col.layout, img, f"{number}.", where, "panel")
        for side, text in entries:
            col.fit(text, 19, False, theme.TEXT, col.rect.x + num_w + side * move_w, move_w - round(6 * col.s))
        col.y += hgt
