"""Moves and their physical effects, built in one place.

Every move, whatever its kind, says which cells change and how: ``changes`` is a tuple of
``(cell, before, after)`` piece codes, and ``relocations`` says where each physical piece went.
The controller matches what the sensors see against exactly this, so a castling, an en-passant
capture, a push of a whole line, a swap, a capture by leaping over or a transfer to another board
needs no special case there.

Moves come from one builder. A plain move or capture (one piece from one cell to another, maybe
promoting) is ``Move(frm, to, piece, captured, promotion)``: the builder's fast form, whose effects
are derived on demand. Anything else is described as physical actions to ``build_move``: pieces
relocated (all lifted at once, then put down), pieces removed, pieces placed from outside the
board, pieces that change identity where they stand. It derives the net changes, the relocations
and the captured pieces, so no rule component writes change tuples by hand.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final, Literal

Change = tuple[int, int, int]

#: Move tags: a closed vocabulary, so mypy checks every comparison with one (``strict_equality``).
#: A plain move or capture has the empty tag.
MoveTag = Literal["", "castle", "ep", "drop", "remove", "special", "convert"]
PLAIN: Final = ""
CASTLE: Final = "castle"
EN_PASSANT: Final = "ep"
DROP: Final = "drop"      # a piece from hand placed on an empty cell (placement stages, drops)
REMOVE: Final = "remove"  # a piece taken off the board by its owner (Mathematichess terminator)
SPECIAL: Final = "special"  # anything else a rule component builds: pushes, swaps, multi-captures, transfers
CONVERT: Final = "convert"  # a piece turned into another where it stands, as a move (Triscacia's pawn to queen)


class Move:
    """A move: from-cell (-1 for drops/removals), to-cell, the mover's code, the first captured
    code, the code that stands on ``to`` afterwards when it differs from the mover (promotion,
    drop), a tag, and (for non-plain moves) the effects ``build_move`` derived."""

    __slots__ = ("_changed_cells", "_changes", "_relocations", "_victims", "captured", "derived", "frm", "piece",
                 "promotion", "tag", "text", "to")

    def __init__(
        self,
        frm: int,
        to: int,
        piece: int,
        captured: int = 0,
        promotion: int = 0,
        tag: MoveTag = PLAIN,
        changes: tuple[Change, ...] | None = None,
        relocations: tuple[tuple[int, int], ...] | None = None,
        text: str = "",
        victims: tuple[int, ...] | None = None,
    ) -> None:
        self.frm = frm
        self.to = to
        self.piece = piece
        self.captured = captured
        self.promotion = promotion
        self.tag = tag
        self._changes = changes
        self._relocations = relocations
        self._victims = victims
        self._changed_cells: frozenset[int] | None = None
        #: Notation suffix a rule component chose for moves whose from/to do not tell them apart.
        self.text = text
        #: Moves a transform component derived from this one, by component, when the result
        #: depends on nothing but the move (Alice's transfer): plain moves are interned by the
        #: generator, so each derivation is then built once per game rather than once per node.
        self.derived: dict[object, Move] | None = None

    @property
    def changes(self) -> tuple[Change, ...]:
        """``(cell, before, after)`` for every cell whose contents the move changes."""
        if self._changes is None:
            self._changes = ((self.frm, self.piece, 0), (self.to, self.captured, self.promotion or self.piece))
        return self._changes

    @property
    def changed_cells(self) -> frozenset[int]:
        """The cells the move leaves other than they were: ``changes`` without any entry that
        puts back what stood there."""
        # (Kept: the referee's searches ask it of the same interned moves at many nodes.)
        if self._changed_cells is None:
            self._changed_cells = frozenset({c for c, before, after in self.changes if before != after})
        return self._changed_cells

    @property
    def relocations(self) -> tuple[tuple[int, int], ...]:
        """``(from, to)`` cells of every physical piece that moves (for piece identities)."""
        if self._relocations is None:
            self._relocations = ((self.frm, self.to),) if self.frm >= 0 else ()
        return self._relocations

    @property
    def is_capture(self) -> bool:
        return bool(self.captured) or self.tag == EN_PASSANT

    @property
    def victims(self) -> tuple[int, ...]:
        """Cells whose piece the move takes off for good: a multi-capture lists each victim, a
        swap or a push none (those pieces are relocated), a promotion none."""
        if self._victims is None:
            if self.tag == EN_PASSANT:
                self._victims = tuple(c for c, before, after in self.changes if before and not after
                                      and c != self.frm)
            else:
                self._victims = (self.to,) if self.captured else ()
        return self._victims

    def with_effects(self, changes: tuple[Change, ...], relocations: tuple[tuple[int, int], ...],
                     tag: MoveTag = "", captured: int | None = None) -> Move:
        """The same move (same from, to, mover, promotion, text) with other effects: for
        components that turn a move into another (a transfer to the other board, a mutation)."""
        return Move(self.frm, self.to, self.piece, self.captured if captured is None else captured,
                    self.promotion, tag or self.tag, changes, relocations, self.text, self.victims)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Move) and self.key() == other.key()

    def __hash__(self) -> int:
        return hash(self.key())

    def key(self) -> tuple[object, ...]:
        return (self.frm, self.to, self.promotion, self.tag, self.text, self.changes)

    def __repr__(self) -> str:
        return f"Move({self.frm}->{self.to}, tag={self.tag!r}, changes={self.changes})"


def build_move(
    board: Sequence[int],
    frm: int,
    to: int,
    *,
    tag: MoveTag = SPECIAL,
    text: str = "",
    relocate: Iterable[tuple[int, int]] = (),
    remove: Iterable[int] = (),
    place: Iterable[tuple[int, int]] = (),
    become: Iterable[tuple[int, int]] = (),
    piece: int | None = None,
    promotion: int = 0,
) -> Move:
    """The move made of these physical actions, in this order: every piece in ``relocate`` is
    lifted from its source and put on its destination (all at once, so swaps and pushes work),
    every cell in ``remove`` is emptied (a removed cell that is also a destination keeps the piece
    that arrives), every ``(cell, code)`` in ``place`` gets a piece from outside the board, every
    ``(cell, code)`` in ``become`` has its piece change identity where it stands.

    ``frm``/``to`` name the move in notation (-1 for none); ``piece`` defaults to what stands on
    ``frm`` (or the first placed code for drops)."""
    if type(relocate) is tuple and type(remove) is tuple and not place and not become and len(relocate) == 1 \
            and len(remove) <= 1 and tag != REMOVE and relocate[0][0] not in remove:
        return _one_piece_move(board, frm, to, relocate[0], remove, tag, text, piece, promotion)
    relocate = tuple(relocate)
    remove = tuple(remove)
    place = tuple(place)
    become = tuple(become)
    if not remove and not place and not become and tag != REMOVE:
        return _relocations_only(board, frm, to, relocate, tag, text, piece, promotion)
    state: dict[int, int] = {}
    order: list[int] = []

    def touch(cell: int) -> None:
        if cell not in state:
            state[cell] = board[cell]
            order.append(cell)

    lifted = []
    for src, dst in relocate:
        touch(src)
        touch(dst)
        lifted.append((dst, board[src]))
    sources = {src for src, _dst in relocate}
    destinations = list(dict.fromkeys(dst for _src, dst in relocate))  # ordered: victims keep the move's order
    # A piece is taken for good when its cell is emptied or covered and it is not one of the
    # relocated pieces; identity changes in place (``become``) are not captures.
    victims = [cell for cell in dict.fromkeys((*remove, *destinations, *(c for c, _code in place)))
               if board[cell] and cell not in sources and tag != REMOVE]
    for src in sources:
        state[src] = 0
    for cell in remove:
        touch(cell)
        if cell not in destinations:
            state[cell] = 0
    for dst, code in lifted:
        state[dst] = code
    for cell, code in place:
        touch(cell)
        state[cell] = code
    for cell, code in become:
        touch(cell)
        state[cell] = code
    # A cell a piece is lifted from or put on counts even when the codes match (a push of a run
    # of equal pieces): the sensors see every one of those lifts and placements.
    handled = {c for src, dst in relocate if src != dst for c in (src, dst)}
    changes = tuple((cell, board[cell], state[cell]) for cell in order
                    if board[cell] != state[cell] or cell in handled)
    if piece is None:
        piece = board[frm] if frm >= 0 else (place[0][1] if place else 0)
    captured = board[victims[0]] if victims else 0
    return Move(frm, to, piece, captured, promotion, tag, changes, relocate, text, tuple(victims))



def _one_piece_move(board: Sequence[int], frm: int, to: int, relocation: tuple[int, int], remove: tuple[int, ...],
                    tag: MoveTag, text: str, piece: int | None, promotion: int) -> Move:
    """``build_move``'s common case with the same result and less bookkeeping: one piece
    relocated, at most one other cell emptied (transfers, en passant, leaping captures)."""
    src, dst = relocation
    at_dst = board[dst]
    changes: list[Change]
    if src != dst:
        changes = [(src, board[src], 0), (dst, at_dst, board[src])]
        victims = [dst] if at_dst else []
    else:
        changes = []
        victims = []
    if remove:
        cell = remove[0]
        if cell != dst and board[cell]:
            changes.append((cell, board[cell], 0))
            victims.insert(0, cell)  # removed pieces come first, as in the general path
    if piece is None:
        piece = board[frm] if frm >= 0 else 0
    return Move(frm, to, piece, board[victims[0]] if victims else 0, promotion, tag, tuple(changes), (relocation,),
                text, tuple(victims))


def _relocations_only(board: Sequence[int], frm: int, to: int, relocate: tuple[tuple[int, int], ...], tag: MoveTag,
                      text: str, piece: int | None, promotion: int) -> Move:
    """``build_move``'s case of pieces relocated and nothing else (castling, swaps, pushes), with
    the same result and less bookkeeping: move generators build many of these."""
    arrives = {dst: board[src] for src, dst in relocate}
    sources = {src for src, dst in relocate if src != dst}
    order = list(dict.fromkeys(c for pair in relocate for c in pair))
    handled = sources | {dst for src, dst in relocate if src != dst}
    changes = tuple((c, board[c], arrives.get(c, 0)) for c in order
                    if c in handled or board[c] != arrives.get(c, 0))
    victims = tuple(dst for dst in arrives if board[dst] and dst not in sources and
                    not any(s == dst for s, _d in relocate))
    if piece is None:
        piece = board[frm] if frm >= 0 else 0
    return Move(frm, to, piece, board[victims[0]] if victims else 0, promotion, tag, changes, relocate, text, victims)
