"""The five Zeta games played whole on the simulated board (the reference firmware's code behind a
real pty, contacts bouncing) into ``chessery run --headless --variant NAME`` in its own process:
the service must record exactly the demo game and end it with White's line; ``chessery run
--variant zeta`` with no port plays the demo by itself and leaves a last frame on which the
winning line is marked."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pygame
import pytest

import engine
from controller.demo_games import DEMO_GAMES
from controller.event_scripts import Style, script_for_moves
from controller.store import GameStore
from display import theme
from firmware_bridge.script import parse_script
from firmware_bridge.simboard import SimBoard
from tests.test_e2e_service import REPO, TIMEOUT, Run, read_game, replay_stream

ZETAS = ("zeta", "zeta-short", "zeta-advancing", "zeta-pieces", "zeta-king")


def shows_line(image: pygame.Surface) -> bool:
    """Does the board half of the frame show the winning line's frame colour?"""
    w, h = image.get_size()
    return any(image.get_at((x, y))[:3] == theme.LINE[0] for x in range(0, w // 2) for y in range(0, h, 2))


@pytest.mark.parametrize("name", ZETAS)
def test_whole_zeta_game_through_the_pty_into_chessery_run(tmp_path: Path, name: str) -> None:
    variant = engine.find_variant(name)
    moves = list(DEMO_GAMES[name])
    style = Style(capture="alternate", slide=True, bounce=True, think_ms=60, hand_ms=30)
    lines = script_for_moves(variant, moves, style)
    board = SimBoard(variant, faults="bounce", seed=7).start()
    commands = parse_script("\n".join(lines), variant)
    db, frame = tmp_path / "games.sqlite3", tmp_path / "frame.png"
    run = Run(board.path, db, frame, "--variant", name)
    try:
        assert run.next_line() == f"frame: {frame}"
        board.start_script(commands)
        printed: list[str] = []
        read_game(run, moves, printed)
        assert board.done.wait(TIMEOUT)
        assert run.stop() == 0
    finally:
        if run.proc.poll() is None:
            run.proc.kill()
        board.stop()
    assert replay_stream(printed) == moves
    with GameStore(db) as store:
        record = store.latest()
        assert record is not None
        assert (record.variant, record.moves) == (name, tuple(moves))
        assert (record.result, record.termination) == ("1-0", "line")
    assert "Game over: 1-0 (line)" in "".join(run.err)
    # The last frame is checked in the test below, whose service ends by itself: a SIGTERM may
    # stop the window before it draws the final view.
    assert pygame.image.load(str(frame)).get_size() == (800, 480)


def test_chessery_run_without_a_port_plays_the_zeta_demo_to_its_line(tmp_path: Path) -> None:
    env = dict(os.environ, PYTHONPATH=str(REPO), SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    env.pop("DISPLAY", None)
    db, frame = tmp_path / "games.sqlite3", tmp_path / "frame.png"
    proc = subprocess.run(
        [sys.executable, "-m", "controller.cli", "run", "--variant", "zeta", "--headless", "--no-gpio",
         "--exit-when-done", "--db", str(db), "--frame", str(frame)],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=240)
    assert proc.returncode == 0, proc.stderr[-2000:]
    lines = proc.stdout.splitlines()
    assert lines[0] == f"frame: {frame}"
    assert replay_stream(lines[1:]) == list(DEMO_GAMES["zeta"])
    assert "Game over: 1-0 (line)" in proc.stderr
    assert shows_line(pygame.image.load(str(frame)))
