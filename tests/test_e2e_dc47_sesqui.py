"""Dream Chess 47 and Sesqui-dimensional Chess played whole on the simulated board (the
reference firmware's code behind a real pty, contacts bouncing) into ``chessery run --headless
--variant NAME`` in its own process: the service must record exactly the recorded demo game,
end it with the right result, and leave a frame that shows the game's board."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from display import theme
from tests.demo_game_runs import play_demo_through_pty, played_demo, run_demo_without_a_port, script_lines

RESULTS = {"dreamchess47": ("1-0", "checkmate"), "sesqui": ("0-1", "checkmate")}


@pytest.mark.parametrize("name", sorted(RESULTS))
def test_recorded_demo_games_are_legal_and_end_as_recorded(name: str) -> None:
    pos = played_demo(name)
    outcome = pos.outcome()
    assert outcome is not None
    winner = {0: "1-0", 1: "0-1", None: "1/2-1/2"}[outcome.winner]
    assert (winner, outcome.termination) == RESULTS[name]
    assert any(m.promotion for m in pos.move_stack)  # each demo shows a promotion


def frame_pixel(image: pygame.Surface, name: str) -> bool:
    """Does the frame show the game's own board drawing (a supersquare frame, the ring's wedges)?"""
    w, h = image.get_size()
    colours = {image.get_at((x, y))[:3] for x in range(0, w // 2, 2) for y in range(0, h, 2)}
    if name == "dreamchess47":
        return set(theme.STEP_REGIONS) <= colours
    return set(theme.RING_WEDGES) <= colours


@pytest.mark.parametrize("name", sorted(RESULTS))
def test_whole_game_through_the_pty_into_chessery_run(tmp_path: Path, name: str) -> None:
    # The promotion question is answered like a player at the screen: from the script's choose lines.
    lines = script_lines(name)
    assert sum(line.startswith("choose ") for line in lines) >= 1
    game = play_demo_through_pty(tmp_path, name, seed=5, lines=lines, answers=True)
    assert (game.record.result, game.record.termination) == RESULTS[name]
    image = pygame.image.load(str(game.frame))
    assert image.get_size() == (800, 480)
    assert frame_pixel(image, name)
    result, termination = RESULTS[name]
    assert f"Game over: {result} ({termination})" in game.err


def test_chessery_run_without_a_port_plays_the_sesqui_demo_to_mate(tmp_path: Path) -> None:
    """``chessery run --variant sesqui`` with no port: the built-in simulated board (its own
    process, a real pty) plays the recorded demo, the promotion answered by the demo player."""
    err, frame = run_demo_without_a_port(tmp_path, "sesqui")
    assert "Game over: 0-1 (checkmate)" in err
    assert frame_pixel(pygame.image.load(str(frame)), "sesqui")
