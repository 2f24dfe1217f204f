"""``kings_through``: the game is drawn once every side's royal pieces stand in that side's far
zone (the Advancing game of Duffery: a king that has crossed the board can no longer be taken by
men that only move forward). Option ``kings_through_zones``: one region name per side."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from ..errors import VariantError
from ..position import Outcome
from . import Component, register

if TYPE_CHECKING:
    from ..position import Position
    from ..rules import Rules


@register("kings_through")
class KingsThrough(Component):
    options: ClassVar[dict[str, Any]] = {"kings_through_zones": []}

    def __init__(self, rules: Rules) -> None:
        super().__init__(rules)
        v = self.v
        names = list(self.opts["kings_through_zones"])
        regions = v.geometry.regions
        if len(names) != v.nsides or any(n not in regions for n in names):
            raise VariantError(f"variant {v.name}: kings_through_zones needs one region per side "
                               f"(known regions: {', '.join(sorted(regions))})")
        self.zones = [regions[n] for n in names]

    def outcome(self, pos: Position) -> Outcome | None:
        rules = self.rules
        for side, zone in enumerate(self.zones):
            royals = rules.royal_cells(pos.board, side)
            # a side whose royals are gone is decided by royal capture, asked after this
            if not royals or any(r not in zone for r in royals):
                return None
        return Outcome("kings_through", None)
