"""``promotion_per_piece``: a promoting kind with choices of its own (Illusionary Piece Chess's
illusionary pawn becomes an illusionary queen, rook, bishop or knight, never a regular piece).

Option ``promotion_per_piece`` maps a pawn's letter to its list of choices
(``{"~P" = ["~Q", "~R", "~B", "~N"]}``); kinds it does not name keep the variant's ``promotion``
choices. The runner generates the variant's choices; this transform replaces them, one move per
own choice."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from ..errors import VariantError
from ..moves import Move
from . import Component, register

if TYPE_CHECKING:
    from ..position import Position
    from ..rules import Rules


@register("promotion_per_piece")
class PromotionPerPiece(Component):
    options: ClassVar[dict[str, Any]] = {"promotion_per_piece": {}}

    def __init__(self, rules: Rules) -> None:
        super().__init__(rules)
        v = self.v
        #: Per piece code: the codes it may promote to (empty: the variant's choices).
        self.choices: list[tuple[int, ...]] = [()] * v.max_code
        try:
            for pawn, targets in dict(self.opts["promotion_per_piece"]).items():
                k = v.kind_index[pawn]
                for side in range(v.nsides):
                    self.choices[v.code(k, side)] = tuple(v.code(v.kind_index[t], side) for t in targets)
        except KeyError as exc:
            raise VariantError(f"variant {v.name}: promotion_per_piece names no piece {exc}") from None

    def transform(self, pos: Position, moves: list[Move]) -> list[Move]:
        choices = self.choices
        if not any(m.promotion and choices[m.piece] for m in moves):
            return moves
        out: list[Move] = []
        done: set[tuple[int, int]] = set()
        for m in moves:
            own = choices[m.piece] if m.promotion and m.frm != m.to else ()
            if not own:
                out.append(m)
                continue
            if (m.frm, m.to) in done:
                continue  # one move per own choice, for the first of the variant's choices
            done.add((m.frm, m.to))
            out.extend(Move(m.frm, m.to, m.piece, m.captured, p) for p in own)
        return out
