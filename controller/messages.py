"""What the player reads: names of sides, pieces and cells in plain words, and fix lists."""

from __future__ import annotations

from engine import Variant


def side_name(variant: Variant, side: int) -> str:
    return variant.sides[side].capitalize()


def piece_name(variant: Variant, code: int) -> str:
    """``white pawn``; the piece's own name from the variant data."""
    kind = variant.kinds[variant.kind_of(code)]
    return f"{variant.sides[variant.side_of(code)]} {kind.name or kind.letter}"


def wanted_text(variant: Variant, cell: int, want: int) -> str:
    """``e2: white pawn`` or ``e4: empty``."""
    name = variant.geometry.names[cell]
    return f"{name}: {piece_name(variant, want) if want else 'empty'}"
