"""Real parts for the hall's tests: a Mosquitto the test starts (controller.mosquitto) and a
paho subscriber that notes everything the broker delivers."""

from __future__ import annotations

import shutil
import signal
import threading
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest

import engine
from controller.event_scripts import script_for_moves
from controller.hall_wire import PREFIX, check_event
from controller.mosquitto import find_mosquitto
from engine import Position, format_fen
from firmware_bridge.simboard import SimBoard
from tests.pty_games import Run

TIMEOUT = 60.0
CHESS = engine.find_variant("chess")


def need_mosquitto() -> None:
    if find_mosquitto() is None or shutil.which("mosquitto_passwd") is None:
        pytest.skip("mosquitto is not installed (Debian package mosquitto; ./dev test installs it when run as root)")


class Recorder:
    """A subscriber to the whole hall. ``session``: a persistent session (the broker keeps its
    QoS 1 messages while it is away, across a broker restart)."""

    def __init__(self, port: int, client_id: str = "recorder", session: bool = False, **login: str) -> None:
        self.messages: list[tuple[str, bytes, bool]] = []  # topic, payload, retained
        self.changed = threading.Condition()
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id,
                                  protocol=mqtt.MQTTv311, clean_session=not session)
        if login:
            self.client.username_pw_set(login["user"], login["password"])
        self.client.reconnect_delay_set(1, 2)
        self.client.on_connect = lambda c, *_: c.subscribe(PREFIX + "#", qos=1)
        self.client.on_message = self._on_message
        self.client.connect("127.0.0.1", port)
        self.client.loop_start()

    def _on_message(self, _c: Any, _u: Any, msg: mqtt.MQTTMessage) -> None:
        with self.changed:
            self.messages.append((msg.topic, bytes(msg.payload), bool(msg.retain)))
            self.changed.notify_all()

    def wait(self, what, timeout: float = TIMEOUT) -> None:
        with self.changed:
            if not self.changed.wait_for(what, timeout):
                raise AssertionError(f"never came; last messages: {self.messages[-4:]}")

    def events(self, board: str) -> list[dict[str, Any]]:
        with self.changed:
            return [check_event(p) for t, p, _r in self.messages if t == f"{PREFIX}{board}/event"]

    def moves(self, board: str) -> list[str]:
        """The moves of the board's events, each (run, seq) once, in order of arrival."""
        seen: set[tuple[int, int]] = set()
        out: list[str] = []
        for e in self.events(board):
            if (e["run"], e["seq"]) not in seen and e["kind"] == "move":
                out.append(e["move"])
            seen.add((e["run"], e["seq"]))
        return out

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def sample_state(variant_name: str, moves: list[str], **extra: Any) -> dict[str, Any]:
    """A board's state after ``moves`` from the variant's start, as hall_state makes it."""
    variant = engine.find_variant(variant_name)
    pos = engine.start_position(variant)
    from engine.san import san

    texts = []
    for text in moves:
        move = pos.parse_move(text)
        texts.append(san(pos, move))
        pos.push(move)
    state = {"variant": variant.name, "fen": pos.fen(), "start_fen": variant.start, "moves": list(moves),
             "san": texts, "players": list(variant.sides), "clocks": None, "ply_clocks": [], "time_control": "",
             "event": "Test open", "round": "1", "site": "Here", "game": 1, "status": "idle", "message": "",
             "result": "*", "termination": "", "updated": 0, "date": "2026-11-27", "run": 1, "seq": 0}
    state.update(extra)
    return state


#: Chromium as the tests run it: headless, no sandbox (root in a container), nothing fetched from
#: the network by the browser itself, a fresh profile per test (--user-data-dir, added by chromium()).
CHROMIUM_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--disable-dev-shm-usage", "--window-size=1280,900")


def chromium(profile: str):
    """A headless Chromium driven through Debian's chromedriver (selenium's WebDriver client):
    one page stays open while the games go on, so the test sees the page change without a
    reload, which a --dump-dom per move (a fresh load each time) could not show."""
    chrome = shutil.which("chromium")
    driver_path = shutil.which("chromedriver")
    if chrome is None or driver_path is None:
        pytest.skip("chromium/chromedriver are not installed (Debian packages chromium, chromium-driver; "
                    "./dev test installs them when run as root)")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service as ChromeService

    options = webdriver.ChromeOptions()
    for flag in CHROMIUM_FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile}")
    options.binary_location = chrome
    return webdriver.Chrome(options=options, service=ChromeService(executable_path=driver_path))


class BoardRun:
    """A board of the hall: the simulated board (real pty, kept for the whole test: the pieces
    stay while its service is down) and its service, ``chessery run`` in its own process, which
    the test may kill and start again on the same games file. ``players``: side = player."""

    def __init__(self, tmp_path: Path, name: str, broker_url: str, **players: str) -> None:
        self.name = name
        self.board = SimBoard(CHESS).start()
        folder = tmp_path / name
        folder.mkdir()
        self.db, self.frame = folder / "games.sqlite3", folder / "frame.png"
        self.config = folder / "chessery.toml"
        self.config.write_text(f'hall = "{broker_url}"\nhall_board = "{name}"\n'
                               f'status_file = "{folder / "status.json"}"\n'
                               "[players]\n" + "".join(f'{side} = "{p}"\n' for side, p in players.items()),
                               encoding="utf-8")
        self.runs: list[Run] = []
        self.printed: list[str] = []  # every move any of its runs printed, in order

    def start(self) -> None:
        run = Run(self.board.path, self.db, self.frame, "--config", str(self.config))
        self.runs.append(run)
        assert run.next_line(TIMEOUT) == f"frame: {self.frame}"

    @property
    def run(self) -> Run:
        return self.runs[-1]

    def kill(self) -> None:
        self.run.proc.send_signal(signal.SIGKILL)
        self.run.proc.wait(TIMEOUT)

    def hands(self, pos: Position, text: str) -> None:
        """The player at this board carries out ``text``; the service prints it."""
        lines = script_for_moves(CHESS, [text], fen=format_fen(pos))
        self.board.start_script("\n".join(line for line in lines if not line.startswith("choose")) + "\n")
        assert self.board.done.wait(TIMEOUT), f"board {self.name} never played {text}"
        line = self.run.next_line(TIMEOUT)
        self.printed.append(line)
        assert line == text, f"board {self.name} printed {line!r} for {text}"

    def shows(self, text: str, mover: str) -> None:
        """The screen (the service's stderr) says what to lift for the other board's ``text``."""
        said = f"({mover}) plays {text}: lift"
        self.run.wait_err(lambda err: said in err, f"board {self.name} showing {text}")

    def close(self) -> None:
        for run in self.runs:
            if run.proc.poll() is None:
                run.proc.kill()
                run.proc.wait(TIMEOUT)
            for stream in (run.proc.stdout, run.proc.stderr):
                if stream is not None:
                    stream.close()
        self.board.stop()
