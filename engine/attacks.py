"""Attacks: which cells the pieces of some sides attack, and what the royal rule asks of them.

Table pieces attack through the reverse attack rays the variant data compiles
(``Variant.attack_rays``, ``Variant.hop_rays``); pieces whose captures are coded (a rule
component's mover) attack through the moves they generate, plus what the components' ``attacks``
stage reports. Only pieces that give check attack. ``Rules`` (``engine.rules``) builds one
``Attacks`` per variant and exposes its methods under its own names.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from .moves import Move

if TYPE_CHECKING:
    from .components import Mover
    from .position import Position
    from .variant_data import Variant

#: An ``attacks`` stage: does a coded capture of the sides ``by`` attack ``cell``?
AttackStage = Callable[["Position", int, tuple[int, ...]], bool]


class Attacks:
    """Attack detection for one variant."""

    def __init__(self, variant: Variant, enemies: list[tuple[int, ...]], royal_codes: list[frozenset[int]],
                 hooks: dict[int, Mover], leaper_hooks: set[str], attack_stage: list[AttackStage]) -> None:
        """``enemies`` per side: the other sides; ``royal_codes`` per side; ``hooks``: the mover
        of each piece code whose moves are coded; ``leaper_hooks``: hooks whose (leaping)
        attacks a component reports itself; ``attack_stage``: the components' stage."""
        self.v = variant
        owner = variant.owner
        self.enemies = enemies
        self.royal_codes = royal_codes
        self.hooks = hooks
        self._attacks = attack_stage
        # Pieces whose captures are coded give check through their generated moves, unless a
        # component reports their (leaping) attacks itself.
        self.hook_attackers = [frozenset(code for code in hooks if owner[code] == s
                                         and variant.kinds[variant.kind_at[code]].gives_check
                                         and variant.kinds[variant.kind_at[code]].hook not in leaper_hooks)
                               for s in range(variant.nsides)]
        #: Some attack comes from coded captures (not only from the tables' rays).
        self.coded = any(self.hook_attackers) or bool(attack_stage)

    def attacked(self, pos: Position, cell: int, by: tuple[int, ...]) -> bool:
        """Is ``cell`` attacked by any piece of the sides ``by`` (pieces that give check only)?
        Table pieces through the reverse attack rays; coded captures through their moves."""
        v = self.v
        board = pos.board
        for side in by:
            for ray, sets in v.attack_rays[side][cell]:
                for i, c in enumerate(ray):
                    p = board[c]
                    if p:
                        if p in sets[i]:
                            return True
                        break
            for ray, codes in v.hop_rays[side][cell]:
                screen = False
                for c in ray:
                    p = board[c]
                    if p:
                        if screen:
                            if p in codes:
                                return True
                            break
                        screen = True
        return self.coded and self._coded_attacked(pos, cell, by)

    def _coded_attacked(self, pos: Position, cell: int, by: tuple[int, ...]) -> bool:
        for side in by:
            if self.hook_attackers[side] and self._hook_attacks(pos, cell, side):
                return True
        return any(attacks(pos, cell, by) for attacks in self._attacks)

    def _hook_attacks(self, pos: Position, cell: int, side: int) -> bool:
        codes = self.hook_attackers[side]
        board = pos.board
        saved = pos.side
        # A mover generates for the side to move; ask it as that side, then restore.
        pos.side = side
        try:
            for c, code in enumerate(board):
                if code in codes:
                    out: list[Move] = []
                    self.hooks[code](pos, c, code, out)
                    if any(cell in m.victims for m in out):
                        return True
        finally:
            pos.side = saved
        return False

    def royal_cells(self, board: list[int], side: int) -> list[int]:
        # list.index scans in C: much faster than a Python loop over every cell
        out: list[int] = []
        for code in self.royal_codes[side]:
            i = -1
            try:
                while True:
                    i = board.index(code, i + 1)
                    out.append(i)
            except ValueError:
                pass
        return out

    def royal_attacked(self, pos: Position, side: int) -> bool:
        """Is a royal piece of ``side`` attacked by any other side?"""
        enemies = self.enemies[side]
        return any(self.attacked(pos, r, enemies) for r in self.royal_cells(pos.board, side))

    def is_safe_after(self, pos: Position, move: Move, side: int, royals: list[int] | None = None) -> bool:
        """Play the move's board changes, test every royal piece of ``side``, undo. ``royals``:
        the royal cells before the move, when the caller knows them (saves a board scan)."""
        board = pos.board
        changes = move.changes
        for cell, _b, after in changes:
            board[cell] = after
        try:
            rc = self.royal_codes[side]
            if royals is None:
                after_royals = self.royal_cells(board, side)
            else:
                moved = {cell for cell, b, a in changes if b in rc or a in rc}
                after_royals = [r for r in royals if r not in moved] + [c for c in moved if board[c] in rc]
            enemies = self.enemies[side]
            attacked = self.attacked
            return not any(attacked(pos, r, enemies) for r in after_royals)
        finally:
            for cell, before, _a in changes:
                board[cell] = before

    def king_lines(self, board: list[int], king: int, side: int) -> tuple[frozenset[int] | None, set[int]]:
        """One walk along every attack line into ``king``: the cells a non-royal move must reach to
        answer a check (None: no check; empty: double check), and the own pieces pinned to it."""
        v = self.v
        owner = v.owner
        found: list[frozenset[int]] = []
        pinned: set[int] = set()
        for enemy in self.enemies[side]:
            for ray, sets in v.attack_rays[enemy][king]:
                first = -1
                for i, c in enumerate(ray):
                    p = board[c]
                    if not p:
                        continue
                    if first < 0:
                        if owner[p] != side:
                            if p in sets[i]:
                                found.append(frozenset(ray[: i + 1]))
                            break
                        first = c
                        continue
                    if p in sets[i]:
                        pinned.add(first)
                    break
        if not found:
            return None, pinned
        return (found[0] if len(found) == 1 else frozenset()), pinned

    def open_lines(self, board: list[int], targets: list[int], by: tuple[int, ...]
                   ) -> tuple[set[int], dict[int, frozenset[int]]] | None:
        """One walk along every attack line of the sides ``by`` into the cells ``targets``: the
        first piece on each line (moving it may open the line) and, per cell up to that piece,
        the codes that would attack a target from there. None when a target is attacked
        already. For variants whose attacks all come from the tables (``attacks_from_tables``)."""
        first: set[int] = set()
        open_codes: dict[int, frozenset[int]] = {}
        get = open_codes.get
        attack_rays = self.v.attack_rays
        for r in targets:
            for side in by:
                for ray, sets in attack_rays[side][r]:
                    for c, codes in zip(ray, sets):  # noqa: B905 (one set per cell of the ray)
                        known = get(c)
                        open_codes[c] = codes if known is None else known | codes
                        p = board[c]
                        if p:
                            if p in codes:
                                return None
                            first.add(c)
                            break
        return first, open_codes
