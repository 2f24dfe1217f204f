"""Search every Dream Chess 47 setup that fits our reading of the (lost) diagram.

    .venv/bin/python -m tools.dreamchess47_setups [--king-anywhere]     (from the repository root)

Fixed by the text and the issue: each camp fills the 11 corner-only cells of its own supersquare
with a FIDE set's pieces (king, queen, two Chatelaines for the rooks, two Primates for the
bishops, two knights) and three Stewards for the cells left; the two camps are images of each
other under one of the board's two symmetries that swap the camps (a half turn, or the mirror
in the b1-g6 ... a2-f7 axis). Our choice: the king stands in the camp's corner (a1 / g7), the one
cell no orthogonal line joins to the enemy camp.

A setup is kept when, with either side to move, no side is in check and every capture on offer
loses or trades material (the victim is worth no more than the capturer and can be taken back).
Printed: how many setups survive per symmetry, and the survivors ranked by our tie-breaks
(see docs/rules/dreamchess47.md).
"""

from __future__ import annotations

import argparse
import itertools

from engine import parse_fen
from tests.dreamchess47_setup_checks import VARIANT, sound

G = VARIANT.geometry
WHITE_CAMP = ["a1", "b1", "c1", "d1", "e1", "f1", "a2", "a3", "a4", "a5", "a6"]
ARMY = "KQCCPPNNSSS"


def half_turn(name: str) -> str:
    x, y = ord(name[0]) - 97, int(name[1:]) - 1
    return f"{chr(97 + 6 - x)}{7 - y}"


def mirror(name: str) -> str:
    # The mirror that swaps the camps: (x, y) -> (6 - y, 6 - x).
    x, y = ord(name[0]) - 97, int(name[1:]) - 1
    return f"{chr(97 + 6 - y)}{7 - x}"


SYMMETRIES = {"half turn": half_turn, "mirror": mirror}


def fen_of(white: dict[str, str], symmetry) -> str:
    board: dict[str, str] = {}
    for cell, letter in white.items():
        board[cell] = letter
        board[symmetry(cell)] = letter.lower()
    rows = []
    for row in G.fen_rows:
        text, empty = "", 0
        for c in row:
            if c is None:
                if empty:
                    text += str(empty)
                    empty = 0
                text += "*"
                continue
            piece = board.get(G.names[c])
            if piece is None:
                empty += 1
                continue
            if empty:
                text += str(empty)
                empty = 0
            text += piece
        if empty:
            text += str(empty)
        rows.append(text)
    return "/".join(rows)


def defended(fen: str) -> int:
    """How many of White's pieces (king aside) a white piece defends at the start."""
    pos = parse_fen(VARIANT, f"{fen} w - - 0 1")
    rules = VARIANT.rules
    board = pos.board
    count = 0
    for c, code in enumerate(board):
        if VARIANT.owner[code] == 0 and not VARIANT.kinds[VARIANT.kind_at[code]].royal:
            board[c] = 0
            count += rules.attacked(pos, c, (0,))
            board[c] = code
    return count


def candidates(king_anywhere: bool):
    seen = set()
    cells = WHITE_CAMP if king_anywhere else WHITE_CAMP[1:]
    rest = ARMY if king_anywhere else ARMY[1:]
    for perm in itertools.permutations(rest):
        if perm in seen:
            continue
        seen.add(perm)
        white = dict(zip(cells, perm, strict=True))
        if not king_anywhere:
            white["a1"] = "K"
        yield white


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--king-anywhere", action="store_true")
    parser.add_argument("--show", type=int, default=10)
    args = parser.parse_args()
    for name, symmetry in SYMMETRIES.items():
        kept = []
        total = 0
        for white in candidates(args.king_anywhere):
            total += 1
            fen = fen_of(white, symmetry)
            if sound(fen):
                kept.append((defended(fen), fen))
        kept.sort(key=lambda t: (-t[0], t[1]))
        print(f"{name}: {len(kept)} of {total} setups sound")
        for score, fen in kept[: args.show]:
            print(f"  {fen}  defended {score}")


if __name__ == "__main__":
    main()
