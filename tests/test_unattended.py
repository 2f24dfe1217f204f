"""Unattended operation: the systemd notify protocol on a real unix datagram socket (READY and
watchdog pings from a running ``chessery run``), the unit file, errors that stop the service as
one line plus a screen that says it, and ``--kiosk`` refusing the demo without a board."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pygame
import pytest

from controller.notify import Notifier
from display import theme
from tests.child import Child, chessery_args, ended

REPO = Path(__file__).resolve().parent.parent


def datagram_socket(path: Path) -> socket.socket:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    sock.settimeout(30.0)
    return sock


def test_notifier_speaks_the_protocol(tmp_path: Path) -> None:
    sock = datagram_socket(tmp_path / "notify")
    n = Notifier({"NOTIFY_SOCKET": str(tmp_path / "notify"), "WATCHDOG_USEC": "30000000"})
    assert n.ping_ms == 15_000
    assert n.ready("refereeing Chess")
    assert sock.recv(4096) == b"READY=1\nSTATUS=refereeing Chess"
    assert n.watchdog()
    assert sock.recv(4096) == b"WATCHDOG=1"
    n.close()
    sock.close()


def test_abstract_socket_and_no_socket() -> None:
    name = f"chessery-test-{os.getpid()}"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind("\0" + name)
    sock.settimeout(5.0)
    assert Notifier({"NOTIFY_SOCKET": "@" + name}).status("hello")
    assert sock.recv(100) == b"STATUS=hello"
    sock.close()
    quiet = Notifier({})
    assert not quiet.enabled and not quiet.ready() and quiet.ping_ms is None


def env_for(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = dict(os.environ, PYTHONPATH=str(REPO), SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
               XDG_CONFIG_HOME=str(tmp_path / "cfg"), XDG_DATA_HOME=str(tmp_path / "data"),
               XDG_CACHE_HOME=str(tmp_path / "cache"), **extra)
    env.pop("DISPLAY", None)
    return env


def test_running_service_says_ready_and_pings_the_watchdog(tmp_path: Path) -> None:
    sock = datagram_socket(tmp_path / "notify")
    env = env_for(tmp_path, NOTIFY_SOCKET=str(tmp_path / "notify"), WATCHDOG_USEC="600000")
    proc = subprocess.Popen([sys.executable, "-m", "controller.cli", "run", "--headless", "--no-gpio",
                             "--db", str(tmp_path / "g.sqlite3"), "--frame", str(tmp_path / "f.png")],
                            cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    with ended(proc):
        try:
            got = [sock.recv(4096)]  # the socket's timeout bounds each wait
            assert got[0].startswith(b"READY=1\nSTATUS=refereeing Chess")
            while len(got) < 4:  # pings every 300 ms while the loops live
                got.append(sock.recv(4096))
            assert got[1:] == [b"WATCHDOG=1"] * 3
        finally:
            sock.close()


def red_pixels(png: Path) -> int:
    image = pygame.image.load(str(png))
    w, h = image.get_size()
    return sum(1 for x in range(0, w, 2) for y in range(0, h // 3, 2)
               if tuple(image.get_at((x, y)))[:3] == theme.RESULT)


@pytest.mark.parametrize(("config", "words"), [
    ('variant = "chess"\ndisplay = "kiosk"\n', "no board configured: set port in"),
    ('variant = "chess"\ntiming.setle_ms = 3\n', "unknown key 'timing.setle_ms'"),
    ('port = "/dev/ttyACM0"\ntime_control = "5+x"\n', "time_control: time control '5+x': cannot read"),
])
def test_errors_that_stop_the_kiosk_are_one_line_and_on_the_screen(tmp_path: Path, config: str, words: str) -> None:
    cfg = tmp_path / "config.toml"
    cfg.write_text(config, encoding="utf-8")
    frame = tmp_path / "error.png"
    proc = subprocess.run([sys.executable, "-m", "controller.cli", "run", "--kiosk", "--no-gpio", "--config", str(cfg),
                           "--frame", str(frame), "--db", str(tmp_path / "g.sqlite3")],
                          cwd=REPO, env=env_for(tmp_path, CHESSERY_ERROR_HOLD_S="0"), capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 2
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and words in lines[0] and "Traceback" not in proc.stderr, proc.stderr
    assert red_pixels(frame) > 50  # "Chessery stopped" drawn in the result colour


def test_kiosk_plays_the_demo_only_when_asked(tmp_path: Path) -> None:
    cfg = tmp_path / "config.toml"
    cfg.write_text('display = "kiosk"\n', encoding="utf-8")
    with Child(chessery_args("run", "--kiosk", "--demo", "--no-gpio", "--config", str(cfg), "--db",
                             str(tmp_path / "g.sqlite3")), env=env_for(tmp_path)) as proc:
        proc.wait_err(lambda said: "demo game on a simulated board" in said, "the demo's announcement")
        # maybe before its handler is in place: then SIGTERM's default
        assert proc.stop() in (0, -signal.SIGTERM)


def test_unit_file_is_notify_with_a_watchdog_for_any_user() -> None:
    unit = (REPO / "deploy" / "chessery@.service").read_text(encoding="utf-8")
    settings = dict(line.split("=", 1) for line in unit.splitlines() if "=" in line and not line.startswith("#"))
    assert settings["Type"] == "notify" and int(settings["WatchdogSec"]) > 0
    assert settings["User"] == "%i" and "User=pi" not in unit
    assert "/run/user/" not in unit and settings["RuntimeDirectory"]
    assert settings["XDG_RUNTIME_DIR" if "XDG_RUNTIME_DIR" in settings else "Environment"]
