"""Search every Sesqui-dimensional Chess setup that fits the source's statements.

    .venv/bin/python -m tools.sesqui_setups [--show N]     (from the repository root)

The source's diagram is lost; what the text says about the setup (our numbering, used in
docs/rules/sesqui.md and tests/test_sesqui.py):

  S1 each army is split into two groups opposite each other, the enemy groups 90 degrees round
     the ring in both directions, spaced with four-fold symmetry;
  S2 exactly 14 opening moves: any of the 4 outer pawns one or two steps, any of the 4 inner
     pawns a double step, either knight out in front of its pawns;
  S3 6 of the 8 pawns are defended;
  S4 the 2 undefended pawns cannot be attacked by any of the 14 opening moves;
  S5 2 more pawns are defended only by the knight across the board;
  S6 pawns head for the nearest promotion cell (enemy king, queen and rook start cells).

S1 with a FIDE army (16 men a side, 32 on 48 cells) gives four blocks of 8 men with 4 empty
cells between neighbours. Which 8 cells of a block hold what is searched here: every
arrangement of a side's men over its two blocks with pawns on the block ends (S2 leaves them no
other place: a king, queen, rook or bishop there would have a move), and Black as each of the
four images of White under the ring's symmetries that carry White's blocks onto Black's
(quarter turns either way, and the two mirrors). Each candidate is built as a variant from TOML
text and checked by the engine itself.
"""

from __future__ import annotations

import argparse
import itertools

from engine.rules import Rules
from engine.variant import variant_from_toml
from tests.sesqui_setup_facts import facts

N = 48
#: First cell of White's first block: the block centred on sector A (cells H6, A1..A6, B1).
FIRST = -1
WHITE_BLOCKS = [[(FIRST + i) % N for i in range(8)], [(FIRST + 24 + i) % N for i in range(8)]]
#: Symmetries of the ring that carry White's blocks onto Black's, as cell maps.
SYMMETRIES = {
    "quarter turn anticlockwise": lambda c: (c + 12) % N,
    "quarter turn clockwise": lambda c: (c - 12) % N,
    "mirror (block onto the anticlockwise block)": lambda c: (2 * FIRST + 19 - c) % N,
    "mirror (block onto the clockwise block)": lambda c: (2 * FIRST + 43 - c) % N,
}
PIECES = """
[pieces.K]
name = "king"
betza = "WD(24,0)"
royal = true
glyph = "king"

[pieces.Q]
name = "queen"
betza = "WWDD(24,0)"
value = 9
glyph = "queen"

[pieces.R]
name = "rook"
betza = "WW(24,0)"
value = 5
glyph = "rook"

[pieces.B]
name = "bishop"
betza = "DD(24,0)"
value = 3
glyph = "bishop"

[pieces.N]
name = "knight"
betza = "H(23,0)"
value = 3
glyph = "knight"

[pieces.P]
name = "pawn"
hook = "sesqui_pawn"
pawn = true
value = 1
glyph = "pawn"
"""


def names() -> list[str]:
    return [f"{'ABCDEFGH'[i // 6]}{i % 6 + 1}" for i in range(N)]


def board_text(board: dict[int, str]) -> str:
    rows = []
    for sector in range(8):
        text, empty = "", 0
        for c in range(sector * 6, sector * 6 + 6):
            if c in board:
                if empty:
                    text += str(empty)
                    empty = 0
                text += board[c]
            else:
                empty += 1
        if empty:
            text += str(empty)
        rows.append(text)
    return "/".join(rows)


def variant_toml(board: dict[int, str], title: str = "Sesqui-dimensional Chess (candidate)") -> str:
    cell_names = names()
    zones: dict[str, list[str]] = {"white_promotion": [], "black_promotion": []}
    for c, letter in board.items():
        if letter.upper() in "KQR":
            zones["black_promotion" if letter.isupper() else "white_promotion"].append(cell_names[c])
    regions = ", ".join(f"{k} = [{', '.join(repr(x).replace(chr(39), chr(34)) for x in sorted(v))}]"
                        for k, v in zones.items())
    return f"""
title = "{title}"
sides = ["white", "black"]
forward = [[1, 0], [-1, 0]]
start = "{board_text(board)} w - - 0 1"
rules = "sesqui_pawns"
castling = false
en_passant = false
promotion = {{ zones = ["white_promotion", "black_promotion"], choices = "qrbn" }}
geometry = {{ type = "ring", cells = 48, regions = {{ {regions} }} }}
{PIECES}"""


def candidate_boards():
    """White's men over its two blocks (as {cell: letter}), pawns on the two cells at each block end
    (S2 leaves no other place for them: see docs/rules/sesqui.md)."""
    cells = WHITE_BLOCKS[0] + WHITE_BLOCKS[1]
    pawn_cells = [b[i] for b in WHITE_BLOCKS for i in (0, 1, 6, 7)]
    rest_cells = [c for c in cells if c not in pawn_cells]
    seen = set()
    for perm in itertools.permutations("KQRRBBNN"):
        if perm in seen:
            continue
        seen.add(perm)
        board = {c: "P" for c in pawn_cells}
        board.update(zip(rest_cells, perm, strict=True))
        yield board


def full_board(white: dict[int, str], symmetry) -> dict[int, str]:
    board = dict(white)
    for c, letter in white.items():
        board[symmetry(c)] = letter.lower()
    return board


def reseat(variant, board: dict[int, str]):
    """The same compiled variant with another start position and the promotion cells it implies
    (compiling a variant per candidate would take minutes; nothing else depends on the start)."""
    variant.start = f"{board_text(board)} w - - 0 1"
    variant.promotion_zones = (
        frozenset(c for c, x in board.items() if x in "kqr"),
        frozenset(c for c, x in board.items() if x in "KQR"),
    )
    variant.rules = Rules(variant)
    return variant


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--show", type=int, default=20)
    args = parser.parse_args()
    survivors = []
    total = 0
    base = None
    for white in candidate_boards():
        for sym_name, sym in SYMMETRIES.items():
            total += 1
            board = full_board(white, sym)
            if base is None:
                base = variant_from_toml("sesqui_candidate", variant_toml(board))
            variant = reseat(base, board)
            if all(all(facts(variant, side).values()) for side in (0, 1)):
                survivors.append((sym_name, board_text(board)))
    print(f"{len(survivors)} of {total} candidates meet S2-S5 for both sides")
    by_sym: dict[str, int] = {}
    for sym_name, _ in survivors:
        by_sym[sym_name] = by_sym.get(sym_name, 0) + 1
    for sym_name in SYMMETRIES:
        print(f"  {sym_name}: {by_sym.get(sym_name, 0)}")
    for sym_name, text in survivors[: args.show]:
        print(f"  {text}   ({sym_name})")


if __name__ == "__main__":
    main()
