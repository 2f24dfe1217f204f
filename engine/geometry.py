"""Boards as cell graphs.

A geometry knows nothing about pieces. It holds:

* cells as dense ints ``0..n-1`` with unique names (``e4``, ``A3``, ``e4'``);
* integer grid coordinates per cell, from which every step or leap ``(dx, dy)`` is derived, so
  that the same piece notation works on a 13x13 square, a rectangle with holes, or a ring;
* an abstract drawing: each cell's centre and outline polygon in board units (y grows upwards),
  and a light/dark colour, so a renderer can draw any board without knowing the game;
* named regions (promotion zones, camps, halves, supersquares);
* ``fen_rows``: the order in which a text position lists the cells (``None`` marks a hole).

Steps the rules forbid are simply not edges: ``step_regions`` keeps a step (or leap) only when
some region contains both of its ends (Dream Chess 47: every single step stays inside one
supersquare), and a ring wraps its coordinates modulo its length.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from .errors import GeometryError

Vector = tuple[int, int]
Point = tuple[float, float]

#: The eight king directions by name, in grid coordinates (north = towards higher y).
COMPASS: dict[str, Vector] = {
    "N": (0, 1), "S": (0, -1), "E": (1, 0), "W": (-1, 0),
    "NE": (1, 1), "NW": (-1, 1), "SE": (1, -1), "SW": (-1, -1),
}



@dataclass
class Geometry:
    name: str
    names: tuple[str, ...]
    coords: tuple[Vector, ...]
    centers: tuple[Point, ...]
    outlines: tuple[tuple[Point, ...], ...]
    colors: tuple[int, ...]
    fen_rows: tuple[tuple[int | None, ...], ...]
    regions: dict[str, frozenset[int]] = field(default_factory=dict)
    #: Which physical board each cell lies on (two-board games have 0 and 1).
    board_of: tuple[int, ...] = ()
    #: For two-board games: the corresponding cell on the other board, else empty.
    other_board: tuple[int, ...] = ()
    #: Ring length for coordinates that wrap in x (0: no wrap).
    wrap_x: int = 0
    #: When set, a step/leap is an edge only if one of these regions holds both ends.
    step_regions: tuple[frozenset[int], ...] = ()
    #: 1 for a line (ring), 2 for a plane: decides which images an atom (a, b) has.
    dimensions: int = 2
    #: Labels for the display's edge coordinates: (file labels, rank labels) or empty.
    edge_labels: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())

    def __post_init__(self) -> None:
        n = len(self.names)
        if not (len(self.coords) == len(self.centers) == len(self.outlines) == len(self.colors) == n):
            raise GeometryError(f"geometry {self.name}: per-cell tables differ in length")
        if len(set(self.names)) != n:
            raise GeometryError(f"geometry {self.name}: cell names are not unique")
        if not self.board_of:
            self.board_of = (0,) * n
        self._index = {name: i for i, name in enumerate(self.names)}
        self._at: dict[tuple[int, int, int], int] = {}
        for i, (x, y) in enumerate(self.coords):
            self._at[(self.board_of[i], x, y)] = i
        self._steps: dict[Vector, tuple[int, ...]] = {}
        self._region_of: list[frozenset[int]] = [frozenset()] * n
        if self.step_regions:
            self._region_of = [
                frozenset(k for k, r in enumerate(self.step_regions) if i in r) for i in range(n)
            ]

    # -- lookups --------------------------------------------------------------------------------
    @property
    def size(self) -> int:
        return len(self.names)

    def index(self, name: str) -> int:
        """Cell number of ``name``; raises ``ValueError`` naming the geometry if unknown."""
        try:
            return self._index[name]
        except KeyError:
            raise ValueError(f"no cell {name!r} on {self.name}") from None

    def has_cell(self, name: str) -> bool:
        return name in self._index

    def region(self, name: str) -> frozenset[int]:
        try:
            return self.regions[name]
        except KeyError:
            raise ValueError(f"no region {name!r} on {self.name}") from None

    def step(self, vector: Vector) -> tuple[int, ...]:
        """Table cell -> cell reached by ``vector`` (-1 where that is off the board or forbidden)."""
        table = self._steps.get(vector)
        if table is None:
            table = self._steps[vector] = tuple(self._target(i, vector) for i in range(self.size))
        return table

    def near(self, steps: int) -> tuple[tuple[int, ...], ...]:
        """Per cell: the cells of its own board at most ``steps`` king steps from it by their
        coordinates, itself included (evaluation terms count men round a royal with it)."""
        coords, board_of = self.coords, self.board_of
        return tuple(tuple(c for c, (x2, y2) in enumerate(coords)
                           if board_of[c] == board_of[i] and max(abs(x - x2), abs(y - y2)) <= steps)
                     for i, (x, y) in enumerate(coords))

    def neighbour(self, cell: int, direction: str) -> int:
        """The cell one step in a compass direction, or -1."""
        return self.step(COMPASS[direction])[cell]

    def ray(self, cell: int, vector: Vector) -> tuple[int, ...]:
        """Cells reached by repeating ``vector`` from ``cell`` until the edge (or back to start)."""
        table = self.step(vector)
        out: list[int] = []
        cur = table[cell]
        while cur >= 0 and cur != cell and cur not in out:
            out.append(cur)
            cur = table[cur]
        return tuple(out)

    def passed_over(self, frm: int, to: int) -> int:
        """The cell a two-step straight or diagonal move leaps over (a pawn's double step), or -1
        for any other move."""
        (fx, fy), (tx, ty) = self.coords[frm], self.coords[to]
        dx, dy = tx - fx, ty - fy
        if dx % 2 or dy % 2 or max(abs(dx), abs(dy)) != 2:
            return -1
        return self.step((dx // 2, dy // 2))[frm]

    def images(self, atom: Vector) -> tuple[Vector, ...]:
        """All vectors an atom (a, b) stands for under this geometry's symmetry."""
        a, b = atom
        if self.dimensions == 1:
            return tuple(dict.fromkeys([(a, 0), (-a, 0)])) if b == 0 else ()
        out = []
        for x, y in ((a, b), (b, a)):
            for sx in (1, -1):
                for sy in (1, -1):
                    out.append((x * sx, y * sy))
        return tuple(dict.fromkeys(out))

    # -- construction helpers ---------------------------------------------------------------------
    def _target(self, cell: int, vector: Vector) -> int:
        x, y = self.coords[cell]
        tx, ty = x + vector[0], y + vector[1]
        if self.wrap_x:
            tx %= self.wrap_x
        target = self._at.get((self.board_of[cell], tx, ty), -1)
        if target < 0 or target == cell:
            return -1
        if self.step_regions and not (self._region_of[cell] & self._region_of[target]):
            return -1
        return target


# ---------------------------------------------------------------------------------------------
# Constructors
# ---------------------------------------------------------------------------------------------
FILES = "abcdefghijklmnopqrstuvwxyz"


def square_name(x: int, y: int) -> str:
    """Algebraic name of a grid square: files a, b, ... and ranks from 1."""
    return f"{FILES[x]}{y + 1}"


def _square_outline(cx: float, cy: float) -> tuple[Point, ...]:
    return ((cx - 0.5, cy - 0.5), (cx + 0.5, cy - 0.5), (cx + 0.5, cy + 0.5), (cx - 0.5, cy + 0.5))


def rectangle(
    files: int,
    ranks: int,
    holes: Iterable[str] = (),
    name: str | None = None,
    regions: dict[str, Iterable[str]] | None = None,
    step_regions: Sequence[str] = (),
    suffix: str = "",
    board: int = 0,
    x_offset: float = 0.0,
) -> Geometry:
    """A ``files`` x ``ranks`` grid, minus ``holes`` (cell names), with named regions.

    Regions ``rank1``.., ``file_a``.. and ``white_half``/``black_half`` are always present.
    ``step_regions`` names regions a single step or leap must stay within.
    """
    if not (1 <= files <= len(FILES) and ranks >= 1):
        raise GeometryError(f"rectangle {files}x{ranks} is out of range")
    hole_set = set(holes)
    names: list[str] = []
    coords: list[Vector] = []
    cell_at: dict[Vector, int] = {}
    for y in range(ranks):
        for x in range(files):
            nm = square_name(x, y)
            if nm in hole_set:
                continue
            cell_at[(x, y)] = len(names)
            names.append(nm + suffix)
            coords.append((x, y))
    unknown = hole_set - {square_name(x, y) for x in range(files) for y in range(ranks)}
    if unknown:
        raise GeometryError(f"holes outside the {files}x{ranks} board: {sorted(unknown)}")
    centers = tuple((x + x_offset + 0.5, y + 0.5) for x, y in coords)
    outlines = tuple(_square_outline(cx, cy) for cx, cy in centers)
    colors = tuple((x + y + 1) % 2 for x, y in coords)  # a1 dark, as on a real board
    rows = tuple(tuple(cell_at.get((x, y)) for x in range(files)) for y in reversed(range(ranks)))
    base = _rect_regions(files, ranks, cell_at)
    by_name = {n: i for i, n in enumerate(names)}
    for rname, cells in (regions or {}).items():
        try:
            base[rname] = frozenset(by_name[c + suffix] for c in cells)
        except KeyError as exc:
            raise GeometryError(f"region {rname}: no cell {exc.args[0]}") from None
    try:
        sregs = tuple(base[r] for r in step_regions)
    except KeyError as exc:
        raise GeometryError(f"step region {exc.args[0]} is not defined") from None
    return Geometry(
        name=name or f"{files}x{ranks}",
        names=tuple(names),
        coords=tuple(coords),
        centers=centers,
        outlines=outlines,
        colors=colors,
        fen_rows=rows,
        regions=base,
        board_of=(board,) * len(names),
        step_regions=sregs,
        edge_labels=(tuple(FILES[:files]), tuple(str(r + 1) for r in range(ranks))),
    )


def _rect_regions(files: int, ranks: int, cell_at: dict[Vector, int]) -> dict[str, frozenset[int]]:
    regions: dict[str, frozenset[int]] = {}
    for y in range(ranks):
        regions[f"rank{y + 1}"] = frozenset(c for (x, yy), c in cell_at.items() if yy == y)
    for x in range(files):
        regions[f"file_{FILES[x]}"] = frozenset(c for (xx, _), c in cell_at.items() if xx == x)
    half = ranks // 2
    regions["white_half"] = frozenset(c for (_, y), c in cell_at.items() if y < half)
    regions["black_half"] = frozenset(c for (_, y), c in cell_at.items() if y >= ranks - half)
    return regions


def ring(
    cells: int,
    names: Sequence[str] | None = None,
    name: str | None = None,
    regions: dict[str, Iterable[str]] | None = None,
    zigzag: float = 0.5,
    sectors: int = 8,
) -> Geometry:
    """A ring of ``cells`` cells; x coordinates wrap, so the leap ``(cells // 2, 0)`` reaches the
    opposite cell. Drawn as a zig-zag band wrapped into a circle (alternate cells pushed out by
    ``zigzag`` cell widths), which is how the Sesqui-dimensional source draws its board; colours
    alternate by ``sectors`` around the centre so opposite cells are easy to find."""
    if cells < 4 or cells % 2:
        raise GeometryError(f"a ring needs an even number of cells >= 4, not {cells}")
    per = cells // sectors if sectors and cells % sectors == 0 and sectors <= 26 else 0
    if names:
        labels = tuple(names)
    elif per:
        # Sector letter and place in sector, counter-clockwise: the Sesqui source's own convention.
        labels = tuple(f"{FILES[i // per].upper()}{i % per + 1}" for i in range(cells))
    else:
        labels = tuple(f"c{i + 1}" for i in range(cells))
    if len(labels) != cells:
        raise GeometryError(f"ring of {cells} cells given {len(labels)} names")
    radius = cells / (2 * math.pi) * 1.0
    centers: list[Point] = []
    outlines: list[tuple[Point, ...]] = []
    half = math.pi / cells
    for i in range(cells):
        ang = 2 * math.pi * i / cells
        r = radius + (zigzag if i % 2 else 0.0)
        centers.append((r * math.cos(ang), r * math.sin(ang)))
        r0, r1 = r - 0.5, r + 0.5
        pts = []
        for rr, a in ((r0, ang - half), (r1, ang - half), (r1, ang + half), (r0, ang + half)):
            pts.append((rr * math.cos(a), rr * math.sin(a)))
        outlines.append(tuple(pts))
    per_sector = cells // sectors if sectors and cells % sectors == 0 else cells
    colors = tuple((i // per_sector) % 2 for i in range(cells))
    by_name = {n: i for i, n in enumerate(labels)}
    regs: dict[str, frozenset[int]] = {}
    for rname, members in (regions or {}).items():
        try:
            regs[rname] = frozenset(by_name[c] for c in members)
        except KeyError as exc:
            raise GeometryError(f"region {rname}: no cell {exc.args[0]}") from None
    return Geometry(
        name=name or f"ring{cells}",
        names=labels,
        coords=tuple((i, 0) for i in range(cells)),
        centers=tuple(centers),
        outlines=tuple(outlines),
        colors=colors,
        fen_rows=tuple(
            tuple(range(s * per_sector, (s + 1) * per_sector)) for s in range(cells // per_sector)
        ),
        regions=regs,
        wrap_x=cells,
        dimensions=1,
    )


def two_boards(base: Geometry, suffixes: tuple[str, str] = ("", "'"), gap: float = 1.0) -> Geometry:
    """Two copies of ``base`` side by side (board 0 left, board 1 right).

    A step never leaves its board; ``other_board`` maps each cell to its twin. Regions of the base
    apply to both boards under the same name; ``board0``/``board1`` hold each board's cells.
    """
    n = base.size
    width = max(x for pts in base.outlines for x, _ in pts) - min(x for pts in base.outlines for x, _ in pts)
    names = tuple(nm + suffixes[0] for nm in base.names) + tuple(nm + suffixes[1] for nm in base.names)
    shift = width + gap
    centers = base.centers + tuple((x + shift, y) for x, y in base.centers)
    outlines = base.outlines + tuple(tuple((x + shift, y) for x, y in pts) for pts in base.outlines)
    regions = {k: v | frozenset(c + n for c in v) for k, v in base.regions.items()}
    regions["board0"] = frozenset(range(n))
    regions["board1"] = frozenset(range(n, 2 * n))
    rows = base.fen_rows + tuple(tuple(None if c is None else c + n for c in row) for row in base.fen_rows)
    return Geometry(
        name=f"2x{base.name}",
        names=names,
        coords=base.coords + base.coords,
        centers=centers,
        outlines=outlines,
        colors=base.colors + base.colors,
        fen_rows=rows,
        regions=regions,
        board_of=(0,) * n + (1,) * n,
        other_board=tuple(range(n, 2 * n)) + tuple(range(n)),
        edge_labels=base.edge_labels,
    )
