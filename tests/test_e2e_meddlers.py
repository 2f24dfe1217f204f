"""Meddlers Chess and its pawns form played whole on the simulated board (the reference
firmware's code behind a real pty) into ``chessery run --headless --variant NAME`` in its own
process: every second half-move lifts a man of the *other* colour (the player meddling with the
enemy's men), on an occupancy board and on an identity board that reads each man's colour. The
service must record exactly the demo game, end it by checkmate, and leave a frame that shows the
ringed queen-side men; with no port at all the built-in board plays the same demo."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from display import theme
from tests.demo_game_runs import play_demo_through_pty, run_demo_without_a_port

RESULTS = {"meddlers": ("1-0", "checkmate"), "meddlers-pawns": ("0-1", "checkmate")}


def ring_pixels(frame: Path) -> int:
    image = pygame.image.load(str(frame))
    assert image.get_size() == (800, 480)
    # the board is the left part of the frame; the legend's ringed pieces are on the right
    return sum(1 for x in range(0, 470, 2) for y in range(0, 480, 2) if image.get_at((x, y))[:3] == theme.MARK)


@pytest.mark.parametrize("name, identity", [("meddlers", False), ("meddlers", True), ("meddlers-pawns", False)])
def test_whole_game_through_the_pty_into_chessery_run(tmp_path: Path, name: str, identity: bool) -> None:
    # the pawns demo has a promotion of the player's own pawn (e2d1q): an occupancy board asks
    # which piece, answered from the script
    game = play_demo_through_pty(tmp_path, name, seed=11, identity=identity, answers=not identity)
    result, termination = RESULTS[name]
    assert (game.record.result, game.record.termination) == (result, termination)
    assert f"Game over: {result} ({termination})" in game.err
    assert ring_pixels(game.frame) > 100  # queen-side men still on the board carry their band


@pytest.mark.parametrize("name", sorted(RESULTS))
def test_chessery_run_with_no_port_plays_the_demo(tmp_path: Path, name: str) -> None:
    err, frame = run_demo_without_a_port(tmp_path, name)
    result, termination = RESULTS[name]
    assert f"Game over: {result} ({termination})" in err
    assert ring_pixels(frame) > 100
