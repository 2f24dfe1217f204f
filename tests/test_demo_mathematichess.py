"""Every recorded demo game ends by itself with a winner (the README's promise), Mathematichess's
too: its demo used to be 60 random placements, after which the kiosk waited for ever."""

from __future__ import annotations

from pathlib import Path

import pytest

import engine
from controller.demo_games import DEMO_GAMES
from engine.components.territory import TerritoryRules
from tests.demo_game_runs import play_demo_through_pty, played_demo


def test_every_demo_game_is_legal_and_ends_decisively_on_its_last_move() -> None:
    for name in DEMO_GAMES:
        pos = played_demo(name)  # legal, and nothing ended before the last move
        outcome = pos.outcome()
        assert outcome is not None and outcome.winner is not None, (name, outcome)


def test_the_mathematichess_demo_ends_when_white_has_no_move_left() -> None:
    pos = played_demo("mathematichess")
    rules = pos.variant.rules.get(TerritoryRules)
    assert len(pos.move_stack) == 164 and rules.stage(pos) == 2  # both hands empty: the shortest game
    assert DEMO_GAMES["mathematichess"][2:4] == ("xh12", "xa12")  # both terminators played
    assert pos.outcome() == engine.Outcome("no_moves", 1)
    score = rules.score(pos)
    assert len(score.territories) == 9 and all(t.owner == 1 and t.secured for t in score.territories)
    white, black = score.totals
    assert white == 0 < black


@pytest.mark.slow
def test_the_mathematichess_demo_ends_through_the_pty_into_chessery_run(tmp_path: Path) -> None:
    game = play_demo_through_pty(tmp_path, "mathematichess", seed=5, answers=True, settled_end=True)
    assert (game.record.result, game.record.termination) == ("0-1", "no_moves")
    assert "Game over: 0-1" in game.err
