"""An offer to end the game by agreement, put to the computer sides (variants whose rules provide
``agreement``: Mathematichess). The session asks the second player "Both agree to end?"
however the offer was made (the operator menu's End by agreement, the panel's menu button);
when a side is played by an engine (``computer[:LEVEL]``, ``uci:COMMAND``), its engine is asked
for its search of the position in its own process (``ComputerTurns.consult``) and the answer
(``controller.agreement_offer.judge``) answers the question: yes ends the game by agreement and
stores its result, no closes the question and the screen says why the computer declines.

A side played by a board elsewhere (``remote:BOARD``) is out of scope: with one in the game the
question is left to the people at this board, as before.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.errors import ChesseryError

from ..agreement_offer import Verdict, judge
from ..core_types import PromptKind
from ..inference import Prompt
from ..messages import side_name
from ..players import PlayerKind
from ..uci_player import Request
from .bus import Wake

if TYPE_CHECKING:
    from .opponents import Opponents
    from .service import Service

log = logging.getLogger("chessery")

#: The longest the thread that wakes the controller waits for an engine's answer.
ANSWER_WAIT_S = 3600.0


@dataclass
class _Offer:
    prompt: Prompt  # the session's question this offer answers
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

    def follow(self) -> None:
        """Each turn of the loop: put a new offer to the computer sides, or answer the question
        once they all have answered."""
        service = self.service
        session = service.session
        pos = session.position
        plies = len(pos.move_stack)
        if self.line and plies != self._line_plies:
            self.line = ""
        prompt = session.status.prompt
        turns = self.opponents.turns
        players = self.opponents.players
        engines = sorted(side for side, p in players.items() if p.is_engine)
        remote = any(p.kind is PlayerKind.REMOTE for p in players.values())
        if prompt is None or prompt.kind != PromptKind.AGREEMENT or not engines or remote or turns is None:
            if self._offer is not None:  # the question closed before the computer answered
                self._offer, self.line = None, ""
            return
        offer = self._offer
        if offer is None or offer.prompt is not prompt or offer.plies != plies:
            try:
                requests = {side: turns.consult(pos, side) for side in engines}
            except ChesseryError as exc:  # the engine's process ended, or it still thinks
                self._say(f"The computer cannot answer the offer now: {exc}", plies)
                service.report(session.answer("no", service.now()))
                return
            self._offer = _Offer(prompt, plies, requests)
            for request in requests.values():
                self._wake_on(request)
            self._say(f"{self._who(engines)} considering the offer", plies)
            return
        if not all(r.done.is_set() for r in offer.requests.values()):
            return
        self._offer = None
        verdicts: dict[int, Verdict | str] = {}
        for side, request in offer.requests.items():
            try:
                verdicts[side] = request.error or judge(pos, side, request.info)
            except ValueError as exc:  # the rules no longer allow it
                verdicts[side] = str(exc)
        self.verdicts = {side: v for side, v in verdicts.items() if isinstance(v, Verdict)}
        for side, verdict in verdicts.items():
            if not isinstance(verdict, Verdict) or not verdict.accepts:
                why = verdict.reason if isinstance(verdict, Verdict) else verdict
                self._say(f"{side_name(service.variant, side)} (computer) declines the agreement: {why}", plies)
                log.info("agreement declined by %s: %s", side_name(service.variant, side), why)
                service.report(session.answer("no", service.now()))
                return
        reasons = "; ".join(v.reason for v in self.verdicts.values())
        self._say(f"{self._who(engines)} accepting the agreement: {reasons}", plies)
        service.report(session.answer("yes", service.now()))

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
