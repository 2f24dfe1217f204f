"""The operator menu's screen for the tests: a real (headless) pygame window that the test
thread runs and taps, as a player's finger would, on the buttons the screen shows; a service
resuming a stored game against the computer, with its screen (``resume_against_the_computer``)."""

from __future__ import annotations

import io
import time
from collections.abc import Callable
from pathlib import Path

import pygame

import engine
from controller.board_map import SensorMap
from controller.config import Config, GpioConfig
from controller.service import Service, Touch
from controller.session import Phase
from controller.store import GameStore
from display.render import Layout
from display.view import View
from display.window import Window
from engine import format_fen

#: How long a wait for the screen may take before the test fails. A passing test waits only as
#: long as the screen takes; 20 s ran out once with two suites' workers and two benchmarks on
#: two cores (session 14), so the bound is generous.
TIMEOUT = 60.0


class Screen:
    """A headless window run by the test thread (pygame's rule: one thread owns the display)."""

    def __init__(self, service: Service, size: tuple[int, int]) -> None:
        self.window = Window("headless", size, on_input=lambda ev: service.inputs.put(Touch(ev)))
        service.window = self.window
        self.window.open()

    def pump(self, done: Callable[[], bool], what: str) -> None:
        end = time.monotonic() + TIMEOUT
        while time.monotonic() < end:
            self.window.step(0.05)  # waits for SDL events (a new view wakes it)
            if done():
                return
        raise AssertionError(f"waited {TIMEOUT} s for {what}; the screen shows "
                             f"{[t for t, _r, _role in self.window.layout.texts][:40] if self.window.layout else None}")

    def buttons(self) -> dict[str, pygame.Rect]:
        layout = self.window.layout
        assert layout is not None
        return {t: r for t, r, role in layout.texts if role == "button"}

    def tap(self, label: str, finger: bool = False) -> None:
        self.pump(lambda: label in self.buttons(), f"a button {label!r}")
        rect = self.buttons()[label]
        layout = self.window.layout
        assert layout is not None
        # the whole button takes the touch, not only its text: tap near its corner
        button = next(b for b in [*layout.choices, layout.menu_button]
                      if b is not None and b.colliderect(rect))
        x, y = button.left + 3, button.bottom - 3
        if finger:
            w, h = self.window.size
            pygame.event.post(pygame.event.Event(pygame.FINGERDOWN, x=x / w, y=y / h, touch_id=1, finger_id=1,
                                                 dx=0.0, dy=0.0, pressure=1.0))
        else:
            pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(x, y), button=1))
            pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(x, y), button=1))
        before = self.window.view
        self.pump(lambda: self.window.view is not before, f"the screen after tapping {label!r}")

    def view(self) -> View:
        view = self.window.view
        assert view is not None
        return view

    def layout(self) -> Layout:
        layout = self.window.layout
        assert layout is not None
        return layout

    def title(self) -> str:
        view = self.view()
        return view.menu.title if view.menu is not None else ""

    def close(self) -> None:
        self.window.close()


def type_name(screen: Screen, name: str) -> None:
    for ch in name.upper():
        screen.tap("Space" if ch == " " else ch)
    screen.tap("OK")


def resume_against_the_computer(tmp_path: Path, variant: engine.Variant, moves: list[str],
           go: str) -> tuple[Service, GameStore, Screen, int]:
    """A service resuming a game of ``moves``, Black played by the computer (``go``: its search)."""
    store = GameStore(tmp_path / "games.sqlite3")
    game = store.new_game(variant.name, format_fen(engine.start_position(variant)))
    store.record(game, 0, moves)
    store.commit()
    config = Config(gpio=GpioConfig(enabled=False), players=(("black", "computer"),), engine_go=go)
    service = Service(config, variant, store, SensorMap(variant), out=io.StringIO(), err=io.StringIO())
    screen = Screen(service, (800, 480))
    service.start()
    screen.pump(lambda: service.session.phase == Phase.PLAY, "the game resumed")
    return service, store, screen, game
