"""FIDE chess move generation pinned to the published perft numbers."""

import pytest

from engine import find_variant, parse_fen
from engine.perft import perft
from tests.perft_data import read_perft

CASES = read_perft("chess")


@pytest.mark.parametrize(("ident", "epd", "depth", "nodes"), CASES,
                         ids=[f"{c[0]}-d{c[2]}" for c in CASES])
def test_perft(ident: str, epd: str, depth: int, nodes: int) -> None:
    pos = parse_fen(find_variant("chess"), epd)
    before = pos.fen()
    assert perft(pos, depth) == nodes
    assert pos.fen() == before, "push/pop must restore the position exactly"
