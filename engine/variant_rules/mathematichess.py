"""Mathematichess: placement, pushes, substitutions, terminators, secured territories, scores.

Our reading of the source is written out in docs/rules/mathematichess.md; in short:

* Stage one lasts while either hand holds a piece. A side with pieces in hand drops one on any
  empty cell (or plays its terminator); a side whose hand is already empty moves on the board.
* Stage two: every move ends on an empty cell. Pushers shift themselves and the unbroken run of
  pieces in front of them one cell toward the first empty cell on that line; queens and kings
  swap with a piece that stands next to an empty cell (queens along queen lines, jumping over any
  pieces but kings; kings with a neighbour). A swap of two identical pieces is no move.
* A terminator is a move: its side takes one of its own pieces off the board, once per game.
* From stage two on, the opponent of a secured territory's owner may not change any of its cells
  or settlers (no invading, pushing, substituting, moving or removing them).
* The game ends by agreement (never in stage one, never before both terminators), by an optional
  target score, or when the side to move has no move; the higher total wins.

The controller's entry points: ``stage``, ``remaining``, ``terminator_used``, ``score``,
``frozen_cells``, ``agreement_allowed`` and ``agreement_outcome``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..errors import ChesseryError
from ..moves import DROP, REMOVE, SPECIAL, Move
from ..notation import PositionError
from ..pieces import MOVE
from ..position import Outcome
from ..rules import Rules, register
from ..territory import DIAGONAL, ORTHOGONAL, Score, Territory, TerritoryScorer

if TYPE_CHECKING:
    from ..position import Position
    from ..variant import Variant

#: Options the variant file may set, with their defaults.
OPTIONS: dict[str, Any] = {
    "pieces_per_kind": 9,
    "royals": "KQ",
    "queen_blockers": "K",
    "bonus_four_sovereign": 300,
    "bonus_homogeneous": 300,
    "bonus_two_royal": 300,
    "target_score": 0,
}
#: Bonus names in the order they are checked; the position text records a winner as name=w|b|wb.
BONUSES = ("four_sovereign", "homogeneous", "two_royal")
SIDE_MARKS = "wb"


class AgreementError(ChesseryError, ValueError):
    """The players asked to end the game by agreement when the rules do not allow it yet."""


@register("mathematichess")
class MathematichessRules(Rules):
    shows_hand = True
    has_state = True

    def __init__(self, variant: Variant) -> None:
        from ..variant import VariantError

        super().__init__(variant)
        unknown = set(variant.options) - set(OPTIONS)
        if unknown:
            raise VariantError(f"variant {variant.name}: unknown option {sorted(unknown)[0]!r}")
        if variant.nsides != 2:
            raise VariantError(f"variant {variant.name}: mathematichess rules need two sides")
        opts = {**OPTIONS, **variant.options}
        self.per_kind = int(opts["pieces_per_kind"])
        self.bonus_points = {name: int(opts[f"bonus_{name}"]) for name in BONUSES}
        self.target = int(opts["target_score"])
        self.scorer = TerritoryScorer(variant, str(opts["royals"]))
        g = variant.geometry
        self.diagonal = tuple(g.step(v) for v in DIAGONAL)
        self.orthogonal = tuple(g.step(v) for v in ORTHOGONAL)
        self.all_steps = self.orthogonal + self.diagonal
        self.around = [tuple(t[c] for t in self.all_steps if t[c] >= 0) for c in range(g.size)]
        blockers = str(opts["queen_blockers"])
        self.queen_blockers = frozenset(
            variant.code(k, s) for k, kind in enumerate(variant.kinds) if kind.letter in blockers for s in (0, 1))
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
        hook_dirs = {"push_orthogonal": frozenset(range(4)), "push_diagonal": frozenset(range(4, 8)),
                     "push_any": frozenset(range(8))}
        self.push_dirs: list[frozenset[int]] = [frozenset()] * size
        self.is_queen = [False] * size
        self.is_substituter = [False] * size
        self.arrivals: list[list[list[tuple[int, int, tuple[int, ...], bool]]]] = [
            [[] for _ in range(n)] for _ in range(v.nsides)]
        for code in v.all_codes():
            hook = v.kinds[code >> 2].hook
            self.push_dirs[code] = hook_dirs.get(hook, frozenset())
            self.is_queen[code] = hook == "substitute_queen"
            self.is_substituter[code] = hook.startswith("substitute_")
            table = self.arrivals[(code & 3) - 1]
            for cell in range(n):
                for t, mode, lame, _initial in v.leaps[code][cell]:
                    if mode & MOVE:
                        table[t].append((cell, code, (lame,) if lame >= 0 else (), False))
                for ray, mode, hop, _initial in v.rides[code][cell]:
                    if mode & MOVE:
                        for j, t in enumerate(ray):
                            table[t].append((cell, code, ray[:j], hop))

    # -- state queries (the controller's API) -----------------------------------------------------
    def stage(self, pos: Position) -> int:
        """1 while either hand still holds a piece, else 2."""
        return 1 if any(any(h.values()) for h in pos.hands) else 2

    def remaining(self, pos: Position, side: int) -> list[tuple[str, int]]:
        """Pieces ``side`` still has to place, as (letter, count) in value order."""
        hand = pos.hands[side]
        return [(self.v.kinds[k].letter, hand[k]) for k in sorted(hand) if hand[k]]

    def terminator_used(self, pos: Position, side: int) -> bool:
        return SIDE_MARKS[side] in pos.extra.get("term", "")

    def territories(self, pos: Position) -> list[Territory]:
        return self.scorer.territories(pos.board)

    def score(self, pos: Position) -> Score:
        """Territories, bonuses won so far, and each side's total: the live score."""
        terrs = tuple(self.scorer.territories(pos.board))
        w = sum(t.points[0] for t in terrs)
        b = sum(t.points[1] for t in terrs)
        bonuses = []
        for name in BONUSES:
            for side, mark in enumerate(SIDE_MARKS):
                if mark in pos.extra.get(name, ""):
                    bonuses.append((name, side, self.bonus_points[name]))
                    if side == 0:
                        w += self.bonus_points[name]
                    else:
                        b += self.bonus_points[name]
        return Score(terrs, tuple(bonuses), (w, b))

    def frozen_cells(self, pos: Position, side: int) -> frozenset[int]:
        """Cells ``side`` may not change: its opponent's secured territories and their settlers
        (from stage two on; during placement nothing is frozen)."""
        if self.stage(pos) == 1:
            return frozenset()
        return self._frozen(self.scorer.territories(pos.board), side)

    @staticmethod
    def _frozen(terrs: list[Territory], side: int) -> frozenset[int]:
        out: frozenset[int] = frozenset()
        for t in terrs:
            if t.secured and t.owner is not None and t.owner != side:
                out |= t.frozen_cells()
        return out

    def agreement_refusal(self, pos: Position) -> str:
        """Why the game may not end by agreement now ("" when it may)."""
        if self.stage(pos) == 1:
            return "the game cannot end during placement"
        missing = [self.v.sides[s] for s in (0, 1) if not self.terminator_used(pos, s)]
        if missing:
            return f"{' and '.join(missing)} must play the terminator first"
        return ""

    def agreement_allowed(self, pos: Position) -> bool:
        return not self.agreement_refusal(pos)

    def agreement_outcome(self, pos: Position) -> Outcome:
        """The result when both players have agreed to stop: the higher total wins.
        ``AgreementError`` (a ``ValueError``) when the rules do not allow ending yet."""
        reason = self.agreement_refusal(pos)
        if reason:
            raise AgreementError(f"no agreement yet: {reason}")
        return Outcome("agreement", _leader(self.score(pos).totals))

    # -- position checks --------------------------------------------------------------------------
    def validate(self, pos: Position) -> None:
        v = self.v
        name = v.name
        if pos.ep >= 0:
            raise PositionError(f"{name}: there is no en passant")
        for key, val in pos.extra.items():
            if key != "term" and key not in BONUSES:
                raise PositionError(f"{name}: unknown state {key}={val}")
            if val not in ("w", "b", "wb"):
                raise PositionError(f"{name}: {key}={val}: expected w, b or wb")
        for side in (0, 1):
            counts = [0] * len(v.kinds)
            for code in pos.board:
                if code and code & 3 == side + 1:
                    counts[code >> 2] += 1
            for kind, n in pos.hands[side].items():
                counts[kind] += n
            for kind, n in enumerate(counts):
                if n > self.per_kind:
                    raise PositionError(f"{name}: {v.sides[side]} has {n} {v.kinds[kind].name}s "
                                        f"(at most {self.per_kind})")
            expected = self.per_kind * len(v.kinds) - self.terminator_used(pos, side)
            if sum(counts) != expected:
                raise PositionError(f"{name}: {v.sides[side]} has {sum(counts)} pieces on the board and in "
                                    f"hand, expected {expected}")

    # -- move generation --------------------------------------------------------------------------
    def pseudo_moves(self, pos: Position) -> list[Move]:
        out = self._drops(pos) if any(pos.hands[pos.side].values()) else self._board_moves(pos)
        self.extra_moves(pos, out)
        return out

    def _board_moves(self, pos: Position) -> list[Move]:
        """Every board move of the side to move, found from the empty cells: with 7 to 9 empty
        cells among 169 that is several times faster than asking each of 81 pieces. The
        piece-by-piece generator (``Rules.pseudo_moves`` through the ``moves_*`` hooks) gives the
        same moves and is the reference the tests compare against."""
        board = pos.board
        side = pos.side
        me = side + 1
        around = self.around
        empties = []
        substituters = []
        is_sub = self.is_substituter
        for c, code in enumerate(board):
            if not code:
                empties.append(c)
            elif code & 3 == me and is_sub[code]:
                substituters.append(c)
        near = bytearray(len(board))
        for e in empties:
            for c in around[e]:
                near[c] = 1
        out: list[Move] = []
        append = out.append
        arrivals = self.arrivals[side]
        push_dirs = self.push_dirs
        back_steps = self.back_steps
        for e in empties:
            for frm, code, path, hop in arrivals[e]:
                if board[frm] != code:
                    continue
                if (path or hop) and sum(1 for c in path if board[c]) != hop:
                    continue
                append(Move(frm, e, code))
            for d, back in enumerate(back_steps):
                c = back[e]
                run = [e]
                while c >= 0:
                    code = board[c]
                    if not code:
                        break
                    if code & 3 == me and d in push_dirs[code]:
                        # run holds e and the pieces between c and e, nearest to e first
                        changes = [(c, code, 0)]
                        relocations = []
                        prev, prev_code = c, code
                        for t in reversed(run):
                            changes.append((t, board[t], prev_code))
                            relocations.append((prev, t))
                            prev, prev_code = t, board[t]
                        append(Move(c, relocations[0][1], code, tag=SPECIAL, changes=tuple(changes),
                                    relocations=tuple(relocations)))
                    run.append(c)
                    c = back[c]
        blockers = self.queen_blockers
        all_steps = self.all_steps
        for cell in substituters:
            code = board[cell]
            if self.is_queen[code]:
                for step in all_steps:
                    t = step[cell]
                    while t >= 0:
                        p = board[t]
                        if not p:
                            break
                        if p != code and near[t]:
                            append(Move(cell, t, code, tag=SPECIAL, changes=((cell, code, p), (t, p, code)),
                                        relocations=((cell, t), (t, cell))))
                        if p in blockers:
                            break
                        t = step[t]
            else:
                for t in around[cell]:
                    p = board[t]
                    if p and p != code and near[t]:
                        append(Move(cell, t, code, tag=SPECIAL, changes=((cell, code, p), (t, p, code)),
                                    relocations=((cell, t), (t, cell))))
        return out

    def legal_moves(self, pos: Position) -> list[Move]:
        moves = self.pseudo_moves(pos)
        frozen = self.frozen_cells(pos, pos.side)
        if not frozen:
            return moves
        fz = bytearray(len(pos.board))
        for c in frozen:
            fz[c] = 1
        out = []
        for m in moves:
            for c, _b, _a in m.changes:
                if fz[c]:
                    break
            else:
                out.append(m)
        return out

    def _drops(self, pos: Position) -> list[Move]:
        v = self.v
        side = pos.side
        empty = [c for c, code in enumerate(pos.board) if not code]
        out = []
        hand = pos.hands[side]
        for kind in sorted(hand):
            if not hand[kind]:
                continue
            code = v.code(kind, side)
            out.extend(Move(-1, c, code, promotion=code, tag=DROP, changes=((c, 0, code),)) for c in empty)
        return out

    def extra_moves(self, pos: Position, out: list[Move]) -> None:
        """The terminator: once per game, the side to move takes one of its pieces off."""
        if self.terminator_used(pos, pos.side):
            return
        me = pos.side + 1
        for c, code in enumerate(pos.board):
            if code and code & 3 == me:
                out.append(Move(-1, c, code, tag=REMOVE, changes=((c, code, 0),)))

    def _push(self, board: list[int], cell: int, code: int, steps: tuple[tuple[int, ...], ...],
              out: list[Move]) -> None:
        # The pusher and the unbroken run of pieces in front of it move one cell toward the first
        # empty cell on the line; a run that reaches the edge cannot move.
        for step in steps:
            chain = [cell]
            c = step[cell]
            while c >= 0 and board[c]:
                chain.append(c)
                c = step[c]
            if c < 0:
                continue
            targets = [*chain[1:], c]
            changes = ((cell, code, 0), *((t, board[t], board[s]) for s, t in zip(chain, targets, strict=True)))
            out.append(Move(cell, targets[0], code, tag=SPECIAL, changes=changes,
                            relocations=tuple(zip(chain, targets, strict=True))))

    def moves_push_diagonal(self, pos: Position, cell: int, code: int, out: list[Move]) -> None:
        self._push(pos.board, cell, code, self.diagonal, out)

    def moves_push_orthogonal(self, pos: Position, cell: int, code: int, out: list[Move]) -> None:
        self._push(pos.board, cell, code, self.orthogonal, out)

    def moves_push_any(self, pos: Position, cell: int, code: int, out: list[Move]) -> None:
        self._push(pos.board, cell, code, self.all_steps, out)

    def _near_empty(self, board: list[int], cell: int) -> bool:
        return any(not board[c] for c in self.around[cell])

    def _swap(self, board: list[int], cell: int, code: int, target: int) -> Move:
        other = board[target]
        return Move(cell, target, code, tag=SPECIAL, changes=((cell, code, other), (target, other, code)),
                    relocations=((cell, target), (target, cell)))

    def moves_substitute_king(self, pos: Position, cell: int, code: int, out: list[Move]) -> None:
        board = pos.board
        for t in self.around[cell]:
            p = board[t]
            if p and p != code and self._near_empty(board, t):
                out.append(self._swap(board, cell, code, t))

    def moves_substitute_queen(self, pos: Position, cell: int, code: int, out: list[Move]) -> None:
        # Along each queen line over occupied cells only: every piece reached that stands next to
        # an empty cell may be substituted; a king may be the target but is never jumped over.
        board = pos.board
        blockers = self.queen_blockers
        for step in self.all_steps:
            t = step[cell]
            while t >= 0:
                p = board[t]
                if not p:
                    break
                if p != code and self._near_empty(board, t):
                    out.append(self._swap(board, cell, code, t))
                if p in blockers:
                    break
                t = step[t]

    # -- after a move -----------------------------------------------------------------------------
    def on_push(self, pos: Position, move: Move) -> None:
        side = pos.side
        if move.tag == DROP:
            hand = pos.hands[side]
            kind = move.promotion >> 2
            if hand[kind] > 1:
                hand[kind] -= 1
            else:
                del hand[kind]  # no zero counts: equal positions must hash equal
        elif move.tag == REMOVE:
            used = pos.extra.get("term", "") + SIDE_MARKS[side]
            pos.extra["term"] = "".join(m for m in SIDE_MARKS if m in used)
        self._award_bonuses(pos)

    def _award_bonuses(self, pos: Position) -> None:
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

    # -- outcomes ---------------------------------------------------------------------------------
    def has_legal_move(self, pos: Position) -> bool:
        # In stage one a side holding a piece can always place it on an empty cell (nothing is
        # frozen before stage two), which spares generating ~1400 drops after every placement.
        if any(pos.hands[pos.side].values()) and 0 in pos.board:
            return True
        return bool(self.legal_moves(pos))

    def outcome(self, pos: Position) -> Outcome | None:
        if self.target and self.agreement_allowed(pos):
            totals = self.score(pos).totals
            if max(totals) >= self.target:
                return Outcome("target", _leader(totals))
        if not self.has_legal_move(pos):
            return Outcome("no_moves", _leader(self.score(pos).totals))
        return None


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
