"""``chessery hall --demo`` (``./dev run --hall``): a whole hall on one machine.

With no broker configured it starts a Mosquitto of its own (controller.mosquitto: the broker a
real hall runs, on a free loopback port, with its files in a temporary folder) rather than an
embedded broker written in Python: the demo then exercises exactly what a tournament deploys,
and there is no second broker to keep up. Then a few simulated boards of different variants
(each the simulated board in its own process, refereed by a service in this one) play their
demo games into it, and the hall's pages are served."""

from __future__ import annotations

import logging
import signal
import tempfile
import threading
from dataclasses import replace
from pathlib import Path
from typing import Any

import engine

from .config import Config, GpioConfig

log = logging.getLogger("chessery.hall")

#: How long the demo's player takes to answer a question on the board's screen (ms): long enough
#: for someone watching the hall page to see the question come and go.
ANSWER_MS = 700
#: The demo hall's boards: a plain board, the 48-cell ring, two boards, 10x10.
DEMO_BOARDS = (("board-1", "chess"), ("ring", "sesqui"), ("alice", "alice"), ("fury", "royal-fury"))


class DemoHall:
    def __init__(self, config: Config, boards: tuple[tuple[str, str], ...] = DEMO_BOARDS) -> None:
        self.config = config
        self.boards = boards
        self._tmp = tempfile.TemporaryDirectory(prefix="chessery-hall-demo-")
        self.broker: Any = None
        self.server: Any = None
        self.parts: list[tuple[Any, Any, Any]] = []  # (demo board, service, store)

    def start(self) -> DemoHall:
        from .hall_server import HallServer

        config = self.config
        if not config.hall:
            from .mosquitto import Mosquitto

            self.broker = Mosquitto(Path(self._tmp.name) / "broker").start()
            config = replace(config, hall=self.broker.url, hall_user="", hall_password="")
            log.info("demo hall: started mosquitto at %s", self.broker.url)
        self.server = HallServer(config).start()
        for name, variant_name in self.boards:
            self._board(config, name, engine.find_variant(variant_name))
        return self

    def _board(self, config: Config, name: str, variant: engine.Variant) -> None:
        from .board_map import SensorMap
        from .service import DemoBoard, Service, demo_script
        from .store import GameStore

        lines = demo_script(variant, None, watched=True)
        answers = [line.split(None, 1)[1] for line in lines if line.startswith("choose ")]
        board = DemoBoard(variant, lines)
        store = GameStore(Path(self._tmp.name) / f"{name}.sqlite3")
        board_config = replace(config, variant=variant.name, port=(board.path,), hall_board=name,
                               gpio=GpioConfig(enabled=False), display="headless",
                               event=replace(config.event, name="Chessery demo hall", round="1"))
        service = Service(board_config, variant, store, SensorMap(variant), answers=answers,
                          answer_delay_ms=ANSWER_MS, print_moves=False)
        service.start()
        self.parts.append((board, service, store))

    def stop(self) -> None:
        for board, service, store in self.parts:
            service.stop()
            board.stop()
            store.close()
        if self.server is not None:
            self.server.stop()
        if self.broker is not None:
            self.broker.close()
        self._tmp.cleanup()


def run_demo_hall(config: Config) -> int:
    hall = DemoHall(config).start()
    print(f"hall: {hall.server.url}", flush=True)
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    try:
        stop.wait()
    finally:
        hall.stop()
    return 0
