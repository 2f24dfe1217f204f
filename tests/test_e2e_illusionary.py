"""Illusionary Piece Chess played whole on the simulated board (the reference firmware's code
behind a real pty) into ``chessery run --headless --variant illusionary`` in its own process: the
four choices are lifts and put-backs of the chosen men, the game goes on to the demo's checkmate,
and the last frame marks the illusionary men still on the board."""

from __future__ import annotations

from pathlib import Path

import pygame

import engine
from controller.demo_games import DEMO_GAMES
from controller.event_scripts import Style, script_for_moves
from display import theme
from tests.demo_game_runs import play_demo_through_pty, run_demo_without_a_port, script_lines


def test_whole_illusionary_game_through_the_pty_into_chessery_run(tmp_path: Path) -> None:
    lines = script_lines("illusionary")
    # each choice is a lift and a put-back on one cell
    assert lines[1:4] == ["sleep 60", "lift d7", "place d7"]
    game = play_demo_through_pty(tmp_path, "illusionary", seed=5, answers=True)
    assert sum(line.startswith("choose yes") for line in lines) == 4  # each choice confirmed
    assert (game.record.result, game.record.termination) == ("0-1", "checkmate")
    assert "Game over: 0-1 (checkmate)" in game.err
    image = pygame.image.load(str(game.frame))
    colours = {image.get_at((x, y))[:3] for x in range(0, 480, 2) for y in range(0, 480, 2)}
    assert set(theme.SQUARES) <= colours
    assert theme.MARK in colours  # the amazon on g7 still wears its mark


def test_whole_illusionary_game_on_an_identity_board(tmp_path: Path) -> None:
    # The identity board reads an illusionary man as the regular man it physically is.
    style = Style(capture="alternate", slide=True, think_ms=300, hand_ms=30, identity=True)
    lines = script_for_moves(engine.find_variant("illusionary"), list(DEMO_GAMES["illusionary"]), style)
    assert lines[2:4] == ["lift d7", "place d7 p"]
    assert not any("~" in line for line in lines if not line.startswith("#"))
    game = play_demo_through_pty(tmp_path, "illusionary", seed=3, lines=lines, faults=None, identity=True,
                                 answers=True)
    assert (game.record.result, game.record.termination) == ("0-1", "checkmate")


def test_illusionary_demo_plays_by_itself_with_no_port(tmp_path: Path) -> None:
    err, frame = run_demo_without_a_port(tmp_path, "illusionary")
    assert "Game over: 0-1 (checkmate)" in err
    assert frame.exists()
