"""``territory``: Mathematichess's score, secured territories, bonuses and end of the game.

* From stage two on, the opponent of a secured territory's owner may not change any of its cells
  or settlers (no invading, pushing, substituting, moving or removing them): a filter.
* Bonuses go to the first side to reach each condition, checked after every move of stage two.
* The game ends by agreement (never in stage one, never before both terminators), by an optional
  target score, or when the side to move has no move; the higher total wins.

Provides the ``scoring`` and ``agreement`` capabilities. Needs ``placement`` and ``terminator``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from ..errors import AgreementError, PositionError, VariantError
from ..position import Outcome
from ..territory_scoring import Score, Territory, TerritoryScorer
from . import Component, register
from .mathematichess_moves import MathematichessMoves
from .placement import Placement
from .terminator import SIDE_MARKS, Terminator

if TYPE_CHECKING:
    from collections.abc import Sequence

    from ..moves import Move
    from ..position import Position
    from ..rules import Rules

#: Bonus names in the order they are checked; the position text records a winner as name=w|b|wb.
BONUSES = ("four_sovereign", "homogeneous", "two_royal")



@register("territory")
class TerritoryRules(Component):
    provides = ("scoring", "agreement")
    # Its outcome ends a game without moves by the score; one legal-move test per position.
    supersedes = ("no_moves",)
    state_keys = BONUSES
    options: ClassVar[dict[str, Any]] = {
        "pieces_per_kind": 9,
        "royals": "KQ",
        "bonus_four_sovereign": 300,
        "bonus_homogeneous": 300,
        "bonus_two_royal": 300,
        "target_score": 0,
    }

    def __init__(self, rules: Rules) -> None:
        super().__init__(rules)
        v = self.v
        if v.nsides != 2:
            raise VariantError(f"variant {v.name}: territory scoring needs two sides")
        placement, terminator = rules.component("placement"), rules.component("terminator")
        if not isinstance(placement, Placement) or not isinstance(terminator, Terminator):
            raise VariantError(f"variant {v.name}: 'territory' needs the 'placement' and 'terminator' components")
        self.placement = placement
        self.terminator = terminator
        self.per_kind = int(self.opts["pieces_per_kind"])
        self.bonus_points = {name: int(self.opts[f"bonus_{name}"]) for name in BONUSES}
        self.target = int(self.opts["target_score"])
        self.scorer = TerritoryScorer(v, str(self.opts["royals"]))

    # -- queries --------------------------------------------------------------------------------
    def stage(self, pos: Position) -> int:
        """1 while either hand still holds a piece, else 2."""
        return 1 if self.placement.placing(pos) else 2

    def territories(self, pos: Position) -> list[Territory]:
        return self.scorer.territories(pos.board)

    def score(self, pos: Position) -> Score:
        """Territories, bonuses won so far, and each side's total: the live score."""
        terrs = tuple(self.scorer.territories(pos.board))
        totals = [sum(t.points[0] for t in terrs), sum(t.points[1] for t in terrs)]
        bonuses = []
        for name in BONUSES:
            for side, mark in enumerate(SIDE_MARKS):
                if mark in pos.extra.get(name, ""):
                    bonuses.append((name, side, self.bonus_points[name]))
                    totals[side] += self.bonus_points[name]
        return Score(terrs, tuple(bonuses), (totals[0], totals[1]))

    def frozen_cells(self, pos: Position, side: int) -> frozenset[int]:
        """Cells ``side`` may not change: its opponent's secured territories and their settlers
        (from stage two on; during placement nothing is frozen)."""
        if self.stage(pos) == 1:
            return frozenset()
        out: frozenset[int] = frozenset()
        for t in self.scorer.territories(pos.board):
            if t.secured and t.owner is not None and t.owner != side:
                out |= t.frozen_cells()
        return out

    def agreement_refusal(self, pos: Position) -> str:
        """Why the game may not end by agreement now ("" when it may)."""
        if self.stage(pos) == 1:
            return "the game cannot end during placement"
        missing = [self.v.sides[s] for s in (0, 1) if not self.terminator.used(pos, s)]
        if missing:
            return f"{' and '.join(missing)} must play the terminator first"
        return ""

    def agreement_outcome(self, pos: Position) -> Outcome:
        """The result when both players have agreed to stop: the higher total wins.
        ``AgreementError`` (a ``ValueError``) when the rules do not allow ending yet."""
        reason = self.agreement_refusal(pos)
        if reason:
            raise AgreementError(f"no agreement yet: {reason}")
        return Outcome("agreement", _leader(self.score(pos).totals))

    # -- stages ---------------------------------------------------------------------------------
    def evaluate(self, pos: Position, values: Sequence[int], scores: list[int]) -> None:
        # The game is won on points: the live score (territories and bonuses) counts as it is.
        totals = self.score(pos).totals
        for side, points in enumerate(totals):
            scores[side] += points

    def filter(self, pos: Position, moves: list[Move]) -> list[Move]:
        frozen = self.frozen_cells(pos, pos.side)
        if not frozen:
            return moves
        return [m for m in moves if not any(c in frozen for c, _b, _a in m.changes)]

    def after_push(self, pos: Position, move: Move) -> None:
        # "The first side to ...": checked after every move of stage two; a bonus reached by both
        # sides at the same moment goes to both.
        extra = pos.extra
        open_bonuses = [n for n in BONUSES if self.bonus_points[n] and n not in extra]
        if not open_bonuses or self.stage(pos) == 1:
            return
        terrs = self.scorer.territories(pos.board)
        for name in open_bonuses:
            winners = "".join(SIDE_MARKS[s] for s in (0, 1) if _reached(name, terrs, s))
            if winners:
                extra[name] = winners

    def outcome(self, pos: Position) -> Outcome | None:
        if self.target and not self.agreement_refusal(pos):
            totals = self.score(pos).totals
            if max(totals) >= self.target:
                return Outcome("target", _leader(totals))
        if not self.rules.has_legal_move(pos):
            return Outcome("no_moves", _leader(self.score(pos).totals))
        return None

    def has_legal_move(self, pos: Position) -> bool | None:
        """Stage two without generating every move: the first move that keeps off the frozen
        cells settles it (a terminator of an unfrozen piece, or the movers' first such move).
        This mirrors the legal moves exactly: the movers' moves, the terminator's, this
        component's filter, and no royal rule."""
        if self.placement.placing(pos):
            return None  # the placement component answers
        movers = self.rules.component("mathematichess_moves")
        if not isinstance(movers, MathematichessMoves) or self.v.royalty != "none":
            return None
        side = pos.side
        frozen = self.frozen_cells(pos, side)
        owner = self.v.owner
        if not self.terminator.used(pos, side) and any(owner[code] == side and c not in frozen
                                                       for c, code in enumerate(pos.board)):
            return True
        return any(not any(c in frozen for c, _b, _a in m.changes) for m in movers.iter_moves(pos))

    def validate(self, pos: Position) -> None:
        v = self.v
        name = v.name
        if pos.ep >= 0:
            raise PositionError(f"{name}: there is no en passant")
        for key in BONUSES:
            val = pos.extra.get(key)
            if val is not None and val not in ("w", "b", "wb"):
                raise PositionError(f"{name}: {key}={val}: expected w, b or wb")
        for side in (0, 1):
            counts = [0] * len(v.kinds)
            for code in pos.board:
                if v.owner[code] == side:
                    counts[v.kind_at[code]] += 1
            for kind, n in pos.hands[side].items():
                counts[kind] += n
            for kind, n in enumerate(counts):
                if n > self.per_kind:
                    raise PositionError(f"{name}: {v.sides[side]} has {n} {v.kinds[kind].name}s "
                                        f"(at most {self.per_kind})")
            expected = self.per_kind * len(v.kinds) - self.terminator.used(pos, side)
            if sum(counts) != expected:
                raise PositionError(f"{name}: {v.sides[side]} has {sum(counts)} pieces on the board and in "
                                    f"hand, expected {expected}")


def _reached(name: str, terrs: list[Territory], side: int) -> bool:
    mine = [t for t in terrs if t.owner == side]
    if name == "four_sovereign":
        return len(mine) >= 4
    if name == "homogeneous":
        return any(t.homogeneous >= 0 for t in mine)
    return sum(t.royal for t in mine) >= 2


def _leader(totals: tuple[int, int]) -> int | None:
    if totals[0] == totals[1]:
        return None
    return 0 if totals[0] > totals[1] else 1
