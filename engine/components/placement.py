"""``placement``: while the side to move holds pieces in hand it places one on any empty cell
(Mathematichess's first stage); a side whose hand is empty moves on the board. Provides the
``placement`` capability (what is left to place)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..moves import DROP, Move, build_move
from . import Component, register

if TYPE_CHECKING:
    from ..position import Position
    from ..rules import Rules


@register("placement")
class Placement(Component):
    provides = ("placement",)
    shows_hand = True
    tracks_hands = True

    def __init__(self, rules: Rules) -> None:
        super().__init__(rules)
        # A drop onto an empty cell is always the same move: built once per code and cell it may
        # go to (the first time the code is dropped), reused every time.
        self._drops: dict[int, dict[int, Move]] = {}

    def placing(self, pos: Position) -> bool:
        """Stage one lasts while either hand still holds a piece."""
        return any(any(h.values()) for h in pos.hands)

    def area(self, side: int) -> tuple[int, ...] | None:
        """Any empty cell: no area of its own."""
        return None

    def remaining(self, pos: Position, side: int) -> list[tuple[str, int]]:
        """Pieces ``side`` still has to place, as (letter, count) in kind order."""
        hand = pos.hands[side]
        return [(self.v.kinds[k].letter, hand[k]) for k in sorted(hand) if hand[k]]

    def board_moves(self, pos: Position) -> list[Move] | None:
        hand = pos.hands[pos.side]
        if not any(hand.values()):
            return None
        v = self.v
        board = pos.board
        cells = self.area(pos.side)
        if cells is None:
            cells = tuple(range(len(board)))
        empty = [c for c in cells if not board[c]]
        out: list[Move] = []
        for kind in sorted(hand):
            if hand[kind]:
                code = v.code(kind, pos.side)
                drops = self._drops.get(code)
                if drops is None:
                    # built against an empty board: a drop is only offered onto an empty cell
                    blank = [0] * len(board)
                    drops = self._drops[code] = {c: build_move(blank, -1, c, tag=DROP, place=((c, code),),
                                                               promotion=code) for c in cells}
                out.extend([drops[c] for c in empty])
        return out

    def after_push(self, pos: Position, move: Move) -> None:
        if move.tag != DROP:
            return
        hand = pos.hands[self.v.owner[move.promotion]]
        kind = self.v.kind_at[move.promotion]
        if hand[kind] > 1:
            hand[kind] -= 1
        else:
            del hand[kind]  # no zero counts: equal positions must hash equal

    def has_legal_move(self, pos: Position) -> bool | None:
        # A side holding a piece can place it while any cell is empty (filters that freeze cells
        # act only after placement), which spares generating every drop after every placement.
        if any(pos.hands[pos.side].values()) and 0 in pos.board:
            return True
        return None
