"""The search with three sides (Triscacia): the right-hand opponent plays against the searching
side, the left-hand one for itself (``engine.search.sides``), in the replies right after the
searching side's move only one opponent's worst counts, nobody plays into his own mate by the
third side, and such a mate scores as the searching side's loss, marked with the mated side
(``engine.search.scores``). Positions are Blue (b) to move unless said; docs/search.md."""

from __future__ import annotations

import pytest

from engine import Move, Position, find_variant, parse_fen
from engine.search import Limits, Searcher
from engine.search.alphabeta import Info
from engine.search.scores import (
    INF,
    LOSS_BOUND,
    MATE_BOUND,
    from_table,
    loss_plies,
    lost_to_another,
    mated_in_band,
    to_table,
)
from engine.search.sides import OwnChoices

TRIS = find_variant("triscacia")
BLUE, GREEN, RED = 0, 1, 2
# Red's king h8 behind its own pawns; the green rook a2 mates it on a8 once the eighth rank is
# open (Green may check Red, its left-hand opponent). The blue rook c3 can close the a-file (a3,
# b3: then a8 is out of reach) or stand in the way on c6... only some of its moves stop the mate.
GUARD = "7rK/6rPrP/1gK6/8/8/2bR5/gR7/4bK3 b - - 0 1"


def green_mates(pos: Position) -> list[str]:
    """Green's moves that checkmate (Green to move)."""
    out = []
    for move in pos.legal_moves():
        with pos.after(move):
            outcome = pos.outcome()
            if outcome is not None and outcome.winner == GREEN:
                out.append(pos.move_text(move))
    return out


def test_only_the_opponent_who_may_check_us_plays_against_us() -> None:
    rules = TRIS.rules
    assert [rules.plays_against(s, BLUE) for s in (GREEN, RED)] == [False, True]
    assert [rules.plays_against(s, GREEN) for s in (BLUE, RED)] == [True, False]
    assert find_variant("chess").rules.plays_against(1, 0)


def test_the_left_hand_opponent_takes_a_mate_it_has() -> None:
    pos = parse_fen(TRIS, GUARD)
    pos.push_text("e1f1")  # a blue move that leaves the a-file open
    assert green_mates(pos) == ["a2a8"]
    choice = OwnChoices(TRIS, Searcher(TRIS).evaluator).choose(pos)
    assert choice is not None and pos.move_text(choice) == "a2a8"


def test_blue_stops_the_mate_its_left_hand_opponent_would_give() -> None:
    pos = parse_fen(TRIS, GUARD)
    allowing: list[str] = []
    stopping: list[str] = []
    for move in pos.legal_moves():
        with pos.after(move):
            (allowing if green_mates(pos) else stopping).append(pos.move_text(move))
    assert allowing and stopping  # the choice matters
    result = Searcher(TRIS).search(pos, Limits(depth=2))
    assert result.move is not None and pos.move_text(result.move) in stopping
    assert mated_in_band(result.score) is None and abs(result.score) < MATE_BOUND


def test_a_mate_of_the_third_side_is_our_loss_with_its_mated_side() -> None:
    # Without the blue rook nothing stops Ra8: whatever Blue plays, Green mates Red next.
    pos = parse_fen(TRIS, "7rK/6rPrP/1gK6/8/8/8/gR7/4bK3 b - - 0 1")
    result = Searcher(TRIS).search(pos, Limits(depth=3))
    assert mated_in_band(result.score) == RED
    assert result.score == lost_to_another(RED, 2)
    assert Info(3, result.score, 0, 0.0).mate == -2  # UCI: lost in two plies


def test_the_opponent_against_us_never_plays_into_its_own_mate() -> None:
    # Red to move. Its rook d8 keeps the eighth rank shut; d8a8 puts it where the green rook
    # takes it, and then, whatever Blue does, Ra2xa8 mates Red: a line that would be Blue's
    # loss, but Red's own. Red has other moves, so a search for Blue must not count on it (a
    # paranoid search did: the score was Blue's loss in four plies).
    text = "3rR3rK/6rPrP/7rQ/1gK6/4bK3/8/gR7/8 {} - - 0 1"
    red = parse_fen(TRIS, text.format("r"))
    red.push_text("d8a8")
    assert red.side == BLUE and all(_green_mates_after(red, m) for m in red.legal_moves())
    searcher = Searcher(TRIS)
    searcher.search(parse_fen(TRIS, text.format("b")), Limits(depth=1))  # a search for Blue
    searcher.pos = parse_fen(TRIS, text.format("r"))
    score = searcher._node(3, -INF, INF, 1)  # Red's node inside Blue's search
    assert mated_in_band(score) is None and abs(score) < MATE_BOUND


def _green_mates_after(pos: Position, move: Move) -> bool:
    with pos.after(move):
        return bool(green_mates(pos))


@pytest.mark.parametrize("mated", [0, 1, 2, 5])
@pytest.mark.parametrize("ply", [0, 1, 7, 120])
def test_band_scores_keep_their_side_and_plies_through_the_table(mated: int, ply: int) -> None:
    score = lost_to_another(mated, ply)
    assert mated_in_band(score) == mated and loss_plies(score) == ply
    assert -MATE_BOUND < score <= LOSS_BOUND
    for node_ply in {0, min(ply, 3)}:  # a node is never deeper than the mate it sees
        stored = to_table(score, node_ply)
        assert mated_in_band(stored) == mated
        assert from_table(stored, node_ply) == score
    assert mated_in_band(-2_500) is None and mated_in_band(-(MATE_BOUND + 5)) is None


# Green to move inside a search for Blue. Green's rook a8 can take the blue knight a6 or the red
# queen f8, Red's rook h8 the blue knight h4, Red's knight d3 the green queen e5.
LAYER = "gR4rQ1rR/1gK4rK1/bN4rP2/4gQ3/7bN/3rN4/8/3bK4 {} - - 0 1"


def test_the_first_round_counts_one_opponents_worst() -> None:
    # Skill 0 follows no captures beyond the depth, so every line of two plies ends in the
    # static score and the layer can be worked out by hand: Green plays each move and Red its
    # own choice, or Green its own choice and Red each move; the node is the worst of those.
    searcher = Searcher(TRIS, skill=0)
    searcher.search(parse_fen(TRIS, LAYER.format("b")), Limits(depth=1))  # a search for Blue
    searcher.table.clear()
    green = parse_fen(TRIS, LAYER.format("g"))
    own = searcher.own_choices.choose

    def leaf(pos: Position) -> int:
        assert pos.outcome() is None  # no line here ends the game: the static score is the value
        return searcher.evaluator.relative(pos, BLUE)

    def after_red(pos: Position, red_moves: list[Move]) -> list[int]:
        out = []
        for move in red_moves:
            with pos.after(move):
                out.append(leaf(pos))
        return out

    green_searched: list[int] = []
    paranoid: list[int] = []
    for move in green.legal_moves():
        with green.after(move):
            red_choice = own(green)
            assert red_choice is not None
            green_searched += after_red(green, [red_choice])
            paranoid.append(min(after_red(green, green.legal_moves())))
    green_choice = own(green)
    assert green_choice is not None
    with green.after(green_choice):
        red_searched = after_red(green, green.legal_moves())
    searcher.pos = green
    score = searcher._node(2, -INF, INF, 1)
    assert score == min(green_searched + red_searched)
    # Both opponents' worst together (Green takes the knight a6, then Red makes its worst move
    # for Blue), which a paranoid first round counts, is not.
    assert score > min(paranoid)
