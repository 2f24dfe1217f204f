"""``meddlers``: Parton's Meddlers Chess. A turn is two half-moves by the same player: first one of
his own men of the kinds ``own_kinds`` (the king-side men), then one man of the *enemy's* kinds
``meddle_kinds`` (the enemy's queen-side men; in the pawns form every enemy pawn), or, when none of
those can move, one of ``meddle_fallback`` (the pawns form's enemy king); when none of those can
move either, the second half is skipped.

The side to move stays the player for both halves (his clock runs, the move number counts his
turn); the state key ``half=2`` marks the second half, during which the moves are generated as the
enemy's men would move (they capture the player's own men, their pawns head for the player's back
rank) and a pawn arriving there becomes ``meddle_promotion[kind]`` (a queen), never a choice.

Legality (this supersedes ``royal_safety``): the first half follows the royal rule for the player
(a checked player lifts the check with it); the second half may not leave the player's own king
attacked, may leave the enemy's king attacked (the text's "expose the enemy king to check"), and
a meddled king never steps onto a cell the player's men attack. Checkmate and stalemate are
judged at the start of a turn by ``no_moves`` (a second half always has a move or is skipped).
Provides ``turn_note``: which half it is and whose men may move."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from ..errors import PositionError, VariantError
from ..moves import PLAIN, build_move
from . import Component, register
from .royal_safety import RoyalSafety

if TYPE_CHECKING:
    from collections.abc import Sequence

    from ..moves import Move
    from ..position import Position
    from ..rules import Rules

#: The state key of the second half-move (absent in the first).
HALF = "half"
SECOND = "2"
#: Search term (centipawns) per half-move the side to move has still to make in its turn.
MEDDLE_HALF = 15


@register("meddlers")
class Meddlers(Component):
    options: ClassVar[dict[str, Any]] = {
        "own_kinds": "", "meddle_kinds": "", "meddle_fallback": "", "meddle_promotion": {},
        "own_label": "king-side man", "meddle_label": "queen-side man"}
    state_keys = (HALF,)
    provides = ("turn_note",)
    multi_move_turns = True
    supersedes = ("royal_safety",)

    def __init__(self, rules: Rules) -> None:
        super().__init__(rules)
        v = self.v
        if v.nsides != 2:
            raise VariantError(f"variant {v.name}: meddlers needs two sides")

        def codes(letters: str, option: str) -> list[frozenset[int]]:
            for letter in letters:
                if letter not in v.kind_index:
                    raise VariantError(f"variant {v.name}: option {option}: no piece {letter!r}")
            return [frozenset(v.code(v.kind_index[x], s) for x in letters) for s in range(2)]

        #: Per side: its men it moves itself; its men the enemy may move; the enemy's fallback.
        self.own = codes(self.opts["own_kinds"], "own_kinds")
        self.meddled = codes(self.opts["meddle_kinds"], "meddle_kinds")
        self.fallback = codes(self.opts["meddle_fallback"], "meddle_fallback")
        promo = self.opts["meddle_promotion"]
        codes("".join(promo) + "".join(promo.values()), "meddle_promotion")
        #: A meddled pawn's code -> what it becomes on its promotion cells.
        self.becomes = {v.code(v.kind_index[p], s): v.code(v.kind_index[q], s)
                        for p, q in promo.items() for s in range(2)}
        self.fallback_label = " or ".join(v.kinds[v.kind_index[x]].name for x in self.opts["meddle_fallback"])
        # The first half is an ordinary move under the royal rule: the standard check does it.
        self.royal_rule = RoyalSafety(rules)

    @staticmethod
    def second_half(pos: Position) -> bool:
        """Whether the side to move is making the second half of its turn (moving enemy men)."""
        return pos.extra.get(HALF) == SECOND

    def men_side(self, pos: Position) -> int:
        """The side whose men move in this half of the turn."""
        return 1 - pos.side if self.second_half(pos) else pos.side

    # -- generation ----------------------------------------------------------------------------------
    def board_moves(self, pos: Position) -> list[Move] | None:
        if not self.second_half(pos):
            return None
        side = pos.side
        # The enemy's men move as that side's men do: generate them as that side.
        pos.side = 1 - side
        try:
            moves = self.rules.piece_moves(pos)
        finally:
            pos.side = side
        return self._meddled_promotions(pos, moves)

    def _meddled_promotions(self, pos: Position, moves: list[Move]) -> list[Move]:
        """A meddled pawn on its promotion cell becomes its ``meddle_promotion`` kind, not the
        owner's choice: one move per from and to cell instead of one per choice."""
        if not any(m.promotion for m in moves):
            return moves
        out: list[Move] = []
        seen: set[tuple[int, int]] = set()
        board = pos.board
        for m in moves:
            target = self.becomes.get(m.piece) if m.promotion else None
            if target is None:
                out.append(m)
            elif (m.frm, m.to) not in seen:
                seen.add((m.frm, m.to))
                out.append(build_move(board, m.frm, m.to, tag=PLAIN, relocate=((m.frm, m.to),),
                                      become=((m.to, target),), promotion=target))
        return out

    def filter(self, pos: Position, moves: list[Move]) -> list[Move]:
        if self.second_half(pos):
            enemy = 1 - pos.side
            allowed = self.meddled[enemy] | self.fallback[enemy]
        else:
            allowed = self.own[pos.side]
        return [m for m in moves if m.piece in allowed]

    def legality(self, pos: Position, moves: list[Move]) -> list[Move]:
        if not self.second_half(pos):
            return self.royal_rule.legality(pos, moves)
        rules = self.rules
        side = pos.side
        royals = rules.royal_cells(pos.board, side)
        is_royal = self.v.is_royal
        owner = self.v.owner
        # One walk along the enemy's lines into the player's king settles most meddles: an enemy
        # man that leaves no first piece of a line can expose the king only by what it puts
        # down, from an open cell of a line. The rest are played out.
        lines = rules.open_lines(pos.board, royals, (1 - side,)) if royals and rules.attacks_from_tables else None
        nothing: frozenset[int] = frozenset()

        def legal(candidates: list[Move]) -> list[Move]:
            safe = []
            for m in candidates:
                if lines is not None and m.tag == PLAIN and not is_royal[m.piece]:
                    first, open_codes = lines
                    if m.frm not in first:
                        if (m.promotion or m.piece) not in open_codes.get(m.to, nothing):
                            safe.append(m)
                        continue
                if rules.is_safe_after(pos, m, side, royals) and (
                        not is_royal[m.piece] or rules.is_safe_after(pos, m, owner[m.piece])):
                    safe.append(m)
            return safe

        meddled = self.meddled[1 - side]
        first = legal([m for m in moves if m.piece in meddled])
        if first or not self.fallback[1 - side]:
            return first
        # none of the meddle kinds can move: the fallback men (all that is left), judged only now
        return legal([m for m in moves if m.piece not in meddled])

    # -- turn order ----------------------------------------------------------------------------------
    def after_push(self, pos: Position, move: Move) -> None:
        if self.second_half(pos):
            del pos.extra[HALF]
        else:
            pos.extra[HALF] = SECOND

    def next_side(self, pos: Position, move: Move) -> int | None:
        if not self.second_half(pos):
            return None  # the turn is over: the next side
        if self.rules.has_legal_move(pos):
            return pos.side
        # No enemy man the player may move can move: the second half is skipped.
        del pos.extra[HALF]
        return None

    def evaluate(self, pos: Position, values: Sequence[int], scores: list[int]) -> None:
        # The side to move still has both halves of its turn (or the meddling half) to come.
        scores[pos.side] += MEDDLE_HALF if self.second_half(pos) else 2 * MEDDLE_HALF

    def validate(self, pos: Position) -> None:
        value = pos.extra.get(HALF)
        if value is None:
            return
        if value != SECOND:
            raise PositionError(f"{self.v.name}: half={value}: the only half written is half=2")
        if self.rules.in_check(pos):
            raise PositionError(f"{self.v.name}: half=2 with the side to move in check: its first half "
                                "lifts every check")

    # -- display -------------------------------------------------------------------------------------
    def turn_note(self, pos: Position) -> str:
        sides = self.v.sides
        player = sides[pos.side].capitalize()
        if not self.second_half(pos):
            note = f"{player}, first half: move a {sides[pos.side]} {self.opts['own_label']}"
            if self.rules.in_check(pos):
                note += " that lifts the check"
            return note
        enemy = sides[1 - pos.side]
        moves = self.rules.legal_moves(pos)
        if self.fallback_label and moves and not any(m.piece in self.meddled[1 - pos.side] for m in moves):
            return f"{player}, second half: no {enemy} {self.opts['meddle_label']} can move: move the {enemy} " \
                   f"{self.fallback_label}"
        return f"{player}, second half: move a {enemy} {self.opts['meddle_label']}"
