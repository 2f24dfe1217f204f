"""The GPIO panel through gpiozero's MockFactory: buttons and the encoder reach the session,
lights and buzzer follow what the player must do, and no GPIO means no panel (said once)."""

from __future__ import annotations

import queue
from pathlib import Path

import pytest

import engine
from controller.core_types import PromptKind
from controller.inference import Event
from controller.session import Session
from controller.store import GameStore
from hardware.panel import LightState, Panel, open_panel

PINS = {"confirm": 17, "takeback": 27, "menu": 22, "led_ok": 5, "led_attention": 6, "buzzer": 13,
        "encoder_a": 20, "encoder_b": 21}


def make_panel(inputs: queue.Queue) -> Panel:
    panel, reason = open_panel(PINS, inputs.put, bounce_time=None)
    assert panel is not None, reason
    return panel


def test_buttons_report_their_names(mock_pins) -> None:
    inputs: queue.Queue[str] = queue.Queue()
    panel = make_panel(inputs)
    try:
        for pin, word in ((17, "confirm"), (27, "takeback"), (22, "menu")):
            mock_pins.pin(pin).drive_low()
            assert inputs.get(timeout=2) == word
            mock_pins.pin(pin).drive_high()
        assert inputs.empty()
    finally:
        panel.close()


def test_encoder_turns_are_next_and_previous(mock_pins) -> None:
    inputs: queue.Queue[str] = queue.Queue()
    panel = make_panel(inputs)
    a, b = mock_pins.pin(20), mock_pins.pin(21)
    try:
        for pin, low in ((a, True), (b, True), (a, False), (b, False)):  # one detent clockwise
            pin.drive_low() if low else pin.drive_high()
        assert inputs.get(timeout=2) == "next"
        for pin, low in ((b, True), (a, True), (b, False), (a, False)):
            pin.drive_low() if low else pin.drive_high()
        assert inputs.get(timeout=2) == "previous"
    finally:
        panel.close()


def test_lights_and_buzzer(mock_pins) -> None:
    panel = make_panel(queue.Queue())
    ok, attention, buzzer = mock_pins.pin(5), mock_pins.pin(6), mock_pins.pin(13)
    try:
        panel.show(LightState.OK)
        assert ok.state and not attention.state
        panel.show(LightState.ATTENTION)
        assert not ok.state and attention.state  # blinking starts lit
        panel.show(LightState.WAITING)
        assert ok.state and attention.state
        panel.show(LightState.OFF)
        assert not ok.state and not attention.state
        assert panel.state is LightState.OFF
        panel.beep("move")
        assert any(s.state for s in buzzer.states)
    finally:
        panel.close()


def test_buttons_drive_a_session(mock_pins, tmp_path: Path) -> None:
    """A promotion answered with the encoder and the confirm button, end to end from the pins."""
    chess = engine.find_variant("chess")
    inputs: queue.Queue[str] = queue.Queue()
    panel = make_panel(inputs)
    store = GameStore(tmp_path / "g.db")
    session = Session(chess, store, fen="4k3/1P5p/8/8/8/8/8/4K3 w - - 0 1")
    session.sync([1 if c else 0 for c in session.position.board], 0)
    g = chess.geometry
    session.event(Event(g.index("b7"), False, 10))
    session.event(Event(g.index("b8"), True, 20))
    prompt = session.tick(100).status.prompt
    assert prompt is not None
    assert prompt.kind == PromptKind.PROMOTION
    a, b = mock_pins.pin(20), mock_pins.pin(21)
    try:
        for pin, low in ((a, True), (b, True), (a, False), (b, False)):
            pin.drive_low() if low else pin.drive_high()
        session.button(inputs.get(timeout=2), 200)
        mock_pins.pin(17).drive_low()
        update = session.button(inputs.get(timeout=2), 210)
        mock_pins.pin(17).drive_high()
        assert update.accepted == ("b7b8r",)  # queen, then one click on: rook
        assert session.game_id is not None
        assert store.game(session.game_id).moves == ("b7b8r",)
    finally:
        panel.close()
        store.close()


def test_no_pins_no_panel() -> None:
    assert open_panel({}, print) == (None, "no pins configured")


def test_unknown_pin_factory_is_no_panel_not_a_crash() -> None:
    panel, reason = open_panel(PINS, print, factory="no-such-factory")
    assert panel is None and reason == "no gpiozero pin factory named 'no-such-factory'"


@pytest.mark.skipif(Path("/proc/device-tree/model").exists(), reason="this machine has real GPIO")
def test_machine_without_gpio_has_no_panel(monkeypatch: pytest.MonkeyPatch) -> None:
    from gpiozero import Device

    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    saved = Device.pin_factory
    Device.pin_factory = None
    try:
        panel, reason = open_panel(PINS, print)
    finally:
        Device.pin_factory = saved
    assert panel is None and reason == "Unable to load any default pin factory!"
