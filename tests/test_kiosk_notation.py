"""Readable notation where players read it: the screen's move list and the takeback question
("Take back Nf3?") of a real session on a real SQLite file, and ``chessery run --notation san``
on stdout (the default stays the engine's move text)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from controller.inference import Event
from controller.screen import view_of
from tests.pty_games import replay_stream
from tests.session_moves import Clock, cell, move, started

REPO = Path(__file__).resolve().parent.parent


def test_move_list_and_takeback_question_are_in_san(tmp_path: Path) -> None:
    clock = Clock()
    session, store, _path = started(tmp_path, clock)
    for frm, to in (("e2", "e4"), ("d7", "d5"), ("e4", "d5"), ("g8", "f6"), ("g1", "f3")):
        move(session, clock, frm, to)
    view = view_of(session)
    assert view.moves == ("e4", "d5", "exd5", "Nf6", "Nf3")
    # the knight goes back to g1: the board shows the position before Nf3
    session.event(Event(cell("f3"), False, clock()))
    session.event(Event(cell("g1"), True, clock()))
    session.tick(clock(3000))
    view = view_of(session)
    assert view.prompt is not None, view.status
    assert view.prompt.title == "Take back Nf3?"
    assert [c.label for c in view.prompt.choices] == ["Take back Nf3", "Keep playing"]
    assert view.status.endswith("Take back Nf3?") and "g1f3" not in view.status
    assert view.moves[-1] == "Nf3"  # the list is still there beside the question
    store.close()


@pytest.mark.parametrize(("notation", "expected"), [
    (None, ["e2e4", "d7d5", "e4d5", "d8d5", "b1c3"]),
    ("san", ["e4", "d5", "exd5", "Qxd5", "Nc3"]),
])
def test_run_prints_uci_by_default_and_san_when_asked(tmp_path: Path, notation: str | None,
                                                      expected: list[str]) -> None:
    env = dict(os.environ, PYTHONPATH=str(REPO), SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    env.pop("DISPLAY", None)
    cmd = [sys.executable, "-m", "controller.cli", "run", "--headless", "--no-gpio", "--db", str(tmp_path / "g.db"),
           "--frame", str(tmp_path / "f.png"), "--demo-moves", "e2e4 d7d5 e4d5 d8d5 b1c3"]
    if notation:
        cmd += ["--notation", notation]
    proc = subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("frame: ")
    # a drag that rests on d6 is corrected: "undo" lines name the undone move in the same notation
    assert replay_stream(lines[1:]) == expected
