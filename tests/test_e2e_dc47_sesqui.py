"""Dream Chess 47 and Sesqui-dimensional Chess played whole on the simulated board (the
reference firmware's code behind a real pty, contacts bouncing) into ``chessery run --headless
--variant NAME`` in its own process: the service must record exactly the recorded demo game,
end it with the right result, and leave a frame that shows the game's board."""

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
from controller.service import demo_script
from controller.store import GameStore
from display import theme
from firmware_bridge.script import parse_script
from firmware_bridge.simboard import SimBoard
from tests.test_e2e_service import REPO, TIMEOUT, Run, read_game, replay_stream

RESULTS = {"dreamchess47": ("1-0", "checkmate"), "sesqui": ("0-1", "checkmate")}


@pytest.mark.parametrize("name", sorted(RESULTS))
def test_recorded_demo_games_are_legal_and_end_as_recorded(name: str) -> None:
    variant = engine.find_variant(name)
    pos = engine.start_position(variant)
    for text in DEMO_GAMES[name]:
        pos.push_text(text)
    outcome = pos.outcome()
    assert outcome is not None
    winner = {0: "1-0", 1: "0-1", None: "1/2-1/2"}[outcome.winner]
    assert (winner, outcome.termination) == RESULTS[name]
    assert any(m.promotion for m in pos.move_stack)  # each demo shows a promotion
    # ``chessery run --variant NAME`` with no port plays exactly this game
    lines = demo_script(variant, None, watched=False)
    moves = [line.split()[-1] for line in lines if line.startswith("# ")]
    assert moves == list(DEMO_GAMES[name])


def frame_pixel(image: pygame.Surface, name: str) -> bool:
    """Does the frame show the game's own board drawing (a supersquare frame, the ring's wedges)?"""
    w, h = image.get_size()
    colours = {image.get_at((x, y))[:3] for x in range(0, w // 2, 2) for y in range(0, h, 2)}
    if name == "dreamchess47":
        return set(theme.STEP_REGIONS) <= colours
    return set(theme.RING_WEDGES) <= colours


@pytest.mark.parametrize("name", sorted(RESULTS))
def test_whole_game_through_the_pty_into_chessery_run(tmp_path: Path, name: str) -> None:
    variant = engine.find_variant(name)
    moves = list(DEMO_GAMES[name])
    style = Style(capture="alternate", slide=True, bounce=True, think_ms=60, hand_ms=30)
    lines = script_for_moves(variant, moves, style)
    board = SimBoard(variant, faults="bounce", seed=5).start()
    commands = parse_script("\n".join(lines), variant)
    db, frame = tmp_path / "games.sqlite3", tmp_path / "frame.png"
    # The promotion question is answered like a player at the screen: from the script's choose lines.
    script = tmp_path / "game.txt"
    script.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert sum(line.startswith("choose ") for line in lines) >= 1
    run = Run(board.path, db, frame, "--variant", name, "--answers", str(script))
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
        assert record.variant == name
        assert record.moves == tuple(moves)
        assert (record.result, record.termination) == RESULTS[name]
    image = pygame.image.load(str(frame))
    assert image.get_size() == (800, 480)
    assert frame_pixel(image, name)
    result, termination = RESULTS[name]
    assert f"Game over: {result} ({termination})" in "".join(run.err)


def test_chessery_run_without_a_port_plays_the_sesqui_demo_to_mate(tmp_path: Path) -> None:
    """``chessery run --variant sesqui`` with no port: the built-in simulated board (its own
    process, a real pty) plays the recorded demo, the promotion answered by the demo player."""
    env = dict(os.environ, PYTHONPATH=str(REPO), SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    env.pop("DISPLAY", None)
    db, frame = tmp_path / "games.sqlite3", tmp_path / "frame.png"
    proc = subprocess.run(
        [sys.executable, "-m", "controller.cli", "run", "--variant", "sesqui", "--headless", "--no-gpio",
         "--exit-when-done", "--db", str(db), "--frame", str(frame)],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=240)
    assert proc.returncode == 0, proc.stderr[-2000:]
    lines = proc.stdout.splitlines()
    assert lines[0] == f"frame: {frame}"
    assert replay_stream(lines[1:]) == list(DEMO_GAMES["sesqui"])
    assert "Game over: 0-1 (checkmate)" in proc.stderr
    assert frame_pixel(pygame.image.load(str(frame)), "sesqui")
