"""Hesitant hands through the whole pipeline: the hand model's hesitant games (pauses up to 1.5 s
on crossed cells, up to 2.5 s between a castling's pieces, the king resting on the cell it
crosses, the victim lifted after a pause) played on the simulated board over a real pty into
``chessery run --headless``: what it prints and stores is the game, move for move, and nothing
printed is ever taken back."""

from __future__ import annotations

from pathlib import Path

import pytest

import engine
from firmware_bridge.script import parse_script
from firmware_bridge.simboard import SimBoard
from tests.hand_model import Hands, game_script_with_plies
from tests.historical_games import historical_games
from tests.pty_games import play_game

CHESS = engine.find_variant("chess")
#: Plies of each game played (a sample: the whole games go through ``chessery replay`` in
#: ``tests/test_inference_historical.py``).
PLIES = 24


@pytest.mark.slow
@pytest.mark.parametrize(("n", "identity"), [(4, False), (9, True)], ids=["occupancy", "identity"])
def test_a_hesitant_game_through_the_pty_is_recorded_move_for_move(tmp_path: Path, n: int, identity: bool) -> None:
    moves = list(historical_games()[n][:PLIES])
    lines, _plies = game_script_with_plies(engine.start_position(CHESS), moves, Hands(identity=identity, hesitant=1.0),
                                           seed=n)
    assert any(line.startswith("sleep") and int(line.split()[1]) > 1000 for line in lines)  # it does hesitate
    board = SimBoard(CHESS, identity=identity).start()
    game = play_game(tmp_path, board, parse_script("\n".join(lines), CHESS), moves)
    assert not [line for line in game.printed if line.startswith("undo ")], game.printed
