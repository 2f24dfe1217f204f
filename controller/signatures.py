"""What each legal move looks like to the sensors.

A sensor board sees, per cell, either occupancy (0/1) or, on identity boards, the piece code.
A move's *signature* is the set of ``(cell, seen_after)`` pairs for the cells whose seen value the
move changes; its *hidden* cells are those whose piece changes while the sensor reading stays the
same (the victim's cell of a capture on an occupancy board, the cells of a push or a swap). The
physical board matches a move when its differences from the game position are exactly the
move's signature and every hidden cell was handled (lifted or placed) during the move.

Everything here derives from the engine's ``Move.changes``: no variant is special.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from engine import Move, Position, Variant
from engine.pictures import physical_codes

Sig = frozenset[tuple[int, int]]
EMPTY_SIG: Sig = frozenset()


def seen(code: int, identity: bool, look: Sequence[int] | None = None) -> int:
    """What a sensor reads for a piece code: the code itself (or, with ``look``, the code of the
    piece it physically is: see ``looks``), or occupancy."""
    if identity:
        return look[code] if look is not None else code
    return 1 if code else 0


def looks(variant: Variant) -> tuple[int, ...] | None:
    """Per piece code, the code an identity board reads for it (``engine.physical_codes``)."""
    return physical_codes(variant)


class Shape:
    """One legal move as the sensors see it."""

    __slots__ = ("cells", "hidden", "imports", "move", "sig")

    def __init__(self, move: Move, identity: bool, look: Sequence[int] | None = None) -> None:
        self.move = move
        sig = []
        hidden = []
        cells = []
        occupied = 0
        for cell, before, after in move.changes:
            cells.append(cell)
            occupied += (after != 0) - (before != 0)
            if before == after:
                continue
            if identity and look is not None and look[before] == look[after]:
                hidden.append(cell)  # a man that changes kind where it stands but reads the same
            elif identity:
                sig.append((cell, look[after] if look is not None else after))
            elif (before == 0) != (after == 0):
                sig.append((cell, 1 if after else 0))
            else:
                hidden.append(cell)
        self.sig: Sig = frozenset(sig)
        self.hidden = frozenset(hidden)
        self.cells = frozenset(cells)
        #: Pieces the move brings onto the board (drops); a half-made move can have placed no
        #: more pieces than it lifted plus these.
        self.imports = max(0, occupied)

    def __repr__(self) -> str:
        return f"Shape({self.move!r})"


class MoveIndex:
    """The legal moves of one position, indexed by signature for O(1) matching per event."""

    def __init__(self, pos: Position, identity: bool, moves: Iterable[Move] | None = None) -> None:
        self.identity = identity
        self.by_sig: dict[Sig, list[Shape]] = {}
        #: Moves of several pieces, by each cell they change (see ``continuation_cells``).
        self._multi: dict[int, list[Shape]] = {}
        look = looks(pos.variant) if identity else None
        for move in pos.legal_moves() if moves is None else moves:
            shape = Shape(move, identity, look)
            self.by_sig.setdefault(shape.sig, []).append(shape)
            if move.tag and len(move.relocations) > 1:
                for c in shape.cells:
                    self._multi.setdefault(c, []).append(shape)
        self._ext: dict[Sig, list[Shape]] = {}
        self._geometry = pos.variant.geometry
        self._board = tuple(pos.board)
        #: Moves by the source cell of each piece they carry elsewhere (see ``drag_cells``).
        self._by_source: dict[int, list[tuple[int, Shape]]] | None = None

    def __len__(self) -> int:
        return sum(len(v) for v in self.by_sig.values())

    @property
    def has_silent_moves(self) -> bool:
        """Moves the sensors cannot see at all (a piece chosen by tapping it, a swap of equal
        readings): they match a clean board once their cells were touched."""
        return EMPTY_SIG in self.by_sig

    def match(self, sig: Sig, touched: set[int] | frozenset[int]) -> list[Shape]:
        """Moves with exactly this signature whose hidden cells were all touched."""
        return [s for s in self.by_sig.get(sig, ()) if s.hidden <= touched]

    def match_loose(self, sig: Sig) -> list[Shape]:
        """Moves with this signature, touched or not (after a resynchronising snapshot the
        handling of hidden cells was not seen)."""
        return list(self.by_sig.get(sig, ()))

    def extension_cells(self, sig: Sig, touched: set[int] | frozenset[int]) -> frozenset[int]:
        """Cells of the moves the player may still be on the way to while the board shows
        ``sig``: their signature strictly contains it and they involve every cell touched so
        far (the rook of a castling put down first; not the pawn push a capture's signature is
        part of, since the victim's cell was touched). Such a match waits longer, and events on
        these cells do not end it."""
        shapes = self._ext.get(sig)
        if shapes is None:
            n = len(sig)
            shapes = self._ext[sig] = [s for other, group in self.by_sig.items() if len(other) > n and sig <= other
                                       for s in group]
        cells: set[int] = set()
        for s in shapes:
            if touched <= s.cells:
                cells |= s.cells
        return frozenset(cells)

    def continuation_cells(self, move: Move, touched: set[int] | frozenset[int]) -> frozenset[int]:
        """Cells of the bigger legal moves (of several pieces) the player may be half-way
        through while the board shows ``move``: moves that involve every cell touched so far
        and either move each of ``move``'s pieces where ``move`` does (the front piece of a
        line pushed front first, a castling's rook put down first) or involve every cell of
        ``move`` when the player has handled a cell ``move`` does not (a line pushed front first
        whose first two steps read like a piece jumping over the line). Like
        ``extension_cells``, but by pieces and cells rather than by readings: a line pushed front
        first passes through readings that are not part of the push's signature."""
        if not self._multi or not move.changes:
            return frozenset()
        relocs = {r for r in move.relocations if r[0] != r[1]}
        own = {c for c, _b, _a in move.changes}
        stray = not touched <= own
        cells: set[int] = set()
        for s in self._multi.get(move.changes[0][0], ()):
            if s.move is move or not touched <= s.cells:
                continue
            if (relocs and relocs < set(s.move.relocations)) or (stray and own <= s.cells):
                cells |= s.cells
        return frozenset(cells)

    def bigger_cells(self, move: Move) -> frozenset[int]:
        """Cells of the legal moves of several pieces that involve every cell of ``move`` (a
        castling for its rook's move, a push for the step of its front piece): a piece lifted on
        one of them may be the mover's next piece rather than the next player's."""
        if not self._multi or not move.changes:
            return frozenset()
        own = {c for c, _b, _a in move.changes}
        cells: set[int] = set()
        for s in self._multi.get(move.changes[0][0], ()):
            if s.move is not move and own <= s.cells:
                cells |= s.cells
        return frozenset(cells)

    def bigger_moves(self, move: Move) -> list[Move]:
        """The legal moves of several pieces that involve every cell of ``move`` (those of
        ``bigger_cells``)."""
        if not self._multi or not move.changes:
            return []
        own = {c for c, _b, _a in move.changes}
        return [s.move for s in self._multi.get(move.changes[0][0], ()) if s.move is not move and own <= s.cells]

    def source_cells(self, move: Move) -> frozenset[int]:
        """Cells of every legal move that carries a piece from a cell ``move`` carries one from:
        where else the pieces in the mover's hand may be going."""
        self._sources()
        assert self._by_source is not None
        cells: set[int] = set()
        for s, d in move.relocations:
            if s != d:
                for _d2, shape in self._by_source.get(s, ()):
                    cells |= shape.cells
        return frozenset(cells)

    def _sources(self) -> None:
        if self._by_source is None:
            by_source: dict[int, list[tuple[int, Shape]]] = {}
            for group in self.by_sig.values():
                for shape in group:
                    for s, d in shape.move.relocations:
                        if s != d:
                            by_source.setdefault(s, []).append((d, shape))
            self._by_source = by_source

    def drag_cells(self, move: Move, only_to: int | None = None) -> frozenset[int]:
        """Cells of the other legal moves the player may still be dragging ``move``'s piece on
        to: moves carrying a piece from the same cell to a cell further along the same straight
        line (a rook resting on a5 on its way to capture on a6; a pawn on e3 on its way to e4),
        with the cells between. Empty when the piece cannot go on (it captured, the line ends,
        it jumps). ``only_to``: only for the piece carried to that cell (the piece just put
        down, of a move of several pieces)."""
        self._sources()
        assert self._by_source is not None
        coords = self._geometry.coords
        cells: set[int] = set()
        leaving = {a for a, b in move.relocations if a != b}  # (a swap's cells are no victims)
        for s, d in move.relocations:
            if s == d or (only_to is not None and d != only_to):
                continue
            (x0, y0), (x1, y1) = coords[s], coords[d]
            dx, dy = x1 - x0, y1 - y0
            if not (dx == 0 or dy == 0 or abs(dx) == abs(dy)):
                continue  # a jump, not a slide
            # Along the geometry's own ray (a board that wraps round goes on past its edge; a
            # cell further in the same direction by coordinates alone may be another line).
            ray = self._geometry.ray(s, ((dx > 0) - (dx < 0), (dy > 0) - (dy < 0)))
            if d not in ray or (self._board[d] and d not in leaving):
                continue  # (a capture: the piece cannot slide on through its victim)
            further: dict[int, list[Shape]] = {}
            for d2, shape in self._by_source.get(s, ()):
                if shape.move is not move:
                    further.setdefault(d2, []).append(shape)
            crossed: set[int] = set()
            for c in ray[ray.index(d) + 1:]:
                for shape in further.get(c, ()):
                    cells |= shape.cells | crossed  # (with the cells it slides over on the way)
                if self._board[c] and c not in leaving:
                    break  # the line is blocked here (a victim on it was the last reachable cell)
                crossed.add(c)
        return frozenset(cells)

    def is_partial(self, sig: Sig) -> bool:
        """True when the board differs from the position only in ways some legal move would
        (a piece in the hand, a castling half done): the player is still moving."""
        return any(sig <= other for other in self.by_sig)


def diff_sig(observed: list[int], expected: list[int], cells: Iterable[int]) -> Sig:
    """The observed readings of those ``cells`` that differ from ``expected``."""
    return frozenset((c, observed[c]) for c in cells if observed[c] != expected[c])


@dataclass
class Budget:
    """Moves a search may still try; one may be shared by several searches (those of one
    board change, ``two_readings``)."""

    nodes: int


def explain(pos: Position, observed: list[int], diff_cells: set[int], touched: set[int] | frozenset[int],
            identity: bool, strict: bool, max_plies: int = 2, max_nodes: int = 4000, *,
            handled_only: bool = False, budget: Budget | None = None) -> list[tuple[Move, ...]]:
    """The shortest sequences of 2 to ``max_plies`` legal moves (the side to move first, then
    the others in turn) that together leave the board as observed: a quick reply merged with the
    move before it, or moves made while the board was unplugged or the service down. ``strict``
    requires every cell whose piece changed without the reading showing it to have been handled.
    Each move must change a cell that differs or was handled (a real sequence does), which keeps
    the search small; it gives up (returns what it has, maybe nothing) after ``max_nodes`` moves
    tried, or once ``budget`` is spent when one is given.

    ``handled_only`` (with ``strict``) pushes only moves whose every changed cell differs or was
    handled: a sequence through any other cell cannot match ``strict``, so the answers are the
    same in far fewer moves tried -- but where the budget ran out before, more may be found, so
    only the two-readings searches, which were measured with it, ask for it."""
    if handled_only and not strict:
        raise ValueError("handled_only needs strict: a loose match may change cells nobody handled")
    relevant = set(diff_cells) | set(touched)
    if budget is None:
        budget = Budget(max_nodes)
    board = pos.board
    look = looks(pos.variant) if identity else None

    def matches(changed: set[int]) -> bool:
        for c in relevant | changed:
            if seen(board[c], identity, look) != observed[c]:
                return False
        if not diff_cells <= changed:
            return False
        return not strict or {c for c in changed if c not in diff_cells} <= touched

    def search(depth: int, path: list[Move], changed: set[int], out: list[tuple[Move, ...]]) -> None:
        for move in pos.legal_moves():
            if budget.nodes <= 0:
                return
            cells = move.changed_cells
            if not cells & relevant or (handled_only and not cells <= relevant):
                continue
            budget.nodes -= 1
            pos.push(move)
            try:
                path.append(move)
                now_changed = changed | cells
                if depth == 1:
                    if matches(now_changed):
                        out.append(tuple(path))
                else:
                    search(depth - 1, path, now_changed, out)
            finally:
                path.pop()
                pos.pop()

    for plies in range(2, max_plies + 1):
        found: list[tuple[Move, ...]] = []
        search(plies, [], set(), found)
        if found or budget.nodes <= 0:
            return found
    return []
