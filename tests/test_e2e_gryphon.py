"""The three Gryphon games played whole on the simulated board (the reference firmware's code
behind a real pty) into ``chessery run --headless --variant NAME`` in its own process. On the
occupancy board the hands make every swap the way a player would, lifting the moved piece off
its landing cell and putting the new one there; on the identity board they put the new piece
down at once. The service must record exactly the demo game and end it by checkmate."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

import engine
from controller.demo_games import DEMO_GAMES
from controller.event_scripts import Style, script_for_moves
from controller.swaps import swaps
from display import theme
from tests.demo_game_runs import play_demo_through_pty

GRYPHONS = ("gryphon", "gryphon-circular", "gryphon-simple")


def with_swaps(variant: engine.Variant, moves: list[str], lines: list[str]) -> list[str]:
    """The script with a lift and place on each landing cell whose piece changes nature, right
    after the move that asks for it (the last move's swap too)."""
    pos = engine.start_position(variant)
    cells = []
    for text in moves:
        move = pos.parse_move(text)
        cells.append([variant.geometry.names[c] for c, _old, _new in swaps(variant, move)])
        pos.push(move)
    out: list[str] = []
    ply = -1
    for line in lines:
        if line.startswith("# "):
            if ply >= 0:
                out += [f"sleep 400\nlift {c}\nsleep 150\nplace {c}" for c in cells[ply]]
            ply += 1
        out.append(line)
    out += [f"sleep 400\nlift {c}\nsleep 150\nplace {c}" for c in cells[ply]]
    return "\n".join(out).splitlines()


@pytest.mark.parametrize("name, identity", [(n, False) for n in GRYPHONS] + [("gryphon", True)])
def test_whole_gryphon_game_through_the_pty_into_chessery_run(tmp_path: Path, name: str, identity: bool) -> None:
    variant = engine.find_variant(name)
    moves = list(DEMO_GAMES[name])
    style = Style(capture="alternate", slide=True, think_ms=300, hand_ms=30, identity=identity)
    lines = script_for_moves(variant, moves, style)
    if not identity:
        lines = with_swaps(variant, moves, lines)
        assert sum(line.startswith("lift ") for line in lines) > 2 * len(moves)
    game = play_demo_through_pty(tmp_path, name, seed=3, lines=lines, faults=None, identity=identity)
    assert (game.record.result, game.record.termination) == ("0-1", "checkmate")
    assert "Game over: 0-1 (checkmate)" in game.err
    image = pygame.image.load(str(game.frame))
    assert image.get_size() == (800, 480)
    colours = {image.get_at((x, y))[:3] for x in range(0, 400, 3) for y in range(0, 480, 3)}
    assert set(theme.SQUARES) <= colours  # the board is drawn
