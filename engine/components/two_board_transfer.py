"""``two_board_transfer`` (Alice Chess): every move is made on the board the piece stands on, then
the piece crosses to the same cell of the other board, which must be empty. Pieces attack only
on their own board (the geometry has no edges between boards). Our readings are in
docs/rules/alice.md:

* A move is legal when the mover's king is not attacked after the transfer, so a piece arriving
  from the other board may block a check. A king's own move must also be legal on its board
  (its target not attacked there): a king never steps through check into safety.
* Castling is the ordinary castling on the board of king and rook (not out of, through or into
  check there); then both cross, so their landing cells on the other board must be empty.
* En passant: after a pawn's double step (which lands it on the other board), an enemy pawn on
  that board may take it as usual, on the cell it passed over there, and then crosses back. The
  en-passant field names that cell on the pawn's new board (``e3'``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import VariantError
from ..moves import CASTLE, EN_PASSANT, PLAIN, SPECIAL, Move, build_move
from . import Component, register
from .en_passant import EnPassant

if TYPE_CHECKING:
    from ..position import Position
    from ..rules import Rules


@register("two_board_transfer")
class TwoBoardTransfer(Component):
    supersedes = ("royal_safety",)
    def __init__(self, rules: Rules) -> None:
        super().__init__(rules)
        if not self.v.geometry.other_board:
            raise VariantError(f"variant {self.v.name}: two_board_transfer needs a two-board geometry")
        self.other = self.v.geometry.other_board
        en_passant = rules.component("en_passant")
        self.ep_victims: frozenset[int] = frozenset()
        self.ep_capturers: frozenset[int] = frozenset()
        if isinstance(en_passant, EnPassant):
            self.ep_victims, self.ep_capturers = en_passant.victims, en_passant.capturers

    def transform(self, pos: Position, moves: list[Move]) -> list[Move]:
        board = pos.board
        other = self.other
        out = []
        for m in moves:
            if m.tag == PLAIN:
                dest = other[m.to]
                if board[dest]:
                    continue
                # With its landing cell empty, a move's transfer depends on the move alone.
                derived = m.derived
                if derived is None:
                    derived = m.derived = {}
                moved = derived.get(self)
                if moved is None:
                    landed = m.promotion or m.piece
                    moved = derived[self] = build_move(board, m.frm, m.to, relocate=((m.frm, dest),),
                                                       remove=(m.to,) if m.captured else (),
                                                       become=((dest, landed),) if landed != m.piece else (),
                                                       promotion=m.promotion)
                out.append(moved)
            elif m.tag == CASTLE:
                (king, k2), (rook, k1) = m.relocations
                if board[other[k2]] or board[other[k1]]:
                    continue
                out.append(build_move(board, king, k2, tag=CASTLE, relocate=((king, other[k2]), (rook, other[k1]))))
            elif m.tag == EN_PASSANT:
                dest = other[m.to]
                if board[m.to] or board[dest]:
                    continue
                out.append(build_move(board, m.frm, m.to, tag=EN_PASSANT, relocate=((m.frm, dest),),
                                      remove=m.victims))
        return out

    def legality(self, pos: Position, moves: list[Move]) -> list[Move]:
        """The royal rule as Alice needs it (this component supersedes ``royal_safety``): a king's
        own move must be legal on its board before it crosses, and no move may leave a royal
        attacked after the transfer. With one king and table pieces only, one walk along the
        lines into the king settles most moves: attacks stay on their own board, so a piece
        leaving the king's board matters only if it is pinned (or there is a check), and a piece
        arriving there matters only if it blocks a check."""
        side = pos.side
        rules = self.rules
        v = self.v
        board = pos.board
        is_royal = v.is_royal
        royals = rules.royal_cells(board, side)
        fast = len(royals) == 1 and v.simple
        if fast:
            king = royals[0]
            answers, pinned = rules.king_lines(board, king, side)
            board_of = v.geometry.board_of
            king_board = board_of[king]
        out = []
        enemies = rules.enemies[side]
        attacked = rules.attacked
        other = self.other
        for m in moves:
            if is_royal[m.piece]:
                if fast and m.tag == SPECIAL:
                    # The lone king: its step must be safe on its own board (lifted from its
                    # cell, so a slider behind it still sees through) and its landing cell on the
                    # other board must not be attacked there. Nothing else on the other board
                    # changes, and attacks never cross between boards.
                    board[m.frm] = 0
                    safe = not attacked(pos, m.to, enemies)
                    board[m.frm] = m.piece
                    if safe and not attacked(pos, other[m.to], enemies):
                        out.append(m)
                    continue
                if m.tag != CASTLE and not rules.is_safe_after(pos, Move(m.frm, m.to, m.piece, m.captured,
                                                                         m.promotion), side):
                    continue
            elif fast and m.tag == SPECIAL:
                if board_of[m.frm] == king_board:
                    # A capture there also lifts its victim, which may have been blocking an
                    # enemy line into the king (the capturer does not stay to block it).
                    if answers is None and m.frm not in pinned and not m.captured:
                        out.append(m)
                        continue
                elif answers is None or self.other[m.to] in answers:
                    out.append(m)  # arrives on the king's board: safe, or blocks the one check
                    continue
                elif not answers or len(answers) == 1:
                    continue  # double check, or a leaper's check no arrival can block
            if rules.is_safe_after(pos, m, side, royals):
                out.append(m)
        return out

    def after_push(self, pos: Position, move: Move) -> None:
        """After a pawn's double step: the passed cell on the board the pawn landed on, when an
        enemy pawn there could take it en passant."""
        if move.tag != SPECIAL or move.captured or move.piece not in self.ep_victims:
            return
        v = self.v
        mid = v.geometry.passed_over(move.frm, move.to)
        if mid < 0:
            return
        passed = self.other[mid]
        board = pos.board
        if board[passed]:
            return
        for enemy in self.rules.enemies[v.owner[move.piece]]:
            for ray, sets in v.attack_rays[enemy][passed]:
                p = board[ray[0]]
                if p in self.ep_capturers and p in sets[0]:
                    pos.ep = passed
                    return
