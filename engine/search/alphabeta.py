"""The search: iterative deepening alpha-beta over ``Position.push``/``pop``, with a transposition
table, quiescence on captures, move ordering, time management and skill levels.

One search for any number of sides and any turn order. Scores are always from the point of view
of the side to move at the root (the *root side*): a node where the root side is to move takes
the maximum of its children, any other node the minimum. With two sides alternating this is
plain alpha-beta (negamax written out); with multi-move turns (Meddlers: the same side moves
twice) the side to move simply does not change between plies. With three sides (Triscacia) an
opponent the rules say can threaten the root side (``Rules.plays_against``: in Triscacia the
right-hand one, who may check it) is assumed to play against it, the *paranoid* search; one that
cannot (the left-hand one) plays for itself: the move ``OwnChoices`` says it would make, the
only child searched (``engine.search.sides``). The opponents' replies to the root's move (the
*first round*) are a best-reply layer: one opponent plays every move, each other its own
choice, and the node takes the worst of those lines for the root side; so two opponents' worst
are never added up there, and a threat one opponent leaves standing for the other is still seen
(the other's own choice takes a win it has). An opponent never plays into its own mate by the
third side while it has another move (the scores of such lines say who is mated: ``scores``).
Why not max-n: it prunes next to nothing, and at a few thousand nodes a second depth is what
plays.

Wide nodes (Mathematichess's placement stage: 1,400+ drops a position): below the root, only the
``WIDE`` best-ordered moves are searched (captures, the table move and killers come first); at the
root, the moves are first ranked by a one-ply static evaluation when there is time for it, and
only the ``ROOT_WIDE`` best go into the deeper search.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from ..errors import ChesseryError
from ..moves import Move
from ..position import Outcome, Position
from ..variant import Variant
from .evaluation import Evaluator
from .limits import Deadline, Limits, StopSignal
from .ordering import MoveOrderer
from .pruning import worth_searching
from .scores import INF, LOSS_BOUND, MATE, MATE_BOUND, from_table, loss_plies, lost_to_another, mated_in_band, to_table
from .sides import OwnChoices
from .skill import MAX_SKILL, QUIESCENCE_PLIES, skill_depth, skill_noise, skill_quiescence
from .table import EXACT, LOWER, UPPER, Entry, TranspositionTable, move_key

__all__ = ["MATE", "MATE_BOUND", "Info", "Result", "Searcher"]

#: Quiescence plies in which a side in check searches every answer instead of standing pat.
EVASION_PLIES = 2
#: Below the root, at most this many moves of a node are searched (see the module docstring).
WIDE = 48
ROOT_WIDE = 64
#: Beyond the first ``QUIET_PLIES`` capture plies of quiescence, only the ``QUIET_WIDE`` best
#: captures (victim value first) are followed: Royal Fury's charges and chains give dozens of
#: captures a node and six plies of all of them cost thousands of nodes a leaf.
QUIET_PLIES, QUIET_WIDE = 2, 4
#: How much better one move of a man another side owns (a meddle) may leave the static score for
#: the mover, for futility at the frontier (``_node``). Measured in 5,919 positions where the mover
#: meddles (60 random games of each Meddlers variant): the best meddle always left the static score
#: worse for the mover, by at least 1 cp (p99: by 31-39 cp; the turn passes to the enemy).
FOREIGN_MARGIN = 50
#: The deadline is looked at every this many nodes (a node costs 50-400 us, the look under 1 us;
#: a single node of a wide position can cost milliseconds, so every node).
CHECK_EVERY = 1


class _Abort(ChesseryError):
    """The deadline passed or the search was stopped: unwind to the root (never leaves
    ``Searcher.search``; a ChesseryError like every exception class of the project)."""


@dataclass
class Info:
    """One finished iteration: what UCI's ``info`` line reports."""

    depth: int
    score: int          # centipawns for the root side, or a mate score (see ``mate``)
    nodes: int
    seconds: float
    pv: list[Move] = field(default_factory=list)

    @property
    def mate(self) -> int | None:
        """Plies to a forced win (>0) or loss (<0: mated, or with three sides another side mates
        the third), or None."""
        if self.score >= MATE_BOUND:
            return MATE - self.score
        lost = loss_plies(self.score)
        return None if lost is None else -lost


@dataclass
class Result:
    move: Move | None     # None: the side to move has no legal move (the game is over)
    score: int
    depth: int
    nodes: int
    seconds: float
    pv: list[Move] = field(default_factory=list)


class Searcher:
    """Searches positions of one variant; keeps its table, killers and history between moves of a
    game (``new_game`` clears them)."""

    def __init__(self, variant: Variant, hash_mb: int = 16, skill: int = MAX_SKILL, seed: int | None = None) -> None:
        self.v = variant
        self.rules = variant.rules
        self.evaluator = Evaluator(variant)
        self.table = TranspositionTable(hash_mb)
        self.orderer = MoveOrderer(self.evaluator.tables, variant.is_royal, variant.owner)
        self.skill = skill
        self.rng = random.Random(seed)
        self.nodes = 0
        self.pos: Position | None = None
        self.root_side = 0
        self._partial: dict[Move, int] = {}
        self._last_exact: dict[Move, int] = {}
        self.qplies = QUIESCENCE_PLIES
        self.checks_matter = variant.royalty == "checkmate"
        self.several = variant.nsides > 2
        self.own_choices = OwnChoices(variant, self.evaluator)
        #: Per side, in the current search: it plays for itself (``OwnChoices``), not against us.
        self.for_itself = [False] * variant.nsides

    def new_game(self) -> None:
        self.table.clear()
        self.orderer.clear()
        self.own_choices.clear()

    # -- the root ------------------------------------------------------------------------------
    def search(self, position: Position, limits: Limits, stop: StopSignal | None = None,
               on_info: Callable[[Info], None] | None = None,
               clock: Callable[[], float] = time.monotonic) -> Result:
        """The best move found within ``limits``; ``on_info`` hears each finished iteration."""
        pos = position.copy()  # the caller's position is never touched, even when cut short
        self.pos = pos
        self.root_side = pos.side
        self.nodes = 0
        self.for_itself = [s != pos.side and not self.rules.plays_against(s, pos.side)
                           for s in range(self.v.nsides)]
        skill = max(0, min(MAX_SKILL, self.skill))
        cap = skill_depth(skill)
        if cap is not None:
            limits = Limits(depth=min(limits.depth or cap, cap), nodes=limits.nodes, movetime=limits.movetime,
                            time_left=limits.time_left, increment=limits.increment,
                            moves_to_go=limits.moves_to_go, infinite=False)
        self.deadline = deadline = Deadline(limits, stop, clock)
        self.max_nodes = limits.nodes
        self.qplies = skill_quiescence(skill)
        self.checks_matter = self.v.royalty == "checkmate"
        self.orderer.new_search()
        moves = self.rules.legal_moves(pos)
        if not moves or pos.outcome() is not None:
            return Result(None, self._static(), 0, 0, deadline.elapsed())
        entry = self.table.get(pos.hash)
        moves = self.orderer.order(moves, entry.move if entry else None, 0, pos.side)
        if len(moves) > ROOT_WIDE:
            moves = self._rank_wide_root(moves)
        exact = skill < MAX_SKILL  # noise needs every root move's own score
        best: Move = moves[0]
        best_score = -INF
        pv: list[Move] = [best]
        depth_done = 0
        for depth in range(1, deadline.max_depth + 1):
            try:
                scores = self._root(moves, depth, exact)
            except _Abort:
                scores = self._partial
                # A cut iteration still counts when its first move (the last best) was searched:
                # any move found better since has been searched as deep.
                if scores and moves[0] in scores:
                    top = max(scores.values())
                    best = next(m for m in moves if m in scores and scores[m] == top)
                    best_score = top
                break
            moves.sort(key=lambda m: -scores[m])  # stable: equal scores keep their order
            best, best_score, depth_done = moves[0], scores[moves[0]], depth
            pv = self._pv(best, depth)
            if on_info is not None:
                on_info(Info(depth, best_score, self.nodes, deadline.elapsed(), pv))
            if abs(best_score) >= MATE_BOUND and MATE - abs(best_score) <= depth:
                break  # a forced result within the horizon: deeper search will not change it
            if len(moves) == 1 and not limits.infinite:
                break
            if self.max_nodes is not None and self.nodes >= self.max_nodes:
                break
            if not deadline.may_deepen():
                break
        if exact and depth_done:
            best, best_score = self._with_noise(moves, self._last_exact, skill)
            pv = [best]
        if not pv or pv[0] is not best:
            pv = [best]
        return Result(best, best_score, depth_done, self.nodes, deadline.elapsed(), pv)

    def _rank_wide_root(self, moves: list[Move]) -> list[Move]:
        """Many root moves: rank them by a one-ply static evaluation (as far as a quarter of the
        time allows) and keep the best ``ROOT_WIDE``."""
        pos = self.pos
        assert pos is not None
        deadline = self.deadline
        budget = None if deadline.soft is None else deadline.soft / 4
        scored: list[tuple[int, int, Move]] = []
        for i, m in enumerate(moves):
            if budget is not None and i % 32 == 0 and deadline.elapsed() > budget:
                scored.extend((INF, j, rest) for j, rest in enumerate(moves[i:], start=i))
                break
            pos.push(m)
            scored.append((-self.evaluator.relative(pos, self.root_side), i, m))
            pos.pop()
        scored.sort()
        return [m for _s, _i, m in scored[:ROOT_WIDE]]

    def _root(self, moves: list[Move], depth: int, exact: bool) -> dict[Move, int]:
        pos = self.pos
        assert pos is not None
        alpha = -INF
        scores: dict[Move, int] = {}
        self._partial = scores
        for m in moves:
            pos.push(m)
            s = self._node(depth - 1, -INF if exact else alpha, INF, 1)
            pos.pop()
            scores[m] = s
            if s > alpha:
                alpha = s
                self.table.put(pos.hash, Entry(depth, s, EXACT, move_key(m), self.root_side))
        self._last_exact = dict(scores)
        return scores

    def _with_noise(self, moves: list[Move], scores: dict[Move, int], skill: int) -> tuple[Move, int]:
        spread = skill_noise(skill)
        best, best_noisy, best_score = moves[0], -INF * 2, scores.get(moves[0], 0)
        for m in moves:
            if m not in scores:
                continue
            s = scores[m]
            # never throw away a forced win, nor walk into a forced loss when another move avoids it
            noisy = s if abs(s) >= MATE_BOUND else s + self.rng.randint(-spread, spread)
            if noisy > best_noisy:
                best, best_noisy, best_score = m, noisy, s
        return best, best_score

    # -- inner nodes ----------------------------------------------------------------------------
    def _tick(self) -> None:
        self.nodes += 1
        if self.max_nodes is not None and self.nodes >= self.max_nodes:
            raise _Abort
        if self.nodes % CHECK_EVERY == 0 and self.deadline.out_of_time():
            raise _Abort

    def _node(self, depth: int, alpha: int, beta: int, ply: int, replied: bool = False) -> int:
        """The node's score for the root side. ``replied``: in the first round, an earlier
        opponent of the round plays every move, so this one (unless it is the root side) makes
        its own choice."""
        self._tick()
        pos = self.pos
        assert pos is not None
        if self._repeated(pos):
            return 0
        outcome = pos.outcome()
        if outcome is not None:
            return self._terminal(outcome, ply)
        if depth <= 0:
            return self._quiesce(alpha, beta, ply, 0)
        root = self.root_side
        side = pos.side
        # ply < nsides: the sides to move after the root's move and before its next one (no
        # game of more than two sides has multi-move turns)
        first_round = self.several and side != root and ply < self.v.nsides
        if (replied and side != root) or (not first_round and self.for_itself[side]):
            own = self.own_choices.choose(pos)
            if own is None:
                return self._static()
            pos.push(own)
            s = self._node(depth - 1, alpha, beta, ply + 1, replied)
            pos.pop()
            return s
        table = self.table
        key = pos.hash
        entry = table.get(key)
        tt_move = None
        if entry is not None:
            tt_move = entry.move
            if entry.root_side == root and entry.depth >= depth:
                s = from_table(entry.score, ply)
                bound = entry.bound
                if bound == EXACT or (bound == LOWER and s >= beta) or (bound == UPPER and s <= alpha):
                    return s
        moves = self.rules.legal_moves(pos)
        if not moves:
            return self._static()
        orderer = self.orderer
        moves = orderer.order(moves, tt_move, ply, pos.side)
        if len(moves) > WIDE:
            moves = moves[:WIDE]
        maximizing = side == root
        futile = False
        if depth == 1 and all(self.v.owner[m.piece] != side for m in moves):
            # Futility at the frontier where every move is of a man another side owns (Meddlers'
            # meddle): such a move takes nothing of the mover's enemies and hands the turn over,
            # so it leaves the standing score no better for the mover (``FOREIGN_MARGIN``); when
            # that cannot reach the window, only the moves that give check are searched.
            stand = self._static()
            futile = stand + FOREIGN_MARGIN <= alpha if maximizing else stand - FOREIGN_MARGIN >= beta
        several = self.several
        a0, b0 = alpha, beta
        best = -INF if maximizing else INF
        best_move = moves[0]
        own_end = INF  # the best of the lines where this opponent is mated by another
        push, pop, node = pos.push, pos.pop, self._node
        in_check = self.rules.in_check
        answered_from = 0  # children from here on: this opponent plays every move of the layer
        if first_round and ply < self.v.nsides - 1:
            # The best-reply layer: this opponent's own choice first, with a later one searched in
            # full (the last opponent before the root side moves has no later one).
            own = self.own_choices.choose(pos)
            if own is not None:
                moves = [own, *moves]
                answered_from = 1
        for i, m in enumerate(moves):
            push(m)
            if futile and not in_check(pos):
                pop()
                continue
            s = node(depth - 1, alpha, beta, ply + 1, first_round and i >= answered_from)
            pop()
            if maximizing:
                if s > best:
                    best, best_move = s, m
                    if s > alpha:
                        alpha = s
            elif several and s <= LOSS_BOUND and mated_in_band(s) == side:
                own_end = min(own_end, s)  # nobody plays into his own mate while he has another move
                continue
            elif s < best:
                best, best_move = s, m
                if s < beta:
                    beta = s
            if alpha >= beta:
                orderer.cutoff(m, depth, ply)
                break
        if best == INF and own_end < INF:
            best = own_end
        if futile and abs(best) == INF:
            best = stand + FOREIGN_MARGIN if maximizing else stand - FOREIGN_MARGIN
        bound = UPPER if best <= a0 else LOWER if best >= b0 else EXACT
        table.put(key, Entry(depth, to_table(best, ply), bound, move_key(best_move), root))
        return best

    def _quiesce(self, alpha: int, beta: int, ply: int, qply: int) -> int:
        pos = self.pos
        assert pos is not None
        if qply:
            self._tick()
            outcome = pos.outcome()
            if outcome is not None:
                return self._terminal(outcome, ply)
        stand = self._static()
        if qply >= self.qplies:
            return stand
        maximizing = pos.side == self.root_side
        rules = self.rules
        if self.checks_matter and qply < EVASION_PLIES and rules.in_check(pos):
            # In check there is no standing pat: every answer is searched, so a mate by a capture
            # or a check just beyond the depth is seen (no answer: the outcome said so above).
            best = -INF if maximizing else INF
            captures = self.orderer.order(rules.legal_moves(pos), None, min(ply, 127), pos.side)
        else:
            # Standing pat: the side to move need not capture.
            if maximizing:
                if stand >= beta:
                    return stand
                alpha = max(alpha, stand)
            else:
                if stand <= alpha:
                    return stand
                beta = min(beta, stand)
            best = stand
            captures = worth_searching(self.orderer.captures(rules.legal_moves(pos), pos.side), stand,
                                       alpha if maximizing else beta, maximizing, pos.side,
                                       self.evaluator.tables.values, self.v)
            if qply >= QUIET_PLIES:
                captures = captures[:QUIET_WIDE]
        side = pos.side
        several = self.several
        own_end = INF
        for m in captures:
            pos.push(m)
            s = self._quiesce(alpha, beta, ply + 1, qply + 1)
            pos.pop()
            if maximizing:
                if s > best:
                    best = s
                    alpha = max(alpha, s)
            elif several and s <= LOSS_BOUND and mated_in_band(s) == side:
                own_end = min(own_end, s)
                continue
            elif s < best:
                best = s
                beta = min(beta, s)
            if alpha >= beta:
                break
        if best == INF and own_end < INF:
            best = own_end
        return best

    # -- helpers --------------------------------------------------------------------------------
    def _static(self) -> int:
        assert self.pos is not None
        return self.evaluator.relative(self.pos, self.root_side)

    def _terminal(self, outcome: Outcome, ply: int) -> int:
        winner = outcome.winner
        if winner is None:
            return 0
        root = self.root_side
        if winner == root:
            return MATE - ply
        assert self.pos is not None
        mated = self.pos.side  # checkmate: the side to move has no move
        if self.several and outcome.termination == "checkmate" and mated != root:
            return lost_to_another(mated, ply)
        return -(MATE - ply)

    @staticmethod
    def _repeated(pos: Position) -> bool:
        """The position occurred before since the last irreversible move: a draw for the search
        (whatever the variant's repetition count, cycling gains nothing)."""
        history = pos.history
        window = pos.halfmove + 1
        if len(history) < 5 or window < 5:
            return False
        h = history[-1]
        return h in history[-window:-1]

    def _pv(self, first: Move, depth: int) -> list[Move]:
        """The principal variation: ``first``, then the table's best moves while they are legal."""
        pos = self.pos
        assert pos is not None
        pv = [first]
        with pos.after(first):
            seen = {pos.hash}
            while len(pv) < depth:
                entry = self.table.get(pos.hash)
                if entry is None or entry.move is None or pos.outcome() is not None:
                    break
                nxt = next((m for m in self.rules.legal_moves(pos) if move_key(m) == entry.move), None)
                if nxt is None:
                    break
                pos.push(nxt)
                pv.append(nxt)
                if pos.hash in seen:
                    break
                seen.add(pos.hash)
        return pv

