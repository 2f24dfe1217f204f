"""Illusionary Piece Chess on the screen (a real session on a real SQLite file, frames drawn on
real pygame surfaces under the SDL dummy driver): the status line says who chooses what, a lift
and put-back brings up the confirming question, and every illusionary man is drawn in a ring."""

from __future__ import annotations

from pathlib import Path

import pygame

import engine
from controller.inference import Event
from controller.screen import view_of
from controller.session import Phase, Session
from controller.store import GameStore
from display import theme
from display.render import Layout, render

AFTER_CHOICES = "r~nbqkbnr/pppp~pppp/8/8/8/8/PPP~PPPPP/RNBQKB~NR w KQkq - 0 1"


def session_at(tmp_path: Path, fen: str | None = None) -> Session:
    variant = engine.find_variant("illusionary")
    session = Session(variant, GameStore(tmp_path / "games.sqlite3"), fen=fen, now=10)
    pos = engine.parse_fen(variant, fen) if fen else engine.start_position(variant)
    assert session.sync([1 if code else 0 for code in pos.board], 20).phase == Phase.PLAY
    return session


def ring_pixels(surface: pygame.Surface, layout: Layout, cell: int) -> int:
    rect = layout.cells[cell]
    return sum(1 for x in range(rect.left, rect.right) for y in range(rect.top, rect.bottom)
               if surface.get_at((x, y))[:3] == theme.MARK)


def test_status_says_who_chooses_and_a_put_back_is_confirmed(tmp_path: Path) -> None:
    session = session_at(tmp_path)
    assert view_of(session).status.startswith(
        "Black chooses a pawn to make illusionary: lift it and put it back, or touch it on the screen. ")
    d7 = session.position.variant.geometry.index("d7")
    session.event(Event(d7, False, 100))
    session.event(Event(d7, True, 200))
    session.tick(2000)
    view = view_of(session)
    assert view.prompt is not None
    assert "illusionary pawn" in view.prompt.title
    surface = pygame.Surface((800, 480))
    layout = render(view, surface)
    assert len(layout.choices) == 2  # yes and no, as touch buttons
    update = session.answer("yes", 2100)
    assert update.accepted == ("d7d7~p",)
    assert view_of(session).status.startswith("White chooses a pawn to make illusionary")


def test_illusionary_men_are_drawn_in_a_ring_and_regular_men_are_not(tmp_path: Path) -> None:
    session = session_at(tmp_path, AFTER_CHOICES)
    surface = pygame.Surface((800, 480))
    layout = render(view_of(session), surface)
    names = session.position.variant.geometry.index
    for marked in ("b8", "e7", "d2", "g1"):
        assert ring_pixels(surface, layout, names(marked)) > 20, marked
    for plain in ("g8", "d7", "e2", "b1", "e1", "e8"):
        assert ring_pixels(surface, layout, names(plain)) == 0, plain
