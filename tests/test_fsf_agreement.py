"""Random-playout agreement with Fairy-Stockfish (its Python binding ``pyffish``) for the 10x10 games
of Parton's booklet: at every position of seeded random games, the same legal moves (our move text
is UCI with ranks written 1..10, as Fairy-Stockfish writes them), the same check status, and at the
end the same outcome. Each variant is configured in Fairy-Stockfish with the ini below, which states
the same rules as our TOML (docs/rules/<name>.md). Slow: 5,000+ positions per variant, split by seed
so pytest-xdist spreads them over workers; plus chosen positions random games rarely reach."""

from __future__ import annotations

import random

import pytest

from engine import Position, find_variant, start_position

sf = pytest.importorskip("pyffish")

#: Fairy-Stockfish variants.ini definitions of the same rules.
SQCHESS_INI = """
[sqchess:chess]
maxRank = 10
maxFile = j
customPiece1 = i:mBcR
customPiece2 = s:mRcB
startFen = rnbsqkibnr/pppppppppp/10/10/10/10/10/10/PPPPPPPPPP/RNBSQKIBNR w KQkq - 0 1
promotionRegionWhite = *10
promotionRegionBlack = *1
promotionPieceTypes = qrbnis
doubleStepRegionWhite = *2
doubleStepRegionBlack = *9
castlingKingFile = f
castlingKingsideFile = h
castlingQueensideFile = d
"""
SQCHESS_EXTENDED_INI = """
[sqchess-extended:sqchess]
startFen = risbqkbsir/ppppnnpppp/10/10/10/10/10/10/PPPPNNPPPP/RISBQKBSIR w KQkq - 0 1
"""
# Two kings: Fairy-Stockfish's royal king is single, so the kings are commoners made pseudo-royal
# (a move may leave none of them attacked; with no legal move while one is attacked, the side is
# mated), as in its own "twokings2" definition.
TWEEDLE_INI = """
[tweedle:chess]
maxRank = 10
maxFile = j
king = -
commoner = k
extinctionValue = loss
extinctionPseudoRoyal = true
extinctionPieceTypes = k
extinctionPieceCount = 1
castling = false
startFen = rnbkqqkbnr/pppppppppp/10/10/10/10/10/10/PPPPPPPPPP/RNBKQQKBNR w - - 0 1
promotionRegionWhite = *10
promotionRegionBlack = *1
doubleStepRegionWhite = *2
doubleStepRegionBlack = *9
"""
INI = {"sqchess": SQCHESS_INI, "sqchess-extended": SQCHESS_EXTENDED_INI, "tweedle": TWEEDLE_INI}

SEEDS = range(10)
POSITIONS_PER_SEED = 500  # 10 seeds: 5,000 positions per variant
MAX_PLIES = 400
CAPTURE_BIAS = 0.6  # chance to pick a capture when there is one: games reach their endings


@pytest.fixture(scope="module", autouse=True)
def _fairy_stockfish_variants() -> None:
    sf.load_variant_config(SQCHESS_INI + SQCHESS_EXTENDED_INI + TWEEDLE_INI)


def check_ending(name: str, pos: Position, reset_fen: str, since: list[str], fsf_moves: set[str]) -> str:
    """Compare how the game stands at ``pos``; return our termination name ('' while it goes on)."""
    fen = pos.fen()
    outcome = pos.outcome()
    if not fsf_moves:
        # no legal move: Fairy-Stockfish scores it from the side to move (negative: mated)
        result = sf.game_result(name, fen, [])
        assert outcome is not None, fen
        if result < 0:
            assert (outcome.termination, outcome.winner) == ("checkmate", 1 - pos.side), fen
        else:
            assert result == 0 and (outcome.termination, outcome.winner) == ("stalemate", None), fen
        return outcome.termination
    if outcome is None:
        if sum(1 for c in pos.board if c) <= 4:  # a bare ending that one side could call dead
            assert tuple(sf.has_insufficient_material(name, fen, [])) != (True, True), fen
        return ""
    if outcome.termination == "fifty_move":
        assert tuple(sf.is_optional_game_end(name, fen, [])) == (True, 0), fen
    elif outcome.termination == "repetition":
        # Fairy-Stockfish sees repetitions in the moves played since the last capture or pawn move
        assert tuple(sf.is_optional_game_end(name, reset_fen, since)) == (True, 0), fen
    elif outcome.termination == "insufficient_material":
        assert tuple(sf.has_insufficient_material(name, fen, [])) == (True, True), fen
    else:
        pytest.fail(f"unexpected outcome {outcome} in {fen}")
    return outcome.termination


def play_and_compare(name: str, seed: int) -> dict[str, int]:
    """Random games until ``POSITIONS_PER_SEED`` positions are compared; counts of endings."""
    variant = find_variant(name)
    rng = random.Random(f"{name}/{seed}")
    positions = 0
    endings: dict[str, int] = {}
    while positions < POSITIONS_PER_SEED:
        pos = start_position(variant)
        reset_fen = pos.fen()
        since: list[str] = []
        for _ply in range(MAX_PLIES):
            positions += 1
            fen = pos.fen()
            legal = pos.legal_moves()
            ours = {pos.move_text(m) for m in legal}
            theirs = set(sf.legal_moves(name, fen, []))
            assert ours == theirs, (fen, sorted(ours - theirs), sorted(theirs - ours))
            assert pos.is_check() == sf.gives_check(name, fen, []), fen
            ending = check_ending(name, pos, reset_fen, since, theirs)
            if ending:
                endings[ending] = endings.get(ending, 0) + 1
                break
            captures = [m for m in legal if m.captured or m.tag == "ep"]
            move = rng.choice(captures if captures and rng.random() < CAPTURE_BIAS else legal)
            text = pos.move_text(move)
            pos.push(move)
            if pos.halfmove == 0:
                reset_fen, since = pos.fen(), []
            else:
                since.append(text)
    return endings


@pytest.mark.slow
@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("name", sorted(INI))
def test_random_playouts_agree_with_fairy_stockfish(name: str, seed: int) -> None:
    endings = play_and_compare(name, seed)
    assert sum(endings.values()) >= 1  # the games reached an end, so outcomes were compared


#: Positions random games rarely reach: en passant right after double steps, castling next to
#: attacked or occupied cells, promotion to every choice, mates and stalemates.
SPECIAL_POSITIONS = [
    ("sqchess", "r4k3r/pppppppppp/10/1P1P4P1/10/10/10/10/PPPPPPPPPP/R4K3R b KQkq - 0 1"),
    ("sqchess", "r4k3r/10/10/10/10/10/10/10/10/R4K3R w KQkq - 0 1"),
    ("sqchess", "r4k3r/10/10/10/6r3/10/B9/10/10/R4K3R w KQkq - 0 1"),
    ("sqchess", "r4k3r/10/10/10/10/10/10/10/10/R3IK3R w KQkq - 0 1"),
    ("sqchess", "5k4/P8P/10/10/10/10/10/10/p8p/5K4 w - - 0 1"),
    ("sqchess", "5k4/10/10/10/10/10/10/10/10/5K4 w - - 0 1"),
    ("sqchess", "4k5/10/4K5/10/10/10/10/10/10/I9 w - - 0 1"),
    ("sqchess", "k9/10/1K8/10/10/10/10/10/10/1S8 w - - 0 1"),
    ("sqchess", "9k/10/8K1/5S4/10/10/10/10/10/9I b - - 0 1"),  # Biok and Roshop mate
    ("sqchess", "9k/10/8K1/5S4/10/10/10/10/10/10 b - - 0 1"),  # stalemate
    ("sqchess-extended", "r4k3r/ppppnnpppp/10/10/10/10/10/10/PPPPNNPPPP/R4K3R w KQkq - 0 1"),
    ("tweedle", "rnbkqqkbnr/pppppppppp/10/1P6P1/10/10/10/10/P1PPPPPP1P/RNBKQQKBNR b - - 0 1"),
    ("tweedle", "4r5/10/3k1k4/10/4N5/10/10/10/10/K9 b - - 0 1"),
    ("tweedle", "10/10/3k1k4/10/4N5/10/10/10/10/K8R b - - 0 1"),
    ("tweedle", "k6k2/6b3/10/10/10/2B7/10/10/10/K8K b - - 0 1"),
    ("tweedle", "k9/10/1R8/10/10/10/10/10/10/R3K4k b - - 0 1"),
    ("tweedle", "k8k/10/1Q6Q1/10/10/10/10/10/10/K8K w - - 0 1"),
]


@pytest.mark.parametrize(("name", "fen"), SPECIAL_POSITIONS)
def test_special_positions_and_their_replies_agree_with_fairy_stockfish(name: str, fen: str) -> None:
    """Each position and every position one move later: moves, check, and the end if any."""
    from engine import parse_fen

    pos = parse_fen(find_variant(name), fen)
    compared = 0
    for move in [None, *pos.legal_moves()]:
        if move is not None:
            pos.push(move)
        here = pos.fen()
        theirs = set(sf.legal_moves(name, here, []))
        assert {pos.move_text(m) for m in pos.legal_moves()} == theirs, here
        assert pos.is_check() == sf.gives_check(name, here, []), here
        check_ending(name, pos, here, [], theirs)
        compared += 1
        if move is not None:
            pos.pop()
    assert compared >= 1
