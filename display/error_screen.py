"""A screen that says why the service stopped: on a kiosk nobody reads the journal, so an error
that ends the service (a bad configuration, no board configured, a database that is not ours) is
also shown on the screen for a while before the process exits and systemd tries again."""

from __future__ import annotations

import threading
from pathlib import Path

import pygame

from . import theme
from .render import wrap
from .window import DisplayError, Window, save_png


def show_error(text: str, mode: str = "kiosk", size: tuple[int, int] = (800, 480), hold_s: float = 10.0,
               stop: threading.Event | None = None, snapshot: str | Path | None = None) -> bool:
    """Show ``text`` for ``hold_s`` seconds (or until ``stop`` is set); False if no display
    could be opened (the caller has printed the error anyway)."""
    window = Window(mode, size, title="Chessery: stopped")
    try:
        screen = window.open()
    except DisplayError:
        return False
    try:
        draw_error(screen, text)
        pygame.display.flip()
        if snapshot:
            save_png(screen, Path(snapshot))
        (stop or threading.Event()).wait(hold_s)
    finally:
        window.close()
    return True


def draw_error(surface: pygame.Surface, text: str) -> None:
    w, h = surface.get_size()
    s = min(max(w, h) / 800, min(w, h) / 480)
    surface.fill(theme.BACKGROUND)
    pad = round(30 * s)
    title = theme.font(max(18, round(34 * s)), True)
    body = theme.font(max(14, round(24 * s)))
    y = pad
    img = title.render("Chessery stopped", True, theme.RESULT)
    surface.blit(img, (pad, y))
    y += img.get_height() + round(16 * s)
    for line in wrap(text, body, w - 2 * pad):
        img = body.render(line, True, theme.TEXT)
        surface.blit(img, (pad, y))
        y += body.get_linesize()
    hint = theme.font(max(13, round(18 * s))).render("It tries again by itself; the journal has the details.",
                                                    True, theme.TEXT_DIM)
    surface.blit(hint, (pad, min(h - pad - hint.get_height(), y + round(20 * s))))
