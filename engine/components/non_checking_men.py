"""``non_checking_men``: men whose kind says ``gives_check = false`` never take a royal piece.

They already give no check (the attack tables leave them out, so a king may stand, castle or pass
where only such men attack it); this filter drops the moves that would capture the royal standing
there (Illusionary Piece Chess: illusionary men cannot attack kings)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import Component, register

if TYPE_CHECKING:
    from ..moves import Move
    from ..position import Position
    from ..rules import Rules


@register("non_checking_men")
class NonCheckingMen(Component):
    def __init__(self, rules: Rules) -> None:
        super().__init__(rules)
        v = self.v
        self.quiet = frozenset(c for c in v.all_codes() if not v.kinds[v.kind_at[c]].gives_check)

    def filter(self, pos: Position, moves: list[Move]) -> list[Move]:
        is_royal = self.v.is_royal
        quiet = self.quiet
        board = pos.board
        return [m for m in moves
                if not (m.piece in quiet and m.captured and any(is_royal[board[c]] for c in m.victims))]
