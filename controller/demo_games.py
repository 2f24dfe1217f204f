"""Demo games for ``chessery run`` on the simulated board, for variants whose demo should end in a
decisive finish rather than a seeded random game. Each was found by a seeded greedy self-play
(mate in one when there is one, else the best capture or promotion most of the time) and chosen
because it shows what makes its game different; tests replay each one to its recorded end."""

from __future__ import annotations

#: Dream Chess 47: a Chatelaine slides from one supersquare into the other (a4-g4), a queen
#: crosses the overlap on the long diagonal, a Steward promotes on the far edge to the queen its
#: side lost (b6-b7=Q), and a Steward's step ends it: White mates in 31 plies.
DREAMCHESS47 = ("a4g4 g3g4 d1d7 f7b3 a2b3 g4d7 e1d2 c7a5 d2a5 b7b6 a5b6 g7f6 b1g6 f6g6 b6b5 d7b5 a6b5 "
                "g5f7 f1f2 e7d5 b5b6 d5f6 b6b7q g6f5 b7f7 f5f4 f7f6 f4g4 c1e2 g2g3 f2f3")

#: Sesqui-dimensional Chess: double steps from the pawns' start cells, knights out in front of
#: their pawns, leaps across the centre, a pawn taking onto a promotion cell (G6xG4=Q), and
#: Black mates in 34 plies.
SESQUI = ("H6H4 C6D2 E6F2 G6H2 H4H2 C2B5 A2H5 G2C2 A5E6 C4C6 E1D5 B5B2 F2F3 D1D3 A6B2 D3D5 A3A5 C3C4 "
          "B1B3 G3G2 E6B1 B6B4 B2B4 C5G6 H2G6 C2B4 A4H6 B4H6 B1B4 H6B4 G6G4q B4G4 H5H2 C4B2")

#: Simpletons' Duffery (tools/demo_search.py, seed 36): pawn moves while nothing else is allowed,
#: captures when they come, queen checks, and Black mates in 28 plies.
DUFFERY_SIMPLETONS = ("f2f3 a7a5 a2a3 g7g5 a3a4 c7c5 b2b4 a5b4 d2d4 a8a4 c1g5 c5d4 d1d4 a4a1 d4d7 e8d7 "
                      "g5e7 a1b1 e1d2 d7c7 d2e3 d8e7 e3d4 e7e5 d4c4 e5e2 c4d5 b1d1")

#: The Advancing game of Duffery (seed 16): every man goes forward only, the white king walks up
#: to d2, and the black queen takes it straight down the d-file in 20 plies.
DUFFERY_ADVANCING = ("d2d4 h7h5 b2b3 e7e6 g1h3 c7c5 d4c5 f8e7 d1d7 c8d7 e1d2 e7c5 b1c3 g7g6 c1b2 c5e3 "
                     "f2e3 d7c6 h3g5 d8d2")

#: The capturing game of Duffery (seed 2): pawns advance, pieces move only to take (Bxg4, Rxh7,
#: Qxg5, Qxd2) and the black queen takes the king on e1 in 20 plies.
DUFFERY_CAPTURING = ("a2a4 b7b6 b2b4 d7d6 b4b5 a7a5 h2h3 e7e5 g2g4 c8g4 h3g4 g7g6 h1h7 h8h7 g4g5 d8g5 "
                     "c2c3 g5d2 f2f3 d2e1")

#: Rettah Chess (seed 293): the rule of check twice: a knight check on b3 must be taken at once
#: (axb3), and so must a rook check on a3, which the Rettah king takes himself (Kxa3); the king
#: then ventures to c5 and the bishop on f8 takes it in 16 plies.
RETTAH = "c3c4 d7c5 e2f4 c5b3 a2b3 e7a7 d2h2 a7a3 a1a3 c6c5 f4h3 d6d5 c4d5 e6d5 a3c5 f8c5"

#: Double Rettah (seed 43): both Rettah kings and queens in play, and White checkmates one of
#: the black Rettahs in 23 plies.
DOUBLE_RETTAH = ("f1g1 c7a7 a2b4 h7g5 f2f1 g5h3 g3g4 c8a8 f3f4 g8h7 a1a2 h7g8 c3c4 d8b7 b4c6 d7e5 c6b6 "
                 "h6h5 b2e5 d6e5 g4h5 h8h5 g1h1")

DEMO_GAMES: dict[str, tuple[str, ...]] = {name: tuple(text.split()) for name, text in
                                          (("dreamchess47", DREAMCHESS47), ("sesqui", SESQUI),
                                           ("duffery-simpletons", DUFFERY_SIMPLETONS),
                                           ("duffery-advancing", DUFFERY_ADVANCING),
                                           ("duffery-capturing", DUFFERY_CAPTURING),
                                           ("rettah", RETTAH), ("double-rettah", DOUBLE_RETTAH))}
