"""The operator menu's variant screen in pages: however many variants there are, each page holds
touch-sized buttons whose labels are drawn whole at the menu's own text size on the 800x480
screen (real pygame surfaces under the SDL dummy driver); More leafs on, Back leafs back and
then leaves."""

from __future__ import annotations

import pygame
import pytest

import engine
from controller.menu import VARIANTS_PER_PAGE, OperatorMenu
from display import theme
from display.render import _BUTTON_MIN, _BUTTON_TEXT, render
from display.view import View, view_from_position


def pages(menu: OperatorMenu) -> list[list[str]]:
    """The labels of each page of the variant screen, leafing through with More."""
    menu.open()
    menu.tap("settings")
    menu.tap("variant")
    out = []
    while True:
        prompt = menu.prompt()
        assert prompt is not None
        out.append([c.label for c in prompt.choices])
        if "more" not in [c.key for c in prompt.choices]:
            return out
        menu.tap("more")


@pytest.mark.parametrize("count", [3, 27, 45])
def test_every_variant_on_exactly_one_page_in_order(count: int) -> None:
    names = [f"variant-{i:02d}" for i in range(count)]
    got = pages(OperatorMenu(names))
    assert [label for page in got for label in page if label not in ("More", "Back")] == [
        n.capitalize() for n in names]
    assert all(page[-1] == "Back" for page in got)
    assert all(page[-2] == "More" for page in got[:-1]) and "More" not in got[-1]
    assert len(got) == max(1, -(-count // VARIANTS_PER_PAGE))


def test_back_leafs_back_then_leaves_and_a_variant_is_chosen_from_any_page() -> None:
    menu = OperatorMenu(engine.variant_names())
    got = pages(menu)
    assert len(got) == 3  # 27 variants today
    prompt = menu.prompt()
    assert prompt is not None and prompt.title == "Variant 3/3 (a new game starts)"
    menu.tap("back")
    prompt = menu.prompt()
    assert prompt is not None and prompt.title == "Variant 2/3 (a new game starts)"
    action = menu.tap("v:mathematichess")
    assert action is not None and (action.kind, action.value) == ("variant", "mathematichess")
    menu.open()
    menu.tap("settings")
    menu.tap("variant")  # a new visit starts on the first page
    prompt = menu.prompt()
    assert prompt is not None and prompt.title.startswith("Variant 1/3") and prompt.choices[0].key == "v:alice"
    menu.tap("back")
    assert menu.screen == "settings"


@pytest.mark.parametrize("count", [27, 45])
def test_each_page_is_readable_on_the_800x480_screen(count: int) -> None:
    names = engine.variant_names() + [f"extra-variant-{i}" for i in range(count - len(engine.variant_names()))]
    menu = OperatorMenu(names)
    pages(menu)  # to the last page; leaf back through every page from there
    base = view_from_position(engine.start_position(engine.find_variant("chess")))
    full = theme.font(_BUTTON_TEXT + 2).get_height()
    seen: list[str] = []
    while True:
        prompt = menu.prompt()
        assert prompt is not None
        surface = pygame.Surface((800, 480))
        layout = render(View(**{**base.__dict__, "menu": prompt}), surface)
        assert len(layout.choices) == len(prompt.choices)
        assert all(r.h >= _BUTTON_MIN for r in layout.choices)  # touch-sized
        drawn = {text: box for text, box, role in layout.texts if role == "button"}
        for choice, rect in zip(prompt.choices, layout.choices, strict=True):
            box = drawn[choice.label]  # the whole label, not one cut short
            assert rect.contains(box)
            assert box.h >= full  # at the menu's own size, not shrunk for room
            ink = sum(1 for x in range(box.left, box.right) for y in range(box.top, box.bottom)
                      if surface.get_at((x, y))[:3] == theme.TEXT)
            assert ink > 20, choice.label
        seen += [c.key for c in prompt.choices]
        if prompt.title.startswith("Variant 1/") or "/" not in prompt.title:
            break
        menu.tap("back")
    assert {f"v:{n}" for n in names} <= set(seen)
