"""Illusionary Piece Chess against Fairy-Stockfish (pyffish): each illusionary man is a piece
Fairy-Stockfish defines with the same Betza notation, and both engines list the same legal moves
in thousands of random positions.

What Fairy-Stockfish cannot say is left out of the positions, not out of the comparison: its
pieces all give check, so only the side to move has illusionary men (an enemy illusionary man
would check or pin in Fairy-Stockfish and not here), and none of them attacks the enemy king
(Fairy-Stockfish calls such a position illegal). Our illusionary pawn promotes to illusionary
pieces, a custom Fairy-Stockfish piece does not promote at all: illusionary pawns stand where no
move of theirs reaches the far rank. There is no castling and no en-passant cell (both are pinned
by tests/test_illusionary.py). Within those limits every legal move is compared, so a pin by a
regular piece on an illusionary man, a check an illusionary man must answer, and the lame double
steps of the illusionary pawn are all covered."""

from __future__ import annotations

import random

import pytest

from engine import find_variant
from engine.position import parse_fen

sf = pytest.importorskip("pyffish")

#: Our illusionary men as Fairy-Stockfish custom pieces with the same Betza notation.
FSF_INI = """
[illusionary-oracle:chess]
customPiece1 = a:fKifmnDifmnA
customPiece2 = s:NAD
customPiece3 = c:BN
customPiece4 = h:RN
customPiece5 = m:QN
castling = false
"""
FSF_LETTER = {"~P": "A", "~N": "S", "~B": "C", "~R": "H", "~Q": "M"}
ILLUSIONARY = tuple(FSF_LETTER)
REGULAR = ("P", "N", "B", "R", "Q")

SEEDS = range(8)
POSITIONS_PER_SEED = 400  # 3,200 positions with illusionary men


@pytest.fixture(scope="module", autouse=True)
def _oracle_variant() -> None:
    sf.load_variant_config(FSF_INI)


def _ranks(letter: str, white: bool) -> range:
    if letter == "~P":  # never one step from promotion, never on its own back rank
        return range(2, 7) if white else range(3, 8)
    if letter == "P":
        return range(2, 8)
    return range(1, 9)


def _fen(board: dict[tuple[int, int], str], white_to_move: bool, fsf: bool) -> str:
    rows = []
    for rank in range(8, 0, -1):
        row, run = "", 0
        for file in range(8):
            sym = board.get((file, rank))
            if sym is None:
                run += 1
                continue
            if run:
                row += str(run)
                run = 0
            if fsf and sym.startswith("~"):
                letter = FSF_LETTER[sym.upper()]
                sym = letter if sym[1].isupper() else letter.lower()
            row += sym
        rows.append(row + (str(run) if run else ""))
    return "/".join(rows) + (" w" if white_to_move else " b") + " - - 0 1"


def _symbol(letter: str, white: bool) -> str:
    return letter if white else letter.lower()


def random_position(rng: random.Random) -> tuple[str, str] | None:
    """(our text, Fairy-Stockfish's text) of a random legal position, or None when it is not."""
    white = rng.random() < 0.5
    board: dict[tuple[int, int], str] = {}
    free = [(f, r) for f in range(8) for r in range(1, 9)]
    rng.shuffle(free)

    def place(letter: str, side_white: bool) -> None:
        ranks = _ranks(letter, side_white)
        for i, (f, r) in enumerate(free):
            if r in ranks:
                board[(f, r)] = _symbol(letter, side_white)
                free.pop(i)
                return

    place("K", True)
    place("K", False)
    wk = next(c for c, s in board.items() if s == "K")
    bk = next(c for c, s in board.items() if s == "k")
    if max(abs(wk[0] - bk[0]), abs(wk[1] - bk[1])) < 2:
        return None
    for _ in range(rng.randint(1, 3)):
        place(rng.choice(ILLUSIONARY), white)
    for _ in range(rng.randint(0, 4)):
        place(rng.choice(REGULAR), white)
    for _ in range(rng.randint(0, 6)):
        place(rng.choice(REGULAR), not white)
    ours = _fen(board, white, fsf=False)
    theirs = _fen(board, white, fsf=True)
    # The side not to move may not stand in check (by any man: Fairy-Stockfish's view).
    flipped = theirs.replace(" w ", " x ").replace(" b ", " w ").replace(" x ", " b ")
    if sf.gives_check("illusionary-oracle", flipped, []):
        return None
    return ours, theirs


@pytest.mark.parametrize("seed", SEEDS)
def test_illusionary_men_move_like_their_fairy_stockfish_pieces(seed: int) -> None:
    variant = find_variant("illusionary")
    rng = random.Random(seed)
    compared = moves_of_illusionary = 0
    while compared < POSITIONS_PER_SEED:
        found = random_position(rng)
        if found is None:
            continue
        ours_text, theirs_text = found
        pos = parse_fen(variant, ours_text)
        ours = {pos.move_text(m) for m in pos.legal_moves()}
        theirs = set(sf.legal_moves("illusionary-oracle", theirs_text, []))
        assert ours == theirs, (ours_text, sorted(ours - theirs), sorted(theirs - ours))
        assert pos.is_check() == sf.gives_check("illusionary-oracle", theirs_text, []), ours_text
        moves_of_illusionary += sum(1 for m in pos.legal_moves()
                                    if variant.kinds[variant.kind_of(m.piece)].letter in ILLUSIONARY)
        compared += 1
    # The positions exercise the illusionary men (not only kings shuffling).
    assert moves_of_illusionary > POSITIONS_PER_SEED * 5
