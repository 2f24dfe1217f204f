"""Capabilities a variant declares and the controller uses: a typed interface, not probing.

A rule component that implements one of these protocols names it in its ``provides``; the
variant's ``Rules`` then holds that component in the matching attribute (``rules.scoring``,
``rules.placement``, ``rules.agreement``, ``rules.turn_note``), or None. ``rules.multi_move_turns`` says whether a
player may make more than one move in a turn.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from .position import Outcome, Position
    from .territory_scoring import Score

CAPABILITIES = ("scoring", "placement", "agreement", "turn_note", "multi_move_turns")


class Scoring(Protocol):
    def score(self, pos: Position) -> Score:
        """The live score: territories, bonuses and each side's total."""
        ...


class Placement(Protocol):
    def remaining(self, pos: Position, side: int) -> list[tuple[str, int]]:
        """Pieces ``side`` still has to place, as (letter, count)."""
        ...

    def placing(self, pos: Position) -> bool:
        """Whether the game is still in its placement stage."""
        ...

    def area(self, side: int) -> tuple[int, ...] | None:
        """The cells ``side`` may place on (None: any empty cell)."""
        ...


class Agreement(Protocol):
    def agreement_refusal(self, pos: Position) -> str:
        """Why the game may not end by agreement now ("" when it may)."""
        ...

    def agreement_outcome(self, pos: Position) -> Outcome:
        """The result when the players agree to stop (raises when the rules do not allow it)."""
        ...


class TurnNote(Protocol):
    def turn_note(self, pos: Position) -> str:
        """A short line for the display on what the side to move may do now ("" for nothing
        special), for rules a player cannot see on the board (which moves a menu allows)."""
        ...
