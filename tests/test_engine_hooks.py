"""What the notation cannot say goes in a named rule component; its moves still expose every
changed cell, and its coded captures give check. Here a Capricorn-like piece (Royal Fury) that
captures every enemy next to where it lands."""

from __future__ import annotations

from engine import parse_fen
from engine.components import Component, Mover, register
from engine.moves import Move, build_move
from engine.position import Position
from engine.variant import variant_from_toml

STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))


@register("test_charge")
class Charge(Component):
    def movers(self) -> dict[str, Mover]:
        return {"charge": self.charge}

    def charge(self, pos: Position, cell: int, code: int, out: list[Move]) -> None:
        g = self.v.geometry
        board = pos.board
        owner = self.v.owner
        me = owner[code]
        for vec in STEPS:
            for to in g.ray(cell, vec):
                if board[to]:
                    break
                victims = [n for n in (g.step(d)[to] for d in STEPS)
                           if n >= 0 and n != cell and board[n] and owner[board[n]] != me]
                out.append(build_move(board, cell, to, relocate=((cell, to),), remove=victims))


TOML = """
    geometry = {{ type = "rectangle", files = 8, ranks = 8 }}
    sides = ["white", "black"]
    start = "8/8/8/8/8/8/8/8 w - - 0 1"
    royalty = "{royalty}"
    rules = ["test_charge"]
    [pieces.C]
    name = "capricorn"
    hook = "charge"
    [pieces.K]
    betza = "K"
    royal = true
    [pieces.P]
    betza = "fmW"
"""
V = variant_from_toml("charge", TOML.format(royalty="king_capture"))
MATE = variant_from_toml("charge-mate", TOML.format(royalty="checkmate"))


def test_multi_capture_exposes_every_victim_and_undoes() -> None:
    pos = parse_fen(V, "k7/8/8/3p1p2/C7/3p4/8/7K w - - 0 1")
    g = V.geometry
    move = next(m for m in pos.legal_moves() if pos.move_text(m) == "a4e4")
    cells = {g.names[c]: (before, after) for c, before, after in move.changes}
    pawn = V.parse_symbol("p")
    assert cells == {"a4": (V.parse_symbol("C"), 0), "e4": (0, V.parse_symbol("C")),
                     "d5": (pawn, 0), "f5": (pawn, 0), "d3": (pawn, 0)}
    assert sorted(g.names[c] for c in move.victims) == ["d3", "d5", "f5"]
    before = pos.fen()
    pos.push(move)
    assert pos.fen().startswith("k7/8/8/8/4C3/8/8/7K b")
    pos.pop()
    assert pos.fen() == before


def test_a_coded_capture_gives_check() -> None:
    # The capricorn can land on e4, next to the black king on e5: that is an attack, so black
    # is in check and the king must step away from every cell the charge can reach beside.
    pos = parse_fen(MATE, "8/8/8/4k3/C7/8/8/7K b - - 0 1")
    assert pos.is_check()
    for move in pos.legal_moves():
        pos.push(move)
        assert not MATE.rules.royal_attacked(pos, 1), pos.move_text(move)
        pos.pop()
    quiet = parse_fen(MATE, "8/8/8/4k3/8/8/8/C6K b - - 0 1")
    assert quiet.is_check()  # a1-e5 diagonal: the charge lands on d4, next to e5
    far = parse_fen(MATE, "8/8/8/7k/8/8/8/C6K b - - 0 1")
    assert not far.is_check()
