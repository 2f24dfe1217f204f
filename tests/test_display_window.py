"""The window loop on SDL's dummy driver: redraws only when the view changes, takes views from
other threads, sends touches back as events, writes headless snapshots, reports a display it
cannot open in one line."""

from __future__ import annotations

import os
import threading
import time
from dataclasses import replace
from pathlib import Path

import pygame
import pytest

from display.render import render
from display.view import Choice, Prompt, View, view_from_position
from display.window import CellClicked, ChoiceClicked, DisplayError, QuitRequested, Window
from engine import find_variant, start_position


@pytest.fixture
def view() -> View:
    return view_from_position(start_position(find_variant("chess")), status="Lift a piece")


@pytest.fixture
def window():
    w = Window(mode="headless", size=(800, 480))
    w.open()
    yield w
    w.close()


def pump_until(window: Window, done, timeout: float = 5.0) -> None:
    """Run the loop (which blocks in SDL's event wait, not a sleep) until ``done()`` or a deadline."""
    deadline = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline, "the window loop did not get there in time"
        window.step(timeout=0.2)


def click(pos: tuple[int, int]) -> None:
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))


def test_redraws_only_when_the_view_changes(window: Window, view: View) -> None:
    window.show(view)
    window.step(timeout=0.5)
    assert window.renders == 1
    window.show(replace(view))  # an equal view, a different object
    window.step(timeout=0.5)
    assert window.renders == 1
    window.step()  # nothing happened at all
    assert window.renders == 1
    window.show(replace(view, status="Put it down"))
    window.step(timeout=0.5)
    assert window.renders == 2
    screen = pygame.display.get_surface()
    assert window.layout is not None and window.layout.size == screen.get_size()


def test_only_the_newest_of_many_views_is_drawn(window: Window, view: View) -> None:
    for i in range(20):
        window.show(replace(view, status=f"message {i}"))
    window.step(timeout=0.5)
    assert window.renders == 1
    assert window.view is not None and window.view.status == "message 19"


def test_views_from_another_thread_wake_the_loop(window: Window, view: View) -> None:
    statuses = [f"update {i}" for i in range(5)]
    drawn: list[str] = []

    def controller() -> None:
        for s in statuses:
            window.show(replace(view, status=s))

    worker = threading.Thread(target=controller)
    worker.start()

    def newest_drawn() -> bool:
        if window.view is not None and (not drawn or drawn[-1] != window.view.status):
            drawn.append(window.view.status)
        return bool(drawn) and drawn[-1] == statuses[-1]

    pump_until(window, newest_drawn)
    worker.join(timeout=5)
    assert drawn[-1] == "update 4" and window.renders == len(drawn)


def test_show_from_another_thread_posts_one_wake_up_event(window: Window, view: View) -> None:
    def show_ten() -> None:
        for i in range(10):
            window.show(replace(view, status=str(i)))

    worker = threading.Thread(target=show_ten)
    worker.start()
    worker.join(timeout=5)
    wake_ups = pygame.event.get(window.wake_type)
    assert len(wake_ups) == 1  # coalesced: the loop takes the newest view anyway
    pygame.event.post(wake_ups[0])
    window.step(timeout=0.5)
    assert window.renders == 1 and window.view is not None and window.view.status == "9"


def test_run_returns_after_stop_from_another_thread(view: View) -> None:
    window = Window(mode="headless", size=(640, 400))

    def controller() -> None:
        window.show(view)
        window.stop()

    worker = threading.Thread(target=controller)
    window.open()
    worker.start()
    window.run()  # returns because of stop(); closes the display
    worker.join(timeout=5)
    assert window.renders == 1
    assert not pygame.display.get_init()


def test_the_last_view_shown_before_stop_is_drawn_even_while_the_loop_draws(
        tmp_path: Path, view: View, monkeypatch: pytest.MonkeyPatch) -> None:
    """The controller shows its last view and stops the window while the loop is busy drawing
    the one before (here: writing that frame's PNG): the loop takes one more turn for the last
    view instead of ending on the stale frame, on the screen and in the snapshot."""
    import display.window as window_module

    shot = tmp_path / "screen.png"
    window = Window(mode="headless", size=(640, 400), snapshot=shot)
    last = replace(view, status="Black resigns", result="0-1")
    save_png = window_module.save_png

    def save_then_show_the_last_and_stop(surface: pygame.Surface, path: Path) -> None:
        save_png(surface, path)
        if window.view != last:
            window.show(last)
            window.stop()

    monkeypatch.setattr(window_module, "save_png", save_then_show_the_last_and_stop)
    window.open()
    window.show(view)
    window.run()
    assert window.view == last and window.renders == 2
    expected = pygame.Surface((640, 400))
    render(last, expected)
    assert pygame.image.tobytes(pygame.image.load(str(shot)), "RGB") == pygame.image.tobytes(expected, "RGB")


def test_stop_within_ends_the_loop_by_itself_after_drawing_what_was_shown(view: View) -> None:
    """stop_within (what a SIGTERM handler calls) ends the loop at its deadline even when nobody
    calls stop(); a view shown meanwhile is still drawn."""
    window = Window(mode="headless", size=(320, 200))
    rescued = threading.Event()

    def rescue_stop() -> None:
        rescued.set()
        window.stop()

    rescue = threading.Timer(20.0, rescue_stop)
    window.open()
    window.show(view)
    window.stop_within(0.1)
    rescue.start()
    try:
        window.run()
    finally:
        rescue.cancel()
    assert not rescued.is_set()  # it did not take the rescuer's stop() to end it
    assert window.renders == 1 and window.view == view and not pygame.display.get_init()


def test_touching_a_choice_sends_its_key_back(window: Window, view: View) -> None:
    prompt = Prompt("Promote to", tuple(Choice(n, n[0].upper()) for n in ("queen", "rook", "bishop", "knight")))
    window.show(replace(view, prompt=prompt))
    window.step(timeout=0.5)
    assert window.layout is not None
    click(window.layout.choices[2].center)
    window.step(timeout=0.5)
    assert window.inputs.get(timeout=1) == ChoiceClicked(2, "B")
    e2 = view.geometry.index("e2")
    click(window.layout.cells[e2].center)
    window.step(timeout=0.5)
    assert window.inputs.get(timeout=1) == CellClicked(e2)
    assert window.inputs.empty()
    assert window.renders == 1  # input alone never redraws


def test_input_callback_and_closing_the_window(view: View) -> None:
    got: list[object] = []
    window = Window(mode="headless", on_input=got.append)
    window.open()
    try:
        window.show(view)
        window.step(timeout=0.5)
        pygame.event.post(pygame.event.Event(pygame.QUIT))
        assert window.step(timeout=0.5) is False
        assert got == [QuitRequested()]
        assert window.inputs.empty()
    finally:
        window.close()


def test_headless_mode_writes_each_new_frame_to_a_png(tmp_path: Path, view: View) -> None:
    shot = tmp_path / "screen.png"
    window = Window(mode="headless", size=(1024, 600), snapshot=shot)
    window.open()
    try:
        window.show(view)
        window.step(timeout=0.5)
        first = pygame.image.load(str(shot))
        assert first.get_size() == (1024, 600)
        window.show(replace(view, status="Something else to read"))
        window.step(timeout=0.5)
        second = pygame.image.load(str(shot))
        assert pygame.image.tobytes(first, "RGB") != pygame.image.tobytes(second, "RGB")
        assert [p.name for p in tmp_path.iterdir()] == ["screen.png"]  # no temporary left behind
    finally:
        window.close()


def test_kiosk_without_a_desktop_asks_for_kmsdrm_and_says_why_it_failed(monkeypatch: pytest.MonkeyPatch) -> None:
    for var in ("SDL_VIDEODRIVER", "DISPLAY", "WAYLAND_DISPLAY"):
        monkeypatch.delenv(var, raising=False)
    window = Window(mode="kiosk")
    try:
        window.open()
    except DisplayError as exc:  # no KMS device in a test container
        message = str(exc)
        assert "kmsdrm" in message and "\n" not in message
    else:  # a machine with a free KMS screen really opened it
        assert pygame.display.get_driver() == "kmsdrm"
        window.close()
    assert os.environ["SDL_VIDEODRIVER"] == "kmsdrm"


def test_unknown_mode_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown display mode 'tv'"):
        Window(mode="tv")
