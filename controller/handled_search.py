"""The strict search of ``signatures.explain`` with its every move kept to handled cells: the
moves a board that fits two readings is weighed with (``two_readings``), bounded by the board
rather than by a node budget.

``explain(strict=True)`` requires every cell a sequence changes to differ from the game or to
have been handled; a sequence with one move that changes a cell neither differing nor handled
can never match, however it goes on. ``explain`` still pushes such moves and searches below them
(its filter only asks that a move change one such cell), so at four plies its node budget (40,000
for two readings) runs out on most boards, and the search is repeated at every board change while
the players are asked. Here such moves are never pushed: the same sequences (those ``explain``
finds when its budget does not run out), in a search a few hundred nodes deep.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine import Move, Position

from .signatures import looks, seen


@dataclass
class Budget:
    """Moves a search may still try: shared by the searches of one board change."""

    nodes: int


def handled_sequences(pos: Position, observed: list[int], diff_cells: set[int],
                      touched: set[int] | frozenset[int], identity: bool, max_plies: int,
                      budget: Budget) -> list[tuple[Move, ...]]:
    """The shortest sequences of 2 to ``max_plies`` legal moves (the side to move first, then
    the others in turn) that leave the board as ``observed``, each move changing only cells
    that differ (``diff_cells``) or were handled (``touched``): ``explain(strict=True)``'s
    answer. Gives up (returns what it has, maybe nothing) once ``budget`` is spent."""
    relevant = set(diff_cells) | set(touched)
    board = pos.board
    look = looks(pos.variant) if identity else None

    def matches(changed: set[int]) -> bool:
        return diff_cells <= changed and all(seen(board[c], identity, look) == observed[c] for c in relevant)

    def search(depth: int, path: list[Move], changed: set[int], out: list[tuple[Move, ...]]) -> None:
        for move in pos.legal_moves():
            if budget.nodes <= 0:
                return
            cells = {c for c, b, a in move.changes if b != a}
            if not cells or not cells <= relevant:
                continue  # (a cell neither differing nor handled: no sequence through it matches)
            budget.nodes -= 1
            pos.push(move)
            try:
                path.append(move)
                if depth == 1:
                    if matches(changed | cells):
                        out.append(tuple(path))
                else:
                    search(depth - 1, path, changed | cells, out)
            finally:
                path.pop()
                pos.pop()

    for plies in range(2, max_plies + 1):
        found: list[tuple[Move, ...]] = []
        search(plies, [], set(), found)
        if found or budget.nodes <= 0:
            return found
    return []
