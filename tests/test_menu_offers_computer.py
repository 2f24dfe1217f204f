"""Offers put to the computer, never answered for it: a real service (no board: the game is
resumed from a real SQLite file), its real headless screen tapped as the operator would, the
computer our own engine in its own process (controller/service/offers.py).

* Chess, the operator menu's Offer draw: the draw screen offers the draw to the computer
  instead of a "Black accepts" button, and the computer accepts when it does not expect to win
  by playing on (a queen down) and declines when it does (a queen up).
* Mathematichess, End by agreement: while the computer considers the offer the person at the
  board can withdraw it but cannot say yes for the computer.
"""

from __future__ import annotations

from pathlib import Path

import engine
from controller.event_scripts import placement_game
from controller.session import Phase
from tests.menu_screen import Screen, resume_against_the_computer

CHESS = engine.find_variant("chess")
MATH = engine.find_variant("mathematichess")


def offer_draw(screen: Screen) -> list[str]:
    """Menu, Offer draw; the buttons of the draw screen; then the offer is made."""
    screen.tap("Menu")
    screen.tap("Offer draw")
    buttons = list(screen.buttons())
    screen.tap("Offer a draw")
    return buttons


def screen_says(screen: Screen, words: str) -> bool:
    return words in " ".join(t for t, _r, _ro in screen.layout().texts)


def test_the_computer_a_queen_down_accepts_a_draw(tmp_path: Path) -> None:
    moves = ["e2e4", "e7e5", "g1f3", "d8h4", "f3h4", "b8c6"]  # Black's queen lost; White to move
    service, store, screen, game = resume_against_the_computer(tmp_path, CHESS, moves, "go depth 2")
    try:
        buttons = offer_draw(screen)
        screen.pump(lambda: service.session.phase == Phase.OVER, "the game ended in a draw")
        screen.pump(lambda: screen_says(screen, "accepting the draw"), "the screen saying the computer accepts")
        verdict = service.opponents.offers.verdicts[1]
    finally:
        service.stop()
        screen.close()
    record = store.game(game)
    store.close()
    assert "Black accepts" not in buttons and "Offer a draw" in buttons
    assert (record.result, record.termination) == ("1/2-1/2", "agreement")
    assert record.moves == tuple(moves)
    assert verdict.accepts and verdict.lead is not None and verdict.lead < -500


def test_the_computer_a_queen_up_declines_a_draw(tmp_path: Path) -> None:
    moves = ["e2e4", "e7e5", "d1h5", "b8c6", "h5f7", "e8f7"]  # White's queen lost; White to move
    service, store, screen, game = resume_against_the_computer(tmp_path, CHESS, moves, "go depth 2")
    try:
        offer_draw(screen)
        screen.pump(lambda: "declines the draw" in service.opponents.offers.line, "the computer's answer")
        screen.pump(lambda: screen_says(screen, "declines the draw"), "the screen saying the computer declines")
        verdict = service.opponents.offers.verdicts[1]
        assert service.session.phase == Phase.PLAY
    finally:
        service.stop()
        screen.close()
    record = store.game(game)
    store.close()
    assert (record.result, record.termination) == ("*", "")
    assert not verdict.accepts and verdict.lead is not None and verdict.lead > 500


def test_only_the_computer_says_yes_to_an_agreement(tmp_path: Path) -> None:
    # An engine that thinks until stopped: the offer stays open while the test looks at it.
    pos = engine.start_position(MATH)
    moves = []
    for text in placement_game(MATH, seed=0, board_plies=12):
        pos.push_text(text)
        moves.append(text)
        if not MATH.rules.agreement.agreement_refusal(pos) and pos.side == 0:  # type: ignore[union-attr]
            break
    service, store, screen, game = resume_against_the_computer(tmp_path, MATH, moves, "go infinite")
    try:
        screen.tap("Menu")
        screen.tap("End by agreement")
        screen.pump(lambda: "considering the offer" in service.opponents.offers.line, "the computer considering")
        buttons = list(screen.buttons())
        screen.tap("Withdraw the offer")
        screen.pump(lambda: service.session.status.prompt is None, "the offer withdrawn")
        assert service.session.phase == Phase.PLAY
    finally:
        service.stop()
        screen.close()
    record = store.game(game)
    store.close()
    assert "Yes, both agree" not in buttons and "Withdraw the offer" in buttons
    assert (record.result, record.termination) == ("*", "")
