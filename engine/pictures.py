"""What the physical men are: a variant may have kinds that are the same physical man as an
earlier kind (an illusionary pawn is a pawn wearing a ribbon, a Meddlers queen-side rook a rook
with a band). Identity boards and the simulated board read and report the physical man."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .variant_data import Variant

_LOOKS: dict[int, tuple[Variant, tuple[int, ...] | None]] = {}


def physical_codes(variant: Variant) -> tuple[int, ...] | None:
    """Per piece code, the code an identity board reads for it, when some kinds are physically
    others: a kind drawn with the same picture as an earlier kind (its glyph's first word; a mark
    such as ``ring`` is tape on the physical man) is that kind to the sensors (an illusionary pawn
    is a pawn wearing a ribbon, a Meddlers queen-side rook a rook). None when every kind reads as
    itself."""
    cached = _LOOKS.get(id(variant))
    if cached is not None and cached[0] is variant:
        return cached[1]
    first: dict[str, int] = {}
    table = list(range(variant.max_code))
    for k, kind in enumerate(variant.kinds):
        if not kind.glyph:
            continue
        base = first.setdefault(kind.glyph.split()[0], k)
        if base != k:
            for side in range(variant.nsides):
                table[variant.code(k, side)] = variant.code(base, side)
    result = tuple(table) if first and table != list(range(variant.max_code)) else None
    _LOOKS[id(variant)] = (variant, result)
    return result
