"""Variants defined only for tests (no tests here): games whose variant files are not shipped yet."""

from __future__ import annotations

from engine.variant import variant_from_toml

#: Chess on two boards where every moved piece crosses to the other board (Alice's basic rule).
ALICE_TOML = """
    inherits = "chess"
    geometry = { type = "two_boards", base = { type = "rectangle", files = 8, ranks = 8 } }
    start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/8/8/8/8/8/8/8/8 w - - 0 1"
    castling = false
    en_passant = false
    rules = "two_board_transfer"
"""
ALICE = variant_from_toml("alice-test", ALICE_TOML)
