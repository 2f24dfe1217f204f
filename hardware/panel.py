"""The player's panel on the Pi's GPIO header, through gpiozero: buttons (confirm, takeback,
menu, and an optional clock button), two status lights (ok, attention), a buzzer, and an optional rotary encoder to move
through a prompt's choices.

    panel = open_panel({"confirm": 17, "led_ok": 5, ...}, on_input=queue.put)
    panel.show("attention")       # ok | attention | waiting | off
    panel.beep("error")
    panel.close()

``on_input`` receives ``"confirm"``, ``"takeback"``, ``"menu"``, ``"clock"``, ``"next"`` or ``"previous"``;
gpiozero calls it from its own thread, so it should only hand the word over (``queue.put``).

Devices use gpiozero's current pin factory (``Device.pin_factory``; tests set a ``MockFactory``)
unless one is named. ``open_panel`` returns ``(None, reason)`` on a machine without GPIO instead
of raising, so the service runs without buttons and says so once.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Mapping
from enum import StrEnum
from typing import Any, Literal

#: What the panel sends: a button's name, or the encoder's turn.
Word = Literal["confirm", "takeback", "menu", "clock", "next", "previous"]


class LightState(StrEnum):
    """What the two lights say. A StrEnum, so the words of the config and the tests stay valid."""

    OK = "ok"  # green steady
    ATTENTION = "attention"  # red blinking: fix the board or answer
    WAITING = "waiting"  # both on: no board connected
    OFF = "off"


#: The buzzer's patterns.
Beep = Literal["move", "ask", "error"]

BUTTONS: tuple[Word, ...] = ("confirm", "takeback", "menu", "clock")
LIGHTS = ("led_ok", "led_attention")
#: Buzzer patterns: (on seconds, off seconds, repeats).
BEEPS: dict[Beep, tuple[float, float, int]] = {"move": (0.05, 0.05, 1), "ask": (0.08, 0.08, 2),
                                               "error": (0.25, 0.15, 3)}
#: Light states: which lights are on, and whether attention blinks.
STATES: dict[LightState, tuple[bool, bool]] = {
    LightState.OK: (True, False), LightState.ATTENTION: (False, True),
    LightState.WAITING: (True, True), LightState.OFF: (False, False)}


class Panel:
    def __init__(self, pins: Mapping[str, object], on_input: Callable[[Word], None], pin_factory=None,
                 bounce_time: float | None = 0.02) -> None:
        from gpiozero import LED, Button, Buzzer, RotaryEncoder

        self.devices: list = []
        self.buttons: dict[Word, Any] = {}
        self.lights: dict[str, Any] = {}
        self.buzzer = None
        self.encoder = None
        self.state = LightState.OFF
        try:
            for name in BUTTONS:
                pin = pins.get(name)
                if pin is not None:
                    button = Button(pin, pull_up=True, bounce_time=bounce_time, pin_factory=pin_factory)
                    button.when_pressed = _caller(on_input, name)
                    self.buttons[name] = button
                    self.devices.append(button)
            for light in LIGHTS:
                pin = pins.get(light)
                if pin is not None:
                    self.lights[light] = LED(pin, pin_factory=pin_factory)
                    self.devices.append(self.lights[light])
            if pins.get("buzzer") is not None:
                self.buzzer = Buzzer(pins["buzzer"], pin_factory=pin_factory)
                self.devices.append(self.buzzer)
            if pins.get("encoder_a") is not None and pins.get("encoder_b") is not None:
                self.encoder = RotaryEncoder(pins["encoder_a"], pins["encoder_b"], pin_factory=pin_factory)
                self.encoder.when_rotated_clockwise = _caller(on_input, "next")
                self.encoder.when_rotated_counter_clockwise = _caller(on_input, "previous")
                self.devices.append(self.encoder)
        except BaseException:
            self.close()
            raise

    def show(self, state: LightState) -> None:
        """Set the lights to ``state``."""
        ok, attention = STATES[state]
        self.state = state
        led_ok, led_att = self.lights.get("led_ok"), self.lights.get("led_attention")
        if led_ok is not None:
            led_ok.on() if ok else led_ok.off()
        if led_att is not None:
            if attention and state is LightState.ATTENTION:
                led_att.blink(on_time=0.3, off_time=0.3)
            elif attention:
                led_att.on()
            else:
                led_att.off()

    def beep(self, kind: Beep) -> None:
        if self.buzzer is not None:
            on, off, n = BEEPS[kind]
            self.buzzer.beep(on_time=on, off_time=off, n=n)

    def close(self) -> None:
        for device in self.devices:
            device.close()
        self.devices.clear()


def _caller(on_input: Callable[[Word], None], word: Word) -> Callable[[], None]:
    return lambda: on_input(word)


def open_panel(pins: Mapping[str, object], on_input: Callable[[Word], None], factory: str = "",
               bounce_time: float | None = 0.02) -> tuple[Panel | None, str]:
    """The panel, or ``(None, reason)`` where there is no usable GPIO (a laptop, a container)."""
    if not any(pins.get(name) is not None for name in (*BUTTONS, *LIGHTS, "buzzer", "encoder_a")):
        return None, "no pins configured"
    try:
        from gpiozero.exc import GPIOZeroError
    except ImportError as exc:  # pragma: no cover - gpiozero is a dependency
        return None, f"gpiozero is not installed ({exc})"
    pin_factory = None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # gpiozero warns once per factory it falls back from
        try:
            if factory:
                pin_factory = _named_factory(factory)
            return Panel(pins, on_input, pin_factory, bounce_time), ""
        except (GPIOZeroError, OSError, ImportError, RuntimeError) as exc:
            return None, str(exc) or type(exc).__name__


def _named_factory(name: str):
    """A gpiozero pin factory by its entry-point name (lgpio, rpigpio, pigpio, native, mock)."""
    from importlib.metadata import entry_points

    for ep in entry_points(group="gpiozero_pin_factories"):
        if ep.name == name:
            return ep.load()()
    raise ImportError(f"no gpiozero pin factory named {name!r}")
