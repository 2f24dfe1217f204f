"""The computer opponent's search (engine.search): wins it must see, material it must take, and a
legal answer in any position of every variant. Bounded by depth or nodes, never by time."""

from __future__ import annotations

import random
import threading

import pytest

from engine import find_variant, parse_fen, start_position, variant_names
from engine.components.mutation import Mutation
from engine.components.three_sides import ThreeSides
from engine.search import MATE, MATE_BOUND, Limits, Searcher
from engine.search.evaluation import Evaluator
from engine.search.limits import Deadline

# (variant, position, the moves that win at once): found by playing seeded random games until a
# position had a winning move among others that do not win.
WINS_IN_ONE = [
    ("chess", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", {"a1a8"}),
    ("chess", "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4", {"h5f7"}),
    ("gryphon", "Rnbq2k1/p3b2p/Qn1n1n1r/2K3b1/2R4N/N4N2/1PP1P2Q/R3K1N1 b - - 2 18", {"d6e8", "d6c4"}),
    ("zeta", "6P1/P1p3p1/1PPPPp1P/P6p/5p2/4p3/p7/4p3 w - - 66 34", {"a5a6", "a7a6"}),
    ("alice", "r4bn1/1pp1kp2/8/8/2B1P3/8/3P2PP/1NB1K3/8/R2b3r/2npp2p/6p1/8/PPP2P2/4N3/3q2R1 b - - 4 15",
     {"d1'g1'"}),
]


@pytest.mark.parametrize(("name", "fen", "wins"), WINS_IN_ONE, ids=[f"{w[0]}-{i}" for i, w in enumerate(WINS_IN_ONE)])
def test_a_win_in_one_is_found(name: str, fen: str, wins: set[str]) -> None:
    v = find_variant(name)
    pos = parse_fen(v, fen)
    result = Searcher(v).search(pos, Limits(depth=2))
    assert result.move is not None and pos.move_text(result.move) in wins
    assert result.score >= MATE_BOUND


def test_royal_fury_takes_both_furies_when_it_can() -> None:
    v = find_variant("royal-fury")
    pos = parse_fen(v, "1gh1f1chg1/2Ad3xm1/maa3a1a1/5f1a2/10/8c1/2A2A4/2AA1ADAxM/1MXDJJHX2/1GHC1FC1G1 b - - 1 7")
    result = Searcher(v).search(pos, Limits(depth=1))
    assert result.move is not None
    pos.push(result.move)
    outcome = pos.outcome()
    assert outcome is not None and outcome.winner == 1


@pytest.mark.parametrize(("name", "fen", "capture"), [
    ("chess", "4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1", "d2d5"),
    # the undefended knight, not the pawn the rook defends
    ("chess", "4k3/4r3/4p3/1n6/8/8/4Q3/4K3 w - - 0 1", "e2b5"),
    # on another board, with that variant's own men (a 10x10 board, derived piece values)
    ("sqchess", "5k4/10/10/10/3s6/10/10/10/3R6/5K4 w - - 0 1", "d2d6"),
])
def test_a_hanging_piece_is_taken(name: str, fen: str, capture: str) -> None:
    v = find_variant(name)
    pos = parse_fen(v, fen)
    result = Searcher(v).search(pos, Limits(depth=3))
    assert result.move is not None and pos.move_text(result.move) == capture


def test_a_defended_piece_is_not_taken_by_the_queen() -> None:
    v = find_variant("chess")
    pos = parse_fen(v, "4k3/8/2p5/3n4/8/8/3Q4/4K3 w - - 0 1")  # Qxd5 loses the queen to cxd5
    result = Searcher(v).search(pos, Limits(depth=2))
    assert result.move is not None and pos.move_text(result.move) != "d2d5"


def _random_positions(name: str, count: int, seed: int) -> list:
    v = find_variant(name)
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        pos = start_position(v)
        for _ply in range(rng.randrange(0, 40)):
            moves = pos.legal_moves()
            if not moves or pos.outcome() is not None:
                break
            pos.push(rng.choice(moves))
        out.append(pos)
    return out


@pytest.mark.parametrize("name", variant_names())
def test_the_move_is_always_legal_and_the_position_untouched(name: str) -> None:
    searcher = Searcher(find_variant(name), hash_mb=1, skill=20, seed=1)
    for pos in _random_positions(name, 3, seed=sum(map(ord, name))):
        fen, history = pos.fen(), list(pos.history)
        legal = {pos.move_text(m) for m in pos.legal_moves()}
        result = searcher.search(pos, Limits(nodes=80))
        assert pos.fen() == fen and pos.history == history
        if pos.outcome() is not None or not legal:
            assert result.move is None or pos.move_text(result.move) in legal
            continue
        assert result.move is not None, pos.fen()
        assert pos.move_text(result.move) in legal, (pos.fen(), pos.move_text(result.move))
        assert result.nodes <= 80


def test_meddlers_second_half_is_searched_for_the_same_player() -> None:
    v = find_variant("meddlers")
    pos = start_position(v)
    pos.push_text("e2e4")
    assert pos.side == 0  # the second half: white moves one of black's queen-side men
    legal = {pos.move_text(m) for m in pos.legal_moves()}
    result = Searcher(v).search(pos, Limits(depth=2))
    assert result.move is not None and pos.move_text(result.move) in legal


def test_triscacia_plays_the_side_to_move() -> None:
    v = find_variant("triscacia")
    pos = start_position(v)
    for text in [pos.move_text(pos.legal_moves()[0]) for _ in range(1)]:
        pos.push_text(text)
    side = pos.side
    result = Searcher(v).search(pos, Limits(depth=1))
    assert result.move is not None and v.owner[result.move.piece] == side


def test_depth_and_node_limits_hold() -> None:
    v = find_variant("chess")
    pos = start_position(v)
    assert Searcher(v).search(pos, Limits(depth=2)).depth == 2
    result = Searcher(v).search(pos, Limits(nodes=50))
    assert result.nodes <= 50 and result.move is not None


def test_a_stop_signal_still_yields_a_legal_move() -> None:
    v = find_variant("chess")
    pos = start_position(v)
    stop = threading.Event()
    stop.set()
    result = Searcher(v).search(pos, Limits(infinite=True), stop)
    assert result.move is not None and result.move in pos.legal_moves()


def test_the_clock_budget_is_a_share_of_the_time_left() -> None:
    ticks = iter([0.0, 0.5, 2.9, 3.1])
    deadline = Deadline(Limits(time_left=60.0, increment=1.0), clock=lambda: next(ticks))
    soft, hard = deadline.soft, deadline.hard
    assert soft is not None and hard is not None and 0.5 < soft < hard < 60 * 0.8
    assert deadline.may_deepen()  # 0.5 s in
    assert Limits(movetime=1.0).budget()[1] == pytest.approx(0.97)
    assert Limits(infinite=True).budget() == (None, None)


def test_skill_zero_is_shallow_but_never_misses_a_win() -> None:
    v = find_variant("chess")
    pos = parse_fen(v, "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    for seed in range(5):
        result = Searcher(v, skill=0, seed=seed).search(pos, Limits(depth=6))
        assert result.depth == 1 and result.move is not None and pos.move_text(result.move) == "a1a8"


def test_skill_zero_varies_its_moves() -> None:
    v = find_variant("chess")
    pos = start_position(v)
    moves = {pos.move_text(m) for seed in range(6) if (m := Searcher(v, skill=0, seed=seed)
                                                       .search(pos, Limits(depth=1)).move) is not None}
    assert len(moves) >= 3


def test_the_evaluate_stage_adds_a_line_term_for_zeta() -> None:
    v = find_variant("zeta")
    ev = Evaluator(v)
    # the same eight white men: four in a diagonal run in the enemy half, or scattered there
    run = parse_fen(v, "8/4P3/3P4/2P5/1P6/8/8/PPPP4 w - - 0 1")
    scattered = parse_fen(v, "8/P3P3/8/2P3P1/8/8/8/PPPP4 w - - 0 1")
    assert ev.scores(run)[0] > ev.scores(scattered)[0]


def test_the_evaluate_stage_counts_mathematichess_points() -> None:
    v = find_variant("mathematichess")
    pos = _random_positions("mathematichess", 1, seed=7)[0]
    scoring = v.rules.scoring
    assert scoring is not None
    totals = scoring.score(pos).totals
    base = [0, 0]
    v.rules.evaluate(pos, Evaluator(v).tables.values, base)
    assert base == list(totals)


def test_the_evaluate_stage_values_gryphon_men_by_what_they_become() -> None:
    v = find_variant("gryphon")
    pos = start_position(v)
    values = Evaluator(v).tables.values
    scores = [0, 0]
    v.rules.evaluate(pos, values, scores)
    becomes = v.rules.get(Mutation).becomes
    # a pawn becomes a knight, a knight a bishop...: each man counts a quarter of what it gains
    want = sum((values[becomes[c]] - values[c]) // 4 for c in pos.board if c and v.owner[c] == 0 and becomes[c])
    assert scores[0] == want > 0


def test_the_evaluate_stage_counts_the_meddlers_half_moves_to_come() -> None:
    v = find_variant("meddlers")
    pos = start_position(v)
    first = [0, 0]
    v.rules.evaluate(pos, Evaluator(v).tables.values, first)
    pos.push_text("e2e4")
    second = [0, 0]
    v.rules.evaluate(pos, Evaluator(v).tables.values, second)
    assert first[0] == 2 * second[0] > 0 and first[1] == second[1] == 0


def test_a_mate_in_two_by_checks_is_seen_through_quiescence() -> None:
    # Rd8+ Rxd8 Rxd8#: at depth 2 the mating recapture lies beyond the depth, where a side in
    # check answers with every move instead of standing pat
    v = find_variant("chess")
    pos = parse_fen(v, "2r3k1/5ppp/8/8/8/8/3R1PPP/3R2K1 w - - 0 1")
    result = Searcher(v).search(pos, Limits(depth=2))
    assert result.move is not None and pos.move_text(result.move) == "d2d8"
    assert result.score == MATE - 3


def test_the_evaluate_stage_rewards_pressure_on_the_left_hand_opponent_only() -> None:
    v = find_variant("triscacia")
    pos = start_position(v)
    values = Evaluator(v).tables.values
    three = v.rules.get(ThreeSides)
    before = [0, 0, 0]
    three.evaluate(pos, values, before)  # the term alone: the exposure component adds its own
    blue, green, red = 0, 1, 2
    # a blue man put next to green's king (blue's left-hand opponent) counts; next to red's not
    green_king = v.rules.royal_cells(pos.board, green)[0]
    red_king = v.rules.royal_cells(pos.board, red)[0]
    queen = v.code(v.kind_index["Q"], blue)
    for king, gain in ((green_king, True), (red_king, False)):
        cell = next(c for c in sorted(three.near[king]) if not pos.board[c])
        pos.board[cell] = queen
        after = [0, 0, 0]
        three.evaluate(pos, values, after)
        pos.board[cell] = 0
        assert (after[blue] > before[blue]) == gain and after[green] == before[green]


def test_the_mop_up_drives_a_bare_king_to_the_edge_and_the_men_to_it() -> None:
    # White a queen and a rook up: its lead grows as the black king nears the edge and as the
    # white men near that king (the mop-up).
    chess = find_variant("chess")
    ev = Evaluator(chess)

    def white_minus_black(fen: str) -> int:
        scores = ev.scores(parse_fen(chess, fen))
        return scores[0] - scores[1]

    centre = white_minus_black("8/8/8/3k4/8/8/8/QR4K1 b - - 0 1")
    edge = white_minus_black("3k4/8/8/8/8/8/8/QR4K1 b - - 0 1")
    near = white_minus_black("3k4/8/1QR5/8/8/8/8/6K1 b - - 0 1")
    assert edge - centre > 15
    assert near - edge > 20
