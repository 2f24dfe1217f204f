"""A whole Mathematichess game at the board against the computer, ended by an agreement the
computer accepts: the service (real, in this process) refereeing the simulated board behind a
real pty, Black our own engine in its own process (one ply, as in tests/test_e2e_opponents.py).
The test is White's player: it places and moves with its hands (events on the simulated board),
carries out the computer's moves the service announces, answers the referee's questions at the
screen, and once the rules allow an agreement and the computer is ahead on points it offers to
end the game with the panel's menu button and confirm (GPIO on gpiozero's MockFactory). The
computer answers the question (controller/agreement_offer.py): the agreement gives it the win,
so it accepts, and the game is stored with its result and the termination ``agreement``."""

from __future__ import annotations

import random

import engine
from controller.core_types import PromptKind
from controller.session import Phase
from engine import start_position
from tests.opponent_moves import accepted, announced, clocked, hands, losing_move

MATH = engine.find_variant("mathematichess")
AGREEMENT = MATH.rules.agreement
SCORING = MATH.rules.scoring
#: The menu button's and confirm's pins (``gpio.menu``, ``gpio.confirm``).
MENU_PIN, CONFIRM_PIN = 22, 17


def test_mathematichess_whole_game_against_the_computer_ended_by_agreement(rig, mock_pins) -> None:
    assert AGREEMENT is not None and SCORING is not None
    r, clock = clocked(rig, mock_pins, variant=MATH, players=(("black", "computer"),), engine_go="go depth 1")
    pos = start_position(MATH)
    # A player who makes his worst move by the engine's static evaluation (with this seed he
    # plays his terminator during placement, the computer its own soon after, and the computer
    # is far ahead once the last piece is placed).
    rng = random.Random(0)
    r.wait(lambda: r.service.session.phase == Phase.PLAY)
    while True:
        assert pos.outcome() is None, f"the game ended by itself: {pos.outcome()}"
        assert len(pos.move_stack) < 240, "no position to offer an agreement the computer wins"
        n = len(pos.move_stack)
        if pos.side == 0:
            totals = SCORING.score(pos).totals
            if not AGREEMENT.agreement_refusal(pos) and totals[1] > totals[0]:
                break
            text = losing_move(pos, rng)
        else:
            text = announced(r, n)["move"]
        hands(r, pos, text, clock)
        accepted(r, n + 1, text)
        assert r.accepted[n][1] == text
        pos.push_text(text)
    # White offers to end the game: the menu button, then confirm on "End the game by agreement".
    menu, confirm = mock_pins.pin(MENU_PIN), mock_pins.pin(CONFIRM_PIN)
    session = r.service.session
    menu.drive_low()
    menu.drive_high()
    r.wait(lambda: session.status.prompt is not None and session.status.prompt.find("agree") is not None)
    confirm.drive_low()
    confirm.drive_high()
    r.wait(lambda: session.phase == Phase.OVER)
    texts = tuple(pos.move_text(m) for m in pos.move_stack)
    moves, result, termination = r.games()[-1]
    assert (moves, result, termination) == (texts, "0-1", "agreement")
    assert AGREEMENT.agreement_outcome(pos).result(2) == "0-1"
    assert r.service.opponents.offers.line.startswith("Black (computer) is accepting the agreement")
    assert session.status.prompt is None or session.status.prompt.kind != PromptKind.AGREEMENT
    assert len(texts) >= 164  # every placement and both terminators: the whole game was played
