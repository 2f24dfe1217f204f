"""The legal moves the referee matches the board against (``controller.inference``): the index
of the position's legal moves by signature, the index of the replies to the reading shown (to
tell a reply on top of it), the earlier positions a takeback may go back to, and the moves a
computer or a remote side chose. Each is built when first needed, or ahead by ``prepare`` while
the service waits for the next event, so a decision only matches."""

from __future__ import annotations

from collections.abc import Sequence

from engine import Move, Position

from .core_types import Back
from .signatures import MoveIndex, Shape

#: Indexes kept for ``prepare`` to free at most, when nobody calls it.
RETIRED_MAX = 8


def earlier_positions(position: Position) -> list[Back]:
    """The positions one and two plies back, as the piece codes of the cells changed since."""
    backs = []
    codes: dict[int, int] = {}
    stack = position.move_stack
    moves: list[Move] = []
    for plies in (1, 2):
        if len(stack) < plies:
            break
        move = stack[-plies]
        moves.append(move)
        for c, before, _a in move.changes:
            codes[c] = before
        backs.append(Back(plies, tuple(moves), dict(codes)))
    return backs


class MoveIndexes:
    """The indexes for ``position`` (the referee's own, which it pushes and pops)."""

    def __init__(self, position: Position, identity: bool) -> None:
        self.position = position
        self.identity = identity
        self._current: MoveIndex | None = None
        #: The only moves the board may make now (None: every legal move): the move a computer or
        #: a remote board chose, shown to the player (controller/service/opponents.py); an empty
        #: tuple while it is not known yet. Any other move is guided back like a wrong board.
        self.only: tuple[Move, ...] | None = None
        #: The sides whose moves are chosen away from this board (a computer, a remote board):
        #: of moves read at once, those sides may have only the move in ``only`` (``allows``).
        self.elsewhere: frozenset[int] = frozenset()
        #: Indexes no longer needed, freed in ``prepare``: dropping one (thousands of moves in a
        #: Mathematichess position) takes milliseconds, which a decision should not pay.
        self._retired: list[MoveIndex | None] = []  # (bounded: see retire)
        self._replies: tuple[Shape, MoveIndex] | None = None  # legal moves after the reading
        self._backs: list[Back] | None = None

    @property
    def current(self) -> MoveIndex:
        """The legal moves of the position by signature (the ``only`` ones if set)."""
        index = self._current
        if index is None:
            index = self._current = MoveIndex(self.position, self.identity, self.only)
        return index

    def expect(self, moves: tuple[Move, ...] | None) -> bool:
        """Let only ``moves`` be played now (None: every legal move); whether that changed the
        index (then shapes of the old one mean nothing any more)."""
        if moves == self.only:
            return False
        self.only = moves
        self._drop_current()
        return True

    def allows(self, seq: Sequence[Move]) -> bool:
        """Whether moves read at once from the position (made while the board was away, or a
        move and a quick reply merged) may be taken: the first is in ``only`` when that is set,
        and none after it is a move of a side in ``elsewhere``, which nobody there chose (the
        computer's move is made at the board only once the computer has chosen it)."""
        if self.only is not None and (not seq or seq[0] not in self.only):
            return False
        with self.position.after() as pos:
            for i, move in enumerate(seq):
                if pos.side in self.elsewhere and not (i == 0 and self.only is not None):
                    return False
                if i < len(seq) - 1:
                    pos.push(move)
        return True

    def replies(self, shape: Shape) -> MoveIndex:
        """The legal moves after ``shape``'s move (the position must be after it): built once per
        reading, not per event."""
        cached = self._replies
        if cached is not None and cached[0] is shape:
            return cached[1]
        index = MoveIndex(self.position, self.identity)
        self._replies = (shape, index)
        return index

    def earlier(self) -> list[Back]:
        """The positions a takeback may go back to (``earlier_positions``), found
        once per position."""
        if self._backs is None:
            self._backs = earlier_positions(self.position)
        return self._backs

    def prepare(self, reading: Shape | None, playing: bool = True) -> None:
        """Free the indexes retired since the last call, and while ``playing`` do the
        per-position work ahead: index the legal moves, and those after the ``reading`` shown
        (for telling a reply)."""
        self._retired.clear()
        if not playing:
            return
        _ = self.current
        if reading is not None:
            with self.position.after(reading.move):
                self.replies(reading)

    def moved(self, move: Move) -> None:
        """``move`` was played (the position is after it). The legal moves after the reading,
        indexed ahead by ``prepare``, are the new position's: the decision that accepts a move
        does not pay for indexing the next."""
        self._changed()
        ready = self._replies
        if ready is not None and ready[0].move is move:
            self._current = ready[1]
        else:
            self._retire(ready[1] if ready is not None else None)
        self._replies = None

    def undone(self) -> None:
        """A move was taken back (the position is before it)."""
        self._changed()
        self._retire(self._replies[1] if self._replies is not None else None)
        self._replies = None

    def reset(self) -> None:
        """Refereeing started or stopped: nothing indexed stands."""
        self._drop_current()
        self._backs = None

    def _changed(self) -> None:
        self._drop_current()
        # The moves expected were the last position's: the service says anew. Until it has, a
        # side whose moves are chosen elsewhere may make none.
        self.only = () if self.position.side in self.elsewhere else None
        self._backs = None

    def _drop_current(self) -> None:
        if self._current is not None:
            self._retire(self._current)
        self._current = None

    def _retire(self, index: MoveIndex | None) -> None:
        if len(self._retired) >= RETIRED_MAX:  # nobody called prepare(): free them now
            self._retired.clear()
        self._retired.append(index)
