"""``mutation`` (transform, legality): Gryphon chess, where a piece changes its nature each time it
moves. Every move of a piece whose kind the ``mutate`` option maps lands as the mapped kind
(``{P = "N", N = "B", ...}``): the move is rebuilt with build_move's ``become`` on the landing
cell, so its changes say what stands there afterwards and the controller sees the swap.
``mutation_limits`` caps each side's count of a kind on the board (``{R = 4, B = 4, N = 4, Q = 2}``):
a move whose mutation would exceed a cap is not allowed. A mutation into a royal piece may not
land where that new royal stands attacked (a king never enters the board in check), even while
its side has no royal yet. Gryphon's simple form adds ``king_forward_until_capture``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from ..errors import VariantError
from ..moves import PLAIN, build_move
from . import Component, register

if TYPE_CHECKING:
    from collections.abc import Sequence

    from ..moves import Move
    from ..position import Position
    from ..rules import Rules


#: Search terms (centipawns). A royal is what a side can lose by (checkmate of any one of them):
#: each costs its side ``ROYAL_LIABILITY``, and each enemy man within ``NEAR`` king steps of it
#: earns the enemy ``ROYAL_PRESSURE`` (the way to a mate).
ROYAL_LIABILITY, ROYAL_PRESSURE, NEAR = 120, 20, 2


@register("mutation")
class Mutation(Component):
    options: ClassVar[dict[str, Any]] = {"mutate": {}, "mutation_limits": {}}

    def __init__(self, rules: Rules) -> None:
        super().__init__(rules)
        v = self.v
        try:
            kind = v.kind_index
            order = {kind[a]: kind[b] for a, b in dict(self.opts["mutate"]).items()}
            limits = {kind[a]: int(n) for a, n in dict(self.opts["mutation_limits"]).items()}
        except KeyError as exc:
            raise VariantError(f"variant {v.name}: mutate/mutation_limits name no piece {exc}") from None
        #: Per piece code: the code it becomes on moving (0: it stays what it is).
        self.becomes = [0] * len(v.owner)
        for code in range(1, len(v.owner)):
            if v.owner[code] < 0:
                continue  # no piece has this code
            new = order.get(v.kind_at[code])
            if new is not None:
                self.becomes[code] = v.code(new, v.owner[code])
        self.limits = limits
        #: Per cell: the cells within NEAR king steps (for the evaluate stage).
        self.near = v.geometry.near(NEAR)

    def evaluate(self, pos: Position, values: Sequence[int], scores: list[int]) -> None:
        # A man is partly what it becomes on its next move: a quarter of the difference counts.
        # Moving up the chain is not progress in itself (both sides do it, and a queen that moves
        # becomes a king, the only thing a side can be mated by): a side's royals are a liability
        # and men gathered round an enemy royal are what wins, so the search brings them there
        # and keeps its own royals out of the enemy's camp.
        becomes = self.becomes
        v = self.v
        owner = v.owner
        is_royal = v.is_royal
        board = pos.board
        for code in board:
            new = becomes[code]
            if new:
                scores[owner[code]] += (values[new] - values[code]) // 4
        rules = self.rules
        for side in range(v.nsides):
            for royal in rules.royal_cells(board, side):
                scores[side] -= ROYAL_LIABILITY
                for c in self.near[royal]:
                    code = board[c]
                    if code and owner[code] != side and not is_royal[code]:
                        scores[owner[code]] += ROYAL_PRESSURE

    def transform(self, pos: Position, moves: list[Move]) -> list[Move]:
        becomes = self.becomes
        board = pos.board
        v = self.v
        counts: dict[int, int] = {}
        if self.limits:
            for code in board:
                if code and v.owner[code] == pos.side:
                    counts[v.kind_at[code]] = counts.get(v.kind_at[code], 0) + 1
        out = []
        for m in moves:
            new = becomes[m.piece] if m.frm >= 0 else 0
            if not new:
                out.append(m)
                continue
            kind = v.kind_at[new]
            cap = self.limits.get(kind)
            if cap is not None and counts.get(kind, 0) + 1 > cap:
                continue  # a fifth knight, a third queen: not allowed
            if m.tag == PLAIN:
                # A mutated plain move depends on the move alone: built once, kept on the move.
                derived = m.derived
                if derived is None:
                    derived = m.derived = {}
                built = derived.get(self)
                if built is None:
                    built = derived[self] = build_move(board, m.frm, m.to, tag=PLAIN, relocate=m.relocations,
                                                       become=((m.to, new),))
                out.append(built)
                continue
            victims = [c for c in m.victims if c != m.to]
            out.append(build_move(board, m.frm, m.to, tag=m.tag, text=m.text,
                                  relocate=m.relocations, remove=victims, become=((m.to, new),)))
        return out

    def legality(self, pos: Position, moves: list[Move]) -> list[Move]:
        # Only the new royal's cell needs testing here: the royal rule itself (``royal_safety``)
        # still checks the side's other royals for every move.
        rules = self.rules
        is_royal = self.v.is_royal
        becomes = self.becomes
        board = pos.board
        enemies = rules.enemies[pos.side]
        out = []
        for m in moves:
            if m.frm >= 0 and becomes[m.piece] and is_royal[becomes[m.piece]]:
                changes = m.changes
                for cell, _b, after in changes:
                    board[cell] = after
                safe = not rules.attacked(pos, m.to, enemies)
                for cell, before, _a in changes:
                    board[cell] = before
                if not safe:
                    continue
            out.append(m)
        return out
