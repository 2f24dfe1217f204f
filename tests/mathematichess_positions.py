"""Positions shared by the Mathematichess tests (no tests here): the reconstructed worked example
and a builder for crowded stage-two positions around a few chosen cells."""

from __future__ import annotations

import random

from engine import Position, find_variant, parse_fen
from engine.notation import format_board

VARIANT = find_variant("mathematichess")

# The source's worked example rebuilt (its diagram is lost): territory e11-e12 with white bishops
# d11 d12 f12, white queens e13 f11 and a black knight e10 on its sides; a white knight d10, a
# black rook f10, a white farmer d13 and a black king f13 on its corners; a white king on c13.
# Seven more single empty cells; both terminators played (a white farmer and a black pawn).
EXAMPLE = ("PRKFQkBpfTrKg/TGNB1BtK1NNbf/FRrB1QnrtRBpp/GkTNnrPfNtbfR/tRFqqQkGpT1bT/TRnrRNkpQRtGG/"
           "BppKgQggfbqfG/Pt1QnPq1qGPkK/KKQPkFngGqtFQ/nnBrTrBbNtbgr/GRfbn1NFgf1tN/b1BqfrpkPKkkF/"
           "bTFgPTPKgnqqQ[] w - - 0 100 term=wb")


def example(side: str = "w") -> Position:
    return parse_fen(VARIANT, EXAMPLE.replace(" w ", f" {side} "))


def crowded(fixed: dict[str, str], empties: list[str], side: str = "w", term: str = "wb",
            seed: int = 0, hand: str = "") -> Position:
    """A stage-two position: ``fixed`` pieces (cell -> letter), exactly the ``empties`` empty, every
    other cell filled with the rest of both armies in a seeded shuffle (minus the pieces in
    ``hand``). Tests only assert about the fixed cells and lines that end in fixed or empty cells."""
    v = VARIANT
    g = v.geometry
    left = {s: {k.letter: 9 for k in v.kinds} for s in (0, 1)}
    for s, mark in enumerate("wb"):
        if mark in term:
            left[s]["F" if s == 0 else "P"] -= 1  # the terminator's victim: any kind would do
    board = [0] * g.size
    for name, symbol in fixed.items():
        code = v.parse_symbol(symbol)
        board[g.index(name)] = code
        left[v.side_of(code)][symbol.upper()] -= 1
    for symbol in hand:
        left[0 if symbol.isupper() else 1][symbol.upper()] -= 1
    rng = random.Random(seed)
    pool = [(s, letter) for s in (0, 1) for letter, n in left[s].items() for _ in range(n)]
    rng.shuffle(pool)
    free = [c for c in range(g.size) if g.names[c] not in fixed and g.names[c] not in empties]
    if len(free) != len(pool):
        raise ValueError(f"{len(empties)} empty cells do not fit term={term!r}")
    for cell, (s, letter) in zip(free, pool, strict=True):
        board[cell] = v.code(v.kind_index[letter], s)
    extra = f" term={term}" if term else ""
    return parse_fen(v, f"{format_board(v, board)}[{hand}] {side} - - 0 1{extra}")


def moves_from(pos: Position, name: str, legal: bool = False) -> set[str]:
    """Texts of the moves starting on ``name``: what the piece's movement allows, or with
    ``legal`` only those the freezing rule leaves (a seeded filler may freeze a settler)."""
    cell = pos.variant.geometry.index(name)
    moves = pos.legal_moves() if legal else pos.variant.rules.pseudo_moves(pos)
    return {pos.move_text(m) for m in moves if m.frm == cell}


def changes_named(pos: Position, text: str) -> list[tuple[str, str, str]]:
    """A legal move's effects with cell names and piece letters ('.' for empty)."""
    v = pos.variant
    move = next(m for m in pos.variant.rules.pseudo_moves(pos) if pos.move_text(m) == text)
    sym = lambda code: v.symbol(code) if code else "."  # noqa: E731
    return [(v.geometry.names[c], sym(b), sym(a)) for c, b, a in move.changes]
