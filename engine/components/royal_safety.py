"""Royalty: what the royal pieces mean.

* ``royal_safety`` (``royalty = "checkmate"``): no move may leave any royal piece of the mover
  attacked; with several royals that holds for each (Tweedle's two kings).
* ``royal_capture`` (``royalty = "capture_any"``/``"king_capture"`` or ``"capture_all"``): royal
  pieces may be taken; losing one (or the last one) loses.
* ``no_moves``: a side that cannot move is checkmated (when a royal is attacked under
  ``checkmate``) or stalemated (``stalemate = draw | loss | win``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..moves import DROP, PLAIN
from ..position import Outcome
from . import Component, register

if TYPE_CHECKING:
    from ..moves import Move
    from ..position import Position


@register("royal_safety")
class RoyalSafety(Component):
    def legality(self, pos: Position, moves: list[Move]) -> list[Move]:
        rules = self.rules
        v = self.v
        side = pos.side
        board = pos.board
        royals = rules.royal_cells(board, side)
        if not royals:
            return moves
        if not v.simple and not (rules.pins_from_tables and not rules.in_check(pos)):
            return [m for m in moves if rules.is_safe_after(pos, m, side, royals)]
        # Only leapers and riders: one walk along the lines into each royal finds the pinned
        # pieces and the cells that answer a check. A plain move of an unpinned non-royal piece
        # is then legal when it answers every check; a royal's plain move needs only its target
        # tested, unless it shields another royal or another royal is in check.
        answers: frozenset[int] | None = None
        pinned: set[int] = set()
        for r in royals:
            ans, pins = rules.king_lines(board, r, side)
            pinned |= pins
            if ans is not None:
                answers = ans if answers is None else answers & ans
        enemies = rules.enemies[side]
        is_royal = v.is_royal
        attacked = rules.attacked
        single = len(royals) == 1
        out = []
        for m in moves:
            if m.tag == PLAIN:
                if is_royal[m.piece]:
                    if single or (answers is None and m.frm not in pinned):
                        board[m.frm] = 0
                        safe = not attacked(pos, m.to, enemies)
                        board[m.frm] = m.piece
                        if safe:
                            out.append(m)
                        continue
                elif m.frm not in pinned:
                    if answers is None or m.to in answers:
                        out.append(m)
                    continue
            elif m.tag == DROP and answers is None:
                # A piece put on an empty cell only blocks lines (no hoppers on this path): it
                # cannot expose a royal that is not in check.
                out.append(m)
                continue
            if rules.is_safe_after(pos, m, side, royals):
                out.append(m)
        return out


@register("royal_capture")
class RoyalCapture(Component):
    def outcome(self, pos: Position) -> Outcome | None:
        v = self.v
        rules = self.rules
        prev = (pos.side - 1) % v.nsides
        # king_capture (one king) and capture_all: the last royal taken; capture_any: the first.
        need_all = v.royalty != "capture_any"
        for side in range(v.nsides):
            codes = rules.royal_codes[side]
            if not codes:
                continue
            left = rules.royal_cells(pos.board, side)
            start = v.royal_count[side]
            lost = (not left) if need_all else len(left) < start
            if lost:
                if v.nsides == 2:
                    return Outcome("king_capture", 1 - side)
                return Outcome("king_capture", prev if side != prev else None)
        return None


@register("no_moves")
class NoMoves(Component):
    def outcome(self, pos: Position) -> Outcome | None:
        rules = self.rules
        v = self.v
        if rules.has_legal_move(pos):
            return None
        prev = (pos.side - 1) % v.nsides
        if v.royalty == "checkmate" and rules.in_check(pos):
            return Outcome("checkmate", prev)
        if v.stalemate == "draw":
            return Outcome("stalemate", None)
        return Outcome("stalemate", prev if v.stalemate == "loss" else pos.side)
