"""Triscacia and the 10x10 games played whole on the simulated board (the reference firmware's
code behind a real pty, contacts bouncing) into ``chessery run --headless --variant NAME`` in its
own process: the service records exactly the recorded demo game (Triscacia's placements answered
by the script's "which piece" choices, its pawn-to-queen conversions made by touching the pawn),
ends it with the right result and leaves a frame of the game."""

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

#: What the store records and what the service says at the end.
RESULTS = {"triscacia": ("1-wins", "checkmate", "blue"), "triscacia-10x10": ("1-wins", "checkmate", "blue"),
           "sqchess": ("1-0", "checkmate", "1-0"),
           "sqchess-extended": ("1-0", "checkmate", "1-0"), "tweedle": ("1-0", "checkmate", "1-0")}


@pytest.mark.parametrize("name", sorted(RESULTS))
def test_demo_games_are_legal_and_played_by_chessery_run(name: str) -> None:
    variant = engine.find_variant(name)
    pos = engine.start_position(variant)
    for text in DEMO_GAMES[name]:
        pos.push_text(text)
    outcome = pos.outcome()
    assert outcome is not None and (outcome.termination, outcome.winner) == ("checkmate", 0)
    lines = demo_script(variant, None, watched=False)
    assert [line.split()[-1] for line in lines if line.startswith("# ")] == list(DEMO_GAMES[name])
    if name.startswith("triscacia"):
        assert sum(m.tag == "drop" for m in pos.move_stack) == 30
        assert sum(m.tag == "convert" for m in pos.move_stack) == {"triscacia": 3, "triscacia-10x10": 2}[name]


def frame_shows(image: pygame.Surface, name: str) -> bool:
    """The board (the frame's left square) holds each side's piece colour (within a small
    tolerance: piece pictures are shaded)."""
    _w, h = image.get_size()
    colours = {tuple(image.get_at((x, y))[:3]) for x in range(0, h, 2) for y in range(0, h, 2)}
    sides = tuple(engine.find_variant(name).sides)

    def near(fill: tuple[int, int, int]) -> bool:
        return any(sum(abs(a - b) for a, b in zip(c, fill, strict=True)) <= 24 for c in colours)

    return all(near(theme.side_colours(sides, s)[0]) for s in range(len(sides)))


@pytest.mark.parametrize("name", sorted(RESULTS))
def test_whole_game_through_the_pty_into_chessery_run(tmp_path: Path, name: str) -> None:
    variant = engine.find_variant(name)
    moves = list(DEMO_GAMES[name])
    style = Style(capture="alternate", slide=True, bounce=True, think_ms=60, hand_ms=30)
    lines = script_for_moves(variant, moves, style)
    board = SimBoard(variant, faults="bounce", seed=5).start()
    commands = parse_script("\n".join(lines), variant)
    db, frame = tmp_path / "games.sqlite3", tmp_path / "frame.png"
    script = tmp_path / "game.txt"
    script.write_text("\n".join(lines) + "\n", encoding="utf-8")
    # The 10x10 games read the board through the shipped 10x10 layout (the simulated board numbers
    # its sensors rank by rank from a1, as that layout does).
    layout = ("--layout", "square-10x10") if variant.geometry.size == 100 else ()
    run = Run(board.path, db, frame, "--variant", name, "--answers", str(script), *layout)
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
    stored, termination, said = RESULTS[name]
    with GameStore(db) as store:
        record = store.latest()
        assert record is not None
        assert (record.variant, record.moves) == (name, tuple(moves))
        assert (record.result, record.termination) == (stored, termination)
    image = pygame.image.load(str(frame))
    assert image.get_size() == (800, 480)
    assert frame_shows(image, name)
    assert f"Game over: {said} (checkmate)" in "".join(run.err)


def test_chessery_run_without_a_port_plays_the_triscacia_demo_to_mate(tmp_path: Path) -> None:
    """``chessery run --variant triscacia`` with no port: the built-in simulated board plays the
    recorded demo, placements answered by the demo player."""
    env = dict(os.environ, PYTHONPATH=str(REPO), SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    env.pop("DISPLAY", None)
    db, frame = tmp_path / "games.sqlite3", tmp_path / "frame.png"
    proc = subprocess.run(
        [sys.executable, "-m", "controller.cli", "run", "--variant", "triscacia", "--headless", "--no-gpio",
         "--exit-when-done", "--db", str(db), "--frame", str(frame)],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=240)
    assert proc.returncode == 0, proc.stderr[-2000:]
    lines = proc.stdout.splitlines()
    assert lines[0] == f"frame: {frame}"
    assert replay_stream(lines[1:]) == list(DEMO_GAMES["triscacia"])
    assert "Game over: blue (checkmate)" in proc.stderr
    assert frame_shows(pygame.image.load(str(frame)), "triscacia")
