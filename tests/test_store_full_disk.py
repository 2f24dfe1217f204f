"""A disk that fills up under a running referee (issue 28), for real: the games file lives on a
small tmpfs that the test mounts and fills. The referee goes on, the screen's notice and the log say
so, no move committed before is touched, ``chessery export`` reads the full disk, and once space is
freed every move is written. Mounting needs root; without it this test is skipped and
tests/test_store_v2.py's full file (SQLite's ``max_page_count``) still runs."""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import subprocess
from pathlib import Path

import pytest

from controller.cli import main
from controller.store import GameStore
from tests.service_rig import Rig


@contextlib.contextmanager
def small_disk(where: Path, size: str = "2m"):
    where.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)],
                          capture_output=True, text=True, timeout=30)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs: {done.stderr.strip()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], capture_output=True, timeout=30)


def fill(folder: Path) -> Path:
    """Write a file until the disk says it is full."""
    filler = folder / "filler"
    with filler.open("wb", buffering=0) as f:
        try:
            while True:
                f.write(b"\xff" * 4096)
        except OSError as exc:
            assert exc.errno == errno.ENOSPC
    return filler


@pytest.mark.skipif(os.geteuid() != 0, reason="mounting a tmpfs needs root")
def test_a_full_disk_under_the_referee_loses_no_move_and_play_resumes(tmp_path: Path, caplog, capsys) -> None:
    caplog.set_level(logging.WARNING, logger="chessery.store")
    with small_disk(tmp_path / "disk") as disk:
        r = Rig(disk, "")
        try:
            r.service.start()
            r.board.play("lift e2\nplace e4\nlift e7\nplace e5\n", timeout=60)
            r.wait(lambda: len(r.accepted) == 2)
            filler = fill(disk)
            r.board.play("lift g1\nplace f3\nlift b8\nplace c6\n", timeout=60)
            r.wait(lambda: len(r.accepted) == 4 and r.service.store.waiting > 0)
            problem = r.service.store.problem
            assert problem.startswith("Disk full: ") and f"Free space on {disk}" in problem
            db = disk / "games.sqlite3"
            with GameStore(db, readonly=True) as reader:
                assert reader.game(1).moves[:2] == ("e2e4", "e7e5")  # committed before: untouched
            assert main(["export", "--db", str(db)]) == 0  # reading works on the full disk
            assert "1. e4 e5" in capsys.readouterr().out
            filler.unlink()  # space freed: the loop writes what waited
            r.wait(lambda: r.service.store.waiting == 0)
            assert r.service.store.problem == ""
            r.board.play("lift f1\nplace c4\n", timeout=60)
            r.wait(lambda: len(r.accepted) == 5)
            r.service.stop()
            with GameStore(db, readonly=True) as reader:
                assert reader.game(1).moves == ("e2e4", "e7e5", "g1f3", "b8c6", "f1c4")
            assert r.service.error is None
        finally:
            r.close()
    logged = [rec.getMessage() for rec in caplog.records]
    assert sum("the disk is full" in m for m in logged) == 1
    assert any("space again" in m for m in logged)
