"""``chessery status`` finds the service that the systemd unit runs (issue 28): the unit gives the
service its own runtime folder (``RuntimeDirectory=chessery-%i``, ``XDG_RUNTIME_DIR=/run/chessery-%i``)
while the same user's login shell has ``/run/user/UID``; both go by ``controller.status.places``."""

from __future__ import annotations

import getpass
import os
import time
from pathlib import Path

import pytest

from controller.status import default_path, find_path, places, read_status, write_status


def test_status_from_a_login_shell_finds_the_units_service(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    run = tmp_path / "run"
    unit_dir = run / f"chessery-{getpass.getuser()}"  # what systemd makes for the unit
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(unit_dir))  # the unit's Environment=
    written = default_path()  # where `chessery run` writes, under the unit
    assert written == unit_dir / "chessery" / "status.json"
    write_status(written, {"pid": os.getpid(), "running": True, "updated": time.time()})

    monkeypatch.setenv("XDG_RUNTIME_DIR", str(run / "user" / str(os.getuid())))  # a login shell
    assert places(run)[0] == run / "user" / str(os.getuid()) / "chessery" / "status.json"
    assert find_path(run) == written
    assert read_status(find_path(run))["pid"] == os.getpid()


def test_the_status_rewritten_last_wins_and_none_names_the_first_place(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    run = tmp_path / "run"
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(run / "user" / "1000"))
    assert find_path(run) == run / "user" / "1000" / "chessery" / "status.json"
    old = run / "user" / "1000" / "chessery" / "status.json"
    new = run / "chessery-someone" / "chessery" / "status.json"  # another user's unit (sudo status)
    write_status(old, {"running": False})
    write_status(new, {"running": True})
    os.utime(old, (time.time() - 60, time.time() - 60))
    assert new in places(run) and find_path(run) == new
