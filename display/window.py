"""The window loop: the only code that touches the pygame display.

Threading model (pygame's rule: only the thread that opened the display uses it):

* the main thread calls :meth:`Window.run` (or :meth:`Window.step` in a loop of its own); it
  waits for SDL events, redraws when the view changed, and flips;
* any other thread (the controller) calls :meth:`Window.show` with a new :class:`~display.view.View`;
  the view goes into a one-slot mailbox (only the newest matters) and a custom pygame event wakes
  the loop, so an idle display sleeps in ``pygame.event.wait`` instead of polling;
* touches and clicks go back as :data:`InputEvent` values through ``on_input`` (called on the
  main thread: keep it short, e.g. ``queue.put``); without a callback they land in
  :attr:`Window.inputs`, a ``queue.Queue`` the controller reads from its own thread.

Modes: ``kiosk`` (fullscreen at the screen's own resolution, no cursor; on a Pi without a desktop
it selects SDL's ``kmsdrm`` driver, which draws straight to the screen through KMS/DRM),
``windowed`` (a resizable window on a desktop) and ``headless`` (SDL's ``dummy`` driver; every
new frame is written to ``snapshot``, a PNG, when one is given).
"""

from __future__ import annotations

import os
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pygame

from engine.errors import ChesseryError

from .render import Layout, render
from .view import View

MODES = ("kiosk", "windowed", "headless")

#: How often the loop looks for touches and clicks while nothing else wakes it (s). SDL's own
#: wait is a 1 ms polling loop on the dummy and KMS/DRM drivers (about a thousand wake-ups a
#: second); the loop sleeps on a threading event instead and asks SDL this often, which keeps a
#: touch answered within a frame or two. Headless has no input: it wakes only for new views.
INPUT_POLL_S = 0.05
IDLE_S = 1.0


@dataclass(frozen=True)
class ChoiceClicked:
    """A prompt choice was touched: its index in ``prompt.choices`` and its ``key``."""

    index: int
    key: str


@dataclass(frozen=True)
class CellClicked:
    cell: int


@dataclass(frozen=True)
class MenuClicked:
    """The panel's "Menu" button was touched."""


@dataclass(frozen=True)
class QuitRequested:
    """The window was closed (or Escape pressed in windowed mode)."""


InputEvent = ChoiceClicked | CellClicked | MenuClicked | QuitRequested


class DisplayError(ChesseryError, RuntimeError):
    """The display could not be opened; the message says which driver and why."""


class Window:
    def __init__(
        self,
        mode: str = "windowed",
        size: tuple[int, int] = (800, 480),
        on_input: Callable[[InputEvent], None] | None = None,
        snapshot: str | Path | None = None,
        title: str = "Chessery",
    ) -> None:
        if mode not in MODES:
            raise ValueError(f"unknown display mode {mode!r} (expected one of {', '.join(MODES)})")
        self.mode = mode
        self.size = size
        self.title = title
        self.snapshot = Path(snapshot) if snapshot else None
        self.inputs: queue.Queue[InputEvent] = queue.Queue()
        self._on_input = on_input or self.inputs.put
        self._lock = threading.Lock()
        self._pending: View | None = None
        self._stopping = threading.Event()
        self._wake_posted = False
        self._screen: pygame.Surface | None = None
        #: The custom pygame event type that wakes the loop (set by :meth:`open`).
        self.wake_type = 0
        self.view: View | None = None
        self.layout: Layout | None = None
        #: Frames rendered so far (a render happens only for a changed view or a new window size).
        self.renders = 0
        #: time.monotonic() of the loop's latest turn: the service's watchdog checks the loop lives.
        self.alive_at = time.monotonic()
        self._woken = threading.Event()
        self._stop_by: float | None = None

    # -- any thread ------------------------------------------------------------------------------
    def show(self, view: View) -> None:
        """Hand a new view to the loop. Safe from any thread; only the newest view is drawn."""
        with self._lock:
            self._pending = view
            self._wake()
        self._woken.set()

    def stop(self) -> None:
        """Ask the loop to return. Safe from any thread. A view shown before is drawn first."""
        self._stopping.set()
        with self._lock:
            self._wake()
        self._woken.set()

    def stop_within(self, seconds: float) -> None:
        """Ask the loop to return ``seconds`` from now at the latest (:meth:`stop` ends it
        sooner): whoever shows the views gets that long to show its last one and call
        :meth:`stop`. Takes no lock, so a signal handler may call it (the main thread it
        interrupts may hold any of them); the loop notices at its next turn."""
        self._stop_by = time.monotonic() + seconds

    def _wake(self) -> None:
        # Called with the lock held. One wake-up event at a time is enough: the loop takes the newest view.
        if self._screen is not None and not self._wake_posted and pygame.display.get_init():
            self._wake_posted = True
            pygame.event.post(pygame.event.Event(self.wake_type))

    # -- main thread -----------------------------------------------------------------------------
    def open(self) -> pygame.Surface:
        if self.mode == "headless":
            os.environ["SDL_VIDEODRIVER"] = "dummy"
        elif (self.mode == "kiosk" and "SDL_VIDEODRIVER" not in os.environ
              and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))):
            os.environ["SDL_VIDEODRIVER"] = "kmsdrm"
        try:
            pygame.display.init()
            if self.mode == "kiosk":
                screen = pygame.display.set_mode((0, 0), pygame.FULLSCREEN)
                pygame.mouse.set_visible(False)
            elif self.mode == "windowed":
                screen = pygame.display.set_mode(self.size, pygame.RESIZABLE)
            else:
                screen = pygame.display.set_mode(self.size)
        except pygame.error as exc:
            pygame.display.quit()
            driver = os.environ.get("SDL_VIDEODRIVER", "default")
            hint = (" (kmsdrm needs an SDL with KMS/DRM support, a user in the video and input groups and "
                    "no desktop holding the screen)") if driver == "kmsdrm" else ""
            raise DisplayError(f"cannot open the {self.mode} display with SDL driver {driver}: {exc}{hint}") from None
        pygame.display.set_caption(self.title)
        self.wake_type = pygame.event.custom_type()
        with self._lock:
            self._screen = screen
            self._wake_posted = False
        return screen

    def close(self) -> None:
        with self._lock:
            self._screen = None
        # Only the display: fonts stay usable for headless renders in the same process.
        pygame.display.quit()

    def run(self) -> None:
        """Open the display and loop until :meth:`stop` or the window is closed."""
        if self._screen is None:
            self.open()
        poll = IDLE_S if self.mode == "headless" else INPUT_POLL_S
        try:
            while True:
                stop_by = self._stop_by
                self._woken.wait(poll if stop_by is None else min(poll, max(0.0, stop_by - time.monotonic())))
                self._woken.clear()
                self.alive_at = time.monotonic()
                if not self.step():
                    break
        finally:
            self.close()

    def step(self, timeout: float = 0.0) -> bool:
        """Wait up to ``timeout`` seconds for events, handle them, redraw if the view changed.
        Returns False once the loop should end."""
        if self._screen is None:
            self.open()
        first = pygame.event.wait(round(timeout * 1000)) if timeout > 0 else pygame.event.poll()
        resized = False
        for event in [first, *pygame.event.get()]:
            if event.type == self.wake_type:
                with self._lock:
                    self._wake_posted = False
            elif event.type == pygame.QUIT or (
                    event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE and self.mode == "windowed"):
                self._on_input(QuitRequested())
                self._stopping.set()
            elif event.type in (pygame.VIDEORESIZE, pygame.WINDOWSIZECHANGED):
                resized = True
            elif event.type == pygame.WINDOWEXPOSED:
                pygame.display.flip()
            elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 and not event.dict.get("touch", False):
                # SDL turns touches into mouse events too (marked ``touch``): those come as FINGERDOWN.
                self._click(event.pos)
            elif event.type == pygame.FINGERDOWN:
                # Touch coordinates are fractions of the window.
                size = self._screen.get_size() if self._screen is not None else self.size
                self._click((round(event.x * size[0]), round(event.y * size[1])))
        # Read before drawing: a view shown and then stop() called while this turn draws gets
        # one more turn, so the last view shown before stop() is always drawn.
        stop_by = self._stop_by
        stopping = self._stopping.is_set() or (stop_by is not None and time.monotonic() >= stop_by)
        self._redraw(force=resized)
        return not stopping

    def _click(self, pos: tuple[int, int]) -> None:
        if self.layout is None or self.view is None:
            return
        index = self.layout.choice_at(pos)
        if index is not None and self.view.menu is not None:
            self._on_input(ChoiceClicked(index, self.view.menu.choices[index].key))
            return
        if self.view.menu is not None:
            return  # a menu covers the board: a touch beside its buttons means nothing
        if self.layout.menu_button is not None and self.layout.menu_button.collidepoint(pos):
            self._on_input(MenuClicked())
            return
        if index is not None and self.view.prompt is not None:
            self._on_input(ChoiceClicked(index, self.view.prompt.choices[index].key))
            return
        cell = self.layout.cell_at(pos)
        if cell is not None:
            self._on_input(CellClicked(cell))

    def _redraw(self, force: bool = False) -> None:
        with self._lock:
            new, self._pending = self._pending, None
        screen = pygame.display.get_surface()
        if screen is None:
            return
        changed = new is not None and new != self.view
        if new is not None:
            self.view = new
        if self.view is None or not (changed or force or self.layout is None
                                     or self.layout.size != screen.get_size()):
            return
        self.layout = render(self.view, screen)
        self.renders += 1
        pygame.display.flip()
        if self.snapshot is not None:
            save_png(screen, self.snapshot)


def save_png(surface: pygame.Surface, path: Path) -> None:
    """Write a PNG atomically: a reader never sees half a file (an operator watching over ssh)."""
    tmp = path.with_name(f".{path.stem}.tmp.png")
    pygame.image.save(surface, str(tmp))
    os.replace(tmp, path)
