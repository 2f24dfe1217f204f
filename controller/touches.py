"""Touches on the screen (``Referee.touch``): the choice of a move the sensors cannot see where
it happens (a man changing kind where it stands), and the status line's word on a touch that
chooses nothing. Built on ``controller.deadlines``; ``Referee`` (``controller.inference``) is
built on this."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from engine import Move

from .core_types import Decision, Option, PendingKind, Prompt, PromptKind, Status
from .deadlines import Deadlines
from .messages import piece_name
from .prompts import choice_prompt, chosen_text
from .signatures import EMPTY_SIG


@dataclass(frozen=True, slots=True)
class Told:
    """A touch's word put in front of the status line (``Touches._tell``)."""

    #: The status before the word was put in front of it.
    base: Status
    #: The status shown with the word: while it is still the status, a next word replaces this one.
    shown: Status


class Touches(Deadlines):
    """The moves a touch chooses, and the answer to a touch."""

    _notes: list[str]
    _told: Told | None

    def _decide(self, accepted: Sequence[Move], undone: Sequence[Move], evaluate: bool = True) -> Decision:
        raise NotImplementedError

    def silent_moves_on(self, cell: int) -> list[Move]:
        """The legal moves that change only ``cell`` and that the sensors cannot see there (a man
        chosen where it stands, as in Illusionary Piece Chess): what a lift and a put-back on
        that cell selects, and what a touch on it on the screen chooses."""
        only = frozenset((cell,))
        return [s.move for s in self._moves.current.match(EMPTY_SIG, only) if s.cells == only]

    def touch_cells(self) -> frozenset[int]:
        """The cells where a touch on the screen chooses something now (see ``silent_moves_on``)."""
        if not self._playing:
            return frozenset()
        return frozenset(c for s in self._moves.current.by_sig.get(EMPTY_SIG, ()) if len(s.cells) == 1 for c in s.cells)

    def touch(self, cell: int, now: int) -> Decision:
        """A cell touched on the screen: the choice of the move the board cannot see there
        (``silent_moves_on``). One such move is final at once, as if lifted, put back and
        confirmed; several are asked about; none, or a board not at rest (a piece in the hand,
        a move waiting to settle, a question open), change nothing but the status line, which
        says why. ``ValueError`` for a cell the board does not have."""
        names = self.variant.geometry.names
        if not 0 <= cell < len(names):
            raise ValueError(f"no cell {cell} on the {self.variant.name} board")
        name = names[cell]
        if not self._playing:
            return self._tell(f"Touch on {name} ignored: no game under way")
        if self._prompt is not None:
            return self._tell(f"Touch on {name} ignored: answer the question first")
        if self._hands.diff or self._pending.kind not in (PendingKind.CLEAN, PendingKind.REMOVAL):
            # A move under way on the board: its reading must not change under the hands.
            return self._tell(f"Touch on {name} ignored: finish the move on the board first")
        moves = self.silent_moves_on(cell)
        if not moves:
            return self._tell(f"Nothing to choose on {name}")
        if len(moves) > 1:
            options = choice_prompt(self.position, [(m,) for m in moves], 0, force_which=True).options
            what = piece_name(self.variant, self.position.board[cell])
            self._ask(Prompt(PromptKind.WHICH_MOVE, f"Which change of the {what} on {name}?",
                             (*options, Option("no", "None: leave it"))), self._hands.sig())
            self._status = replace(self._status, cells=(cell,))
            return self._decide([], [], evaluate=False)
        accepted: list[Move] = []
        # Cells handled before, at rest now, are no part of this choice (nor a move the next
        # player made meanwhile: see ``_stray``).
        self._hands.touched.clear()
        self._accept(moves[0], now, accepted)
        self._notes[-1] = chosen_text(self.position, moves[0])
        self._hands.last_t = now
        return self._decide(accepted, [])

    def _tell(self, text: str) -> Decision:
        """Put ``text`` in front of the status line (in place of the last such text), nothing else."""
        base = self._told.base if self._told is not None and self._told.shown is self._status else self._status
        self._status = replace(base, message=f"{text}. {base.message}" if base.message else text)
        self._told = Told(base, self._status)
        return Decision(self._status, note=text)
