"""``simpletons``: Simpletons' Duffery narrows the legal moves to a short menu.

Not in check: the moves that give check; if there are none, the captures; if none, the pawn
moves; and if a player has none of those either, any legal move (the text is silent there: the
game goes on rather than ending as a stalemate with moves still on the board).
In check: the king's own moves, any capture (a legal capture in check takes the checker) and pawn
moves (a pawn put in between); a piece other than a pawn may not be put in between.
Provides ``turn_note``: the display says which part of the menu applies.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..moves import PLAIN
from . import Component, register

if TYPE_CHECKING:
    from ..moves import Move
    from ..position import Position


@register("simpletons")
class Simpletons(Component):
    provides = ("turn_note",)

    def turn_note(self, pos: Position) -> str:
        """Which part of the menu applies now, for the display."""
        if self.rules.in_check(pos):
            return "In check: move the king, take the checker or block with a pawn"
        moves = self.rules.legal_moves(pos)
        if not moves:
            return ""
        if self.checks(pos, moves):
            return "Simpletons: give check"
        if any(m.victims for m in moves):
            return "Simpletons: capture"
        if any(self.v.is_pawn[m.piece] for m in moves):
            return "Simpletons: move a pawn"
        return "Simpletons: no check, capture or pawn move: any move"
    def select(self, pos: Position, moves: list[Move]) -> list[Move]:
        v = self.v
        is_royal = v.is_royal
        is_pawn = v.is_pawn
        if self.rules.in_check(pos):
            return [m for m in moves if is_royal[m.piece] or is_pawn[m.piece] or m.victims]
        checks = self.checks(pos, moves)
        if checks:
            return checks
        captures = [m for m in moves if m.victims]
        if captures:
            return captures
        return [m for m in moves if is_pawn[m.piece]] or moves

    def checks(self, pos: Position, moves: list[Move]) -> list[Move]:
        """The moves that leave a royal piece of an opponent attacked by the mover."""
        rules = self.rules
        board = pos.board
        by = (pos.side,)
        attacked = rules.attacked
        # The enemy royals are found once; a move is played on the board, tested, and undone
        # only when one walk along the lines into them cannot settle it.
        royals = [(r, board[r]) for e in rules.enemies[pos.side] for r in rules.royal_cells(board, e)]
        lines = self._lines(board, [r for r, _code in royals], pos.side) if rules.attacks_from_tables else None
        out = []
        nothing: frozenset[int] = frozenset()
        for m in moves:
            if lines is not None and m.tag == PLAIN:
                first, open_codes = lines
                if m.frm not in first:
                    # It uncovers no line, so it checks only by what it puts down, and only
                    # from a cell with a clear line into a royal.
                    if (m.promotion or m.piece) in open_codes.get(m.to, nothing):
                        out.append(m)
                    continue
            changes = m.changes
            for cell, _b, after in changes:
                board[cell] = after
            try:
                if any(board[r] == code and attacked(pos, r, by) for r, code in royals):
                    out.append(m)
            finally:
                for cell, before, _a in changes:
                    board[cell] = before
        return out

    def _lines(self, board: list[int], royals: list[int], side: int
               ) -> tuple[set[int], dict[int, frozenset[int]]] | None:
        """Along every line of ``side``'s attacks into the royals: the first piece (moving it
        may uncover a check) and, up to it, the codes that would attack from each cell. None
        when a royal is attacked already (then every move is played out)."""
        first: set[int] = set()
        open_codes: dict[int, frozenset[int]] = {}
        get = open_codes.get
        rays = self.v.attack_rays[side]
        for r in royals:
            for ray, sets in rays[r]:
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
