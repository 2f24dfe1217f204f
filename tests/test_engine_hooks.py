"""What the notation cannot say goes in a named rule hook; its moves still expose every changed
cell. Here a Capricorn-like piece (Royal Fury) that captures every enemy next to where it lands."""

from __future__ import annotations

from engine import parse_fen
from engine.moves import SPECIAL, Move
from engine.rules import Rules, register
from engine.variant import variant_from_toml


@register("test_charge")
class ChargeRules(Rules):
    def moves_charge(self, pos, cell, code, out) -> None:  # type: ignore[no-untyped-def]
        g = self.v.geometry
        board = pos.board
        me = code & 3
        for vec in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)):
            for to in g.ray(cell, vec):
                if board[to]:
                    break
                victims = []
                for d in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)):
                    n = g.step(d)[to]
                    if n >= 0 and n != cell and board[n] and board[n] & 3 != me:
                        victims.append(n)
                changes = ((cell, code, 0), (to, 0, code), *((v, board[v], 0) for v in victims))
                out.append(Move(cell, to, code, board[victims[0]] if victims else 0, tag=SPECIAL,
                                changes=changes))


V = variant_from_toml("charge", """
    geometry = { type = "rectangle", files = 8, ranks = 8 }
    sides = ["white", "black"]
    start = "8/8/8/8/8/8/8/8 w - - 0 1"
    royalty = "king_capture"
    rules = "test_charge"
    [pieces.C]
    name = "capricorn"
    hook = "charge"
    [pieces.K]
    betza = "K"
    royal = true
    [pieces.P]
    betza = "fmW"
""")


def test_multi_capture_exposes_every_victim_and_undoes() -> None:
    pos = parse_fen(V, "k7/8/8/3p1p2/C7/3p4/8/7K w - - 0 1")
    g = V.geometry
    move = next(m for m in pos.legal_moves() if pos.move_text(m) == "a4e4")
    cells = {g.names[c]: (before, after) for c, before, after in move.changes}
    pawn = V.parse_symbol("p")
    assert cells == {"a4": (V.parse_symbol("C"), 0), "e4": (0, V.parse_symbol("C")),
                     "d5": (pawn, 0), "f5": (pawn, 0), "d3": (pawn, 0)}
    before = pos.fen()
    pos.push(move)
    assert pos.fen().startswith("k7/8/8/8/4C3/8/8/7K b")
    pos.pop()
    assert pos.fen() == before
