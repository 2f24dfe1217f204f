"""Moves and their physical effects.

Every move, whatever its kind, can say which cells change and how: ``changes`` is a tuple of
``(cell, before, after)`` piece codes. The controller matches what the sensors see against exactly
this, so a castling, an en-passant capture, a push of a whole line or a swap need no special case
there. ``relocations`` says where each physical piece went, to keep piece identities stable.
"""

from __future__ import annotations

Change = tuple[int, int, int]

#: Move tags. A plain move or capture has the empty tag.
PLAIN = ""
CASTLE = "castle"
EN_PASSANT = "ep"
DROP = "drop"      # a piece from hand placed on an empty cell (placement stages, drops)
REMOVE = "remove"  # a piece taken off the board by its owner (Mathematichess terminator)
SPECIAL = "special"  # anything a rule hook builds: pushes, swaps, multi-captures, transfers


class Move:
    """A move: from-cell (-1 for drops/removals), to-cell, the piece code that stands on ``to``
    afterwards when it differs from the mover (promotion, drop), a tag, and, for non-plain moves,
    the explicit changes and relocations."""

    __slots__ = ("_changes", "_relocations", "captured", "frm", "piece", "promotion", "tag", "text", "to")

    def __init__(
        self,
        frm: int,
        to: int,
        piece: int,
        captured: int = 0,
        promotion: int = 0,
        tag: str = PLAIN,
        changes: tuple[Change, ...] | None = None,
        relocations: tuple[tuple[int, int], ...] | None = None,
        text: str = "",
    ) -> None:
        self.frm = frm
        self.to = to
        self.piece = piece
        self.captured = captured
        self.promotion = promotion
        self.tag = tag
        self._changes = changes
        self._relocations = relocations
        #: Notation suffix a rule hook chose for moves whose from/to do not tell them apart.
        self.text = text

    @property
    def changes(self) -> tuple[Change, ...]:
        """``(cell, before, after)`` for every cell whose contents the move changes."""
        if self._changes is None:
            self._changes = ((self.frm, self.piece, 0), (self.to, self.captured, self.promotion or self.piece))
        return self._changes

    @property
    def relocations(self) -> tuple[tuple[int, int], ...]:
        """``(from, to)`` cells of every physical piece that moves (for piece identities)."""
        if self._relocations is None:
            self._relocations = ((self.frm, self.to),) if self.frm >= 0 else ()
        return self._relocations

    @property
    def is_capture(self) -> bool:
        return bool(self.captured) or self.tag == EN_PASSANT

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Move) and self.key() == other.key()

    def __hash__(self) -> int:
        return hash(self.key())

    def key(self) -> tuple:
        return (self.frm, self.to, self.promotion, self.tag, self.text, self.changes)

    def __repr__(self) -> str:
        return f"Move({self.frm}->{self.to}, tag={self.tag!r}, changes={self.changes})"
