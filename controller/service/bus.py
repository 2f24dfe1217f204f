"""The controller's input bus: every input reaches the controller thread as one of these typed
messages on one queue (``Service.inputs``), in the order it happened, whoever put it there --
a port's forwarder, gpiozero's thread, the window's loop, a signal handler."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from firmware_bridge.events import LinkStatus, SensorEvent

if TYPE_CHECKING:
    from display.window import InputEvent
    from hardware.panel import Word


@dataclass(frozen=True)
class Sensor:
    """A change on board ``index``'s sensors, as its link reported it."""

    index: int
    event: SensorEvent


@dataclass(frozen=True)
class LinkChange:
    """Board ``index``'s link changed state (or named a problem); ``status`` carries the board as
    the link saw it then."""

    index: int
    status: LinkStatus


@dataclass(frozen=True)
class Drained:
    """Everything board ``index`` sent before a finish was asked for has been handled."""

    index: int


@dataclass(frozen=True)
class Button:
    """A panel button."""

    name: Word


@dataclass(frozen=True)
class Touch:
    """A touch (or click) on the screen."""

    event: InputEvent


@dataclass(frozen=True)
class Wake:
    """Nothing to handle: look at ``stopping`` and the deadlines now."""


@dataclass(frozen=True)
class Quit:
    """Stop after showing the last frame."""


Input = Sensor | LinkChange | Drained | Button | Touch | Wake | Quit
