"""Sample views of every kind of board, for the documentation images and the render benchmark.

    .venv/bin/python -m display.gallery docs/images

writes one PNG per sample (``docs/display.md`` shows them). Boards without a variant file are
built straight from engine geometries, which is all a view needs.
"""

from __future__ import annotations

import os
import sys
from dataclasses import replace
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame

from engine import find_variant, start_position
from engine.geometry import rectangle, ring, two_boards

from .render import render
from .view import (
    Choice,
    Fix,
    Highlights,
    PieceView,
    Prompt,
    ScorePanel,
    Territory,
    View,
    piece_view,
    view_from_position,
)
from .window import save_png

_GLYPHS = ("king", "queen", "rook", "bishop", "knight", "pawn")


def _piece(side: int, glyph: str) -> PieceView:
    return PieceView(side, glyph, glyph[0].upper(), glyph)


def chess_game() -> View:
    """A Ruy Lopez after castling, with clocks and the last move marked."""
    pos = start_position(find_variant("chess"))
    for text in ("e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6", "e1g1"):
        pos.push_text(text)
    return view_from_position(pos, phase="playing", status="Black to move: lift a piece", clocks=(562.0, 581.0))


def chess_promotion() -> View:
    pos = start_position(find_variant("chess"))
    view = view_from_position(pos)
    v = find_variant("chess")
    choices = tuple(Choice(v.kinds[v.kind_index[k]].name, k.lower(), piece_view(v, v.code(v.kind_index[k], 0)))
                    for k in "QRBN")
    return replace(view, prompt=Prompt("Promote to", choices, selected=0), phase="playing")


def territory_board() -> View:
    """A full 13x13 board: 162 pieces, 7 empty cells scored as territories."""
    geo = rectangle(13, 13)
    empty = [geo.index(n) for n in ("c5", "d9", "g7", "h2", "j11", "k4", "m13")]
    pieces: list[PieceView | None] = []
    for cell in range(geo.size):
        if cell in empty:
            pieces.append(None)
        elif cell % 7 < 6:
            pieces.append(_piece(cell % 2, _GLYPHS[cell % 7]))
        else:
            pieces.append(PieceView(cell % 2, "", "T", "terminator"))
    territories = tuple(Territory((c,), (0, 1, None)[i % 3], 3 * i + 2) for i, c in enumerate(empty))
    return View("Mathematichess", geo, tuple(pieces), phase="scoring", status="Territories counted",
                scores=ScorePanel(territories, (31, 24), "Territory"), legend=(PieceView(0, "", "T", "terminator"),))


def ring_board() -> View:
    geo = ring(48)
    pieces: list[PieceView | None] = [None] * geo.size
    for i, glyph in enumerate(("king", "queen", "rook", "bishop", "knight", "pawn", "pawn")):
        pieces[i] = _piece(0, glyph)
        pieces[(i + 24) % 48] = _piece(1, glyph)
    pieces[8], pieces[0] = pieces[0], None
    pieces[30], pieces[6] = pieces[6], None
    return View("Sesqui-dimensional chess", geo, tuple(pieces), side_to_move=1, phase="playing",
                moves=("A1B3", "E1E3", "A7G1"), status="Check from the far side",
                highlights=Highlights(last_move=(6, 30), check=(24,)))


def two_board_game() -> View:
    base = rectangle(8, 8)
    geo = two_boards(base)
    v = find_variant("chess")
    start = [piece_view(v, c) if c else None for c in start_position(v).board]
    pieces = start + start
    pieces[geo.index("e2")], pieces[geo.index("e4")] = None, pieces[geo.index("e2")]
    hands = (((_piece(0, "pawn"), 2), (_piece(0, "knight"), 1)), ((_piece(1, "bishop"), 1),))
    prompt = Prompt("Which piece did you place?", (Choice("pawn", "P", _piece(0, "pawn"), 2),
                                                    Choice("knight", "N", _piece(0, "knight"), 1)))
    return View("Two-board transfer", geo, tuple(pieces), hands=hands, prompt=prompt, phase="playing",
                highlights=Highlights(pending=(geo.index("d5'"),)))


def three_sides() -> View:
    geo = rectangle(8, 8)
    pieces: list[PieceView | None] = [None] * geo.size
    for side, row in ((0, "1"), (1, "5"), (2, "8")):
        for f, glyph in zip("abcdef", _GLYPHS, strict=True):
            pieces[geo.index(f + row)] = _piece(side, glyph)
    pieces[geo.index("h4")] = PieceView(2, "", "A", "archer")
    prompt = Prompt("Which of these moves did you make?", (Choice("d1f3", "d1f3"), Choice("d1g4", "d1g4"),
                                                            Choice("d1h5", "d1h5")), selected=1)
    return View("Triscacia", geo, tuple(pieces), sides=("blue", "green", "red"), side_to_move=0,
                clocks=(301.0, 288.0, 240.0), moves=("a1a2", "b5b4", "c8c7"), prompt=prompt,
                legend=(PieceView(0, "", "A", "archer"),), highlights=Highlights(pending=(geo.index("d1"),)))


def fix_the_board() -> View:
    geo = rectangle(8, 8, holes=["d4", "e5"])
    pieces: list[PieceView | None] = [None] * geo.size
    for name, p in (("e1", _piece(0, "king")), ("e8", _piece(1, "king")), ("c3", _piece(0, "knight")),
                    ("f6", _piece(1, "knight")), ("a2", _piece(0, "pawn")), ("h7", _piece(1, "pawn"))):
        pieces[geo.index(name)] = p
    fixes = (Fix(geo.index("c3"), _piece(0, "knight")), Fix(geo.index("g5"), None))
    return View("Chess with holes", geo, tuple(pieces), phase="fix the board",
                status="Put the white knight back on c3 and take the piece off g5",
                highlights=Highlights(fix=fixes, last_move=(geo.index("f6"), geo.index("g8"))))


#: name -> (view, size) of each image in docs/images.
def samples() -> dict[str, tuple[View, tuple[int, int]]]:
    return {
        "chess-800x480": (chess_game(), (800, 480)),
        "promotion-1920x1080": (chess_promotion(), (1920, 1080)),
        "territory-13x13-800x480": (territory_board(), (800, 480)),
        "ring48-800x480": (ring_board(), (800, 480)),
        "two-boards-800x480": (two_board_game(), (800, 480)),
        "three-sides-800x480": (three_sides(), (800, 480)),
        "fix-the-board-800x480": (fix_the_board(), (800, 480)),
    }


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    out = Path(args[0] if args else "docs/images")
    out.mkdir(parents=True, exist_ok=True)
    for name, (view, size) in samples().items():
        surface = pygame.Surface(size)
        render(view, surface)
        save_png(surface, out / f"{name}.png")
        print(out / f"{name}.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
