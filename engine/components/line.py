"""``line``: a side with ``line_length`` of its pieces in one straight orthogonal or diagonal run
wins (implied by ``line_length``).

Options (all off by default, so a plain line-of-N game needs none) say where a winning line may
lie, the way Zeta restricts it:

* ``line_enemy_cells``: a line crossing the board's halves (along the forward direction or a
  diagonal) needs at least this many of its cells in the enemy half; a line across the board
  (perpendicular to forward) must lie wholly in the enemy half. 0: anywhere.
* ``line_longest``: no move may make a run of more than this many pieces (a filter; 0: any).
* ``line_needs``: piece letters one of which must be in the line (Zeta's king form).

``line_cells`` gives the winning run, so the display can mark it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from ..moves import PLAIN
from ..pieces import MOVE
from ..position import Outcome
from . import Component, register

if TYPE_CHECKING:
    from collections.abc import Sequence

    from ..moves import Move
    from ..position import Position
    from ..rules import Rules
    from ..variant_data import Variant

_DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))
#: Search terms (centipawns): per man in the enemy half, per square of the longest run, and a run
#: one short of a line.
LINE_HALF, LINE_RUN, LINE_THREAT = 15, 12, 150
#: The side to move completes a line next move; the side that just moved has two lines to
#: complete (one block stops only one): won positions the search should see at its leaves,
#: where Zeta has no captures to follow.
LINE_WON, LINE_FORK = 3000, 1500


def depths(v: Variant, side: int) -> list[int]:
    """How far each cell lies along ``side``'s forward direction (grid units)."""
    fx, fy = v.forward[side]
    return [x * fx + y * fy for x, y in v.geometry.coords]


def enemy_halves(v: Variant) -> list[frozenset[int]]:
    """Per side, the cells of the enemy half: beyond the middle of the board along forward."""
    out = []
    for side in range(v.nsides):
        depth = depths(v, side)
        middle = (min(depth) + max(depth)) / 2
        out.append(frozenset(c for c, d in enumerate(depth) if d > middle))
    return out


@register("line")
class Line(Component):
    options: ClassVar[dict[str, Any]] = {"line_enemy_cells": 0, "line_longest": 0, "line_needs": ""}

    def __init__(self, rules: Rules) -> None:
        super().__init__(rules)
        v = self.v
        g = v.geometry
        self.enemy_cells = int(self.opts["line_enemy_cells"])
        self.longest = int(self.opts["line_longest"])
        needs = str(self.opts["line_needs"])
        self.needs = frozenset(v.kind_index[letter] for letter in needs) if needs else frozenset()
        self.steps = [(vec, g.step(vec), g.step((-vec[0], -vec[1]))) for vec in _DIRECTIONS]
        self.enemy_half = enemy_halves(v)
        # Per direction, each cell's straight line (the id of its first cell) and its place on it:
        # pieces on one line in order of place are the only candidates for a run, so the common
        # case (fewer than N men on every line) is settled by counting.
        self.line_of: list[list[int]] = []
        self.place: list[list[int]] = []
        for _vec, step, back in self.steps:
            line_of, place = [0] * g.size, [0] * g.size
            for cell in range(g.size):
                if back[cell] >= 0:
                    continue
                cur, i = cell, 0
                while cur >= 0:
                    line_of[cur], place[cur] = cell, i
                    cur, i = step[cur], i + 1
            self.line_of.append(line_of)
            self.place.append(place)
        # Per side, every run of ``line_length`` cells that would win there (the half rules).
        n = v.line_length
        self.windows: list[list[tuple[int, ...]]] = [[] for _ in range(v.nsides)]
        for vec, step, back in self.steps:
            for cell in range(g.size):
                if back[cell] >= 0:
                    continue
                ray = []
                cur = cell
                while cur >= 0:
                    ray.append(cur)
                    cur = step[cur]
                for first in range(len(ray) - n + 1):
                    window = tuple(ray[first:first + n])
                    for side in range(v.nsides):
                        if self._placed(side, vec, window):
                            self.windows[side].append(window)

    # -- queries --------------------------------------------------------------------------------
    def line_cells(self, pos: Position, side: int) -> tuple[int, ...]:
        """The first ``line_length`` cells of ``side``'s pieces in a straight run that wins under
        the options, or ()."""
        v = self.v
        n = v.line_length
        board = pos.board
        owner = v.owner
        mine = [c for c in range(len(board)) if owner[board[c]] == side]
        if len(mine) < n:
            return ()
        for d, (vec, _step, _back) in enumerate(self.steps):
            line_of, place = self.line_of[d], self.place[d]
            lines: dict[int, list[int]] = {}
            for c in mine:
                lines.setdefault(line_of[c], []).append(c)
            for cells in lines.values():
                if len(cells) < n:
                    continue
                cells.sort(key=place.__getitem__)
                run = [cells[0]]
                for c in cells[1:]:
                    if place[c] == place[run[-1]] + 1:
                        run.append(c)
                        continue
                    found = self._window(pos, side, vec, run, n)
                    if found:
                        return found
                    run = [c]
                found = self._window(pos, side, vec, run, n)
                if found:
                    return found
        return ()

    def _window(self, pos: Position, side: int, vec: tuple[int, int], run: list[int], n: int) -> tuple[int, ...]:
        for first in range(len(run) - n + 1):
            window = tuple(run[first:first + n])
            if self._wins(pos, side, vec, window):
                return window
        return ()

    def _placed(self, side: int, vec: tuple[int, int], window: tuple[int, ...]) -> bool:
        """Does a line on ``window`` lie where it may win for ``side`` (the half rules)?"""
        if self.enemy_cells:
            inside = sum(c in self.enemy_half[side] for c in window)
            fx, fy = self.v.forward[side]
            across = vec[0] * fx + vec[1] * fy == 0
            if inside < (len(window) if across else self.enemy_cells):
                return False
        return True

    def _wins(self, pos: Position, side: int, vec: tuple[int, int], window: tuple[int, ...]) -> bool:
        v = self.v
        if not self._placed(side, vec, window):
            return False
        if self.needs:
            kind_at = v.kind_at
            return any(kind_at[pos.board[c]] in self.needs for c in window)
        return True

    def run_through(self, board: list[int], cell: int, side: int) -> int:
        """The longest straight run of ``side``'s pieces through ``cell`` (counting ``cell``)."""
        owner = self.v.owner
        best = 0
        for _vec, step, back in self.steps:
            n = 1
            for table in (step, back):
                cur = table[cell]
                while cur >= 0 and owner[board[cur]] == side:
                    n += 1
                    cur = table[cur]
            best = max(best, n)
        return best

    # -- stages ---------------------------------------------------------------------------------
    def filter(self, pos: Position, moves: list[Move]) -> list[Move]:
        if not self.longest:
            return moves
        board = pos.board
        side = pos.side
        owner = self.v.owner
        longest = self.longest
        # Men per line now; a move can only make a run longer than ``longest`` on a line that
        # will hold more than ``longest`` of them.
        counts: list[dict[int, int]] = [{} for _ in self.line_of]
        for c in range(len(board)):
            if owner[board[c]] == side:
                for d, line_of in enumerate(self.line_of):
                    key = line_of[c]
                    counts[d][key] = counts[d].get(key, 0) + 1
        # Cells on a line that already holds ``longest`` men: only a man arriving there can
        # make a run too long.
        hot: set[int] = set()
        for d, per_line in enumerate(counts):
            for key, n in per_line.items():
                if n >= longest:
                    line_of = self.line_of[d]
                    hot.update(c for c in range(len(board)) if line_of[c] == key)
        if not hot:
            return moves
        out = []
        for m in moves:
            if m.tag == PLAIN and m.to not in hot:
                out.append(m)  # a plain move only fills its target cell
                continue
            changes = m.changes
            if not any(cell in hot and owner[after] == side and owner[before] != side
                       for cell, before, after in changes):
                out.append(m)
                continue
            for cell, _before, after in changes:
                board[cell] = after
            too_long = any(owner[after] == side and self.run_through(board, cell, side) > longest
                           for cell, _before, after in changes)
            for cell, before, _after in changes:
                board[cell] = before
            if not too_long:
                out.append(m)
        return out

    def outcome(self, pos: Position) -> Outcome | None:
        v = self.v
        prev = (pos.side - 1) % v.nsides
        for side in (prev, pos.side):
            if self.line_cells(pos, side):
                return Outcome("line", side)
        return None

    def evaluate(self, pos: Position, values: Sequence[int], scores: list[int]) -> None:
        # A search sees a line only when it is complete, and Zeta has no captures for quiescence
        # to follow: the leaves must see the threats. Per side: its longest run (a run one short
        # of a line counts extra), its men in the enemy half (where lines must lie), and the
        # cells that would complete a winning line: the side to move that can play there wins
        # next move; a side that just moved with two such cells its men (outside the line)
        # reach cannot be stopped (one block stops one line).
        board = pos.board
        v = self.v
        owner = v.owner
        n = v.line_length
        for side in range(v.nsides):
            half = self.enemy_half[side]
            best = 0
            for cell, code in enumerate(board):
                if owner[code] == side:
                    if cell in half:
                        scores[side] += LINE_HALF
                    best = max(best, self.run_through(board, cell, side))
            scores[side] += LINE_RUN * best * best + (LINE_THREAT if best == n - 1 else 0)
            threats = self._threats(pos, side, n)
            if not threats:
                continue
            if side == pos.side:
                # the side to move: its legal moves say whether one completes a line (the move
                # tables alone would also count moves the filters forbid, such as going back
                # out of the enemy half, and a won position that is not won misleads a search)
                if any(m.to == cell and m.frm not in window for m in self.rules.legal_moves(pos)
                       for cell, window in threats):
                    scores[side] += LINE_WON
                continue
            reach = self._reach(board, side)
            open_cells = {cell for cell, window in threats if any(f not in window for f in reach.get(cell, ()))}
            if len(open_cells) >= 2:
                scores[side] += LINE_FORK

    def _threats(self, pos: Position, side: int, n: int) -> list[tuple[int, tuple[int, ...]]]:
        """(empty cell, window) for each winning window of ``side`` that lacks one man there
        and holds no enemy (with ``line_needs``, a man of a needed kind must be in it)."""
        board = pos.board
        owner = self.v.owner
        needs = self.needs
        kind_at = self.v.kind_at
        out: list[tuple[int, tuple[int, ...]]] = []
        for window in self.windows[side]:
            mine = 0
            empty = -1
            for c in window:
                o = owner[board[c]]
                if o == side:
                    mine += 1
                elif o >= 0:
                    break
                else:
                    empty = c
            else:
                if mine == n - 1 and (not needs or any(kind_at[board[c]] in needs for c in window if c != empty)):
                    out.append((empty, window))
        return out

    def _reach(self, board: list[int], side: int) -> dict[int, list[int]]:
        """Empty cells ``side``'s men can move to (from the move tables), with where from. The
        filter stages (the no-return rule, no line of six) are not asked: a leaf's estimate."""
        v = self.v
        owner = v.owner
        leaps, rides = v.leaps, v.rides
        out: dict[int, list[int]] = {}
        for cell, code in enumerate(board):
            if owner[code] != side:
                continue
            for t, mode, lame, _initial in leaps[code][cell]:
                if mode & MOVE and not board[t] and (lame < 0 or not board[lame]):
                    out.setdefault(t, []).append(cell)
            for ray, mode, hop, _initial in rides[code][cell]:
                if hop or not mode & MOVE:
                    continue
                for t in ray:
                    if board[t]:
                        break
                    out.setdefault(t, []).append(cell)
        return out
