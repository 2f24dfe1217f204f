"""``en_passant``: a pawn that made a multi-step move may be taken as if it had made one step,
on the next move only. Implied by ``en_passant = true``; the pieces taking part say so in their
data (``en_passant``, ``captures_en_passant``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..moves import EN_PASSANT, PLAIN, build_move
from ..pieces import CAPTURE, MOVE
from . import Component, register

if TYPE_CHECKING:
    from ..moves import Move
    from ..position import Position
    from ..rules import Rules


@register("en_passant")
class EnPassant(Component):
    def __init__(self, rules: Rules) -> None:
        super().__init__(rules)
        v = self.v
        self.capturers = frozenset(v.code(k, s) for k, kind in enumerate(v.kinds)
                                   for s in range(v.nsides) if kind.captures_en_passant)
        self.victims = frozenset(v.code(k, s) for k, kind in enumerate(v.kinds)
                                 for s in range(v.nsides) if kind.en_passant)
        # Capturers that give no check are missing from the attack tables: per cell, the
        # (cell, code) pairs from which such a capturer takes there.
        self.quiet_takers: list[list[tuple[int, int]]] = [[] for _ in range(v.geometry.size)]
        for code in self.capturers:
            if not v.kinds[v.kind_at[code]].gives_check:
                for cell, leaps in enumerate(v.leaps[code]):
                    for t, mode, _lame, _i in leaps:
                        if mode & CAPTURE:
                            self.quiet_takers[t].append((cell, code))

    def generate(self, pos: Position, out: list[Move]) -> None:
        ep = pos.ep
        if ep < 0:
            return
        v = self.v
        owner = v.owner
        board = pos.board
        prev = (pos.side - 1) % v.nsides
        victim = self.rules.forward_step[prev][ep]
        if victim < 0 or board[victim] not in self.victims or owner[board[victim]] != prev:
            return
        side = pos.side
        for cell, code in enumerate(board):
            if owner[code] != side or code not in self.capturers:
                continue
            for t, mode, _lame, _i in v.leaps[code][cell]:
                if t == ep and mode & CAPTURE:
                    # A capturer that may also simply move there (an illusionary pawn's diagonal
                    # step) has two moves between the same cells: the capture's text says "ep".
                    out.append(build_move(board, cell, ep, tag=EN_PASSANT, relocate=((cell, ep),), remove=(victim,),
                                          text="ep" if mode & MOVE else ""))

    def after_push(self, pos: Position, move: Move) -> None:
        """Leave the passed-over cell behind, only when an enemy piece could take there, so equal
        positions hash equal (FIDE's repetition rule)."""
        if move.tag != PLAIN or move.captured or move.piece not in self.victims:
            return
        v = self.v
        mid = v.geometry.passed_over(move.frm, move.to)
        if mid < 0:
            return
        board = pos.board
        for enemy in self.rules.enemies[v.owner[move.piece]]:
            for ray, sets in v.attack_rays[enemy][mid]:
                p = board[ray[0]]
                if p in self.capturers and p in sets[0]:
                    pos.ep = mid
                    return
        for cell, code in self.quiet_takers[mid]:
            if board[cell] == code and v.owner[code] != v.owner[move.piece]:
                pos.ep = mid
                return

    def legal_capture(self, pos: Position) -> bool:
        """Whether an en-passant capture is legal now (the position text writes the field only
        then, as python-chess does)."""
        return pos.ep >= 0 and any(m.tag == EN_PASSANT for m in pos.legal_moves())
