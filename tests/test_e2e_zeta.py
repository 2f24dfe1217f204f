"""The five Zeta games played whole on the simulated board (the reference firmware's code behind a
real pty, contacts bouncing) into ``chessery run --headless --variant NAME`` in its own process:
the service must record exactly the demo game and end it with White's line; ``chessery run
--variant zeta`` with no port plays the demo by itself and leaves a last frame on which the
winning line is marked."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from display import theme
from tests.demo_game_runs import play_demo_through_pty, run_demo_without_a_port

ZETAS = ("zeta", "zeta-short", "zeta-advancing", "zeta-pieces", "zeta-king")


def shows_line(image: pygame.Surface) -> bool:
    """Does the board half of the frame show the winning line's frame colour?"""
    w, h = image.get_size()
    return any(image.get_at((x, y))[:3] == theme.LINE[0] for x in range(0, w // 2) for y in range(0, h, 2))


@pytest.mark.parametrize("name", ZETAS)
def test_whole_zeta_game_through_the_pty_into_chessery_run(tmp_path: Path, name: str) -> None:
    game = play_demo_through_pty(tmp_path, name, seed=7)
    assert (game.record.result, game.record.termination) == ("1-0", "line")
    assert "Game over: 1-0 (line)" in game.err
    # The last frame is checked in the test below, whose service ends by itself: a SIGTERM may
    # stop the window before it draws the final view.
    assert pygame.image.load(str(game.frame)).get_size() == (800, 480)


def test_chessery_run_without_a_port_plays_the_zeta_demo_to_its_line(tmp_path: Path) -> None:
    err, frame = run_demo_without_a_port(tmp_path, "zeta")
    assert "Game over: 1-0 (line)" in err
    assert shows_line(pygame.image.load(str(frame)))
