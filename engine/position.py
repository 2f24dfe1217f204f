"""Positions: what stands where, whose turn, and the state a variant needs; push/pop moves."""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from .errors import IllegalMoveError, PositionError
from .moves import DROP, EN_PASSANT, REMOVE, Move
from .notation import format_fen, move_text, read_position

if TYPE_CHECKING:
    from .variant_data import Variant



#: How a game can end: a closed vocabulary, so mypy checks every comparison with one
#: (``strict_equality``). The text is a contract: ``chessery play`` prints ``1-0 checkmate``, the
#: store and PGN export keep it. A component that ends a game its own way adds its name here.
Termination = Literal[
    # the standard ends (engine.components: no_moves, royal_capture, bare_king, line, the draws)
    "checkmate", "stalemate", "king_capture", "bare_king", "line", "fifty_move", "repetition",
    "insufficient_material",
    # variant components: territory (Mathematichess), kings_through (Duffery), two_furies (Royal Fury)
    "agreement", "target", "no_moves", "kings_through", "furies_captured", "one_fury_each",
    # the controller: the clock and the operator menu
    "time_forfeit", "timeout_vs_insufficient_material", "resignation",
    # the arbiter's results entered in the operator menu
    "forfeit", "arbiter_decision", "adjourned",
]


@dataclass(frozen=True)
class Outcome:
    """How a game ended. ``winner`` is a side index, or None for a draw."""

    termination: Termination
    winner: int | None

    def result(self, nsides: int = 2, sides: tuple[str, ...] = ()) -> str:
        """PGN-style result for two sides: 1-0, 0-1, 1/2-1/2; for more, the winner's name (from
        ``sides``) or its number."""
        if self.winner is None:
            return "1/2-1/2"
        if nsides == 2:
            return "1-0" if self.winner == 0 else "0-1"
        return sides[self.winner] if sides else f"{self.winner + 1}-wins"


_ZOBRIST_CACHE: dict[tuple[int, int], list[list[int]]] = {}


def _zobrist(cells: int, codes: int) -> list[list[int]]:
    key = (cells, codes)
    table = _ZOBRIST_CACHE.get(key)
    if table is None:
        rng = random.Random(0xC4E55 + cells * 131 + codes)  # fixed seed: hashes stable across runs
        table = [[0] + [rng.getrandbits(64) for _ in range(codes - 1)] for _ in range(cells)]
        _ZOBRIST_CACHE[key] = table
    return table


class Position:
    """A mutable position with a move stack, like python-chess's ``Board``.

    ``board[cell]`` is a piece code (0 empty), ``ids[cell]`` the identity of the physical piece
    standing there (0 empty): identities follow pieces through moves, promotions and swaps.
    """

    def __init__(
        self,
        variant: Variant,
        board: list[int],
        side: int = 0,
        *,
        castling: frozenset[int] = frozenset(),
        ep: int = -1,
        halfmove: int = 0,
        fullmove: int = 1,
        hands: list[dict[int, int]] | None = None,
        extra: dict[str, str] | None = None,
        ids: list[int] | None = None,
    ) -> None:
        self.variant = variant
        self.board = board
        self.side = side
        self.castling = castling
        self.ep = ep
        self.halfmove = halfmove
        self.fullmove = fullmove
        self.hands = hands if hands is not None else [{} for _ in range(variant.nsides)]
        self.extra = extra if extra is not None else {}
        if ids is None:
            ids = [0] * len(board)
            n = 0
            for c, code in enumerate(board):
                if code:
                    n += 1
                    ids[c] = n
        self.ids = ids
        self.next_id = max(ids, default=0) + 1
        self.zobrist = _zobrist(len(board), variant.max_code)
        self.move_stack: list[Move] = []
        self._undo: list[tuple] = []
        #: Counts the changes made through ``push`` and ``pop`` (each counts twice: once as it
        #: starts, once as it ends): ``Rules`` keys its memo of this position's moves on it.
        self.version = 0
        self.hash = self._full_hash()
        self.history: list[int] = [self.hash]

    # -- identity / hashing ------------------------------------------------------------------------
    def _full_hash(self) -> int:
        h = 0
        z = self.zobrist
        for c, code in enumerate(self.board):
            if code:
                h ^= z[c][code]
        return h ^ self._state_hash()

    def _state_hash(self) -> int:
        h = hash((self.side, self.castling, self.ep))
        if self.extra or any(self.hands):
            h ^= hash((tuple(tuple(sorted(hand.items())) for hand in self.hands), tuple(sorted(self.extra.items()))))
        return h & 0xFFFFFFFFFFFFFFFF

    def copy(self) -> Position:
        """An independent copy with the same history (for analysis off the live game)."""
        p = Position.__new__(Position)
        p.variant = self.variant
        p.board = self.board[:]
        p.side = self.side
        p.castling = self.castling
        p.ep = self.ep
        p.halfmove = self.halfmove
        p.fullmove = self.fullmove
        p.hands = [dict(h) for h in self.hands]
        p.extra = dict(self.extra)
        p.ids = self.ids[:]
        p.next_id = self.next_id
        p.zobrist = self.zobrist
        p.move_stack = self.move_stack[:]
        p._undo = self._undo[:]
        p.version = self.version
        p.hash = self.hash
        p.history = self.history[:]
        return p

    # -- queries -----------------------------------------------------------------------------------
    @property
    def phase(self) -> str:
        """Game phase: ``placement``, ``selection`` or ``play`` (variant state ``phase=...``)."""
        return self.extra.get("phase", "play")

    def legal_moves(self) -> list[Move]:
        return self.variant.rules.legal_moves(self)

    def is_check(self) -> bool:
        return self.variant.rules.in_check(self)

    def outcome(self) -> Outcome | None:
        return self.variant.rules.outcome(self)

    def fen(self) -> str:
        return format_fen(self)

    def move_text(self, move: Move) -> str:
        return move_text(self.variant, move)

    def parse_move(self, text: str) -> Move:
        """The legal move written ``text``; ``IllegalMoveError`` otherwise."""
        for move in self.legal_moves():
            if self.move_text(move) == text:
                return move
        raise IllegalMoveError(f"no matching legal move for {text} in {self.fen()}")

    def piece_at(self, cell: int) -> int:
        return self.board[cell]

    def cells_of(self, side: int) -> list[int]:
        owner = self.variant.owner
        return [c for c, code in enumerate(self.board) if owner[code] == side]

    # -- push / pop --------------------------------------------------------------------------------
    def push(self, move: Move) -> None:
        """Play ``move`` (assumed legal: use ``parse_move`` or ``legal_moves`` to get one)."""
        v = self.variant
        rules = v.rules
        board = self.board
        ids = self.ids
        changes = move.changes
        # A memo of the moves taken while the push is under way (the next_side stage may ask
        # whether the side can move) is of neither the position before nor the one after.
        self.version += 1
        undo_ids = [(c, ids[c]) for c, _, _ in changes]
        record = (move, self.side, self.castling, self.ep, self.halfmove, self.fullmove, self.hash, undo_ids,
                  [dict(h) for h in self.hands] if rules.tracks_hands else None,
                  dict(self.extra) if self.extra or rules.has_state else None, self.next_id)
        self._undo.append(record)
        z = self.zobrist
        h = self.hash ^ self._state_hash()
        moved_ids = [(dst, ids[src]) for src, dst in move.relocations]
        for cell, before, after in changes:
            board[cell] = after
            h ^= z[cell][before] ^ z[cell][after]
            ids[cell] = 0
        for dst, pid in moved_ids:
            ids[dst] = pid
        for cell, _before, after in changes:
            if after and not ids[cell]:
                ids[cell] = self.next_id
                self.next_id += 1
        irreversible = bool(move.captured) or move.tag in (EN_PASSANT, DROP, REMOVE) or (
            move.frm >= 0 and v.is_pawn[move.piece])
        self.halfmove = 0 if irreversible else self.halfmove + 1
        # Components set what this move leaves behind (en-passant cell, castling rights, hands...).
        self.ep = -1
        # The after_push and next_side stages (engine.components) are walked here: this runs at
        # every node of a search.
        for update in rules.after_push_stage:
            update(self, move)
        side = -1
        for answer in rules.next_side_stage:
            chosen = answer(self, move)
            if chosen is not None:
                side = chosen
                break
        if side < 0:
            side = self.side + 1 if self.side + 1 < v.nsides else 0
        if side < self.side:  # the turn order wrapped round: a new move number
            self.fullmove += 1
        self.side = side
        self.hash = h ^ self._state_hash()
        self.move_stack.append(move)
        self.history.append(self.hash)
        self.version += 1

    def pop(self) -> Move:
        """Take back the last move and return it."""
        move, side, castling, ep, halfmove, fullmove, h, undo_ids, hands, extra, next_id = self._undo.pop()
        self.version += 1
        board = self.board
        for cell, before, _after in move.changes:
            board[cell] = before
        for cell, pid in undo_ids:
            self.ids[cell] = pid
        self.castling = castling
        self.ep = ep
        self.halfmove = halfmove
        self.fullmove = fullmove
        self.hash = h
        self.side = side
        # Copies: a Position.copy() shares these undo records with the game it was copied from.
        if hands is not None:
            self.hands = [dict(h) for h in hands]
        if extra is not None:
            self.extra = dict(extra)
        self.next_id = next_id
        self.move_stack.pop()
        self.history.pop()
        return move

    @contextmanager
    def after(self, *moves: Move) -> Iterator[Position]:
        """A look ahead: the position after ``moves``, and after any move pushed inside the
        block; all of them are taken back on leaving it, however it is left (a return halfway
        through a line, an error), so a caller never counts its pushes."""
        depth = len(self.move_stack)
        try:
            for move in moves:
                self.push(move)
            yield self
        finally:
            while len(self.move_stack) > depth:
                self.pop()

    def push_text(self, text: str) -> Move:
        move = self.parse_move(text)
        self.push(move)
        return move

    # Fast make/unmake of a move's board changes only, for legality tests inside the generator.
    def _apply(self, changes: tuple[tuple[int, int, int], ...]) -> None:
        board = self.board
        for cell, _b, after in changes:
            board[cell] = after

    def _revert(self, changes: tuple[tuple[int, int, int], ...]) -> None:
        board = self.board
        for cell, before, _a in changes:
            board[cell] = before


def parse_fen(variant: Variant, text: str) -> Position:
    """A position from its text (``engine.notation``); ``PositionError`` (a ``ValueError``) says
    what is wrong, including what the variant's rule components reject."""
    f = read_position(variant, text)
    pos = Position(variant, f.board, f.side, castling=f.castling, ep=f.ep, halfmove=f.halfmove,
                   fullmove=f.fullmove, hands=f.hands, extra=f.extra)
    variant.rules.validate(pos)
    return pos


def start_position(variant: Variant) -> Position:
    return parse_fen(variant, variant.start)


def parse_game_fen(variant: Variant, text: str) -> Position:
    """``parse_fen`` for a position to play from (the commands, a game's start): also refuse one
    where a side that starts with royals has none, which would otherwise read as a game already
    won by a royal's capture. ``parse_fen`` itself reads such part positions (studies of a few
    men, the tests'). Variants whose sides start without royals (Gryphon) need none."""
    pos = parse_fen(variant, text)
    rules = variant.rules
    for side in range(variant.nsides):
        if variant.royal_count[side] and not rules.royal_cells(pos.board, side):
            names = sorted({variant.kinds[variant.kind_at[c]].name for c in rules.royal_codes[side]})
            raise PositionError(f"{variant.name}: {variant.sides[side]} has no {' or '.join(names)}, "
                                f"which the game needs")
    return pos
