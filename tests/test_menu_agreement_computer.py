"""An offer to end a Mathematichess game by agreement, put to the computer through the operator
menu: a real service (no board: the game is resumed from a real SQLite file), its real headless
screen tapped as the operator would (Menu, End by agreement), the computer our own engine in its
own process. The computer answers for the second player (controller/agreement_offer.py): it
accepts when the agreement gives it at least what it expects by playing on, and the result is
stored; else it declines, the screen says so and the game goes on."""

from __future__ import annotations

from pathlib import Path

import engine
from controller.agreement_offer import Result, judge
from controller.event_scripts import placement_game
from controller.service import Service
from controller.session import Phase
from controller.store import GameStore
from engine import Position
from engine.search import Limits, Searcher
from engine.search.alphabeta import Info
from tests.menu_screen import Screen, resume_against_the_computer

MATH = engine.find_variant("mathematichess")
GO = "go depth 1"


def stage_two(seed: int) -> list[Position]:
    """Every position of a seeded Mathematichess game after both terminators (an agreement may
    end it there)."""
    pos = engine.start_position(MATH)
    out = []
    for text in placement_game(MATH, seed=seed, board_plies=12):
        pos.push_text(text)
        if not MATH.rules.agreement.agreement_refusal(pos):  # type: ignore[union-attr]
            out.append(pos.copy())
    return out


def engine_info(pos: Position) -> list[str]:
    """The ``info`` line the engine process reports for ``GO`` (the same search, in this process)."""
    infos: list[Info] = []
    Searcher(MATH, seed=0).search(pos, Limits(depth=1), on_info=infos.append)
    return [f"info depth {infos[-1].depth} score cp {infos[-1].score}"]


def offer(tmp_path: Path, pos: Position) -> tuple[Service, GameStore, Screen, int]:
    """A service resuming the game that led to ``pos``, black played by the computer; the
    operator offers to end it by agreement."""
    moves = [pos.move_text(m) for m in pos.move_stack]
    service, store, screen, game = resume_against_the_computer(tmp_path, MATH, moves, GO)
    screen.tap("Menu")
    screen.tap("End by agreement")
    return service, store, screen, game


def test_the_computer_accepts_an_agreement_it_wins(tmp_path: Path) -> None:
    # White (the human) to move, Black (the computer) ahead on points: the agreement gives it the
    # win, nothing is better, it accepts whatever its search says.
    pos = next((p for p in stage_two(seed=0) if p.side == 0
                and judge(p, 1, ["info score cp 0"]).offered == Result.WIN), None)
    assert pos is not None, "no seeded position where the computer is ahead with White to move"
    service, store, screen, game = offer(tmp_path, pos)
    try:
        screen.pump(lambda: service.session.phase == Phase.OVER, "the game ended by agreement")
        line = service.opponents.offers.line
        screen.pump(lambda: "accepting the agreement" in " ".join(t for t, _r, _ro in screen.layout().texts),
                    "the screen saying the computer accepts")
    finally:
        service.stop()
        screen.close()
    record = store.game(game)
    store.close()
    assert (record.result, record.termination) == ("0-1", "agreement")
    assert record.moves == tuple(pos.move_text(m) for m in pos.move_stack)  # no move was added
    assert line.startswith("Black (computer) is accepting the agreement")


def test_the_computer_declines_when_playing_on_is_better_for_it(tmp_path: Path) -> None:
    # Black (the computer) to move and behind on points, with a move that its search sees putting
    # it ahead: the agreement would make it lose, so it declines and the game goes on. The
    # position is found with the engine's own search (the same depth as its process's ``GO``).
    candidates = [p for seed in range(2, 12) for p in stage_two(seed) if p.side == 1
                  and judge(p, 1, ["info score cp 0"]).offered == Result.LOSS]
    pos = next((p for p in candidates if not judge(p, 1, engine_info(p)).accepts), None)
    assert pos is not None, "no seeded position where the computer's search sees a winning move"
    service, store, screen, game = offer(tmp_path, pos)
    try:
        screen.pump(lambda: "declines the agreement" in service.opponents.offers.line, "the computer's answer")
        verdict = service.opponents.offers.verdicts[1]
        screen.pump(lambda: "declines the agreement" in " ".join(t for t, _r, _ro in screen.layout().texts),
                    "the screen saying the computer declines")
        assert service.session.phase == Phase.PLAY and service.session.status.prompt is None
    finally:
        service.stop()
        screen.close()
    record = store.game(game)
    store.close()
    assert (record.result, record.termination) == ("*", "")
    assert (verdict.offered, verdict.expected, verdict.accepts) == (Result.LOSS, Result.WIN, False)
    assert verdict.lead is not None and verdict.lead > 0


def test_reading_of_the_engines_score() -> None:
    """The engine scores for the side to move; a forced result counts as that result."""
    pos = stage_two(seed=0)[-1]
    side = pos.side
    other = 1 - side
    assert judge(pos, other, ["info depth 3 score mate 2 pv x"]).expected == Result.LOSS
    assert judge(pos, side, ["info depth 3 score mate 2 pv x"]).expected == Result.WIN
    assert judge(pos, side, ["info string no score"]).accepts is False
