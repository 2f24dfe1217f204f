"""A service refereeing the simulated board (the reference firmware's code behind a real pty),
in this process, on a real SQLite file, that a test watches through its hooks: the ``rig``
fixture (tests/conftest.py) makes one."""

from __future__ import annotations

import threading
from pathlib import Path

import engine
from controller.board_map import SensorMap
from controller.config import Config, GpioConfig
from controller.inference import Status
from controller.service import Service
from controller.session import Update
from controller.store import GameStore
from firmware_bridge.simboard import SimBoard

CHESS = engine.find_variant("chess")
TIMEOUT = 60.0


class Rig:
    """The simulated board with ``faults`` and a service on it (``config``: Config fields; no
    GPIO unless given). What the service committed and showed is noted, and wakes whoever waits
    on ``changed``."""

    def __init__(self, tmp_path: Path, faults: str, variant: engine.Variant = CHESS, **config) -> None:
        self.board = SimBoard(variant, faults=faults).start()
        self.store = GameStore(tmp_path / "games.sqlite3")
        config.setdefault("gpio", GpioConfig(enabled=False))
        self.service = Service(Config(port=(self.board.path,), **config), variant, self.store,
                               SensorMap(variant), print_moves=False)
        self.changed = threading.Condition()
        self.accepted: list[tuple[int | None, str]] = []  # (game, move) as committed
        self.accepted_at: list[int] = []  # the service's clock (ms) when each was committed
        self.statuses: list[Status] = []
        self.notes: list[str] = []  # the clock button's line at each frame
        self.service.on_update = self._on_update
        self.service.on_show = self._on_show

    def _on_update(self, update: Update) -> None:
        with self.changed:
            self.accepted += [(self.service.session.game_id, text) for text in update.accepted]
            self.accepted_at += [self.service.now() for _ in update.accepted]
            self.changed.notify_all()

    def _on_show(self, status: Status) -> None:
        with self.changed:
            self.statuses.append(status)
            self.notes.append(self.service.controls.clock_note)
            self.changed.notify_all()

    def wait(self, what, timeout: float = TIMEOUT) -> None:
        with self.changed:
            if not self.changed.wait_for(what, timeout):
                raise AssertionError(f"the service never got there; statuses: {self.statuses[-5:]}")

    def finish(self) -> None:
        assert self.board.done.wait(TIMEOUT)
        self.service.finish_when_at_rest()
        assert self.service.finished.wait(TIMEOUT)
        assert self.service.error is None

    def games(self) -> list[tuple[tuple[str, ...], str, str]]:
        return [(g.moves, g.result, g.termination) for g in map(self.store.game, self.store.game_ids())]

    def close(self) -> None:
        self.service.stop()
        self.board.stop()
        self.store.close()
