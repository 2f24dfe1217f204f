"""The search where a player moves men he does not own (Meddlers' meddle, the second half of a
turn): the order of those moves, quiescence, and futility at the frontier."""

from __future__ import annotations

import random

import pytest

from engine import Position, find_variant, parse_fen, start_position, variant_names
from engine.search import Limits, Searcher
from engine.search.alphabeta import FOREIGN_MARGIN
from engine.search.evaluation import Evaluator
from engine.search.ordering import MoveOrderer
from engine.search.scores import INF, MATE_BOUND

#: White's rook on a8 looks along the back rank at Black's king, behind Black's queen-side knight
#: on d8, which White moves in his meddle.
BEHIND_THE_KNIGHT = "R2s3k/6pp/4P3/8/8/8/8/4K3 w - - 0 1"
#: The same without the rook's line: no meddle gives check.
NO_LINE = "3s3k/6pp/4P3/8/8/8/8/R3K3 w - - 0 1"


def at_the_meddle(fen: str) -> Position:
    """The position after White's first half-move e1e2: White meddles next."""
    pos = parse_fen(find_variant("meddlers"), fen)
    pos.push(next(m for m in pos.legal_moves() if pos.move_text(m) == "e1e2"))
    assert pos.side == 0
    return pos


def random_positions(name: str, games: int, plies: int, seed: int) -> list[Position]:
    v = find_variant(name)
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        pos = start_position(v)
        for _ in range(plies):
            moves = pos.legal_moves()
            if not moves or pos.outcome() is not None:
                break
            out.append(pos.copy())
            pos.push(rng.choice(moves))
    return out


def test_only_the_meddlers_games_move_men_another_side_owns() -> None:
    # What the ordering and the futility of foreign moves change is confined to these two games:
    # no other variant ever offers a side a man it does not own (so their searches are the same).
    movers = set()
    for name in variant_names():
        v = find_variant(name)
        for pos in random_positions(name, 2, 30, 7):
            if any(v.owner[m.piece] != pos.side for m in pos.legal_moves()):
                movers.add(name)
                break
    assert movers == {"meddlers", "meddlers-pawns"}


def test_a_meddle_that_takes_the_movers_own_man_is_ordered_last_and_not_followed_in_quiescence() -> None:
    v = find_variant("meddlers")
    pos = at_the_meddle(BEHIND_THE_KNIGHT)
    moves = pos.legal_moves()
    takes_own = [m for m in moves if m.captured]
    assert [pos.move_text(m) for m in takes_own] == ["d8e6"]  # Black's knight takes White's pawn
    orderer = MoveOrderer(Evaluator(v).tables, v.is_royal, v.owner)
    orderer.new_search()
    ordered = orderer.order(moves, None, 1, pos.side)
    assert ordered[-1] is takes_own[0]
    assert orderer.captures(moves, pos.side) == []


@pytest.mark.parametrize("name", ["meddlers", "meddlers-pawns"])
def test_no_meddle_leaves_the_mover_better_off_than_the_futility_margin(name: str) -> None:
    # The futility at the frontier relies on this: moving an enemy man hands the turn over and
    # takes nothing of the enemy's, so the standing score does not rise by the margin.
    v = find_variant(name)
    ev = Evaluator(v)
    gains = []
    for pos in random_positions(name, 8, 60, 11):
        moves = pos.legal_moves()
        if not moves or any(v.owner[m.piece] == pos.side for m in moves):
            continue
        mover = pos.side
        stand = ev.relative(pos, mover)
        best = -INF
        for m in moves:
            with pos.after(m):
                if not v.rules.in_check(pos):  # a meddle that gives check is always searched
                    best = max(best, ev.relative(pos, mover))
        if best > -INF:
            gains.append(best - stand)
    assert len(gains) > 100
    assert max(gains) < FOREIGN_MARGIN


def frontier(pos: Position, alpha: int) -> tuple[int, int]:
    """The score and nodes of a depth-1 search of the meddle node ``pos`` in the window
    (``alpha``, +inf), as the search reaches it one ply below its root."""
    searcher = Searcher(pos.variant)
    searcher.search(pos, Limits(depth=1))  # sets up the search's state
    searcher.new_game()  # and forgets what it found
    searcher.pos = pos
    searcher.root_side = pos.side
    searcher.nodes = 0
    return searcher._node(1, alpha, INF, 1), searcher.nodes


def test_a_futile_meddle_node_searches_nothing_but_the_meddles_that_give_check() -> None:
    quiet = at_the_meddle(NO_LINE)
    stand = Evaluator(quiet.variant).relative(quiet, quiet.side)
    score, nodes = frontier(quiet, stand + FOREIGN_MARGIN + 1)
    assert score <= stand + FOREIGN_MARGIN  # failed low without a child searched
    assert nodes == 1
    # Every meddle here uncovers the rook's mate along the back rank: searched all the same.
    mating = at_the_meddle(BEHIND_THE_KNIGHT)
    stand = Evaluator(mating.variant).relative(mating, mating.side)
    score, nodes = frontier(mating, stand + FOREIGN_MARGIN + 1)
    assert score >= MATE_BOUND
    assert nodes > 1
