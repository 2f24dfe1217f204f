"""What the hands did: the sensors' readings against the game, and when and in what order each
cell was last handled since the last final move. The referee's record of the board, kept apart
from its decisions (``controller.inference``)."""

from __future__ import annotations

from .signatures import Sig


class Readings:
    """``expected``: what the sensors read for the game position, per cell; ``observed``: what
    they read now; ``diff``: the cells that differ (cell -> reading)."""

    def __init__(self, expected: list[int], observed: list[int] | None = None) -> None:
        self.expected = expected
        self.observed = list(observed) if observed is not None else list(expected)
        if len(self.observed) != len(expected):
            raise ValueError(f"observed board has {len(self.observed)} cells, the game {len(expected)}")
        self.diff: dict[int, int] = {c: v for c, v in enumerate(self.observed) if v != expected[c]}
        #: Cells handled (lifted or placed) since the board last equalled the position (see
        #: ``Referee._accept`` for what survives a final move).
        self.touched: set[int] = set()
        #: Occupancy boards: cells emptied and refilled while another piece was off its cell;
        #: the piece now there may not be the one that belongs (a victim not put back).
        self.refilled: set[int] = set()
        #: Cells handled since the last final move that either player may have handled (the
        #: piece just moved put back, or the next player's victim taken first: the next event
        #: decides; ``controller.either_hand``).
        self.either: set[int] = set()
        self.cell_t: dict[int, int] = {}  # cell -> time of its latest event
        #: cell -> arrival number of its latest event: orders two events of the same millisecond
        #: (a board reports every change one scan found with that scan's time).
        self.cell_n: dict[int, int] = {}
        self.events = 0
        self.lifted_t: dict[int, int] = {}  # cell -> its first lift since the last final move
        self.placed_t: dict[int, int] = {}  # cell -> its latest put-down (its man may be off again)
        self.latest = -1      # the cell of the latest event
        self.placed = False   # the latest event put a piece down
        self.last_t = 0       # the time of the latest input that changed the board (or a decision)

    def read(self, cell: int, value: int) -> None:
        """The sensor of ``cell`` reads ``value`` now."""
        self.observed[cell] = value
        if value != self.expected[cell]:
            self.diff[cell] = value
        else:
            self.diff.pop(cell, None)

    def expect(self, cell: int, value: int) -> None:
        """The game now has ``value`` (as read) on ``cell``."""
        self.expected[cell] = value
        self.read(cell, self.observed[cell])

    def record(self, cell: int, down: bool, t: int) -> None:
        """The times and order of an event on ``cell`` (its reading is set apart)."""
        self.last_t = t
        self.cell_t[cell] = t
        self.events += 1
        self.cell_n[cell] = self.events
        if down:
            self.placed_t[cell] = t
        else:
            self.lifted_t.setdefault(cell, t)
        self.placed = down
        self.latest = cell

    def sig(self) -> Sig:
        """The differences from the game, as a signature."""
        return frozenset(self.diff.items())

    def since(self, t: int) -> set[int]:
        """Cells handled after ``t``."""
        cell_t = self.cell_t
        return {c for c in self.touched if cell_t.get(c, t) > t}

    def first_since(self, cell: int, t: int) -> int:
        """The time of the first event on ``cell`` after ``t`` that is still known: its first
        lift since the last final move, else its latest event."""
        lifted = self.lifted_t.get(cell)
        return lifted if lifted is not None and lifted > t else self.cell_t.get(cell, self.last_t)

    def before(self, a: int, b: int, scan_ms: int) -> bool:
        """Whether the latest event on cell ``a`` came before the latest on cell ``b``. A board
        that scans its squares in turn (``scan_ms``) reports one scan's changes in square order:
        there only events more than a scan apart are ordered. Otherwise events of the same
        millisecond come in the order they happened (a piece put back on the cell the last move
        took on, then the next player's attacker lifted, in one report: no capture there)."""
        if scan_ms:
            return self.cell_t[a] < self.cell_t[b] - scan_ms
        return (self.cell_t[a], self.cell_n[a]) < (self.cell_t[b], self.cell_n[b])
