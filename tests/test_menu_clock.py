"""The operator menu stops the chess clock while it is open (docs/kiosk.md): it used to pause
only at the next move, so 20 s in the menu cost the side to move 20 s. A real service on the
simulated board (real pty); the service's time source is moved on by the test, so the 20 s
pass at once."""

from __future__ import annotations

import io
import threading
import time
from pathlib import Path

import engine
from controller.board_map import SensorMap
from controller.config import Config, GpioConfig
from controller.service import Service
from controller.service.bus import Touch
from controller.store import GameStore
from display.window import ChoiceClicked, MenuClicked
from firmware_bridge.script import parse_script
from firmware_bridge.simboard import SimBoard

CHESS = engine.find_variant("chess")
TIMEOUT = 60.0


class TimeSource:
    """The service's clock: real milliseconds plus what the test has skipped ahead."""

    def __init__(self) -> None:
        self.t0 = time.monotonic()
        self.skipped = 0

    def __call__(self) -> int:
        return int((time.monotonic() - self.t0) * 1000) + self.skipped


def test_the_clock_stops_while_the_menu_is_open_and_runs_after(tmp_path: Path) -> None:
    board = SimBoard(CHESS).start()
    store = GameStore(tmp_path / "games.sqlite3")
    service = Service(Config(port=(board.path,), gpio=GpioConfig(enabled=False), time_control="5+0"), CHESS, store,
                      SensorMap(CHESS), out=io.StringIO(), err=io.StringIO())
    now = TimeSource()
    service.now = now  # type: ignore[method-assign]
    shown = threading.Condition()
    service.on_show = lambda _status: _notify(shown)

    def wait(what: str, check) -> None:
        with shown:
            assert shown.wait_for(check, TIMEOUT), f"waited {TIMEOUT} s for {what}"

    service.start()
    try:
        board.start_script(parse_script("lift e2\nplace e4\n", CHESS))
        wait("1. e4 and Black's clock running", lambda: len(service.session.position.move_stack) == 1
             and service.clock is not None and service.clock.clock is not None and service.clock.clock.running
             and service.clock.clock.turn == 1)
        assert service.clock is not None and service.clock.clock is not None
        clock = service.clock.clock
        service.inputs.put(Touch(MenuClicked()))
        wait("the menu to open", lambda: service.menu.is_open and not clock.running)
        at_open = clock.seconds(now())
        now.skipped += 20_000  # the arbiter spends 20 s in the menu
        assert clock.seconds(now()) == at_open  # nobody is charged for them
        assert at_open[1] > 290  # Black had used next to nothing of its 5 minutes
        service.inputs.put(Touch(ChoiceClicked(0, "close")))
        wait("the menu to close and Black's clock to run again", lambda: not service.menu.is_open and clock.running)
        assert clock.turn == 1
        left = clock.seconds(now())
        assert left[0] == at_open[0] and left[1] <= at_open[1]
        assert left[1] > 270  # the 20 s were not charged after the menu closed either
    finally:
        service.stop()
        board.stop()
        store.close()


def _notify(cond: threading.Condition) -> None:
    with cond:
        cond.notify_all()
