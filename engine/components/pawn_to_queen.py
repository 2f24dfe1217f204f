"""``pawn_to_queen`` (Triscacia's pawns): a side that has placed all its men but has no queen on
the board (it lost her) must, at its turn, turn one of its pawns into a queen where it stands —
that is its whole turn (move ``c2c2q``). While it is in check the conversion cannot answer the
check, so it plays an ordinary move first and converts at its next turn free of check. The
``converts`` and ``into`` options name the two kinds by letter."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from ..errors import VariantError
from ..moves import CONVERT, Move, build_move
from . import Component, register

if TYPE_CHECKING:
    from ..position import Position
    from ..rules import Rules



@register("pawn_to_queen")
class PawnToQueen(Component):
    options: ClassVar[dict[str, Any]] = {"converts": "P", "into": "Q"}

    def __init__(self, rules: Rules) -> None:
        super().__init__(rules)
        letters = [k.letter for k in self.v.kinds]
        try:
            pawn, queen = letters.index(self.opts["converts"]), letters.index(self.opts["into"])
        except ValueError:
            raise VariantError(f"variant {self.v.name}: pawn_to_queen: no piece {self.opts['converts']!r} "
                               f"or {self.opts['into']!r}") from None
        self.pawn_codes = tuple(self.v.code(pawn, s) for s in range(self.v.nsides))
        self.queen_codes = tuple(self.v.code(queen, s) for s in range(self.v.nsides))

    def due(self, pos: Position) -> bool:
        """Does the side to move owe a conversion (queen lost, a pawn left, placing done)?"""
        side = pos.side
        board = pos.board
        return (not any(pos.hands[side].values()) and self.queen_codes[side] not in board
                and self.pawn_codes[side] in board)

    def generate(self, pos: Position, out: list[Move]) -> None:
        if not self.due(pos):
            return
        pawn, queen = self.pawn_codes[pos.side], self.queen_codes[pos.side]
        board = pos.board
        out.extend(build_move(board, c, c, tag=CONVERT, become=((c, queen),), promotion=queen)
                   for c, code in enumerate(board) if code == pawn)

    def select(self, pos: Position, moves: list[Move]) -> list[Move]:
        # The conversion is owed: when one is legal, it is the only thing the side may do.
        converts = [m for m in moves if m.tag == CONVERT]
        return converts or moves
