"""Readable move notation: Standard Algebraic Notation (SAN) for chess and for every variant whose
moves are ordinary piece moves, and a readable long form for the rest.

SAN, as the PGN standard writes it: the piece letter (none for a pawn), just enough of the
from-cell to tell two like pieces apart (file, else rank, else both), ``x`` for a capture, the
to-cell, ``=Q`` for a promotion, ``+`` for check and ``#`` for checkmate; castling is ``O-O`` /
``O-O-O``. ``display=True`` adds `` e.p.`` after an en-passant capture, as score sheets do; PGN
movetext leaves it off because PGN readers do not expect it.

Moves SAN cannot write keep the variant's own move text, made readable:

* a piece entering from hand: ``K@e4`` (the drop notation PGN readers of drop variants use);
* a piece its owner takes off the board (Mathematichess terminator): ``Kxe4`` would read as a
  capture, so it is ``-Ke4``;
* a move a rule hook built (pushes, swaps, transfers, multi-captures) or one whose text carries a
  suffix: the piece letter, from-cell, ``-`` or ``x``, to-cell and the suffix (``Rc3-c5>``).

Only the engine's public Position/Move API is used; this module has no state.
"""

from __future__ import annotations

import re

from .errors import IllegalMoveError
from .moves import CASTLE, DROP, EN_PASSANT, PLAIN, REMOVE, Move
from .position import Position

_CELL = re.compile(r"^([a-zA-Z]+)(\d+)(.*)$")


def _split(name: str) -> tuple[str, str]:
    """A cell name's file and rank parts (``e4`` -> ``e``, ``4``); names of other shapes are all file."""
    m = _CELL.match(name)
    if m is None:
        return name, ""
    return m.group(1), m.group(2) + m.group(3)


def _letter(pos: Position, code: int) -> str:
    """The piece's letters where a letter is always written (long forms, drops): its ``san``
    letters when the variant gives them, else its position-text letter."""
    kind = pos.variant.kinds[pos.variant.kind_of(code)]
    return kind.san or kind.letter


def _san_letter(pos: Position, code: int) -> str:
    """The piece's letters in SAN: its ``san`` letters from the variant data (``IN`` for an
    illusionary knight, ``I`` for an illusionary pawn), else its letter, and nothing for a pawn."""
    kind = pos.variant.kinds[pos.variant.kind_of(code)]
    if kind.san is not None:
        return kind.san
    return "" if kind.pawn else kind.letter


def _is_pawn(pos: Position, code: int) -> bool:
    v = pos.variant
    return v.kinds[v.kind_of(code)].pawn


def _suffix(pos: Position, move: Move) -> str:
    """``#`` for mate, ``+`` for check, after playing ``move`` (taken back before returning)."""
    with pos.after(move):
        if not pos.is_check():
            return ""
        outcome = pos.outcome()
        return "#" if outcome is not None and outcome.termination == "checkmate" else "+"


def _disambiguation(pos: Position, move: Move, legal: list[Move]) -> str:
    names = pos.variant.geometry.names
    rivals = [m.frm for m in legal if m.frm >= 0 and m.frm != move.frm and m.to == move.to and m.piece == move.piece
              and m.tag in (PLAIN, EN_PASSANT)]
    if not rivals:
        return ""
    file, rank = _split(names[move.frm])
    if all(_split(names[c])[0] != file for c in rivals):
        return file
    if all(_split(names[c])[1] != rank for c in rivals):
        return rank
    return names[move.frm]


def _castle(pos: Position, move: Move) -> str:
    names = pos.variant.geometry.names
    # The king's move decides the wing; a king that takes its own rook (Chess960 style) too.
    to = move.to
    king_file = _split(names[move.frm])[0]
    to_file = _split(names[to])[0]
    kingside = (len(to_file), to_file) > (len(king_file), king_file)
    return "O-O" if kingside else "O-O-O"


def san(pos: Position, move: Move, *, display: bool = False, legal: list[Move] | None = None) -> str:
    """``move`` (legal in ``pos``) in SAN or the readable long form. ``legal`` may pass the
    position's legal moves when the caller already has them."""
    names = pos.variant.geometry.names
    if move.tag == DROP:
        return f"{_letter(pos, move.promotion or move.piece)}@{names[move.to]}{move.text}" + _suffix(pos, move)
    if move.tag == REMOVE:
        return f"-{_letter(pos, move.piece)}{names[move.to]}{move.text}" + _suffix(pos, move)
    if move.tag == CASTLE and not move.text:
        return _castle(pos, move) + _suffix(pos, move)
    if move.frm >= 0 and move.frm == move.to and move.promotion and not move.relocations:
        # A man that changes kind where it stands (a choice before the game): ``e7=I``, ``Nb8=IN``.
        return (f"{_san_letter(pos, move.piece)}{names[move.frm]}={_san_letter(pos, move.promotion)}{move.text}"
                + _suffix(pos, move))
    capture = move.is_capture
    # (An en-passant capture's text only keeps it apart from a plain move to the same cell in
    # the move text; SAN tells them apart by its ``x``.)
    if move.tag not in (PLAIN, EN_PASSANT) or (move.text and move.tag != EN_PASSANT) or move.frm < 0:
        sep = "x" if capture else "-"
        frm = names[move.frm] if move.frm >= 0 else ""
        return f"{_letter(pos, move.piece)}{frm}{sep}{names[move.to]}{move.text}" + _suffix(pos, move)
    if legal is None:
        legal = pos.legal_moves()
    text = _san_letter(pos, move.piece)
    if _is_pawn(pos, move.piece):
        # A pawn capture names its file; pawns that also move sideways or diagonally without
        # capturing (an illusionary pawn) name as much of the from-cell as tells them apart.
        known = _disambiguation(pos, move, legal)
        if capture:
            file = _split(names[move.frm])[0]
            text += (file if known in ("", file) else names[move.frm]) + "x"
        else:
            text += known
    else:
        text += _disambiguation(pos, move, legal) + ("x" if capture else "")
    text += names[move.to]
    if move.promotion and move.promotion != move.piece:
        text += "=" + _san_letter(pos, move.promotion)
    text += _suffix(pos, move)
    if display and move.tag == EN_PASSANT:
        text += " e.p."
    return text


def san_line(start: Position, moves: list[Move] | tuple[Move, ...], *, display: bool = False) -> list[str]:
    """The notation of each move of a game played from ``start`` (left as it was)."""
    pos = start.copy()
    out: list[str] = []
    for move in moves:
        out.append(san(pos, move, display=display))
        pos.push(move)
    return out


def parse_san(pos: Position, text: str) -> Move:
    """The legal move written ``text`` in this module's notation (or the variant's move text).
    Check marks and a trailing ``e.p.`` are optional. Raises ``IllegalMoveError``."""
    want = _bare(text)
    legal = pos.legal_moves()
    for move in legal:
        if _bare(san(pos, move, legal=legal)) == want:
            return move
    try:
        return pos.parse_move(text.strip())
    except IllegalMoveError:
        raise IllegalMoveError(f"no legal move {text!r} in {pos.fen()}") from None


def _bare(text: str) -> str:
    text = text.strip()
    if text.endswith("e.p."):
        text = text[:-4].rstrip()
    return text.rstrip("+#!?").replace("0-0-0", "O-O-O").replace("0-0", "O-O")
