"""An offer to end the game by agreement, put to the computer sides (variants whose rules provide
``agreement``: Mathematichess). The session asks the second player "Both agree to end?"
however the offer was made (the operator menu's End by agreement, the panel's menu button);
when a side is played by an engine (``computer[:LEVEL]``, ``uci:COMMAND``), its engine is asked
for its search of the position in its own process (``ComputerTurns.consult``) and the answer
(``controller.agreement_offer.judge``) answers the question: yes ends the game by agreement and
stores its result, no closes the question and the screen says why the computer declines.

A draw offer (the operator menu's Offer draw, any variant) is put to the computer sides the same
way (``agreement_offer.judge_draw``): accepted, the game ends as a draw agreed; declined, it
goes on. It lapses when a move is made before the computer has answered.

A side played by a board elsewhere (``remote:BOARD``) is out of scope: with one in the game the
question is left to the people at this board, as before.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING

from engine import Outcome
from engine.errors import ChesseryError

from ..agreement_offer import Verdict, judge, judge_draw
from ..core_types import PromptKind
from ..inference import Prompt
from ..messages import side_name
from ..players import PlayerKind
from ..session_endings import Phase
from ..uci_player import Request
from .bus import Wake

if TYPE_CHECKING:
    from .opponents import Opponents
    from .service import Service

log = logging.getLogger("chessery")

#: The longest the thread that wakes the controller waits for an engine's answer.
ANSWER_WAIT_S = 3600.0


class OfferKind(Enum):
    AGREEMENT = "agreement"  # the rules' ending by agreement: the session's question
    DRAW = "draw"  # the operator menu's Offer draw


@dataclass
class _Offer:
    kind: OfferKind
    prompt: Prompt | None  # the session's question this offer answers (None: a draw offer)
    plies: int
    requests: dict[int, Request]


class Offers:
    def __init__(self, service: Service, opponents: Opponents) -> None:
        self.service = service
        self.opponents = opponents
        self._offer: _Offer | None = None
        #: What the screen says about the last offer, until the next move ("" for nothing).
        self.line = ""
        self._line_plies = -1
        #: The computer sides' last verdicts (for the log and tests).
        self.verdicts: dict[int, Verdict] = {}

    def answered_by_computer(self) -> bool:
        """Whether the computer sides answer the offers: an engine plays a side, no board
        elsewhere does."""
        players = self.opponents.players
        return (self.opponents.turns is not None and any(p.is_engine for p in players.values())
                and not any(p.kind is PlayerKind.REMOTE for p in players.values()))

    def offer_draw(self) -> None:
        """The operator menu's Offer draw, with a computer side: put it to the computer."""
        session = self.service.session
        if session.phase != Phase.PLAY:
            return
        plies = len(session.position.move_stack)
        if self._offer is not None and self._offer.kind is OfferKind.DRAW and self._offer.plies == plies:
            return  # already being considered
        self._ask(OfferKind.DRAW, None, "the draw offer")

    def follow(self) -> None:
        """Each turn of the loop: put a new offer to the computer sides, or answer the question
        once they all have answered."""
        service = self.service
        session = service.session
        plies = len(session.position.move_stack)
        if self.line and plies != self._line_plies:
            self.line = ""
        offer = self._offer
        if offer is not None and offer.kind is OfferKind.DRAW:
            if session.phase != Phase.PLAY or offer.plies != plies:
                self._offer = None  # a move made, or the game ended: the offer lapsed
                if session.phase == Phase.PLAY:
                    self._say("The draw offer lapsed: a move was made first", plies)
            elif all(r.done.is_set() for r in offer.requests.values()):
                self._answer(offer)
            return
        prompt = session.status.prompt
        if prompt is None or prompt.kind != PromptKind.AGREEMENT or not self.answered_by_computer():
            if offer is not None:  # the question closed before the computer answered
                self._offer, self.line = None, ""
            return
        if offer is None or offer.prompt is not prompt or offer.plies != plies:
            self._ask(OfferKind.AGREEMENT, prompt, "the offer")
        elif all(r.done.is_set() for r in offer.requests.values()):
            self._answer(offer)

    def _ask(self, kind: OfferKind, prompt: Prompt | None, what: str) -> None:
        service = self.service
        session = service.session
        pos = session.position
        plies = len(pos.move_stack)
        turns = self.opponents.turns
        engines = sorted(side for side, p in self.opponents.players.items() if p.is_engine)
        assert turns is not None
        try:
            requests = {side: turns.consult(pos, side) for side in engines}
        except ChesseryError as exc:  # the engine's process ended, or it still thinks
            self._offer = None
            self._say(f"The computer cannot answer {what} now: {exc}", plies)
            if kind is OfferKind.AGREEMENT:
                service.report(session.answer("no", service.now()))
            return
        self._offer = _Offer(kind, prompt, plies, requests)
        for request in requests.values():
            self._wake_on(request)
        self._say(f"{self._who(engines)} considering {what}", plies)

    def _answer(self, offer: _Offer) -> None:
        """Every computer side has answered ``offer``: all accept, or the first to decline says
        why."""
        service = self.service
        session = service.session
        pos = session.position
        plies = len(pos.move_stack)
        self._offer = None
        judging = judge if offer.kind is OfferKind.AGREEMENT else judge_draw
        what = "the agreement" if offer.kind is OfferKind.AGREEMENT else "the draw"
        verdicts: dict[int, Verdict | str] = {}
        for side, request in offer.requests.items():
            try:
                verdicts[side] = request.error or judging(pos, side, request.info)
            except ValueError as exc:  # the rules no longer allow it
                verdicts[side] = str(exc)
        self.verdicts = {side: v for side, v in verdicts.items() if isinstance(v, Verdict)}
        for side, verdict in verdicts.items():
            if not isinstance(verdict, Verdict) or not verdict.accepts:
                why = verdict.reason if isinstance(verdict, Verdict) else verdict
                self._say(f"{side_name(service.variant, side)} (computer) declines {what}: {why}", plies)
                log.info("%s declined by %s: %s", offer.kind.value, side_name(service.variant, side), why)
                if offer.kind is OfferKind.AGREEMENT:
                    service.report(session.answer("no", service.now()))
                return
        reasons = "; ".join(v.reason for v in self.verdicts.values())
        engines = sorted(offer.requests)
        self._say(f"{self._who(engines)} accepting {what}: {reasons}", plies)
        if offer.kind is OfferKind.AGREEMENT:
            service.report(session.agreed(service.now()))
        else:
            service.report(session.end(Outcome("agreement", None), service.now(), "draw agreed"))

    def _who(self, sides: list[int]) -> str:
        names = [f"{side_name(self.service.variant, s)} (computer)" for s in sides]
        return " and ".join(names) + (" are" if len(names) > 1 else " is")

    def _say(self, line: str, plies: int) -> None:
        self.line, self._line_plies = line, plies
        self.service.outputs.say(line)

    def _wake_on(self, request: Request) -> None:
        """Wake the controller when the engine has answered (it thinks in its own process)."""
        inputs = self.service.inputs

        def wait() -> None:
            if request.done.wait(ANSWER_WAIT_S):
                inputs.put(Wake())

        threading.Thread(target=wait, name="offer-answer", daemon=True).start()
