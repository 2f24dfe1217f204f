"""Pieces that change identity where they land (Gryphon's mutation): what the player must swap.

A move's effects say it: a relocated piece whose landing cell ends up holding another kind of
piece, and the move is no promotion (a promotion is chosen and named by its own prompt). The
physical board cannot do that by itself, so the player replaces the piece by hand; the status
line names the swap, an identity board waits for the new piece, an occupancy board takes a lift
and place on that cell as the swap (it sees nothing else)."""

from __future__ import annotations

from collections.abc import Sequence

from engine import Move, Position, Variant

from .signatures import looks, seen


def swaps(variant: Variant, move: Move) -> list[tuple[int, int, int]]:
    """``(cell, piece that arrives, piece that must stand there)`` for each swap the move asks."""
    if move.promotion:
        return []
    after = {cell: a for cell, _b, a in move.changes}
    out = []
    for src, dst in move.relocations:
        arriving = next((b for cell, b, _a in move.changes if cell == src), 0)
        want = after.get(dst, 0)
        if arriving and want and variant.kind_of(want) != variant.kind_of(arriving):
            out.append((dst, arriving, want))
    return out


def swap_text(variant: Variant, move: Move) -> str:
    """``replace the knight on f3 with a bishop`` (several joined by ``and``), or ""."""
    parts = []
    for cell, arriving, want in swaps(variant, move):
        old = variant.kinds[variant.kind_of(arriving)]
        new = variant.kinds[variant.kind_of(want)]
        parts.append(f"replace the {old.name or old.letter} on {variant.geometry.names[cell]} "
                     f"with a {new.name or new.letter}")
    return " and ".join(parts)


def unswapped(position: Position, observed: Sequence[int]) -> Move | None:
    """On an identity board: the legal move the readings show but for its swaps (the moved piece
    still what it was on its landing cell), or None."""
    board = position.board
    variant = position.variant
    look = looks(variant)
    for move in position.legal_moves():
        todo = swaps(variant, move)
        if not todo:
            continue
        old = {cell: arriving for cell, arriving, _want in todo}
        after = {cell: a for cell, _b, a in move.changes}
        if all(observed[c] == seen(old.get(c, after.get(c, board[c])), True, look) for c in range(len(board))):
            return move
    return None
