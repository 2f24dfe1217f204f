"""How a session's games end, as the players read it: results, the game-over line, and the
question that ends a game by agreement.

Ending by agreement (variants whose rules provide ``agreement``, such as Mathematichess): the
menu button offers it once the rules allow it (else the menu says why not); one player chooses
it, the other confirms, and the result by the rules' score is stored like any other ending. The
session (``controller/session.py``) asks the questions and stores the ending; these are pure
functions of the variant and the position.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine import Outcome, Position, Variant

from .core_types import Fix, Option, Prompt, PromptKind
from .messages import wanted_text


def result_text(variant: Variant, outcome: Outcome) -> str:
    """The result as stored and shown: 1-0, 0-1, 1/2-1/2, or with more sides the winner's name
    (``blue``), as the screen says it. An adjourned game (the arbiter's) has no result yet:
    ``*``."""
    if outcome.termination == "adjourned":
        return "*"
    return outcome.result(variant.nsides, tuple(variant.sides))


def game_over_text(variant: Variant, outcome: Outcome | None) -> str:
    """``Game over: 1-0 (checkmate)``."""
    if outcome is None:
        return "Game over"
    return f"Game over: {result_text(variant, outcome)} ({outcome.termination.replace('_', ' ')})"


def setup_fixes(start: Position, start_readings: Sequence[int], observed: Sequence[int]) -> tuple[Fix, ...]:
    """The cells where the board as read differs from the start position."""
    return tuple(Fix(c, start.board[c], have) for c, (want, have) in enumerate(zip(start_readings, observed,
                                                                                      strict=True))
                 if want != have)


def setup_text(variant: Variant, fixes: Sequence[Fix]) -> str:
    """``e2: white pawn, e4: empty``: what to put where for a new game."""
    return ", ".join(wanted_text(variant, f.cell, f.want) for f in fixes)


def agreement_question(variant: Variant, position: Position) -> str:
    """The second player's confirmation of an ending by agreement, with what the result would
    be. ``ValueError`` (the rules' ``AgreementError``) when the rules do not allow it now."""
    agreement = variant.rules.agreement
    if agreement is None:
        raise ValueError(f"{variant.name} does not end by agreement")
    outcome = agreement.agreement_outcome(position)
    scoring = variant.rules.scoring
    totals = ""
    if scoring is not None:  # short: the prompt's title has two lines; the panel names the sides
        totals = ", " + " to ".join(str(total) for total in scoring.score(position).totals)
    return f"Both agree to end? {result_text(variant, outcome)}{totals}"


def agreement_prompt(variant: Variant, position: Position, computer_answers: bool) -> Prompt:
    """The question put to the second player. When the computer is that player (an engine plays
    the other side: ``controller/service/offers.py`` answers for it) only it may say yes: the
    person at the board, who made the offer, can only withdraw it."""
    question = agreement_question(variant, position)
    if computer_answers:
        return Prompt(PromptKind.AGREEMENT, question, (Option("no", "Withdraw the offer"),))
    return Prompt(PromptKind.AGREEMENT, question, (Option("yes", "Yes, both agree"), Option("no", "Keep playing")))
