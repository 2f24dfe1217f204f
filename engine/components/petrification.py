"""``petrification``: men gazed at by an enemy petrifier can neither move nor take (Royal Fury).

A *petrifier* (option ``petrifiers``: the Gorgon and the Fury) gazes along the eight queen lines
up to the first man on each line, so a neighbour or the first man down an open line; an enemy man
there is petrified. A *mimic petrifier* (option ``mimic_petrifiers``: the Mimotaur) gazes the same
way but only petrifies enemy petrifiers, since it copies the power of the man it faces. A
petrified man still gazes: two Gorgons facing each other freeze each other and keep freezing the
rest of their lines.

The component owns the one computation of who is petrified (cached per board, both sides at
once) and the test for a man put on a cell mid-move (a Dragon landing during a chain). Movement
hooks of petrifiable men ask it before generating anything, so their moves (which are also the
attacks the runner sees) never come from a petrified man; the ``filter`` stage drops the moves of
any man the piece tables move, for variants that mix both. Readings: docs/rules/royal-fury.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from ..errors import VariantError
from . import Component, register

if TYPE_CHECKING:
    from collections.abc import Sequence

    from ..moves import Move
    from ..position import Position
    from ..rules import Rules

QUEEN_LINES = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))
#: Search terms: the share of its value a petrified man loses (it neither moves, nor takes, nor
#: defends); a petrified royal cannot flee the next attack, so it loses more.
FROZEN_SHARE, FROZEN_ROYAL_SHARE = 5, 3


@register("petrification")
class Petrification(Component):
    options: ClassVar[dict[str, Any]] = {"petrifiers": "", "mimic_petrifiers": ""}

    def __init__(self, rules: Rules) -> None:
        super().__init__(rules)
        v = self.v
        g = v.geometry
        for key in ("petrifiers", "mimic_petrifiers"):
            for letter in self.opts[key]:
                if letter not in v.kind_index:
                    raise VariantError(f"variant {v.name}: option {key}: {letter!r} is not a piece")
        gazers = {v.kind_index[ch] for ch in self.opts["petrifiers"]}
        mimics = {v.kind_index[ch] for ch in self.opts["mimic_petrifiers"]}
        self.gazer = bytearray(v.max_code)
        self.mimic = bytearray(v.max_code)
        for code in v.all_codes():
            self.gazer[code] = v.kind_at[code] in gazers
            self.mimic[code] = v.kind_at[code] in mimics
        self.steps = tuple(g.step(vec) for vec in QUEEN_LINES)
        self.lines = tuple(tuple(line for line in (g.ray(c, vec) for vec in QUEEN_LINES) if line)
                           for c in range(g.size))
        self.table_pieces = any(not kind.hook for kind in v.kinds)
        self._small = v.max_code < 256
        self._key: object = None
        self._frozen = bytearray(g.size)
        self._hash_key: int | None = None
        self._hash_frozen = self._frozen

    def frozen(self, board: Sequence[int]) -> bytearray:
        """Per cell: 1 where the man standing there is petrified (either side)."""
        key = bytes(board) if self._small else tuple(board)
        if key == self._key:
            return self._frozen
        gazer = self.gazer
        mimic = self.mimic
        owner = self.v.owner
        out = bytearray(len(board))
        for c, code in enumerate(board):
            if not code or not (gazer[code] or mimic[code]):
                continue
            side = owner[code]
            only_gazers = not gazer[code]
            for line in self.lines[c]:
                for t in line:
                    p = board[t]
                    if p:
                        if owner[p] != side and (not only_gazers or gazer[p]):
                            out[t] = 1
                        break
        self._key = key
        self._frozen = out
        return out

    def frozen_at(self, pos: Position) -> bytearray:
        """``frozen(pos.board)``, cached on the position's hash: the movement hooks ask it once
        per man, and comparing the whole board each time costs more than the answer."""
        if pos.hash != self._hash_key:
            self._hash_frozen = self.frozen(pos.board)
            self._hash_key = pos.hash
        return self._hash_frozen

    def gazed(self, board: Sequence[int], cell: int, code: int) -> bool:
        """Would the man ``code`` standing on ``cell`` of ``board`` be petrified?"""
        owner = self.v.owner
        side = owner[code]
        gazer = self.gazer
        faces_mimics = gazer[code]
        for line in self.lines[cell]:
            for t in line:
                p = board[t]
                if p:
                    if owner[p] != side and (gazer[p] or (faces_mimics and self.mimic[p])):
                        return True
                    break
        return False

    def evaluate(self, pos: Position, values: Sequence[int], scores: list[int]) -> None:
        # A search a ply or two deep (Royal Fury's men are slow to generate) does not see a
        # frozen Fury taken three plies later: the frozen man is worth less now.
        board = pos.board
        frozen = self.frozen_at(pos)
        owner = self.v.owner
        is_royal = self.v.is_royal
        for cell in range(len(board)):
            if frozen[cell]:
                code = board[cell]
                scores[owner[code]] -= values[code] // (FROZEN_ROYAL_SHARE if is_royal[code] else FROZEN_SHARE)

    def filter(self, pos: Position, moves: list[Move]) -> list[Move]:
        if not self.table_pieces:
            return moves  # every man moves through a hook, which already asked
        frozen = self.frozen_at(pos)
        return [m for m in moves if m.frm < 0 or not frozen[m.frm]]
