"""``one_way_halves``: Zeta's crossing rules (a filter).

* A man standing in the enemy half may not move back into its own half.
* A side whose men all still stand on its base row (its first move) must move one of them into
  the enemy half; ``first_move_kinds`` (one string of piece letters per side, "" for any) says
  which kinds may make that move (Zeta with pieces: White's queen; Black's bishop, rook or queen).

Both are read from the board alone, so a position typed in by hand follows the same rules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from ..errors import VariantError
from . import Component, register
from .line import depths, enemy_halves

if TYPE_CHECKING:
    from ..moves import Move
    from ..position import Position
    from ..rules import Rules


@register("one_way_halves")
class OneWayHalves(Component):
    options: ClassVar[dict[str, Any]] = {"first_move_kinds": []}

    def __init__(self, rules: Rules) -> None:
        super().__init__(rules)
        v = self.v
        self.enemy_half = enemy_halves(v)
        self.base_row = []
        for side in range(v.nsides):
            depth = depths(v, side)
            low = min(depth)
            self.base_row.append(frozenset(c for c, d in enumerate(depth) if d == low))
        kinds = list(self.opts["first_move_kinds"]) or [""] * v.nsides
        if len(kinds) != v.nsides:
            raise VariantError(f"variant {v.name}: first_move_kinds needs one string per side")
        self.first_kinds = [frozenset(v.kind_index[letter] for letter in text) for text in kinds]

    def opening(self, pos: Position, side: int) -> bool:
        """Do all of ``side``'s men still stand on its base row?"""
        owner = self.v.owner
        base = self.base_row[side]
        return all(c in base for c, code in enumerate(pos.board) if owner[code] == side)

    def filter(self, pos: Position, moves: list[Move]) -> list[Move]:
        side = pos.side
        enemy = self.enemy_half[side]
        if self.opening(pos, side):
            kinds = self.first_kinds[side]
            kind_at = self.v.kind_at
            return [m for m in moves if m.to in enemy and (not kinds or kind_at[m.piece] in kinds)]
        return [m for m in moves if m.frm not in enemy or m.to in enemy]
