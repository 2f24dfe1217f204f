"""The test a Dream Chess 47 setup must pass (docs/rules/dreamchess47.md): neither side in check
and no capture on offer that wins material. ``tests/test_dreamchess47.py`` proves it on the
shipped setup; the setup search (``python -m tools.dreamchess47_setups``) keeps the candidates
that pass it."""

from __future__ import annotations

import engine
from engine import parse_fen

VARIANT = engine.find_variant("dreamchess47")


def value(code: int) -> int:
    kind = VARIANT.kinds[VARIANT.kind_at[code]]
    return 1000 if kind.royal else kind.value


def sound(fen: str) -> bool:
    """Neither side in check, and no capture on offer that wins material at once."""
    for side in "wb":
        pos = parse_fen(VARIANT, f"{fen} {side} - - 0 1")
        if pos.is_check():
            return False
        for move in pos.legal_moves():
            if not move.captured:
                continue
            if value(move.captured) > value(move.piece):
                return False
            pos.push(move)
            retake = any(m.to == move.to for m in pos.legal_moves())
            pos.pop()
            if not retake:
                return False
    return True
