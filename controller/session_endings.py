"""How a session's game ends at the players' word, and what an ended game shows: the menu's
question (a new game, or an ending by agreement where the rules have one), the agreement
question and its answer (a person's, or the computer's: ``controller/service/offers.py``), an
end the service decides (a flag fall, a resignation, a draw agreed at the screen), and the
status while the ended game stands on the board. Also what every session input returns
(``Update``). The texts are ``controller/game_results.py``'s; the session itself is
``controller/session.py``, built on :class:`Endings`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum

from engine import Outcome, Position, Variant

from .board_return import readings_of
from .core_types import PromptKind, StatusKind
from .game_results import agreement_prompt, game_over_text, result_text, setup_fixes, setup_text
from .inference import Option, Prompt, Referee, Status
from .store import GameStore


class Phase(Enum):
    """Where a session stands."""

    SETUP = "setup"  # waiting for the start position
    PLAY = "play"    # a game under way
    OVER = "over"    # a game ended (the board may still show it)


@dataclass(frozen=True)
class Update:
    """What one input changed: moves committed (``undone`` first, then ``accepted``, as texts),
    the phase, and what to tell the player."""

    phase: Phase
    status: Status
    accepted: tuple[str, ...] = ()
    undone: tuple[str, ...] = ()
    note: str = ""


MENU_PROMPT = Prompt(PromptKind.MENU, "Start a new game?", (Option("yes", "New game"), Option("no", "Keep playing")))
AGREE = Option("agree", "End the game by agreement")


class Endings:
    """The session's endings (see the module docstring); ``Session`` holds the state."""

    variant: Variant
    store: GameStore
    identity: bool
    game_id: int | None
    phase: Phase
    core: Referee
    computer_answers: Callable[[], bool]
    _menu: Prompt | None
    _agreed: Outcome | None
    _start: Position

    @property
    def position(self) -> Position:
        raise NotImplementedError

    @property
    def status(self) -> Status:
        raise NotImplementedError

    def _after(self, update: Update, now: int) -> Update:
        raise NotImplementedError

    def _menu_prompt(self) -> Prompt:
        agreement = self.variant.rules.agreement
        if agreement is None:
            return MENU_PROMPT
        reason = agreement.agreement_refusal(self.position)
        if reason:
            return Prompt(PromptKind.MENU, f"Start a new game? (No ending by agreement: {reason})", MENU_PROMPT.options)
        return Prompt(PromptKind.MENU, "End the game or start a new one?", (AGREE, *MENU_PROMPT.options))

    def _agreement_prompt(self) -> Prompt:
        return agreement_prompt(self.variant, self.position, self.computer_answers())

    def agreed(self, now: int) -> Update:
        """The computer accepts the open offer to end by agreement (controller/service/offers.py)."""
        if self._menu is None or self._menu.kind != PromptKind.AGREEMENT:
            return Update(self.phase, self.status, note="no offer to end by agreement is open")
        self._menu = None
        return self._agree(now)

    def _agree(self, now: int) -> Update:
        agreement = self.variant.rules.agreement
        try:
            if agreement is None:
                raise ValueError(f"{self.variant.name} does not end by agreement")
            outcome = agreement.agreement_outcome(self.position)
        except ValueError as exc:  # a move was made meanwhile that the rules do not allow to end on
            return Update(self.phase, self.status, note=str(exc))
        assert self.game_id is not None
        self.store.finish(self.game_id, self.result_text(outcome), outcome.termination)
        self._agreed = outcome
        self.phase = Phase.OVER
        self.core.set_playing(False, now)
        return self._after(Update(self.phase, self._over_status(), note="game ended by agreement"), now)

    def end(self, outcome: Outcome, now: int, note: str = "") -> Update:
        """End the game under way now with ``outcome``: a flag fall, a resignation, a draw agreed
        or claimed at the screen. Stored like any other ending."""
        if self.phase != Phase.PLAY or self.game_id is None:
            return Update(self.phase, self.status, note="no game under way")
        self.store.finish(self.game_id, self.result_text(outcome), outcome.termination)
        self._agreed = outcome
        self._menu = None
        self.phase = Phase.OVER
        self.core.set_playing(False, now)
        return self._after(Update(self.phase, self._over_status(), note=note or outcome.termination), now)

    def result_text(self, outcome: Outcome) -> str:
        """The result as stored and shown (``game_results.result_text``)."""
        return result_text(self.variant, outcome)

    def _over_status(self) -> Status:
        outcome = self._agreed or self.core.outcome or self.position.outcome()
        head = game_over_text(self.variant, outcome)
        observed = self.core.observed
        if observed == tuple(readings_of(self.position, self.identity)):
            return Status(StatusKind.IDLE, f"{head}. Set up the pieces for a new game")
        # The board no longer shows the game's end (the players are putting the pieces back, or
        # it came back from a cable pull showing something else): what is left to do is the new
        # game's set-up, so say which cells still differ from the start, as the set-up does.
        fixes = setup_fixes(self._start, readings_of(self._start, self.identity), observed)
        return Status(StatusKind.SETUP, f"{head}. For a new game, set up: " + setup_text(self.variant, fixes),
                      fixes=fixes)
