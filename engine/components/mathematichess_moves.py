"""Mathematichess movement (``mathematichess_moves``): pushers and substituters, with every move
ending on an empty cell. The territory, bonuses and the end of the game are ``territory``;
placement and the terminator are their own components. Our reading of the source is in
docs/rules/mathematichess.md; in short:

* Pushers shift themselves and the unbroken run of pieces in front of them one cell toward the
  first empty cell on that line; a run that reaches the edge cannot move.
* Queens and kings swap with a piece that stands next to an empty cell (queens along queen
  lines, jumping over any pieces but kings; kings with a neighbour). A swap of two identical
  pieces is no move.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, ClassVar

from ..moves import SPECIAL, Move, build_move
from ..pieces import MOVE
from ..territory_scoring import DIAGONAL, ORTHOGONAL
from . import Component, Mover, register

if TYPE_CHECKING:
    from ..position import Position
    from ..rules import Rules

_PUSH_DIRECTIONS = {"push_orthogonal": frozenset(range(4)), "push_diagonal": frozenset(range(4, 8)),
                    "push_any": frozenset(range(8))}


@register("mathematichess_moves")
class MathematichessMoves(Component):
    options: ClassVar[dict[str, Any]] = {"queen_blockers": "K"}

    def __init__(self, rules: Rules) -> None:
        super().__init__(rules)
        v = self.v
        g = v.geometry
        self.all_steps = tuple(g.step(d) for d in (*ORTHOGONAL, *DIAGONAL))
        self.around = [tuple(t[c] for t in self.all_steps if t[c] >= 0) for c in range(g.size)]
        blockers = str(self.opts["queen_blockers"])
        self.queen_blockers = frozenset(
            v.code(k, s) for k, kind in enumerate(v.kinds) if kind.letter in blockers for s in range(v.nsides))
        self._compile_arrivals()

    def _compile_arrivals(self) -> None:
        """Tables for generating moves from the empty cells: per side and empty cell, the
        (from-cell, piece code, cells passed over, hop) of every notation move landing there; per
        pusher code the directions it pushes in (indices into ``all_steps``); per direction the
        step table that walks backwards from an empty cell."""
        v = self.v
        n = v.geometry.size
        size = v.max_code
        self.back_steps = tuple(v.geometry.step((-dx, -dy)) for dx, dy in (*ORTHOGONAL, *DIAGONAL))
        self.push_dirs: list[frozenset[int]] = [frozenset()] * size
        self.is_queen = [False] * size
        self.is_substituter = [False] * size
        self.arrivals: list[list[list[tuple[int, int, tuple[int, ...], bool]]]] = [
            [[] for _ in range(n)] for _ in range(v.nsides)]
        for code in v.all_codes():
            hook = v.kinds[v.kind_at[code]].hook
            self.push_dirs[code] = _PUSH_DIRECTIONS.get(hook, frozenset())
            self.is_queen[code] = hook == "substitute_queen"
            self.is_substituter[code] = hook.startswith("substitute_")
            table = self.arrivals[v.owner[code]]
            for cell in range(n):
                for t, mode, lame, _initial in v.leaps[code][cell]:
                    if mode & MOVE:
                        table[t].append((cell, code, (lame,) if lame >= 0 else (), False))
                for ray, mode, hop, _initial in v.rides[code][cell]:
                    if mode & MOVE:
                        for j, t in enumerate(ray):
                            table[t].append((cell, code, ray[:j], hop))

    def movers(self) -> dict[str, Mover]:
        # The piece-by-piece movers: the reference the fast generator below is tested against.
        return {"push_orthogonal": self._pusher(range(4)), "push_diagonal": self._pusher(range(4, 8)),
                "push_any": self._pusher(range(8)), "substitute_king": self.substitute_king,
                "substitute_queen": self.substitute_queen}

    def board_moves(self, pos: Position) -> list[Move] | None:
        """Every board move of the side to move, found from the empty cells: with 7 to 9 empty
        cells among 169 that is several times faster than asking each of 81 pieces."""
        return list(self.iter_moves(pos))

    def iter_moves(self, pos: Position) -> Iterator[Move]:
        """``board_moves`` one at a time (``territory`` stops at the first legal one)."""
        board = pos.board
        side = pos.side
        owner = self.v.owner
        around = self.around
        empties = []
        substituters = []
        is_sub = self.is_substituter
        for c, code in enumerate(board):
            if not code:
                empties.append(c)
            elif owner[code] == side and is_sub[code]:
                substituters.append(c)
        near = bytearray(len(board))
        for e in empties:
            for c in around[e]:
                near[c] = 1
        arrivals = self.arrivals[side]
        push_dirs = self.push_dirs
        for e in empties:
            for frm, code, path, hop in arrivals[e]:
                if board[frm] != code:
                    continue
                if (path or hop) and sum(1 for c in path if board[c]) != hop:
                    continue
                yield Move(frm, e, code)
            for d, back in enumerate(self.back_steps):
                c = back[e]
                run = [e]
                while c >= 0:
                    code = board[c]
                    if not code:
                        break
                    if owner[code] == side and d in push_dirs[code]:
                        # run holds e and the pieces between c and e, nearest to e first
                        chain = [c, *reversed(run[1:])]
                        targets = [*chain[1:], e]
                        yield build_move(board, c, targets[0], relocate=tuple(zip(chain, targets, strict=True)))
                    run.append(c)
                    c = back[c]
        for cell in substituters:
            code = board[cell]
            if self.is_queen[code]:
                yield from self._queen_swaps(board, cell, code, near)
            else:
                for t in around[cell]:
                    p = board[t]
                    if p and p != code and near[t]:
                        yield _swap(board, cell, t)

    def _pusher(self, directions: range) -> Mover:
        steps = tuple(self.all_steps[d] for d in directions)

        def push(pos: Position, cell: int, code: int, out: list[Move]) -> None:
            board = pos.board
            for step in steps:
                chain = [cell]
                c = step[cell]
                while c >= 0 and board[c]:
                    chain.append(c)
                    c = step[c]
                if c < 0:
                    continue
                targets = [*chain[1:], c]
                out.append(build_move(board, cell, targets[0], relocate=zip(chain, targets, strict=True)))
        return push

    def _near(self, board: list[int]) -> bytearray:
        near = bytearray(len(board))
        for e, code in enumerate(board):
            if not code:
                for c in self.around[e]:
                    near[c] = 1
        return near

    def substitute_king(self, pos: Position, cell: int, code: int, out: list[Move]) -> None:
        board = pos.board
        near = self._near(board)
        for t in self.around[cell]:
            p = board[t]
            if p and p != code and near[t]:
                out.append(_swap(board, cell, t))

    def substitute_queen(self, pos: Position, cell: int, code: int, out: list[Move]) -> None:
        out.extend(self._queen_swaps(pos.board, cell, code, self._near(pos.board)))

    def _queen_swaps(self, board: list[int], cell: int, code: int, near: bytearray) -> Iterator[Move]:
        # Along each queen line over occupied cells only: every piece reached that stands next to
        # an empty cell may be substituted; a king may be the target but is never jumped over.
        blockers = self.queen_blockers
        for step in self.all_steps:
            t = step[cell]
            while t >= 0:
                p = board[t]
                if not p:
                    break
                if p != code and near[t]:
                    yield _swap(board, cell, t)
                if p in blockers:
                    break
                t = step[t]


def _swap(board: list[int], cell: int, target: int) -> Move:
    return build_move(board, cell, target, tag=SPECIAL, relocate=((cell, target), (target, cell)))
