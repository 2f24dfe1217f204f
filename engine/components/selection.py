"""``selection``: before the first move the players choose men that turn into other kinds where
they stand (Illusionary Piece Chess: Black a pawn, White a pawn and a piece, Black a piece).

Each choice is an engine move: the chosen man is lifted and put back as its new kind (build_move's
``become`` on its own cell), so its changes say what stands there afterwards and the controller
reads a lift and put back on that cell as the choice, with no code of its own for the game.

Options: ``selectable`` maps a kind to what it becomes (``{P = "~P", N = "~N"}``);
``selection_order`` lists the choices in turn, each ``"<side> pawn"`` or ``"<side> piece"`` (any
selectable kind that is no pawn). The position state ``select=N`` counts the choices still owed
(absent once they are made); the side owing the next one is to move. Choices are not moves of
the game: they leave the move number where it was and reset the fifty-move count. Provides
``turn_note`` (who chooses what).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from ..errors import PositionError, VariantError
from ..moves import SPECIAL, build_move
from . import Component, register

if TYPE_CHECKING:
    from ..moves import Move
    from ..position import Position
    from ..rules import Rules

STATE = "select"


@register("selection")
class Selection(Component):
    options: ClassVar[dict[str, Any]] = {"selectable": {}, "selection_order": []}
    state_keys = (STATE,)
    provides = ("turn_note",)

    def __init__(self, rules: Rules) -> None:
        super().__init__(rules)
        v = self.v
        try:
            mapping = {v.kind_index[a]: v.kind_index[b] for a, b in dict(self.opts["selectable"]).items()}
        except KeyError as exc:
            raise VariantError(f"variant {v.name}: selectable names no piece {exc}") from None
        #: Per piece code: the code it becomes when chosen (0: not selectable).
        self.becomes = [0] * v.max_code
        for code in v.all_codes():
            new = mapping.get(v.kind_at[code])
            if new is not None:
                self.becomes[code] = v.code(new, v.owner[code])
        #: The choices in turn: (side, True for a pawn / False for a piece).
        self.order: list[tuple[int, bool]] = []
        for entry in self.opts["selection_order"]:
            words = str(entry).split()
            if len(words) != 2 or words[0] not in v.sides or words[1] not in ("pawn", "piece"):
                raise VariantError(f"variant {v.name}: selection_order: {entry!r} is not '<side> pawn|piece'")
            self.order.append((v.sides.index(words[0]), words[1] == "pawn"))

    # -- queries ---------------------------------------------------------------------------------------
    def owed(self, pos: Position) -> int:
        """How many choices are still to be made (0: the game proper is on)."""
        text = pos.extra.get(STATE)
        return int(text) if text and text.isdigit() else 0

    def next_choice(self, pos: Position) -> tuple[int, bool] | None:
        """(side, pawn?) of the choice owed now, or None."""
        n = self.owed(pos)
        return self.order[len(self.order) - n] if 0 < n <= len(self.order) else None

    @staticmethod
    def is_choice(move: Move) -> bool:
        return move.tag == SPECIAL and move.frm >= 0 and move.frm == move.to and move.promotion != 0

    def candidates(self, pos: Position) -> list[int]:
        """Cells of the men the side to move may choose now."""
        choice = self.next_choice(pos)
        if choice is None:
            return []
        side, pawn = choice
        v = self.v
        becomes = self.becomes
        return [c for c, code in enumerate(pos.board)
                if becomes[code] and v.owner[code] == side and v.is_pawn[code] == pawn]

    def turn_note(self, pos: Position) -> str:
        choice = self.next_choice(pos)
        if choice is None:
            return ""
        side, pawn = choice
        return (f"{self.v.sides[side].capitalize()} chooses a {'pawn' if pawn else 'piece'} to make "
                f"{self.kind_word()}: lift it and put it back")

    def kind_word(self) -> str:
        """The word the variant's chosen kinds share (``illusionary``), for the display."""
        v = self.v
        names = [v.kinds[v.kind_at[c]].name for c in self.becomes if c]
        first = {n.split()[0] for n in names if " " in n}
        return first.pop() if len(first) == 1 else "special"

    # -- stages ----------------------------------------------------------------------------------------
    def board_moves(self, pos: Position) -> list[Move] | None:
        if not self.owed(pos):
            return None
        board = pos.board
        becomes = self.becomes
        return [build_move(board, c, c, tag=SPECIAL, become=((c, becomes[board[c]]),), promotion=becomes[board[c]])
                for c in self.candidates(pos)]

    def filter(self, pos: Position, moves: list[Move]) -> list[Move]:
        # While choices are owed nothing else moves (castling's own generation included).
        if not self.owed(pos):
            return moves
        return [m for m in moves if self.is_choice(m)]

    def after_push(self, pos: Position, move: Move) -> None:
        if not self.is_choice(move) or not self.owed(pos):
            return
        n = self.owed(pos) - 1
        if n:
            pos.extra[STATE] = str(n)
            nxt = self.order[len(self.order) - n][0]
        else:
            del pos.extra[STATE]
            nxt = (pos.side + 1) % self.v.nsides
        # A choice is no move of the game: the move number stays (the push adds one when the
        # turn order wraps round, so take it off here) and the fifty-move count starts afresh.
        if nxt < pos.side:
            pos.fullmove -= 1
        pos.halfmove = 0

    def next_side(self, pos: Position, move: Move) -> int | None:
        if not self.is_choice(move):
            return None
        choice = self.next_choice(pos)
        return choice[0] if choice is not None else None

    def validate(self, pos: Position) -> None:
        text = pos.extra.get(STATE)
        if text is None:
            return
        if not text.isdigit() or not 0 < int(text) <= len(self.order):
            raise PositionError(f"{self.v.name}: select={text}: expected 1 to {len(self.order)} choices owed")
        choice = self.next_choice(pos)
        assert choice is not None
        if pos.side != choice[0]:
            raise PositionError(f"{self.v.name}: select={text}: {self.v.sides[choice[0]]} chooses next, "
                                f"not {self.v.sides[pos.side]}")
        if not self.candidates(pos):
            raise PositionError(f"{self.v.name}: select={text}: {self.v.sides[choice[0]]} has no "
                                f"{'pawn' if choice[1] else 'piece'} to choose")
