"""The service when its surroundings fail: output pipes that go away, a port that can never work
or was never there, a board of the wrong size, an empty variant, a config file that is not
UTF-8, a fatal error; and ``chessery status`` reading the running service. Real processes, real
ptys (the simulated board), real SQLite files."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import time
from pathlib import Path

import pytest

import engine
from controller.board_map import SensorMap
from controller.cli import main
from controller.config import Config, ConfigError, load_config
from controller.service import Service, exit_status
from controller.status import ServiceState, read_status, service_state
from controller.store import GameStore
from firmware_bridge.simboard import SimBoard
from tests.child import chessery_args, chessery_env, ended, read_line
from tests.counting_handler import CountingHandler
from tests.pty_games import replay_stream

REPO = Path(__file__).resolve().parent.parent
CHESS = engine.find_variant("chess")
TIMEOUT = 60.0
FOOLS_MATE = "f2f3 e7e5 g2g4 d8h4"


def demo(tmp_path: Path, **popen) -> subprocess.Popen:
    """The headless demo of Fool's mate, its own process group (``ended`` kills it and its board)."""
    return subprocess.Popen(
        chessery_args("run", "--headless", "--no-gpio", "--db", str(tmp_path / "g.db"), "--frame",
                      str(tmp_path / "f.png"), "--demo-moves", FOOLS_MATE, "--status-file", str(tmp_path / "s.json")),
        cwd=REPO, env=chessery_env(), start_new_session=True, **popen)


def communicate(proc: subprocess.Popen, waiting_for: str) -> tuple[bytes, bytes]:
    """``proc.communicate()`` bounded by ``TIMEOUT``, failing with what it waited for."""
    try:
        out, err = proc.communicate(timeout=TIMEOUT)
    except subprocess.TimeoutExpired as exc:
        raise AssertionError(f"waited {TIMEOUT:g} s for {waiting_for}; stderr: {exc.stderr!r}") from None
    return out or b"", err or b""


def stored_game(tmp_path: Path):
    with GameStore(tmp_path / "g.db", readonly=True) as store:
        return store.latest()


def test_a_reader_of_stdout_that_goes_away_does_not_stop_the_referee(tmp_path: Path) -> None:
    with ended(demo(tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE)) as proc:
        assert proc.stdout is not None
        assert read_line(proc.stdout, "the frame line").startswith("frame: ")
        proc.stdout.close()  # `chessery run | head -1`
        _, err = communicate(proc, "the demo to end with its reader gone")
    # It used to die at the first move it printed and exit 0 with one move stored.
    game = stored_game(tmp_path)
    assert game.moves == tuple(FOOLS_MATE.split()) and game.result == "0-1"
    assert proc.returncode == 0, err
    text = err.decode()
    assert text.count("standard output is gone") == 1 and "Traceback" not in text
    assert all(line.startswith("chessery: ") for line in text.splitlines())  # whole lines, none merged


def test_a_reader_of_stderr_that_goes_away_does_not_stop_the_referee(tmp_path: Path) -> None:
    with ended(demo(tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE)) as proc:
        assert proc.stderr is not None and proc.stdout is not None
        proc.stderr.close()  # journald restarted
        out_bytes, _ = communicate(proc, "the demo to end with stderr gone")
        out = out_bytes.decode().splitlines()
        assert proc.returncode == 0
    assert replay_stream(out[1:]) == FOOLS_MATE.split()  # the demo drags pieces: corrections
    assert stored_game(tmp_path).result == "0-1"


def test_a_fatal_error_stops_the_service_with_a_non_zero_status(tmp_path: Path, caplog) -> None:
    board = SimBoard(CHESS).start()
    store = GameStore(tmp_path / "g.db")
    service = Service(Config(port=(board.path,)), CHESS, store, SensorMap(CHESS), print_moves=False)

    def broken_hook(update) -> None:
        if update.accepted:
            raise RuntimeError("the disk went away")

    service.on_update = broken_hook
    try:
        service.start()
        board.play("lift e2\nplace e4\n", timeout=TIMEOUT)
        assert service.finished.wait(TIMEOUT)
    finally:
        service.stop()
        board.stop()
        store.close()
    with caplog.at_level(logging.ERROR, logger="chessery"):
        assert exit_status(service) == 1
    assert caplog.records[-1].getMessage() == "the referee stopped: RuntimeError: the disk went away"


@pytest.mark.parametrize(("args", "message"), [
    (["--port", "bogus://x"], "chessery run: bogus://x: not a port (invalid URL, protocol 'bogus' not known); give a "
                              "device path like /dev/ttyACM0 or a URL like socket://host:7000\n"),
    (["--port", ""], "chessery run: empty port name: give a device path like /dev/ttyACM0 or a URL like "
                     "socket://host:7000\n"),
    (["--variant", ""], "chessery run: empty variant name (see 'chessery variants')\n"),
])
def test_arguments_that_can_never_work_stop_at_once_with_one_line(tmp_path: Path, capsys, args, message) -> None:
    started = time.monotonic()
    assert main(["run", "--headless", "--no-gpio", "--db", str(tmp_path / "g.db"), *args]) == 2
    assert capsys.readouterr().err == message
    assert time.monotonic() - started < 30  # not retried in silence
    assert not (tmp_path / "g.db").exists()


def test_a_config_file_that_is_not_utf8_is_named(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_bytes(b'variant = "chess"\n# caf\xe9\nport = "/dev/ttyACM0"\n')
    with pytest.raises(ConfigError) as info:
        load_config(path)
    assert str(info.value) == f"{path}: line 2: not UTF-8 text (byte 0xe9); save the file as UTF-8"
    path.write_text('variant = ""\n', encoding="utf-8")
    with pytest.raises(ConfigError, match="variant: expected a name, got ''"):
        load_config(path)


def wait_status(service: Service, check, timeout: float = TIMEOUT) -> dict:
    """The status file as soon as a rewrite of it satisfies ``check``."""
    assert service.status_file.path is not None
    deadline = time.monotonic() + timeout
    data: dict = {}
    while service.status_file.written.wait(max(0.0, deadline - time.monotonic())):
        service.status_file.written.clear()
        data = read_status(service.status_file.path)
        if check(data):
            return data
    raise AssertionError(f"status never matched: {json.dumps(data)[:2000]}")


def start(service: Service) -> Service:
    service.status_file.every = 0.1
    return service.start()


def test_a_port_that_never_existed_is_not_promised_to_catch_up(tmp_path: Path) -> None:
    status = tmp_path / "s.json"
    store = GameStore(tmp_path / "g.db")
    service = Service(Config(port=(str(tmp_path / "ttyACM9"),)), CHESS, store, SensorMap(CHESS),
                      print_moves=False, status_path=status)
    try:
        start(service)
        data = wait_status(service, lambda d: d["boards"][0]["state"] == "disconnected" and d["game"]["message"]
                           .startswith("No board"))
        message = data["game"]["message"]
        assert message == f"No board: {tmp_path}/ttyACM9 does not exist. Check the cable and the port setting"
        assert "catches up" not in message and "keep playing" not in message.lower()
    finally:
        service.stop()
        store.close()


def test_a_board_of_another_size_is_named_on_the_screen_and_never_refereed(tmp_path: Path) -> None:
    status = tmp_path / "s.json"
    board = SimBoard("mathematichess", empty=True).start()  # 169 cells under a chess game
    store = GameStore(tmp_path / "g.db")
    service = Service(Config(port=(board.path,)), CHESS, store, SensorMap(CHESS), print_moves=False,
                      status_path=status)
    try:
        start(service)
        # The link knows the problem before the controller loop has put it on the screen: the
        # status file may show one a moment before the other.
        data = wait_status(service, lambda d: bool(d["boards"][0]["problem"])
                           and d["game"]["message"].startswith("Board "))
        assert data["boards"][0]["problem"] == ("the board has 169 cells but the layout has 64 sensors: check "
                                                "--variant/--layout, or the board's firmware")
        assert data["game"]["message"] == f"Board {board.path}: {data['boards'][0]['problem']}"
        assert data["boards"][0]["state"] != "connected"
    finally:
        service.stop()
        board.stop()
        store.close()


def test_chessery_status_shows_link_state_counters_boot_id_and_last_snapshot(tmp_path: Path, capsys) -> None:
    status = tmp_path / "s.json"
    board = SimBoard(CHESS).start()
    store = GameStore(tmp_path / "g.db")
    service = Service(Config(port=(board.path,)), CHESS, store, SensorMap(CHESS), print_moves=False,
                      status_path=status)
    try:
        start(service)
        board.play("lift e2\nplace e4\n", timeout=TIMEOUT)
        wait_status(service, lambda d: d["boards"][0]["counters"].get("events", 0) >= 2)
        assert main(["status", "--status-file", str(status)]) == 0
        lines = capsys.readouterr().out.splitlines()
        assert lines[0].startswith(f"service: running (pid {os.getpid()}), updated ")
        assert lines[1].startswith("variant: chess; game 1, play: ")
        assert lines[2].startswith(f"board {board.path}: connected since ")
        hello = service.links[0].hello
        assert hello is not None
        assert lines[3] == (f"  board id {hello.board_id:08x}, boot id {hello.boot_id:04x}, 64 cells, "
                            f"firmware 1.0.0")
        assert lines[4].startswith("  last snapshot: ") and lines[4].endswith(" s ago")
        assert lines[5].startswith("  errors: bad_crc 0, truncated 0, wrong_version 0, oversized 0, unknown_type 0, "
                                   "bad_payload 0, gaps 0")
        assert "events 2" in lines[6]
    finally:
        service.stop()
        board.stop()
        store.close()
    assert service_state(read_status(status)) is ServiceState.STOPPED
    assert main(["status", "--status-file", str(status)]) == 1
    assert capsys.readouterr().out.startswith("service: stopped")
    assert main(["status", "--status-file", str(tmp_path / "none.json")]) == 1
    assert "no status file: the service is not running" in capsys.readouterr().err


def test_link_errors_get_a_periodic_log_line_when_they_grew(tmp_path: Path) -> None:
    handler = CountingHandler("in the last", 1)
    logger = logging.getLogger("chessery")
    logger.addHandler(handler)
    board = SimBoard(CHESS, faults="flip=0.02", seed=3).start()  # a noisy line: frames get garbled
    store = GameStore(tmp_path / "g.db")
    service = Service(Config(port=(board.path,)), CHESS, store, SensorMap(CHESS), print_moves=False,
                      status_path=tmp_path / "s.json")
    service.status_file.counter_log_every = 0.3
    try:
        start(service)
        board.play("lift e2\nplace e4\nlift e7\nplace e5\n", timeout=TIMEOUT)
        assert handler.reached.wait(TIMEOUT)
    finally:
        service.stop()
        board.stop()
        store.close()
        logger.removeHandler(handler)
    line = next(r.getMessage() for r in handler.records if "in the last" in r.getMessage())
    assert line.startswith(f"{board.path}: in the last 0 min: ")
    counts = line.split(": ", 2)[2].split(", ")
    assert all(part.split(" ")[1] in ("bad_crc", "truncated", "oversized", "wrong_version", "unknown_type",
                                      "bad_payload", "gaps", "inconsistent", "silences", "resets")
               or part.split(" ")[1].startswith("board_") for part in counts)


def test_a_cable_pulled_after_the_game_ended_promises_no_catch_up(tmp_path: Path) -> None:
    # Fool's mate, then the cable is out for a while (before the 9th action: nothing follows).
    board = SimBoard(CHESS, faults="unplug=3000@9").start()
    store = GameStore(tmp_path / "g.db")
    service = Service(Config(port=(board.path,)), CHESS, store, SensorMap(CHESS), print_moves=False,
                      status_path=tmp_path / "s.json")
    try:
        start(service)
        board.start_script("lift f2\nplace f3\nsleep 100\nlift e7\nplace e5\nsleep 100\nlift g2\nplace g4\n"
                           "sleep 100\nlift d8\nplace h4\nsleep 300\nlift h4\n")
        data = wait_status(service, lambda d: d["game"]["message"].startswith("Board disconnected"))
        assert data["game"]["phase"] == "over"
        assert data["game"]["message"] == (f"Board disconnected ({board.path}). The game is over and stored; "
                                           "plug the board back in for a new game")
        assert store.game(store.game_ids()[-1]).result == "0-1"
    finally:
        service.stop()
        board.stop()
        store.close()
