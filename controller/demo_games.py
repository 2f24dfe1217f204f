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

#: The five Zeta games (hand-made, each short and ending in the line the game asks for): five
#: across White's fifth rank; a diagonal four with one man at home; advancing pawns closing a five
#: around Black's stalled row; pieces closing d5-h5; the king walking up to join the line.
ZETA = "a1a5 h8h4 b1b5 g8g4 c1c5 f8f3 d1d5 h4h2 e1e5"
ZETA_SHORT = "g1g7 a8a4 f1f6 b8b4 e1e5 c8c3 d1d4"
ZETA_ADVANCING = "c1c5 h8h4 d1d5 g8g4 e1e5 f8f4 b1b5 e8e6 a1a5"
ZETA_PIECES = "d1d5 a8a3 h1h5 b8c6 c1g5 g8h6 g1f3 c6b4 f3e5 a3a2 f1h3 b4c2 h3f5"
ZETA_KING = "d1d5 a8a3 e1e2 b8c6 e2e3 g8h6 e3e4 c6b4 e4e5 a3a2 h1h5 h6f7 c1g5 b4c2 f1h3 c2e1 h3f5"

#: The three Gryphon games (seeded greedy self-play, as above): a knight turns bishop, rook,
#: queen on its way to a8, where it becomes White's first king and is mated at once by a black
#: bishop turning rook (c5a7); in the circular form a queen turns pawn on the far rank (h7g8) and
#: a rook turned queen mates (h8h4); in the simple form a king may only step forward before its
#: side has taken anything, and walks into a knight's mate.
GRYPHON = "g1f3 e7e6 f3b7 f7f6 b7a7 e6c5 a7a8 c7c6 e2e4 c5a7"
GRYPHON_CIRCULAR = "h2h3 b7b6 f2f4 d7d5 f4d5 c8h3 d5f3 h3f3 h1h7 a7a5 g2g4 f3g4 h7g8 h8h4"
GRYPHON_SIMPLE = "e2e4 b7b6 e1e2 h7h5 e2f3 e7e5"

#: Triscacia: thirty placements in rotation, each into the player's own area; three queens lost
#: and replaced by pawns where they stand (Red f4f4q and e8e8q, Blue a2a2q), and Blue's knight
#: mates Green in 46 plies.
TRISCACIA = ("R@b3 P@b5 N@f7 N@c3 R@c6 R@f8 R@f2 P@d7 R@g8 N@h2 P@a8 P@h6 P@e2 N@c5 N@f5 P@a1 N@a5 B@e6 "
             "P@a2 B@d4 B@f6 Q@a3 B@b4 P@e8 B@b1 Q@a6 Q@e4 B@g2 R@d6 P@f4 b1e4 b7a7 f4f4q f2f4 c6b6 e8e8q "
             "a3a5 b6b7 f5d6 a5a6 a7a6 e8c8 a2a2q a6b6 d6b7 c3d5")

#: Triscacia on the decimal board: placements into the 30- and 35-cell areas, Green converts
#: twice (b5b5q, c10c10q), and Blue's queen mates Green in 55 plies.
TRISCACIA_10X10 = ("R@g3 R@c5 N@h8 N@i1 B@e6 R@f8 P@d3 P@b5 R@h7 B@f2 B@e8 B@j10 P@a3 R@b6 Q@h10 R@c2 Q@d8 "
                   "N@h6 N@j3 P@e7 P@j8 B@c1 P@c10 B@g7 Q@e2 N@e5 P@g5 P@h2 N@c9 P@g8 c2c5 e8j3 f8d8 g3j3 "
                   "b5b5q g7e5 c5b5 c10c10q h10e7 b5b6 b9a10 h8j7 j3h3 e6h3 d8f8 i1g2 h3g2 e7f6 b6b8 c10f7 "
                   "f8f7 f2c5 c9a8 e5b8 e2e6")

#: Semi-Queen Chess: a Biok takes as a rook and a Roshop as a bishop; White mates in 29 plies.
SQCHESS = ("i1j3 e9e8 a2a4 i9i8 j3h4 i10j8 g2g3 h10i9 h4j3 i9b2 c1b2 e10e9 f1g2 e9b6 f2f3 b6d8 b2j10 "
           "g10j10 g1a7 j8h7 a7h7 i8h7 h2h4 d8d2 e1d2 a9a7 d2d9 j9j8 d9d10")

#: Semi-Queen Chess extended (two Bioks, two Roshops, knights in front of the royals): White mates
#: in 49 plies.
SQCHESS_EXTENDED = ("b2b4 f9d8 c2c3 h9h7 i2i3 g10a4 d1a4 a9a8 b1d3 g9g8 f2d1 h10b4 g2g4 b4c3 d3c3 b9b7 c3c9 d10c9 "
                    "h1b7 a8b7 c1c5 a10a4 c5h5 a4g4 h5g4 e9c8 g4c8 e10e8 c8b7 i10h9 b7d9 c10d9 d1b2 e8f9 g1f2 b10b2 "
                    "e2d4 h9g10 e1c1 f9f2 f1f2 b2a2 a1a2 d8f7 c1c9 f7d6 c9d9 g10b5 a2a10")

#: Chess Tweedle (two kings, two queens each): the queens raid the king's side and White mates
#: one of the two black kings in 25 plies.
TWEEDLE = ("e2e4 i9i8 j2j4 e9e8 f2f3 i10j8 e1i5 f9f8 i5f8 e10e9 f8f10 g10f10 f3f4 e9j4 j1j4 j8i10 h2h3 "
           "h10j8 j4j8 i10j8 f1b5 j8i10 b5b9 d10e10 b9c10")

#: Illusionary Piece Chess (seed 26): the four choices (Black's d7 pawn, White's d2 pawn and queen,
#: Black's f8 bishop), the illusionary pawn's diagonal double step (d2b4) and capture, the amazon
#: taking on d7 next to the black king without giving check and eating the cardinal and g7; then
#: a black rook takes on c1 and mates: the queen on d8 guards d2 down the file the amazon left.
ILLUSIONARY = ("d7d7~p d2d2~p d1d1~q f8f8~b d2b4 a7a5 b4a5 a8a5 d1d7 b8a6 a2a3 a5c5 d7f8 c5c2 f8g7 "
               "c2c1")

#: Alice Chess (seed 31): knights, a rook and the black queen cross between the boards, with
#: captures on both (Nxd5' and Nxg5' on board B, Qxa7' taking the rook that crossed, Nxf7 on
#: board A), and the black queen's step from f2' across to g3 mates White in 18 plies. On two
#: sensor boards every move is a lift on one board and a place on the other.
ALICE = "b1c3 h7h5 a2a3 c7c6 a1a7 d8b6 e2e3 g7g5 g1h3 d7d5 c3'd5' b6'a7' h3'g5' a7f2 g5f7 h8h2 d5e7 f2'g3'"

#: Meddlers Chess (seeded greedy self-play, seed 3): each ply is a half-move, the player's own
#: king-side man then an enemy queen-side man; Black moves White's queen out (d1d2), White takes
#: the meddled knight (f2e3), and White mates in eleven turns by checking with his bishop and then
#: moving Black's own queen-side knight out of the way (c6e7), exposing Black's king.
MEDDLERS = ("h2h3 a7a6 g8h6 d2d3 e2e4 b7b5 h6f5 b1a3 g2g3 b8c6 f5e3 d1d2 f2e3 d7d5 h8g8 b2b3 e4d5 a8b8 "
            "e7e6 d3d4 f1b5 c6e7")

#: Meddlers Chess with pawns (seed 113): the second half moves any enemy pawn; White pushes a
#: black pawn to e2 (e3e2), which Black then takes on d1 and promotes (e2d1q), and Black's last
#: meddle, White's pawn taking on c5, closes the mate in 36 half-moves.
MEDDLERS_PAWNS = ("f2f3 a7a6 f7f5 e2e3 f1a6 b7b5 g7g6 b2b3 a6c8 g6g5 h7h5 d2d4 c8d7 g5g4 e8f7 c2c4 d7b5 "
                  "c7c5 g4f3 a2a4 g1f3 f5f4 f4e3 g2g3 f3g1 e7e6 h8h7 b3b4 b5c6 h5h4 h4g3 h2h4 c6a8 e3e2 "
                  "e2d1q d4c5")

#: Royal Fury (tools/demo_search.py's way, seed 55, captures and swaps preferred): a Mimotaur takes
#: a Harpy over one man, a Ximaera swaps (c2c8~), Dragons leap in chains (d9c4:a6, c4j2:h4), a
#: black Fury swaps (d8d1~) and a Jumper takes her, a Fury's knight take charges a second man
#: (e1g2), a Capricorn charges three (d10d2), and White's Fury ends it with an eight-man chain
#: that takes Black's last Fury in 27 plies.
ROYAL_FURY = ("b2a3 f8f7 a3h10 d8e7 c3c4 f10h10 c4b5 e9d7 c2c8~ d9c4:a6 d3e4 g10f10 d2d9 c4j2:h4 b1c2 e10d8 "
              "i1j2 d8d1~ i2i4 c10c2 f2d1 c2g2 d8d6 g9f2:c5 e1g2 d10d2 g2g10:c2:c10")

#: Mathematichess (tools/mathematichess_demo.py, seed 7): no game can end before both hands are
#: empty (164 plies); both terminators go first (each side takes off the man it put down), the
#: board fills up all over, and Black's last men fence in the nine empty cells with men of one
#: kind each: nine secured black territories. White, to move, has no move that keeps off them,
#: and the game ends (R22, "no_moves") with the whole score Black's.
MATHEMATICHESS = ("Q@h12 R@a12 xh12 xa12 F@h12 P@a12 Q@i2 Q@e11 Q@f1 F@c4 N@k9 T@m7 K@f10 P@b13 B@i5 R@f6 F@g5 R@e3 "
                  "R@e12 B@g1 R@k13 R@a5 N@g3 T@l7 G@l9 F@i4 F@a9 T@k3 F@j6 F@i11 N@c6 K@h11 G@c1 B@f13 B@a7 Q@f11 "
                  "K@h8 P@a11 N@j8 R@d12 F@g2 N@b6 T@j7 T@h13 G@i6 N@j11 P@e5 G@d9 P@d1 K@e9 B@b7 T@d2 K@g4 G@g6 "
                  "G@g9 F@j5 B@i7 G@e10 K@e8 R@h2 R@b12 B@k1 K@c9 N@f2 P@m5 R@m8 R@l3 F@j3 K@f8 B@m4 B@c3 R@f12 "
                  "P@f5 K@j2 F@a3 K@k12 T@h4 B@h10 P@i8 P@a2 P@e1 G@d8 K@m6 Q@b8 N@i9 P@m12 R@b2 B@l10 K@d6 B@l12 "
                  "T@c2 K@k7 B@l8 T@g13 B@b4 N@j9 T@b11 Q@m9 R@g12 K@d7 T@i12 Q@i3 G@h9 N@h6 G@b10 R@e6 T@e7 F@k4 "
                  "Q@b3 G@f7 Q@b9 G@h7 B@f4 P@l1 P@l2 B@c8 R@l4 K@b5 K@a10 N@i10 G@f9 Q@a8 B@a6 B@i13 Q@h5 K@k2 "
                  "Q@m11 G@d11 T@g10 F@d3 F@a4 Q@k5 T@j13 Q@j1 R@c13 T@i1 N@k6 N@m3 N@l6 G@g8 N@c5 T@e2 F@k11 N@k10 "
                  "F@e13 G@c10 G@c7 F@d5 Q@h3 F@e4 R@m10 P@m2 P@g11 P@l13 N@c12 K@k8 G@l11 N@j12 T@d13 Q@c11 Q@l5 "
                  "P@b1 P@f3 T@h1")

DEMO_GAMES: dict[str, tuple[str, ...]] = {name: tuple(text.split()) for name, text in
                                          (("dreamchess47", DREAMCHESS47), ("sesqui", SESQUI),
                                           ("duffery-simpletons", DUFFERY_SIMPLETONS),
                                           ("duffery-advancing", DUFFERY_ADVANCING),
                                           ("duffery-capturing", DUFFERY_CAPTURING),
                                           ("rettah", RETTAH), ("double-rettah", DOUBLE_RETTAH),
                                           ("zeta", ZETA), ("zeta-short", ZETA_SHORT),
                                           ("zeta-advancing", ZETA_ADVANCING), ("zeta-pieces", ZETA_PIECES),
                                           ("zeta-king", ZETA_KING), ("gryphon", GRYPHON),
                                           ("gryphon-circular", GRYPHON_CIRCULAR),
                                           ("gryphon-simple", GRYPHON_SIMPLE),
                                           ("triscacia", TRISCACIA), ("triscacia-10x10", TRISCACIA_10X10),
                                           ("sqchess", SQCHESS), ("sqchess-extended", SQCHESS_EXTENDED),
                                           ("tweedle", TWEEDLE), ("alice", ALICE), ("meddlers", MEDDLERS),
                                           ("meddlers-pawns", MEDDLERS_PAWNS), ("royal-fury", ROYAL_FURY),
                                           ("illusionary", ILLUSIONARY),
                                           ("mathematichess", MATHEMATICHESS))}
