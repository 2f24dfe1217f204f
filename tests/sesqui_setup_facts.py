"""What the Sesqui-dimensional Chess source says about its (lost) setup, S2-S5, as checks on a
variant's start position (numbering as in docs/rules/sesqui.md). ``tests/test_sesqui.py`` proves
them on the shipped variant; the setup search (``python -m tools.sesqui_setups``) keeps the
candidates that meet them."""

from __future__ import annotations

from engine import Move, Position, Variant, parse_fen


def _position(variant: Variant, side: int) -> Position:
    return parse_fen(variant, variant.start.replace(" w ", " w " if side == 0 else " b ", 1))


def defenders(variant: Variant, side: int, cell: int) -> list[int]:
    """Cells of ``side``'s men that could take an enemy man standing on ``cell`` at the start."""
    pos = _position(variant, side)
    enemy = variant.code(variant.kind_index["N"], 1 - side)
    pos.board[cell] = enemy
    return sorted({m.frm for m in variant.rules.pseudo_moves(pos) if m.to == cell})


def facts(variant: Variant, side: int) -> dict[str, bool]:
    """S2-S5 for ``side`` in the variant's start position, each as one truth value."""
    g = variant.geometry
    n = g.size
    pos = _position(variant, side)
    board = pos.board
    kinds = variant.kinds
    letter = {c: kinds[variant.kind_at[code]].letter for c, code in enumerate(board) if variant.owner[code] == side}
    moves = pos.legal_moves()
    by_piece: dict[int, list[Move]] = {}
    for m in moves:
        by_piece.setdefault(m.frm, []).append(m)
    pawns = [c for c, x in letter.items() if x == "P"]

    def dist(a: int, b: int) -> int:
        d = (b - a) % n
        return d if d <= n // 2 else d - n

    outer = [c for c in pawns if sorted(abs(dist(c, m.to)) for m in by_piece.get(c, [])) == [1, 2]]
    inner = [c for c in pawns if [abs(dist(c, m.to)) for m in by_piece.get(c, [])] == [2]]
    knights = [c for c, x in letter.items() if x == "N"]

    def out_in_front(k: int) -> bool:
        ms = by_piece.get(k, [])
        if len(ms) != 1 or abs(dist(k, ms[0].to)) != 3:
            return False
        d = 1 if dist(k, ms[0].to) > 0 else -1
        return all(letter.get((k + d * i) % n) == "P" for i in (1, 2))

    still = [c for c in letter if c not in outer and c not in inner and c not in knights]
    s2 = (len(moves) == 14 and len(outer) == 4 and len(inner) == 4 and all(out_in_front(k) for k in knights)
          and len(knights) == 2 and not any(by_piece.get(c) for c in still)
          and not any(m.captured for m in moves))
    defs = {c: defenders(variant, side, c) for c in pawns}
    undefended = [c for c in pawns if not defs[c]]
    s3 = len(pawns) == 8 and len(undefended) == 2
    other = 1 - side
    opp = _position(variant, other)
    s4 = True
    for m in opp.legal_moves():
        opp.push(m)
        if any(variant.rules.attacked(opp, c, (other,)) for c in undefended):
            s4 = False
        opp.pop()
    knight_only = [c for c in pawns if len(defs[c]) == 1 and letter.get(defs[c][0]) == "N"
                   and abs(dist(defs[c][0], c)) == 23]
    s5 = len(knight_only) == 2
    return {"S2": s2, "S3": s3, "S4": s4, "S5": s5}
