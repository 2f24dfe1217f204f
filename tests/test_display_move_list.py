"""The move list on the 7" screen shows as many of the latest rows as fit, at every game length.
It used to show fewer the longer the game got (1 2 3 4 5 6 6 5 4 3 2 1 ... rows: a slice from a
negative start), so a finished Alice demo showed only "9. ..." on an empty panel."""

from __future__ import annotations

import re

import pygame
import pytest

import engine
from controller.demo_games import DEMO_GAMES
from controller.event_scripts import random_game
from controller.screen import NOTATION
from display.render import render
from display.view import view_from_position

NUMBER = re.compile(r"^(\d+)\.$")


def rows_drawn(pos: engine.Position, surface: pygame.Surface, **parts) -> list[int]:
    """The move numbers the panel drew, top down, for the kiosk's view of ``pos``."""
    view = view_from_position(pos, moves=tuple(NOTATION.texts(pos)), menu_button=True, **parts)
    layout = render(view, surface)
    numbers = [(box.top, int(m.group(1))) for text, box, role in layout.texts if role == "panel"
               if (m := NUMBER.match(text))]
    if layout.menu_button is not None:  # never under the Menu button
        assert all(top < layout.menu_button.top for top, _n in numbers)
    return [n for _top, n in sorted(numbers)]


@pytest.mark.parametrize("name", ["chess", "alice"])
def test_every_game_length_shows_the_latest_rows_that_fit(name: str) -> None:
    variant = engine.find_variant(name)
    moves = random_game(variant, 80, seed=3)
    assert len(moves) == 80  # long enough to overflow the panel
    surface = pygame.Surface((800, 480))
    pos = engine.start_position(variant)
    shown: list[list[int]] = []
    for text in moves:
        pos.push_text(text)
        shown.append(rows_drawn(pos, surface))
    capacity = max(len(rows) for rows in shown)
    assert capacity >= 6, capacity  # the empty part of the panel holds at least six rows
    for plies, rows in enumerate(shown, start=1):
        last = (plies - 1) // 2 + 1  # the number of the row the latest move is in
        want = list(range(max(1, last - capacity + 1), last + 1))
        assert rows == want, f"after {plies} plies: rows {rows}, want {want}"
    assert len(shown[-1]) == capacity < 40


def test_the_alice_demo_s_end_shows_its_whole_list() -> None:
    pos = engine.start_position(engine.find_variant("alice"))
    for text in DEMO_GAMES["alice"]:
        pos.push_text(text)
    assert rows_drawn(pos, pygame.Surface((800, 480))) == list(range(1, 10))  # 18 plies: it used to be [9]
