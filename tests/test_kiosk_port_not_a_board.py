"""A port that is not a board (``--port /dev/ttyS0``: a serial port with nothing behind it, or
something that sends bytes that are not our protocol) must not claim "Board is set up": the
screen says it waits for a board that answers on that port. A real pty stands for the port (its
other end held by the test: silent, or sending garbage); a real headless window shows the frame."""

from __future__ import annotations

import io
import os
import threading
from pathlib import Path

import pytest

import engine
from controller.board_map import SensorMap
from controller.config import Config, GpioConfig
from controller.service import Service
from controller.store import GameStore
from tests.menu_screen import Screen

CHESS = engine.find_variant("chess")


@pytest.mark.parametrize("talk", ["silent", "garbage"])
def test_a_port_with_no_board_behind_it_waits_for_a_board_that_answers(tmp_path: Path, talk: str) -> None:
    master, slave = os.openpty()
    port = os.ttyname(slave)
    stop = threading.Event()

    def babble() -> None:  # a device that talks, but not our protocol
        while not stop.wait(0.05):
            try:
                os.write(master, b"\x00AT+GMR\r\n\xff\xfe garbage \x7e\x7e\x01\x02")
            except OSError:
                return

    if talk == "garbage":
        threading.Thread(target=babble, daemon=True).start()
    store = GameStore(tmp_path / "games.sqlite3")
    service = Service(Config(port=(port,), gpio=GpioConfig(enabled=False)), CHESS, store, SensorMap(CHESS),
                      out=io.StringIO(), err=io.StringIO())
    screen = Screen(service, (800, 480))
    service.start()
    try:
        screen.pump(lambda: screen.view().status.startswith("Waiting for a board that answers"),
                    "the screen to say it waits for a board")
        status = screen.view().status
        assert status == (f"Waiting for a board that answers at {port}: no board has answered on this port yet. "
                          "Check that the board is plugged in and switched on, and that this is its port")
        assert "set up" not in status.lower()
        drawn = " ".join(t for t, _r, _role in screen.layout().texts)
        assert "Board is set up" not in drawn and "Waiting for a board" in drawn
        assert service.session.game_id is None  # no game started on a board nobody has seen
    finally:
        stop.set()
        service.stop()
        screen.close()
        store.close()
        os.close(master)
        os.close(slave)
