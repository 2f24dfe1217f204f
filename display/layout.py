"""Where a view's parts go on a surface: the :class:`Layout` a render returns and ``plan``, which
makes it.

The board takes the largest area it can; the panel (status, clocks, scores, legend, move list or
prompt) goes to its right on landscape screens, below it when that gives the board clearly bigger
cells (two boards side by side on 800x480) or the screen is portrait. Per-geometry measurements
are cached (:func:`board_shape`), which changes speed, not output.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import pygame

from engine import Geometry

from .view import View

Point = tuple[float, float]


@dataclass
class Layout:
    size: tuple[int, int]
    board: pygame.Rect
    panel: pygame.Rect
    scale: float  # pixels per board unit
    origin: Point  # pixel position of board point (0, 0)
    piece_size: int = 0
    cells: list[pygame.Rect] = field(default_factory=list)
    polygons: list[list[Point]] = field(default_factory=list)
    #: Every text drawn: (text, box, role); role is label, panel, button or value.
    texts: list[tuple[str, pygame.Rect, str]] = field(default_factory=list)
    choices: list[pygame.Rect] = field(default_factory=list)
    #: The board turned round (``View.flipped``).
    flip: bool = False
    #: Where the panel's "Menu" button went (None: not drawn).
    menu_button: pygame.Rect | None = None

    def to_px(self, point: Point) -> Point:
        if self.flip:
            return (self.origin[0] - point[0] * self.scale, self.origin[1] + point[1] * self.scale)
        return (self.origin[0] + point[0] * self.scale, self.origin[1] - point[1] * self.scale)

    def choice_at(self, pos: tuple[int, int]) -> int | None:
        """Index of the prompt choice under a touch or click, or None."""
        for i, rect in enumerate(self.choices):
            if rect.collidepoint(pos):
                return i
        return None

    def cell_at(self, pos: tuple[int, int]) -> int | None:
        """The board cell under a touch or click, or None."""
        for cell, rect in enumerate(self.cells):
            if rect.collidepoint(pos) and _inside(pos, self.polygons[cell]):
                return cell
        return None


@dataclass
class BoardShape:
    """Per-geometry measurements, computed once per geometry object."""

    bounds: tuple[float, float, float, float]  # min x, max x, min y, max y
    inscribed: float  # smallest cell's inscribed circle diameter, board units
    ring: bool
    rank_label_chars: int
    #: Every cell an axis-aligned rectangle: filled with Surface.fill, the fastest draw there is.
    boxes: bool


_shapes: dict[int, tuple[Geometry, BoardShape]] = {}


def board_shape(geo: Geometry) -> BoardShape:
    hit = _shapes.get(id(geo))
    if hit is not None and hit[0] is geo:
        return hit[1]
    xs = [x for pts in geo.outlines for x, _ in pts]
    ys = [y for pts in geo.outlines for _, y in pts]
    inscribed = min(2 * min(_segment_distance(c, a, b) for a, b in zip(pts, pts[1:] + pts[:1], strict=True))
                    for c, pts in zip(geo.centers, geo.outlines, strict=True))
    ranks = geo.edge_labels[1] if len(geo.edge_labels) > 1 else ()
    boxes = all(len(pts) == 4 and all(a[0] == b[0] or a[1] == b[1] for a, b in zip(pts, pts[1:] + pts[:1],
                                                                                strict=True))
                for pts in geo.outlines)
    shape = BoardShape((min(xs), max(xs), min(ys), max(ys)), inscribed, _is_ring(geo),
                   max((len(r) for r in ranks), default=0), boxes)
    if len(_shapes) > 32:
        _shapes.clear()
    _shapes[id(geo)] = (geo, shape)
    return shape


def _is_ring(geo: Geometry) -> bool:
    return geo.dimensions == 1 and geo.wrap_x > 0


def plan(view: View, w: int, h: int, s: float) -> tuple[Layout, int]:
    """The layout of ``view`` on a ``w`` x ``h`` surface (``s``: its scale against 800x480) and the
    edge labels' size in pixels (0: the board has none)."""
    geo = view.geometry
    shape = board_shape(geo)
    minx, maxx, miny, maxy = shape.bounds
    bw, bh = max(maxx - minx, 1e-6), max(maxy - miny, 1e-6)
    m = max(4, round(10 * s))
    has_labels = bool(geo.edge_labels and geo.edge_labels[0]) or shape.ring
    label_px = max(10, round(17 * s)) if has_labels else 0

    def margins(lp: int) -> tuple[int, int, int, int]:
        if not lp:
            return m, m, m, m
        if shape.ring:
            ring_margin = round(lp * 1.8) + m
            return ring_margin, ring_margin, ring_margin, ring_margin
        left = round(lp * 0.62 * max(1, shape.rank_label_chars)) + m + round(lp * 0.4)
        return left, m, m, lp + m + round(lp * 0.3)

    def fit(rect: pygame.Rect, lp: int) -> float:
        ml, mr, mt, mb = margins(lp)
        return max(0.1, min((rect.w - ml - mr) / bw, (rect.h - mt - mb) / bh))

    side_board = pygame.Rect(0, 0, w - round(300 * s), h)
    bottom_board = pygame.Rect(0, 0, w, h - round(190 * s))
    use_bottom = h > w or fit(bottom_board, label_px) > 1.15 * fit(side_board, label_px)
    area = bottom_board if use_bottom else side_board
    scale = fit(area, label_px)
    if label_px and label_px > 0.55 * scale * min(1.0, shape.inscribed):
        # Labels never taller than half a cell: a 13x13 board on a small screen keeps its coordinates
        # readable without crowding the cells.
        label_px = max(9, round(0.55 * scale * min(1.0, shape.inscribed)))
        scale = fit(area, label_px)
    ml, mr, mt, mb = margins(label_px)
    used_w, used_h = bw * scale + ml + mr, bh * scale + mt + mb
    if use_bottom:
        board = pygame.Rect(0, 0, w, math.ceil(used_h))
        panel = pygame.Rect(0, board.bottom, w, h - board.bottom)
    else:
        board = pygame.Rect(0, 0, math.ceil(used_w), h)
        panel = pygame.Rect(board.right, 0, w - board.right, h)
    # Centre the board drawing inside its area.
    ox = board.x + ml + (board.w - used_w) / 2 - minx * scale
    oy = board.y + mt + (board.h - used_h) / 2 + maxy * scale
    if view.flipped:  # the same box, drawn from the other corner
        ox = board.x + ml + (board.w - used_w) / 2 + maxx * scale
        oy = board.y + mt + (board.h - used_h) / 2 - miny * scale
    layout = Layout(size=(w, h), board=board, panel=panel, scale=scale, origin=(ox, oy), flip=view.flipped)
    layout.piece_size = max(4, int(shape.inscribed * scale * 0.9))
    for pts in geo.outlines:
        poly = [layout.to_px(p) for p in pts]
        layout.polygons.append(poly)
        xs = [p[0] for p in poly]
        ys = [p[1] for p in poly]
        # Rounded edges: neighbouring squares share an edge exactly, without gaps or overlaps.
        left, top = round(min(xs)), round(min(ys))
        layout.cells.append(pygame.Rect(left, top, round(max(xs)) - left, round(max(ys)) - top))
    return layout, label_px


def _segment_distance(p: Point, a: Point, b: Point) -> float:
    ax, ay = a
    bx, by = b
    dx, dy = bx - ax, by - ay
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / length2))
    return math.hypot(p[0] - (ax + t * dx), p[1] - (ay + t * dy))


def _inside(pos: tuple[float, float], poly: list[Point]) -> bool:
    x, y = pos
    inside = False
    j = len(poly) - 1
    for i in range(len(poly)):
        xi, yi = poly[i]
        xj, yj = poly[j]
        if (yi > y) != (yj > y) and x < (xj - xi) * (y - yi) / (yj - yi) + xi:
            inside = not inside
        j = i
    return inside
