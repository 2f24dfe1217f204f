"""The Triscacia screen: three colours on the board, whose turn, and for every player whose king
it may and may not check (real pygame surfaces, SDL dummy driver, looked at pixel by pixel)."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame

from controller.demo_games import TRISCACIA
from display import theme
from display.render import render
from display.view import view_from_position
from engine import find_variant, start_position

SIDES = ("blue", "green", "red")


def drawn(plies: int, size=(800, 480)):
    pos = start_position(find_variant("triscacia"))
    for text in TRISCACIA.split()[:plies]:
        pos.push_text(text)
    surface = pygame.Surface(size)
    return pos, surface, render(view_from_position(pos), surface)


def colours_in(surface: pygame.Surface, rect: pygame.Rect) -> set[tuple[int, int, int]]:
    out: set[tuple[int, int, int]] = set()
    for x in range(rect.left, rect.right):
        for y in range(rect.top, rect.bottom):
            c = surface.get_at((x, y))
            out.add((c.r, c.g, c.b))
    return out


def test_every_side_says_whose_king_it_may_and_may_not_check() -> None:
    pos, surface, layout = drawn(33)
    assert pos.side == 0
    lines = {t: r for t, r, role in layout.texts if "checks" in t}
    assert list(lines) == ["Blue checks Green, never Red", "Green checks Red, never Blue",
                           "Red checks Blue, never Green"]
    for side, rect in enumerate(lines.values()):
        swatch = pygame.Rect(layout.panel.left, rect.top, rect.left - layout.panel.left, rect.h)
        seen = colours_in(surface, swatch)
        fill = theme.side_colours(SIDES, side)[0]
        assert fill in seen
        assert not {theme.side_colours(SIDES, s)[0] for s in range(3) if s != side} & seen
    # The side to move's line stands on a band; the others do not.
    blue, green, _red = lines.values()
    assert surface.get_at((blue.right + 3, blue.centery))[:3] == theme.BUTTON
    assert surface.get_at((green.right + 3, green.centery))[:3] != theme.BUTTON


def test_whose_turn_and_three_colours_on_the_board() -> None:
    pos, surface, layout = drawn(34)
    assert pos.side == 1
    assert any(t == "Green to move" for t, _r, _role in layout.texts)
    board = colours_in(surface, layout.board)
    assert {theme.side_colours(SIDES, s)[0] for s in range(3)} <= board
    lines = [r for t, r, _role in layout.texts if "checks" in t]
    assert surface.get_at((lines[1].right + 3, lines[1].centery))[:3] == theme.BUTTON


def test_two_sided_games_show_no_check_rules() -> None:
    pos = start_position(find_variant("chess"))
    surface = pygame.Surface((800, 480))
    layout = render(view_from_position(pos), surface)
    assert view_from_position(pos).check_rules == ()
    assert not [t for t, _r, _role in layout.texts if "checks" in t]


def test_the_placing_players_area_is_tinted_in_its_colour() -> None:
    pos, surface, layout = drawn(10)  # Green places next: a4-d8
    v = pos.variant
    geo = v.geometry
    green = theme.side_colours(SIDES, 1)[0]

    def corner(name: str) -> tuple[int, int, int]:
        rect = layout.cells[geo.index(name)]
        return tuple(surface.get_at((rect.left + 3, rect.top + 3)))[:3]

    def plain(name: str) -> tuple[int, int, int]:
        return theme.SQUARES[geo.colors[geo.index(name)]]

    for name in ("a4", "d8", "c6"):
        seen, base = corner(name), plain(name)
        assert seen != base
        # nearer to green than the bare square is
        assert sum(abs(a - b) for a, b in zip(seen, green, strict=True)) < sum(
            abs(a - b) for a, b in zip(base, green, strict=True))
    for name in ("e4", "h8", "a3", "e1"):
        assert corner(name) == plain(name)
    # Once every man is placed, no area is tinted.
    pos, surface, layout = drawn(31)
    assert not any(any(h.values()) for h in pos.hands)
    rect = layout.cells[geo.index("a5")]
    assert tuple(surface.get_at((rect.left + 3, rect.top + 3)))[:3] == theme.SQUARES[geo.colors[geo.index("a5")]]
