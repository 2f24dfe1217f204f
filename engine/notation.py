"""Text forms: the position notation (FEN extended to any geometry) and move notation.

Position notation::

    <board>[<hand>] <side> <castling> <en-passant> <halfmove> <fullmove> [key=value ...]

* ``board``: the geometry's ``fen_rows`` joined by ``/``; in a row a number is a run of empty
  cells (10 and 13 are single runs), ``*`` is a hole, a piece is its letter (upper case for the
  first side, lower case for the second; with three sides a side mark comes first: ``gN``). A
  letter may carry one prefix character that is part of the piece's symbol (``~N``).
* ``hand`` (optional): pieces off the board that can still enter it, each letter optionally
  preceded by a count: ``[9K9Qq]``.
* ``side``: ``w``/``b`` for two sides, else the side marks.
* ``castling``: ``KQkq``-style (outermost rook on the king's or queen's wing) or file letters of the
  rook (``Ha``); ``-`` for none. ``en-passant``: the cell a double step passed over, or ``-``.
* trailing ``key=value`` tokens hold variant state (``phase=placement``, ``term=w``).

Move notation is UCI extended: ``e2e4``, ``e7e8q`` (promotion letter), ``e1g1`` (castling as the
king's move), ``P@e4`` (a piece entering from hand), ``xe4`` (a piece taken off by its owner);
rule hooks may append a suffix to keep moves with the same cells apart.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from .errors import ChesseryError
from .moves import DROP, EN_PASSANT, REMOVE, Move

if TYPE_CHECKING:
    from .position import Position
    from .variant import Variant

PREFIXES = "~+"
_RUN = re.compile(r"\d+")


class PositionError(ChesseryError, ValueError):
    """A position text that does not describe a position of the variant."""


def parse_board(variant: Variant, text: str) -> list[int]:
    """Piece codes per cell from the board field; raises ``PositionError`` naming the row."""
    g = variant.geometry
    rows = text.split("/")
    if len(rows) != len(g.fen_rows):
        raise PositionError(f"{variant.name}: board has {len(rows)} rows, expected {len(g.fen_rows)}")
    board = [0] * g.size
    for r, (row_text, row_cells) in enumerate(zip(rows, g.fen_rows, strict=True)):
        col = 0
        i = 0
        while i < len(row_text):
            ch = row_text[i]
            if ch.isdigit():
                m = _RUN.match(row_text, i)
                assert m
                run = int(m.group())
                for _ in range(run):
                    if col >= len(row_cells) or row_cells[col] is None:
                        raise PositionError(f"{variant.name}: row {r + 1} {row_text!r}: run crosses a hole or edge")
                    col += 1
                i = m.end()
                continue
            if ch == "*":
                if col >= len(row_cells) or row_cells[col] is not None:
                    raise PositionError(f"{variant.name}: row {r + 1} {row_text!r}: '*' where there is a cell")
                col += 1
                i += 1
                continue
            token, i = _read_piece_token(variant, row_text, i)
            if col >= len(row_cells) or row_cells[col] is None:
                raise PositionError(f"{variant.name}: row {r + 1} {row_text!r}: piece off the board")
            try:
                board[row_cells[col]] = variant.parse_symbol(token)  # type: ignore[index]
            except ValueError as exc:
                raise PositionError(f"{variant.name}: row {r + 1}: {exc}") from None
            col += 1
        if col != len(row_cells):
            raise PositionError(f"{variant.name}: row {r + 1} {row_text!r} covers {col} of {len(row_cells)} cells")
    return board


def _read_piece_token(variant: Variant, text: str, i: int) -> tuple[str, int]:
    start = i
    if variant.nsides > 2:
        i += 1  # side mark
    if i < len(text) and text[i] in PREFIXES:
        i += 1
    if i >= len(text) or not text[i].isalpha():
        raise PositionError(f"{variant.name}: cannot read a piece at {text[start:]!r}")
    return text[start:i + 1], i + 1


def format_board(variant: Variant, board: list[int]) -> str:
    rows = []
    for row_cells in variant.geometry.fen_rows:
        out = []
        run = 0
        for cell in row_cells:
            if cell is None or board[cell]:
                if run:
                    out.append(str(run))
                    run = 0
                out.append("*" if cell is None else variant.symbol(board[cell]))
            else:
                run += 1
        if run:
            out.append(str(run))
        rows.append("".join(out))
    return "/".join(rows)


def parse_hand(variant: Variant, text: str) -> list[dict[int, int]]:
    """``9Kq`` -> per side, kind index -> count."""
    hands: list[dict[int, int]] = [{} for _ in range(variant.nsides)]
    i = 0
    while i < len(text):
        m = _RUN.match(text, i)
        count = 1
        if m:
            count = int(m.group())
            i = m.end()
        token, i = _read_piece_token(variant, text, i)
        try:
            code = variant.parse_symbol(token)
        except ValueError as exc:
            raise PositionError(f"{variant.name}: hand: {exc}") from None
        side, kind = variant.side_of(code), variant.kind_of(code)
        hands[side][kind] = hands[side].get(kind, 0) + count
    return hands


def format_hand(variant: Variant, hands: list[dict[int, int]]) -> str:
    parts = []
    for side, hand in enumerate(hands):
        for kind in sorted(hand):
            count = hand[kind]
            if count:
                sym = variant.symbol(variant.code(kind, side))
                parts.append(sym if count == 1 else f"{count}{sym}")
    return "".join(parts)


def side_tokens(variant: Variant) -> tuple[str, ...]:
    return ("w", "b") if variant.nsides == 2 else variant.side_letters


def castling_rooks(variant: Variant, board: list[int], field: str) -> frozenset[int]:
    """Rook cells that still have castling rights, from the castling field."""
    if field == "-":
        return frozenset()
    g = variant.geometry
    rooks: set[int] = set()
    for ch in field:
        side = 0 if ch.isupper() else 1
        kings = [c for c in range(g.size) if board[c] and variant.side_of(board[c]) == side
                 and variant.kinds[variant.kind_of(board[c])].castles == "king"]
        if not kings:
            raise PositionError(f"{variant.name}: castling {ch!r} without a castling king")
        k = kings[0]
        ky = g.coords[k][1]
        row = [c for c in range(g.size) if g.coords[c][1] == ky and g.board_of[c] == g.board_of[k]
               and board[c] and variant.side_of(board[c]) == side
               and variant.kinds[variant.kind_of(board[c])].castles == "rook"]
        kx = g.coords[k][0]
        up = ch.upper()
        if up == "K":
            cands = sorted((c for c in row if g.coords[c][0] > kx), key=lambda c: -g.coords[c][0])
        elif up == "Q":
            cands = sorted((c for c in row if g.coords[c][0] < kx), key=lambda c: g.coords[c][0])
        else:
            fx = ord(up) - ord("A")
            cands = [c for c in row if g.coords[c][0] == fx]
        if not cands:
            raise PositionError(f"{variant.name}: castling {ch!r} without a rook to castle with")
        rooks.add(cands[0])
    return frozenset(rooks)


def format_castling(variant: Variant, board: list[int], rooks: frozenset[int]) -> str:
    if not rooks:
        return "-"
    g = variant.geometry
    out = []
    for side in (0, 1):
        mine = [r for r in rooks if board[r] and variant.side_of(board[r]) == side]
        kings = [c for c in range(g.size) if board[c] and variant.side_of(board[c]) == side
                 and variant.kinds[variant.kind_of(board[c])].castles == "king"]
        if not kings:
            continue
        kx = g.coords[kings[0]][0]
        row = [c for c in range(g.size) if g.coords[c][1] == g.coords[kings[0]][1] and board[c]
               and variant.side_of(board[c]) == side and variant.kinds[variant.kind_of(board[c])].castles == "rook"]
        for wing, letter in ((1, "K"), (-1, "Q")):
            for r in mine:
                if (g.coords[r][0] - kx) * wing <= 0:
                    continue
                outer = max((c for c in row if (g.coords[c][0] - kx) * wing > 0),
                            key=lambda c: g.coords[c][0] * wing)
                sym = letter if r == outer else "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[g.coords[r][0]]
                out.append(sym if side == 0 else sym.lower())
    return "".join(out) or "-"


def parse_fen(variant: Variant, text: str) -> Position:
    """A position from its text; ``PositionError`` (a ``ValueError``) says what is wrong."""
    from .position import Position

    parts = text.split()
    if not parts:
        raise PositionError(f"{variant.name}: empty position")
    board_text = parts[0]
    hands: list[dict[int, int]] = [{} for _ in range(variant.nsides)]
    if board_text.endswith("]"):
        if "[" not in board_text:
            raise PositionError(f"{variant.name}: hand has no opening '['")
        board_text, hand_text = board_text[:-1].split("[", 1)
        hands = parse_hand(variant, hand_text)
    board = parse_board(variant, board_text)
    fields = parts[1:6]
    extra_tokens = parts[6:]
    defaults = ["w" if variant.nsides == 2 else variant.side_letters[0], "-", "-", "0", "1"]
    # Trailing key=value tokens may start early when counters are omitted.
    while fields and "=" in fields[-1]:
        extra_tokens.insert(0, fields.pop())
    fields += defaults[len(fields):]
    side_text, castle_text, ep_text, half_text, full_text = fields
    sides = side_tokens(variant)
    if side_text not in sides:
        raise PositionError(f"{variant.name}: side to move {side_text!r} is not one of {', '.join(sides)}")
    side = sides.index(side_text)
    castling = castling_rooks(variant, board, castle_text) if variant.castling else frozenset()
    if not variant.castling and castle_text != "-":
        raise PositionError(f"{variant.name}: has no castling, got {castle_text!r}")
    ep = -1
    if ep_text != "-":
        try:
            ep = variant.geometry.index(ep_text)
        except ValueError as exc:
            raise PositionError(f"{variant.name}: en passant: {exc}") from None
        if board[ep]:
            raise PositionError(f"{variant.name}: en passant cell {ep_text} is occupied")
    try:
        halfmove, fullmove = int(half_text), int(full_text)
    except ValueError:
        raise PositionError(f"{variant.name}: move counters {half_text!r} {full_text!r} are not numbers") from None
    if halfmove < 0 or fullmove < 1:
        raise PositionError(f"{variant.name}: move counters out of range")
    extra: dict[str, str] = {}
    for tok in extra_tokens:
        if "=" not in tok:
            raise PositionError(f"{variant.name}: unexpected field {tok!r}")
        k, v = tok.split("=", 1)
        extra[k] = v
    pos = Position(variant, board, side, castling=castling, ep=ep, halfmove=halfmove, fullmove=fullmove,
                   hands=hands, extra=extra)
    variant.rules.validate(pos)
    return pos


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


def format_fen(pos: Position) -> str:
    v = pos.variant
    board = format_board(v, pos.board)
    hand = format_hand(v, pos.hands)
    if hand or v.rules.shows_hand:
        board += f"[{hand}]"
    fields = [
        board,
        side_tokens(v)[pos.side],
        format_castling(v, pos.board, pos.castling) if v.castling else "-",
        v.geometry.names[pos.ep] if _ep_legal(pos) else "-",
        str(pos.halfmove),
        str(pos.fullmove),
    ]
    fields += [f"{k}={val}" for k, val in sorted(pos.extra.items())]
    return " ".join(fields)


def _ep_legal(pos: Position) -> bool:
    """The en-passant field is written only when an en-passant capture is legal (python-chess's
    default), so a pinned or absent capturer leaves ``-``."""
    if pos.ep < 0:
        return False
    return any(m.tag == EN_PASSANT for m in pos.legal_moves())


def move_text(variant: Variant, move: Move) -> str:
    """The move in the variant's notation (UCI extended)."""
    names = variant.geometry.names
    if move.tag == DROP:
        sym = variant.kinds[variant.kind_of(move.promotion)].letter
        return f"{sym}@{names[move.to]}{move.text}"
    if move.tag == REMOVE:
        return f"x{names[move.to]}{move.text}"
    text = names[move.frm] + names[move.to]
    if move.promotion and move.promotion != move.piece:
        text += variant.kinds[variant.kind_of(move.promotion)].letter.lower()
    return text + move.text
