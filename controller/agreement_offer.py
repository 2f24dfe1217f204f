"""The computer's answer to an offer to end the game by agreement (variants whose rules provide
``agreement``: Mathematichess), and to a draw offer in any variant (``judge_draw``). Pure: the
service (``controller.service.offers``) asks the engine of the computer's side for its search on
the position and hands its ``info`` lines here.

Our reading of "the computer accepts when the agreement gives it at least as much as it expects
by playing on" (the rules leave the second player's reasons to him):

* What the agreement gives: the rules' ``agreement_outcome`` -- a win, a draw or a loss for the
  computer's side.
* What it expects by playing on: its lead on the score component now (``rules.scoring``: its
  total less the opponent's) plus what its search expects to gain on it, the search's value
  less the static evaluation of the position now (both from the computer's side). In
  Mathematichess nothing is ever captured and an agreement needs both terminators played, so the
  evaluation's material term is the same at every node of the search and the difference is the
  points the search sees its side winning or losing. An expected lead within ``DRAW_MARGIN``
  either way is a draw: the evaluation's tempo and placement terms are not points. A forced win
  or loss the engine reports (``score mate``) is that.
* It accepts when the agreement's result is at least as good for it as the expected one: always
  when the agreement makes it the winner, a draw unless it expects to win, a loss only when it
  expects to lose anyway.

The search value comes from the engine that plays the side, in its own process (UCI ``info ...
score``), at its level and with the service's ``engine_go``; only the static evaluation (about
3 ms an offer on the development machine, the evaluator's tables built included) is computed here, with
``engine.search``'s ``Evaluator``. A ``uci:COMMAND`` engine is read on the same scale; one that
reports no score declines.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from engine import Outcome, Position
from engine.search.evaluation import Evaluator

#: Expected leads within this many evaluation units (Mathematichess: points) count as a draw.
DRAW_MARGIN = 20
#: A draw offer: the engine's score within half a pawn (its evaluation's unit is a pawn's 100)
#: either way counts as a draw. Mobility, tempo and placement move a level position by tens of
#: units, so a smaller margin would make the computer refuse a dead-level game.
DRAW_OFFER_MARGIN = 50


class Result(IntEnum):
    """A result for one side, ordered: a higher one is better for it."""

    LOSS = 0
    DRAW = 1
    WIN = 2


@dataclass(frozen=True)
class Verdict:
    accepts: bool
    #: What the computer says, for the screen ("it expects to win by playing on").
    reason: str
    #: The agreement's result and the one expected by playing on, for the computer's side.
    offered: Result
    expected: Result
    #: The expected lead (None: a forced result, or no score from the engine).
    lead: int | None = None


def result_for(outcome: Outcome, side: int) -> Result:
    if outcome.winner is None:
        return Result.DRAW
    return Result.WIN if outcome.winner == side else Result.LOSS


def last_score(info: list[str]) -> tuple[str, int] | None:
    """The last ``score cp N`` or ``score mate N`` of an engine's ``info`` lines, as
    (``cp``|``mate``, N) from the side to move's point of view; None when none has one."""
    for line in reversed(info):
        words = line.split()
        if "score" not in words:
            continue
        at = words.index("score")
        try:
            kind, value = words[at + 1], int(words[at + 2])
        except (IndexError, ValueError):
            continue
        if kind in ("cp", "mate"):
            return kind, value
    return None


def judge(position: Position, side: int, info: list[str]) -> Verdict:
    """The computer playing ``side`` answers an offer on ``position``; ``info``: its engine's
    ``info`` lines for a search of this position. ``ValueError`` when the rules do not allow an
    agreement here."""
    rules = position.variant.rules
    agreement = rules.agreement
    if agreement is None:
        raise ValueError(f"{position.variant.name} does not end by agreement")
    offered = result_for(agreement.agreement_outcome(position), side)
    score = last_score(info)
    if score is None:
        return Verdict(False, "its engine gave no evaluation", offered, Result.LOSS)
    kind, value = score
    if position.side != side:
        value = -value  # the engine scores for the side to move
    if kind == "mate":
        return _verdict(offered, Result.WIN if value > 0 else Result.LOSS, None)
    lead = 0
    if rules.scoring is not None:
        totals = rules.scoring.score(position).totals
        lead = totals[side] - max(t for s, t in enumerate(totals) if s != side)
    lead += value - Evaluator(position.variant).relative(position, side)
    return _verdict(offered, _expected(lead, DRAW_MARGIN), lead)


def judge_draw(position: Position, side: int, info: list[str]) -> Verdict:
    """The computer playing ``side`` answers a draw offer (the operator menu's Offer draw, any
    variant): it accepts unless it expects to win by playing on. What it expects is its
    engine's score alone (material and position, not points): a lead within
    ``DRAW_OFFER_MARGIN`` either way is a draw."""
    score = last_score(info)
    if score is None:
        return Verdict(False, "its engine gave no evaluation", Result.DRAW, Result.WIN)
    kind, value = score
    if position.side != side:
        value = -value
    if kind == "mate":
        return _verdict(Result.DRAW, Result.WIN if value > 0 else Result.LOSS, None)
    return _verdict(Result.DRAW, _expected(value, DRAW_OFFER_MARGIN), value)


def _expected(lead: int, margin: int) -> Result:
    return Result.WIN if lead > margin else Result.LOSS if lead < -margin else Result.DRAW


def _verdict(offered: Result, expected: Result, lead: int | None) -> Verdict:
    words = {Result.WIN: "win", Result.DRAW: "draw", Result.LOSS: "lose"}
    by = f" (by {lead} by its reckoning)" if lead is not None and expected != Result.DRAW else ""
    reason = f"it expects to {words[expected]} by playing on{by}"
    return Verdict(offered >= expected, reason, offered, expected, lead)
