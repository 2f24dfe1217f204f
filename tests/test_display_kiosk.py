"""The kiosk display fixes, each rendered at 800x480 and 480x320 and checked on the layout's text
boxes and pixels (the PNGs go to the test's folder for a look): hand rows that keep every piece
kind, the move list beside an open question, a whole "no board" notice, readable side-panel text
on the small screen, and large clock digits."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

import engine
from display.render import MIN_PANEL_PX, render
from display.view import Choice, Prompt, view_from_position

SIZES = [(800, 480), (480, 320)]
CHESS = engine.find_variant("chess")
MATH = engine.find_variant("mathematichess")


def draw(view, size: tuple[int, int], path: Path):
    surface = pygame.Surface(size)
    layout = render(view, surface)
    pygame.image.save(surface, str(path))
    return layout, surface


def panel_texts(layout) -> list[str]:
    return [t for t, _r, role in layout.texts if role in ("panel", "clock", "button")]


@pytest.mark.parametrize("size", SIZES)
def test_hand_rows_keep_every_piece_kind(size: tuple[int, int], tmp_path: Path) -> None:
    pos = engine.start_position(MATH)  # nine kinds in each hand
    layout, surface = draw(view_from_position(pos), size, tmp_path / "hands.png")
    texts = panel_texts(layout)
    shown = texts.count("9")
    more = sum(int(t[1:]) for t in texts if t.startswith("+") and t[1:].isdigit())
    assert shown + more == 18  # every kind of both sides is either drawn or counted as not shown
    assert shown >= 9
    for t, rect, _role in layout.texts:
        assert surface.get_rect().contains(rect), t


@pytest.mark.parametrize("size", SIZES)
def test_move_list_stays_visible_with_a_question_open(size: tuple[int, int], tmp_path: Path) -> None:
    pos = engine.start_position(CHESS)
    for text in ("e2e4", "e7e5", "g1f3", "b8c6", "f1b5"):
        pos.push_text(text)
    view = view_from_position(pos, moves=("e4", "e5", "Nf3", "Nc6", "Bb5"),
                              prompt=Prompt("Take back Bb5?", (Choice("Take back Bb5", "yes"),
                                                               Choice("Keep playing", "no"))))
    layout, _ = draw(view, size, tmp_path / "question.png")
    texts = panel_texts(layout)
    assert "Take back Bb5" in texts and "Bb5" in texts and "3." in texts


@pytest.mark.parametrize("size", SIZES)
def test_no_board_notice_is_whole(size: tuple[int, int], tmp_path: Path) -> None:
    from controller.link_notice import never_connected

    notice = never_connected("/dev/ttyACM7", "/dev/ttyACM7")
    assert "keep playing" not in notice.lower() and "does not exist" in notice
    view = view_from_position(engine.start_position(CHESS), status=f"{notice}. Set up the pieces",
                              phase="setup")
    layout, _ = draw(view, size, tmp_path / "notice.png")
    said = " ".join(t for t, _r, role in layout.texts if role == "panel")
    assert "…" not in said
    assert f"{notice}. Set up the pieces" in said


@pytest.mark.parametrize("size", SIZES)
def test_panel_text_is_never_tiny(size: tuple[int, int], tmp_path: Path) -> None:
    pos = engine.start_position(CHESS)
    for text in ("e2e4", "e7e5", "g1f3"):
        pos.push_text(text)
    view = view_from_position(pos, status="Black to move: lift a piece", clocks=(300.0, 287.4))
    layout, _ = draw(view, size, tmp_path / "panel.png")
    heights = [r.h for t, r, role in layout.texts if role == "panel" and t.strip()]
    assert heights and min(heights) >= MIN_PANEL_PX  # a rendered line is at least its font size tall


@pytest.mark.parametrize("size", SIZES)
def test_clock_digits_are_large(size: tuple[int, int], tmp_path: Path) -> None:
    view = view_from_position(engine.start_position(CHESS), clocks=(581.0, 7.25))
    layout, surface = draw(view, size, tmp_path / "clocks.png")
    clocks = {t: r for t, r, role in layout.texts if role == "clock"}
    assert set(clocks) == {"9:41", "7.3"}
    status_h = max(r.h for t, r, role in layout.texts if role == "panel")
    for rect in clocks.values():
        assert rect.h >= 1.5 * status_h  # much larger than the status text
        assert surface.get_rect().contains(rect)
    # the digits are really drawn: text-coloured pixels inside the box
    r = clocks["9:41"]
    colours = {surface.get_at((x, y))[:3] for x in range(r.left, r.right, 2) for y in range(r.top, r.bottom, 2)}
    assert len(colours) > 3
