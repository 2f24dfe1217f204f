"""Triscacia and the 10x10 games played whole on the simulated board (the reference firmware's
code behind a real pty, contacts bouncing) into ``chessery run --headless --variant NAME`` in its
own process: the service records exactly the recorded demo game (Triscacia's placements answered
by the script's "which piece" choices, its pawn-to-queen conversions made by touching the pawn),
ends it with the right result and leaves a frame of the game."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

import engine
from tests.demo_game_runs import play_demo_through_pty, played_demo, run_demo_without_a_port
from tests.frame_colours import frame_shows

#: What the store records and what the service says at the end.
RESULTS = {"triscacia": ("blue", "checkmate", "blue"), "triscacia-10x10": ("blue", "checkmate", "blue"),
           "sqchess": ("1-0", "checkmate", "1-0"),
           "sqchess-extended": ("1-0", "checkmate", "1-0"), "tweedle": ("1-0", "checkmate", "1-0")}


@pytest.mark.parametrize("name", sorted(RESULTS))
def test_demo_games_are_legal_and_played_by_chessery_run(name: str) -> None:
    pos = played_demo(name)
    outcome = pos.outcome()
    assert outcome is not None and (outcome.termination, outcome.winner) == ("checkmate", 0)
    if name.startswith("triscacia"):
        assert sum(m.tag == "drop" for m in pos.move_stack) == 30
        assert sum(m.tag == "convert" for m in pos.move_stack) == {"triscacia": 3, "triscacia-10x10": 2}[name]


@pytest.mark.parametrize("name", sorted(RESULTS))
def test_whole_game_through_the_pty_into_chessery_run(tmp_path: Path, name: str) -> None:
    # The 10x10 games read the board through the shipped 10x10 layout (the simulated board numbers
    # its sensors rank by rank from a1, as that layout does).
    layout = ("--layout", "square-10x10") if engine.find_variant(name).geometry.size == 100 else ()
    game = play_demo_through_pty(tmp_path, name, seed=5, answers=True, args=layout, settled_end=True)
    stored, termination, said = RESULTS[name]
    assert (game.record.result, game.record.termination) == (stored, termination)
    image = pygame.image.load(str(game.frame))
    assert image.get_size() == (800, 480)
    assert frame_shows(image, name)
    assert f"Game over: {said} (checkmate)" in game.err


def test_chessery_run_without_a_port_plays_the_triscacia_demo_to_mate(tmp_path: Path) -> None:
    """``chessery run --variant triscacia`` with no port: the built-in simulated board plays the
    recorded demo, placements answered by the demo player."""
    err, frame = run_demo_without_a_port(tmp_path, "triscacia")
    assert "Game over: blue (checkmate)" in err
    assert frame_shows(pygame.image.load(str(frame)), "triscacia")
