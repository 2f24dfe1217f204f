"""Perft: count leaf nodes of the legal move tree (the standard move-generator check)."""

from __future__ import annotations

from .position import Position


def perft(pos: Position, depth: int) -> int:
    """Leaf count at ``depth``; the last ply is counted without being played (bulk counting,
    as python-chess's and most engines' perft do). A finished position has no moves
    (``Rules.playable_moves``), so the count stops there: 0 below depth 0."""
    if depth <= 0:
        return 1
    rules = pos.variant.rules
    moves = rules.playable_moves(pos)
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        pos.push(move)
        total += perft(pos, depth - 1)
        pos.pop()
    return total


def divide(pos: Position, depth: int) -> list[tuple[str, int]]:
    """Per root move: its text and the leaf count below it."""
    out = []
    for move in pos.variant.rules.playable_moves(pos):
        pos.push(move)
        out.append((pos.move_text(move), perft(pos, depth - 1)))
        pos.pop()
    return out
