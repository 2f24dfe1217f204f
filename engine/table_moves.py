"""Moves from the piece tables: what ``Rules`` generates for every piece the data describes.

The variant data compiles each kind's moves into per-cell tables (``Variant.leaps`` and
``Variant.rides``); ``TableMoves`` walks them for the side to move, calls the movement hooks of
the kinds whose moves are coded (a rule component's mover), and adds a move per promotion
choice where a promoting piece arrives in its zone. ``Rules`` (``engine.rules``) puts the
components' generation stages around it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from .moves import Move
from .pieces import BOTH, CAPTURE, MOVE

if TYPE_CHECKING:
    from .components import Mover
    from .position import Position
    from .variant_data import Variant

#: A ``promotion_choices`` stage: narrows what the promoting piece ``code`` may become.
PromotionChoices = Callable[["Position", int, tuple[int, ...]], tuple[int, ...]]


class TableMoves:
    """The piece-table walker of one variant (built by ``Rules``, which exposes its methods)."""

    def __init__(self, variant: Variant, promo_zone: list[bytearray], promo_codes: list[tuple[int, ...]],
                 hooks: dict[int, Mover], promotion_choices: list[PromotionChoices]) -> None:
        """``promo_zone`` per side: 1 on the cells where its pieces promote; ``promo_codes`` per
        side: the data's promotion choices; ``hooks``: the mover of each piece code whose moves
        are coded; ``promotion_choices``: the components' stage, in order."""
        self.v = variant
        n = variant.geometry.size
        self.promo_zone = promo_zone
        self.promo_codes = promo_codes
        self.hooks = hooks
        self._promotion_choices = promotion_choices
        owner = variant.owner
        # Per promoting piece and cell: can any of its moves from there end in its zone? Only
        # then does generation need the slower path that checks every target for promotion.
        self.may_promote: list[bytearray] = [bytearray() for _ in range(variant.max_code)]
        for code in variant.all_codes():
            if not variant.is_pawn[code]:
                continue
            cells_in_zone = promo_zone[owner[code]]
            self.may_promote[code] = bytearray(
                any(cells_in_zone[t] for t, *_ in variant.leaps[code][c]) or
                any(cells_in_zone[t] for ray, *_ in variant.rides[code][c] for t in ray)
                for c in range(n))
        # Plain moves are interned: the same piece going from one cell to another (taking the same
        # code) is always the same immutable Move, built once. Generation then appends a table
        # entry instead of constructing an object per move: a Move() call costs about 15 list
        # lookups, and move objects are most of what a search node makes. Built per piece code and
        # cell on first use, so big boards only pay for the cells their pieces visit.
        self._plain: list[list[dict[int, Move] | None]] = [[None] * n for _ in range(variant.max_code)]
        self._capture_key = n

    def piece_moves(self, pos: Position) -> list[Move]:
        """Every move the piece tables (and the movement hooks) give the side to move."""
        v = self.v
        board = pos.board
        side = pos.side
        owner = v.owner
        out: list[Move] = []
        append = out.append
        leaps_t = v.leaps
        rides_t = v.rides
        hooks = self.hooks
        overlaps = v.overlaps
        promo = self.promo_zone[side]
        is_pawn = v.is_pawn
        plain_rows = self._plain
        # a capture's key, target + cells * victim, sits above every quiet move's (its target)
        ck = self._capture_key
        start = 0
        for cell, code in enumerate(board):
            if owner[code] != side:
                continue
            if overlaps[code]:
                start = len(out)
            if hooks and code in hooks:
                hooks[code](pos, cell, code, out)
                if not leaps_t[code][cell] and not rides_t[code][cell]:
                    continue
            if is_pawn[code] and self.may_promote[code][cell]:
                self._pawn_moves(pos, cell, code, side, promo, out)
            else:
                plain = plain_rows[code][cell]
                if plain is None:
                    plain = self._plain_row(code, cell)
                for t, mode, lame, _initial in leaps_t[code][cell]:
                    if lame >= 0 and board[lame]:
                        continue
                    c = board[t]
                    if c == 0:
                        if mode & MOVE:
                            append(plain[t])
                    elif owner[c] != side and mode & CAPTURE:
                        append(plain.get(t + ck * c) or self._capture(plain, cell, t, code, c))
                for ray, mode, hop, _initial in rides_t[code][cell]:
                    if hop:
                        self._hop_moves(board, cell, code, side, ray, mode, out)
                    elif mode == BOTH:
                        for t in ray:
                            c = board[t]
                            if c == 0:
                                append(plain[t])
                                continue
                            if owner[c] != side:
                                append(plain.get(t + ck * c) or self._capture(plain, cell, t, code, c))
                            break
                    else:
                        for t in ray:
                            c = board[t]
                            if c == 0:
                                if mode & MOVE:
                                    append(plain[t])
                                continue
                            if owner[c] != side and mode & CAPTURE:
                                append(plain.get(t + ck * c) or self._capture(plain, cell, t, code, c))
                            break
            if overlaps[code]:
                _dedupe(out, start)
        return out

    def _plain_row(self, code: int, cell: int) -> dict[int, Move]:
        """The interned quiet moves of ``code`` from ``cell``, by target (captures are added by
        ``_capture`` as they are met)."""
        v = self.v
        row: dict[int, Move] = {}
        for t, *_ in v.leaps[code][cell]:
            row[t] = Move(cell, t, code)
        for ray, *_ in v.rides[code][cell]:
            for t in ray:
                row.setdefault(t, Move(cell, t, code))
        self._plain[code][cell] = row
        return row

    def _capture(self, row: dict[int, Move], cell: int, t: int, code: int, captured: int) -> Move:
        move = row[t + self._capture_key * captured] = Move(cell, t, code, captured)
        return move

    def _pawn_moves(self, pos: Position, cell: int, code: int, side: int, promo: bytearray,
                    out: list[Move]) -> None:
        """Moves of a promoting piece: like any other, but each arrival in the zone promotes."""
        v = self.v
        board = pos.board
        owner = v.owner

        def arrive(t: int, captured: int) -> None:
            if promo[t]:
                self.promotions(pos, cell, t, code, captured, out)
            else:
                out.append(Move(cell, t, code, captured))

        for t, mode, lame, _initial in v.leaps[code][cell]:
            if lame >= 0 and board[lame]:
                continue
            c = board[t]
            if (c == 0 and mode & MOVE) or (c and owner[c] != side and mode & CAPTURE):
                arrive(t, c)
        for ray, mode, hop, _initial in v.rides[code][cell]:
            if hop:
                self._hop_moves(board, cell, code, side, ray, mode, out)
                continue
            for t in ray:
                c = board[t]
                if c == 0:
                    if mode & MOVE:
                        arrive(t, 0)
                    continue
                if owner[c] != side and mode & CAPTURE:
                    arrive(t, c)
                break

    def _hop_moves(self, board: list[int], cell: int, code: int, side: int, ray: tuple[int, ...], mode: int,
                   out: list[Move]) -> None:
        owner = self.v.owner
        screen = False
        for t in ray:
            c = board[t]
            if not screen:
                if c:
                    screen = True
                continue
            if c == 0:
                if mode & MOVE:
                    out.append(Move(cell, t, code))
                continue
            if owner[c] != side and mode & CAPTURE:
                out.append(Move(cell, t, code, c))
            break

    def promotion_codes(self, pos: Position, code: int) -> tuple[int, ...]:
        """What a promoting piece may become: the data's choices, narrowed by the components'
        ``promotion_choices`` stage (``captured_pool``: only kinds waiting in the hand)."""
        codes = self.promo_codes[self.v.owner[code]]
        for narrow in self._promotion_choices:
            codes = narrow(pos, code, codes)
        return codes

    def promotions(self, pos: Position, frm: int, to: int, code: int, captured: int, out: list[Move]) -> None:
        """Append the move arriving in the promotion zone, once per choice (and unpromoted when optional)."""
        choices = self.promotion_codes(pos, code)
        if not choices or self.v.promotion_optional:
            out.append(Move(frm, to, code, captured))
        for p in choices:
            out.append(Move(frm, to, code, captured, promotion=p))


def _dedupe(out: list[Move], start: int) -> None:
    """Keep one move per target and promotion among a piece's moves from ``start`` on: a piece
    whose components overlap (``QK``, ``mBF``, a rider going both ways round a ring) reaches some
    cells twice."""
    seen: set[tuple[int, int]] = set()
    kept: list[Move] = []
    for m in out[start:]:
        if m.tag:  # coded moves with the same target may differ in their effects
            kept.append(m)
            continue
        key = (m.to, m.promotion)
        if key not in seen:
            seen.add(key)
            kept.append(m)
    out[start:] = kept
