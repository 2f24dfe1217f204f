"""``area_placement`` (Triscacia's set-up): like ``placement``, the side to move places one man
from its hand per turn, but only on an empty cell of its own area. Areas are rectangles given
per side in turn order by the ``areas`` option (``"a1:h3"``). Kings are not placed: they start on
their fixed cells (the variant's start position), so the hand holds the other men. Turn order is
the plain rotation of ``sides`` (every hand holds as many men, so nobody runs out early)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from ..errors import VariantError
from . import register
from .placement import Placement

if TYPE_CHECKING:
    from ..position import Position
    from ..rules import Rules


def rectangle_cells(rules: Rules, spec: str) -> frozenset[int]:
    """The cells of ``"a1:h3"`` (corners in either order) on a rectangular board."""
    g = rules.v.geometry
    try:
        a, b = (g.index(name.strip()) for name in spec.split(":"))
    except (ValueError, KeyError):
        raise VariantError(f"variant {rules.v.name}: area {spec!r} is not two cell names like a1:h3") from None
    (x0, y0), (x1, y1) = g.coords[a], g.coords[b]
    xs, ys = range(min(x0, x1), max(x0, x1) + 1), range(min(y0, y1), max(y0, y1) + 1)
    return frozenset(c for c, (x, y) in enumerate(g.coords) if x in xs and y in ys)


@register("area_placement")
class AreaPlacement(Placement):
    options: ClassVar[dict[str, Any]] = {"areas": []}

    def __init__(self, rules: Rules) -> None:
        super().__init__(rules)
        specs = self.opts["areas"]
        if len(specs) != self.v.nsides:
            raise VariantError(f"variant {self.v.name}: areas needs one rectangle per side, got {len(specs)}")
        #: Per side, the cells it may place on, in cell order (drops are generated in that order).
        self.areas: tuple[tuple[int, ...], ...] = tuple(tuple(sorted(rectangle_cells(rules, s))) for s in specs)

    def area(self, side: int) -> tuple[int, ...] | None:
        return self.areas[side]

    def has_legal_move(self, pos: Position) -> bool | None:
        # A drop may be illegal (it would check the right-hand king, or fail to answer a check),
        # so the shortcut of ``placement`` does not hold in general. But a man that attacks
        # nothing (Triscacia's pawns) put on an empty cell neither exposes nor attacks a king:
        # while the side is not in check, holding one and having an empty cell is enough.
        hand = pos.hands[pos.side]
        if not any(hand.values()) or self.rules.in_check(pos):
            return None
        v = self.v
        board = pos.board
        empty = any(not board[c] for c in self.areas[pos.side])
        for kind, n in hand.items():
            code = v.code(kind, pos.side)
            if n and empty and code not in self.rules.hooks and not any(v.leaps[code]) and not any(v.rides[code]):
                return True
        return None
