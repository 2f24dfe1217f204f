"""Piece codes: the one place that knows how a kind and a side pack into an int.

A cell holds 0 (empty) or a piece code. Everything else in the project goes through these
functions, or through the per-variant lookup tables built from them (``Variant.owner``,
``Variant.kind_at``), which the move generator indexes in its hot loops: a list lookup is as cheap
as a bit operation in CPython and keeps the packing a private matter of this module.
"""

from __future__ import annotations

from typing import NewType

#: A packed piece: kind and side. 0 is an empty cell.
PieceCode = NewType("PieceCode", int)

SIDE_BITS = 3
#: Sides a variant may have (codes reserve 0 of the side field for "empty").
MAX_SIDES = (1 << SIDE_BITS) - 1
_SIDE_MASK = (1 << SIDE_BITS) - 1
EMPTY = PieceCode(0)


def make(kind: int, side: int) -> PieceCode:
    """The code of a piece of kind index ``kind`` belonging to side index ``side``."""
    if not 0 <= side < MAX_SIDES:
        raise ValueError(f"side {side} out of range (at most {MAX_SIDES} sides)")
    return PieceCode((kind << SIDE_BITS) | (side + 1))


def side_of(code: int) -> int:
    """Side index of a piece code (-1 for an empty cell)."""
    return (code & _SIDE_MASK) - 1


def kind_of(code: int) -> int:
    """Kind index of a piece code (meaningless for an empty cell)."""
    return code >> SIDE_BITS


def table_size(kinds: int) -> int:
    """Length of a list indexed by every code of ``kinds`` kinds."""
    return kinds << SIDE_BITS
