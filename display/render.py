"""Drawing a view onto a Surface: ``render(view, surface) -> Layout``.

Pure: the pixels depend on the view and the surface size only (sprites, fonts and per-geometry
measurements are cached, which changes speed, not output). The returned :class:`Layout` says
where things went: the board transform, each cell's rectangle, every text box drawn (so tests and
callers can check that nothing is cut off) and the prompt's buttons for hit-testing.

Layout: the board takes the largest area it can; the panel (status, clocks, scores, legend, move
list or prompt) goes to its right on landscape screens, below it when that gives the board
clearly bigger cells (two boards side by side on 800x480) or the screen is portrait. Sizes scale
with the screen against 800x480 (either way up), so the official 7" Pi display and a 1080p
monitor show the same composition.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

import pygame

from engine import Geometry

from . import theme
from .pieces import disc_sprite, sprite
from .view import Choice, PieceView, Prompt, View

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


def render(view: View, surface: pygame.Surface) -> Layout:
    """Draw ``view`` onto the whole of ``surface``; return where everything went."""
    w, h = surface.get_size()
    # The 800x480 reference turned either way: a portrait screen keeps the same text sizes.
    s = min(max(w, h) / 800, min(w, h) / 480)
    layout, label_px = _plan(view, w, h, s)
    surface.fill(theme.BACKGROUND)
    if view.menu is not None:
        layout.panel = pygame.Rect(0, 0, w, h)
        _draw_menu(view.menu, view, surface, layout, s)
        return layout
    _draw_board(view, surface, layout, label_px)
    pygame.draw.rect(surface, theme.PANEL, layout.panel)
    _draw_panel(view, surface, layout, s)
    return layout


# ---------------------------------------------------------------------------------------------
# Planning
# ---------------------------------------------------------------------------------------------
@dataclass
class _Shape:
    """Per-geometry measurements, computed once per geometry object."""

    bounds: tuple[float, float, float, float]  # min x, max x, min y, max y
    inscribed: float  # smallest cell's inscribed circle diameter, board units
    ring: bool
    rank_label_chars: int
    #: Every cell an axis-aligned rectangle: filled with Surface.fill, the fastest draw there is.
    boxes: bool


_shapes: dict[int, tuple[Geometry, _Shape]] = {}


def _shape(geo: Geometry) -> _Shape:
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
    shape = _Shape((min(xs), max(xs), min(ys), max(ys)), inscribed, _is_ring(geo),
                   max((len(r) for r in ranks), default=0), boxes)
    if len(_shapes) > 32:
        _shapes.clear()
    _shapes[id(geo)] = (geo, shape)
    return shape


def _is_ring(geo: Geometry) -> bool:
    return geo.dimensions == 1 and geo.wrap_x > 0


def _plan(view: View, w: int, h: int, s: float) -> tuple[Layout, int]:
    geo = view.geometry
    shape = _shape(geo)
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


# ---------------------------------------------------------------------------------------------
# Board
# ---------------------------------------------------------------------------------------------
def _blend(base: theme.Colour, tint: tuple[theme.Colour, int]) -> theme.Colour:
    # Tints are blended arithmetically: cells are flat colours, so no alpha surface is needed.
    (r, g, b), a = tint
    k = a / 255
    return (round(base[0] + (r - base[0]) * k), round(base[1] + (g - base[1]) * k),
            round(base[2] + (b - base[2]) * k))


def cell_colour(view: View, cell: int) -> theme.Colour:
    """The colour a cell is filled with: its square colour with territory and highlight tints."""
    return _cell_colours(view)[cell]


def _cell_colours(view: View) -> list[theme.Colour]:
    geo = view.geometry
    colours = [theme.SQUARES[c] for c in geo.colors]
    if view.scores:
        for terr in view.scores.territories:
            for c in terr.cells:
                colours[c] = _blend(colours[c], (_territory_colours(view, terr.owner)[0], 215))
    hl = view.highlights
    if hl.area and hl.area_side is not None:
        fill = theme.side_colours(view.sides, hl.area_side)[0]
        for c in hl.area:
            colours[c] = _blend(colours[c], (fill, 70))
    for cells, tint in ((hl.last_move, theme.LAST_MOVE), (hl.pending, theme.PENDING), (hl.check, theme.CHECK),
                        (hl.line, theme.LINE)):
        for c in cells:
            colours[c] = _blend(colours[c], tint)
    return colours


def _draw_board(view: View, surface: pygame.Surface, layout: Layout, label_px: int) -> None:
    geo = view.geometry
    shape = _shape(geo)
    colours = _cell_colours(view)
    ring = shape.ring
    edge = (60, 50, 40)
    for cell, poly in enumerate(layout.polygons):
        if shape.boxes:
            surface.fill(colours[cell], layout.cells[cell])
        else:
            pygame.draw.polygon(surface, colours[cell], poly)
            if ring:
                # Cells of one sector share a colour: a thin edge keeps them apart.
                pygame.draw.aalines(surface, edge, True, poly)
    if ring:
        _draw_ring_centre(view, surface, layout)
    if geo.step_regions:
        _draw_step_regions(geo, surface, layout)
    if label_px:
        _draw_edge_labels(geo, surface, layout, label_px, ring)
    hl = view.highlights
    border = max(2, round(layout.scale * 0.07))
    for cell in hl.pending:
        _cell_border(surface, layout, cell, theme.PENDING[0], border)
    for cell in hl.line:
        _cell_border(surface, layout, cell, theme.LINE[0], border)
    fixes = {f.cell: f for f in hl.fix}
    size = layout.piece_size
    for cell, piece in enumerate(view.pieces):
        if cell in fixes:
            continue
        if piece is not None:
            _blit_centred(surface, sprite(piece, view.sides, size), layout.to_px(geo.centers[cell]))
    for cell, fix in fixes.items():
        centre = layout.to_px(geo.centers[cell])
        if fix.piece is not None:
            _blit_centred(surface, sprite(fix.piece, view.sides, size), centre)
        else:
            r = size * 0.32
            pygame.draw.circle(surface, theme.FIX, centre, r, border)
            d = r * 0.7
            pygame.draw.line(surface, theme.FIX, (centre[0] - d, centre[1] + d), (centre[0] + d, centre[1] - d),
                             border)
        _cell_border(surface, layout, cell, theme.FIX, border + 1)
    if view.scores:
        _draw_territory_values(view, surface, layout)


def step_region_boxes(geo: Geometry) -> list[tuple[float, float, float, float]]:
    """Board-unit boxes (min x, max x, min y, max y) of the regions a step must stay within
    (Dream Chess 47's two supersquares), one per region that fills its bounding box."""
    boxes = []
    for region in geo.step_regions:
        xs = [x for c in region for x, _ in geo.outlines[c]]
        ys = [y for c in region for _, y in geo.outlines[c]]
        box = (min(xs), max(xs), min(ys), max(ys))
        area = sum(abs(_polygon_area(geo.outlines[c])) for c in region)
        if abs(area - (box[1] - box[0]) * (box[3] - box[2])) < 1e-6:
            boxes.append(box)
    return boxes


def _polygon_area(pts: tuple[Point, ...]) -> float:
    return sum(a[0] * b[1] - b[0] * a[1] for a, b in zip(pts, pts[1:] + pts[:1], strict=True)) / 2


def _draw_step_regions(geo: Geometry, surface: pygame.Surface, layout: Layout) -> None:
    """Each supersquare as a frame in its own colour: a player sees at a glance which steps and
    leaps the board allows (none from one corner-only region straight into the other)."""
    width = max(3, round(layout.scale * 0.08))
    for k, (x0, x1, y0, y1) in enumerate(step_region_boxes(geo)):
        # Frames drawn inside their box by a different margin each, so touching edges stay apart.
        inset = width * (0.5 + k) / layout.scale
        left, top = layout.to_px((x0 + inset, y1 - inset))
        right, bottom = layout.to_px((x1 - inset, y0 + inset))
        rect = pygame.Rect(round(left), round(top), round(right - left), round(bottom - top))
        pygame.draw.rect(surface, theme.STEP_REGIONS[k % len(theme.STEP_REGIONS)], rect, width)


def _cell_border(surface: pygame.Surface, layout: Layout, cell: int, colour: theme.Colour, width: int) -> None:
    poly = layout.polygons[cell]
    cx = sum(p[0] for p in poly) / len(poly)
    cy = sum(p[1] for p in poly) / len(poly)
    # Inset by half the width so the border stays inside its own cell.
    inset = []
    for x, y in poly:
        dx, dy = cx - x, cy - y
        d = math.hypot(dx, dy) or 1.0
        k = (width / 2 + 0.5) * math.sqrt(2) / d
        inset.append((x + dx * k, y + dy * k))
    pygame.draw.polygon(surface, colour, inset, width)


def _blit_centred(surface: pygame.Surface, image: pygame.Surface, centre: Point) -> None:
    surface.blit(image, (round(centre[0] - image.get_width() / 2), round(centre[1] - image.get_height() / 2)))


def _draw_edge_labels(geo: Geometry, surface: pygame.Surface, layout: Layout, px: int, ring: bool) -> None:
    f = theme.font(px)
    pad = max(2, round(px * 0.3))
    if ring:
        cx = sum(c[0] for c in geo.centers) / geo.size
        cy = sum(c[1] for c in geo.centers) / geo.size
        outer = max(math.hypot(x - cx, y - cy) for pts in geo.outlines for x, y in pts) * layout.scale
        spacing = 2 * math.pi * outer / geo.size
        f = theme.font(min(px, max(8, round(spacing * 0.5))))
        for cell, (x, y) in enumerate(geo.centers):
            ang = math.atan2(y - cy, x - cx)
            text = f.render(geo.names[cell], True, theme.LABEL)
            reach = outer + pad + max(text.get_width(), text.get_height()) / 2
            c = layout.to_px((cx, cy))
            pos = (c[0] + reach * math.cos(ang), c[1] - reach * math.sin(ang))
            _put_text(surface, layout, text, geo.names[cell], text.get_rect(center=pos), "label")
        return
    files, ranks = geo.edge_labels[0], geo.edge_labels[1] if len(geo.edge_labels) > 1 else ()
    for board in sorted(set(geo.board_of)):
        cells = [c for c in range(geo.size) if geo.board_of[c] == board]
        bottom = max(layout.cells[c].bottom for c in cells)
        left = min(layout.cells[c].left for c in cells)
        for i, label in enumerate(files):
            xs = [layout.to_px(geo.centers[c])[0] for c in cells if geo.coords[c][0] == i]
            if xs:
                text = f.render(label, True, theme.LABEL)
                rect = text.get_rect(midtop=(sum(xs) / len(xs), bottom + pad // 2))
                _put_text(surface, layout, text, label, rect, "label")
        for j, label in enumerate(ranks):
            ys = [layout.to_px(geo.centers[c])[1] for c in cells if geo.coords[c][1] == j]
            if ys:
                text = f.render(label, True, theme.LABEL)
                rect = text.get_rect(midright=(left - pad, sum(ys) / len(ys)))
                _put_text(surface, layout, text, label, rect, "label")


def _draw_ring_centre(view: View, surface: pygame.Surface, layout: Layout) -> None:
    """Sector wedges inside the ring: the source marks opposite cells by eight alternating
    sectors; the wedges carry the sector letters so a player finds the opposite cell at a glance."""
    geo = view.geometry
    n = geo.size
    cx = sum(c[0] for c in geo.centers) / n
    cy = sum(c[1] for c in geo.centers) / n
    inner = min(math.hypot(x - cx, y - cy) for pts in geo.outlines for x, y in pts) - 0.25
    if inner <= 0.5:
        return
    runs: list[list[int]] = [[0]]
    for cell in range(1, n):
        if geo.colors[cell] == geo.colors[runs[-1][0]]:
            runs[-1].append(cell)
        else:
            runs.append([cell])
    if len(runs) > 1 and geo.colors[runs[-1][0]] == geo.colors[0]:
        runs[0] = runs.pop() + runs[0]
    if len(runs) < 2:
        return
    half = math.pi / n
    centre = layout.to_px((cx, cy))
    f = theme.font(max(10, round(inner * layout.scale * 0.28)), bold=True)
    for run in runs:
        a0 = math.atan2(geo.centers[run[0]][1] - cy, geo.centers[run[0]][0] - cx) - half
        a1 = a0 + 2 * half * len(run)
        steps = max(2, len(run) * 3)
        pts = [centre] + [layout.to_px((cx + inner * math.cos(a0 + (a1 - a0) * k / steps),
                                        cy + inner * math.sin(a0 + (a1 - a0) * k / steps))) for k in range(steps + 1)]
        pygame.draw.polygon(surface, theme.RING_WEDGES[geo.colors[run[0]]], pts)
        letters = {re.sub(r"\d+$", "", geo.names[c]) for c in run}
        if len(letters) == 1 and (letter := letters.pop()):
            mid = (a0 + a1) / 2
            text = f.render(letter, True, theme.SQUARES[1 - geo.colors[run[0]]])
            pos = layout.to_px((cx + inner * 0.62 * math.cos(mid), cy + inner * 0.62 * math.sin(mid)))
            _put_text(surface, layout, text, letter, text.get_rect(center=pos), "value")


def _territory_colours(view: View, owner: int | None) -> tuple[theme.Colour, theme.Colour]:
    """(tint, ink) of a territory: the owner's piece colours, grey when shared."""
    if owner is None:
        return theme.SHARED_TERRITORY, (255, 255, 255)
    return theme.side_colours(view.sides, owner)


def _draw_territory_values(view: View, surface: pygame.Surface, layout: Layout) -> None:
    assert view.scores is not None
    geo = view.geometry
    f = theme.font(max(10, round(layout.piece_size * 0.5)), bold=True)
    fixes = {fx.cell for fx in view.highlights.fix}
    border = max(2, round(layout.scale * 0.06))
    for terr in view.scores.territories:
        if not terr.cells:
            continue
        _tint, ink = _territory_colours(view, terr.owner)
        for c in terr.cells:
            # The frame in the owner's outline colour tells a white territory from a light square.
            _cell_border(surface, layout, c, ink, border)
        mx = sum(geo.centers[c][0] for c in terr.cells) / len(terr.cells)
        my = sum(geo.centers[c][1] for c in terr.cells) / len(terr.cells)
        # Written on the free cell nearest the territory's middle, so no piece hides the number.
        free = [c for c in terr.cells if view.pieces[c] is None and c not in fixes] or list(terr.cells)
        cell = min(free, key=lambda c: (geo.centers[c][0] - mx) ** 2 + (geo.centers[c][1] - my) ** 2)
        label = _number(terr.value)
        centre = layout.to_px(geo.centers[cell])
        text = f.render(label, True, ink)
        _put_text(surface, layout, text, label, text.get_rect(center=centre), "value")


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def _put_text(surface: pygame.Surface, layout: Layout, image: pygame.Surface, text: str, rect: pygame.Rect,
              role: str) -> None:
    surface.blit(image, rect)
    layout.texts.append((text, rect, role))


# ---------------------------------------------------------------------------------------------
# Panel
# ---------------------------------------------------------------------------------------------
#: The smallest panel text in pixels: on a 480x320 screen the panel's sizes scale down to about
#: 11 px, which is hard to read at arm's length; 13 px DejaVu Sans still is.
MIN_PANEL_PX = 13


def _px(size: float, s: float) -> int:
    return max(MIN_PANEL_PX, round(size * s))


class _Column:
    """Writes blocks top-down in a rectangle and records every text box it draws."""

    def __init__(self, surface: pygame.Surface, layout: Layout, rect: pygame.Rect, s: float) -> None:
        self.surface, self.layout, self.rect, self.s = surface, layout, rect, s
        self.y = rect.top

    @property
    def room(self) -> int:
        return self.rect.bottom - self.y

    def space(self, px: float) -> None:
        # Clamped: a gap before lines that no longer fit must not eat room below this column.
        self.y = min(self.rect.bottom, self.y + round(px * self.s))

    def line(self, text: str, size: float, bold: bool = False, colour: theme.Colour = theme.TEXT,
             swatch: tuple[theme.Colour, theme.Colour] | None = None, right: str = "",
             band: theme.Colour | None = None) -> bool:
        """One line: optional side swatch, text on the left, optional text flush right."""
        f = theme.font(_px(size, self.s), bold)
        hgt = f.get_linesize()
        if hgt > self.room:
            return False
        if band is not None:
            pygame.draw.rect(self.surface, band, (self.rect.x - 4, self.y, self.rect.w + 8, hgt),
                             border_radius=4)
        x = self.rect.x
        if swatch is not None:
            dot = round(hgt * 0.8)
            self.surface.blit(disc_sprite("", swatch[0], swatch[1], dot), (x, self.y + (hgt - dot) // 2))
            x += dot + round(6 * self.s)
        right_w = 0
        if right:
            img = f.render(right, True, colour)
            rect = img.get_rect(topright=(self.rect.right, self.y))
            _put_text(self.surface, self.layout, img, right, rect, "panel")
            right_w = img.get_width() + round(10 * self.s)
        self._fit(text, size, bold, colour, x, self.rect.right - right_w - x)
        self.y += hgt
        return True

    def _fit(self, text: str, size: float, bold: bool, colour: theme.Colour, x: int, width: int,
             role: str = "panel", y: int | None = None) -> pygame.Rect | None:
        if not text or width <= 0:
            return None
        img = fitted_text(text, _px(size, self.s), bold, colour, width)
        rect = img.get_rect(topleft=(x, self.y if y is None else y))
        _put_text(self.surface, self.layout, img, text, rect, role)
        return rect

    def wrapped(self, text: str, size: float, bold: bool = False, colour: theme.Colour = theme.TEXT,
                max_lines: int = 3) -> None:
        f = theme.font(_px(size, self.s), bold)
        lines = wrap(text, f, self.rect.w)
        if len(lines) > max_lines:
            # The last line takes the rest: line() shrinks it a little or cuts it with an ellipsis.
            lines = [*lines[:max_lines - 1], " ".join(lines[max_lines - 1:])]
        for line in lines:
            if not self.line(line, size, bold, colour):
                return


def fitted_text(text: str, px: int, bold: bool, colour: theme.Colour, width: int) -> pygame.Surface:
    """``text`` rendered no wider than ``width``: a little smaller if that suffices, else cut with
    an ellipsis."""
    for size in (px, round(px * 0.9), round(px * 0.8)):
        f = theme.font(size, bold)
        if f.size(text)[0] <= width:
            return f.render(text, True, colour)
    f = theme.font(round(px * 0.8), bold)
    cut = text
    while cut and f.size(cut + "…")[0] > width:
        cut = cut[:-1]
    return f.render(cut + "…" if cut else "…", True, colour)


def wrap(text: str, f: pygame.font.Font, width: int) -> list[str]:
    lines: list[str] = []
    for para in text.splitlines() or [""]:
        cur = ""
        for word in para.split():
            trial = f"{cur} {word}" if cur else word
            if f.size(trial)[0] <= width or not cur:
                cur = trial
            else:
                lines.append(cur)
                cur = word
        lines.append(cur)
    return lines


def _side_name(view: View, side: int) -> str:
    return view.sides[side].capitalize() if 0 <= side < len(view.sides) else f"Side {side + 1}"


def _clock(seconds: float) -> str:
    """A clock face: ``1:05:09``, ``9:41``, and tenths in the last ten seconds (``7.3``)."""
    if 0 < seconds < 10:
        tenths = math.ceil(round(seconds * 10, 3))
        return f"{tenths // 10}.{tenths % 10}"
    t = max(0, math.ceil(round(seconds, 3)))
    h, rest = divmod(t, 3600)
    return f"{h}:{rest // 60:02d}:{rest % 60:02d}" if h else f"{rest // 60}:{rest % 60:02d}"


#: Clock digits: large, bold, as on a tournament clock (pixels at 800x480).
CLOCK_PX = 40


def _draw_clocks(view: View, col: _Column) -> None:
    """One box per side, side by side (stacked when they do not fit): the side's colour, its
    time in large digits; the running clock's box is lit, a flag at zero in the result colour."""
    assert view.clocks is not None
    n = len(view.clocks)
    gap = round(8 * col.s)
    big = theme.font(max(_px(CLOCK_PX, col.s), 18), True)
    faces = [_clock(secs) for secs in view.clocks]
    per_row = n if all(big.size(t)[0] + round(34 * col.s) <= (col.rect.w - (n - 1) * gap) // n for t in faces) else 1
    w = (col.rect.w - (per_row - 1) * gap) // per_row
    h = big.get_linesize() + round(6 * col.s)
    rows = math.ceil(n / per_row)
    if rows * h + (rows - 1) * gap > col.room:
        return
    for side, (secs, face) in enumerate(zip(view.clocks, faces, strict=True)):
        r, c = divmod(side, per_row)
        rect = pygame.Rect(col.rect.x + c * (w + gap), col.y + r * (h + gap), w, h)
        running = side == view.side_to_move and not view.result
        pygame.draw.rect(col.surface, theme.BUTTON_SELECTED if running else theme.BUTTON, rect,
                         border_radius=round(6 * col.s))
        if running:
            pygame.draw.rect(col.surface, theme.ACCENT, rect, width=max(2, round(3 * col.s)),
                             border_radius=round(6 * col.s))
        dot = round(h * 0.45)
        col.surface.blit(disc_sprite("", *theme.side_colours(view.sides, side), dot),
                         (rect.x + round(6 * col.s), rect.centery - dot // 2))
        colour = theme.RESULT if secs <= 0 else theme.TEXT
        img = big.render(face, True, colour)
        where = img.get_rect(midright=(rect.right - round(8 * col.s), rect.centery))
        _put_text(col.surface, col.layout, img, face, where, "clock")
    col.y += rows * h + (rows - 1) * gap


def _draw_panel(view: View, surface: pygame.Surface, layout: Layout, s: float) -> None:
    pad = max(6, round(14 * s))
    inner = layout.panel.inflate(-2 * pad, -2 * pad)
    if inner.w <= 0 or inner.h <= 0:
        return
    if view.menu_button:
        bh = round(_BUTTON_MIN * 0.8 * s)
        rect = pygame.Rect(inner.right - max(inner.w // 3, round(110 * s)), inner.bottom - bh,
                           max(inner.w // 3, round(110 * s)), bh)
        pygame.draw.rect(surface, theme.BUTTON, rect, border_radius=round(8 * s))
        pygame.draw.rect(surface, theme.BUTTON_BORDER, rect, width=max(2, round(2 * s)), border_radius=round(8 * s))
        img = fitted_text("Menu", _px(18, s), True, theme.TEXT, rect.w - round(8 * s))
        _put_text(surface, layout, img, "Menu", img.get_rect(center=rect.center), "button")
        layout.menu_button = rect
        inner = pygame.Rect(inner.x, inner.y, inner.w, inner.h - bh - round(6 * s))
    if inner.w > 1.5 * inner.h:
        # A wide, short panel (below the board): status on the left, prompt or moves on the right.
        left_w = round(inner.w * 0.44)
        head = _Column(surface, layout, pygame.Rect(inner.x, inner.y, left_w, inner.h), s)
        _draw_header(view, head)
        body = _Column(surface, layout, pygame.Rect(inner.x + left_w + pad, inner.y, inner.w - left_w - pad,
                                                    inner.h), s)
    else:
        # A prompt always gets the room for its buttons; the status lines that do not fit then
        # wait until it is answered (the least important ones, at the end, go first).
        reserve = _prompt_height(view.prompt, inner.w, s) if view.prompt else 0
        gap = round(10 * s)
        head = _Column(surface, layout, pygame.Rect(inner.x, inner.y, inner.w, max(0, inner.h - reserve - gap)), s)
        _draw_header(view, head)
        top = head.y + gap
        body = _Column(surface, layout, pygame.Rect(inner.x, top, inner.w, inner.bottom - top), s)
    if view.prompt is not None:
        _draw_prompt(view, body)
        body.space(6)
        _draw_moves(view, body)  # the game stays in sight while the question is open
    else:
        _draw_legend(view, body)
        _draw_moves(view, body)


def _draw_header(view: View, col: _Column) -> None:
    col.line(view.title, 25, bold=True)
    if view.players:
        col.line(view.players, 20, colour=theme.TEXT)
    col.space(4)
    if view.result:
        col.wrapped(view.result, 24, bold=True, colour=theme.RESULT, max_lines=2)
    elif view.side_to_move is not None:
        side = view.side_to_move
        col.line(f"{_side_name(view, side)} to move", 21, swatch=theme.side_colours(view.sides, side))
    _draw_check_rules(view, col)
    if view.phase:
        col.line(view.phase.upper(), 17, bold=True, colour=theme.ACCENT)
    if view.status:
        col.wrapped(view.status, 19, max_lines=4)
    if view.clocks is not None:
        col.space(6)
        _draw_clocks(view, col)
    if view.scores is not None:
        col.space(6)
        col.line(view.scores.title, 18, bold=True, colour=theme.TEXT_DIM)
        for side, total in enumerate(view.scores.totals):
            col.line(_side_name(view, side), 20, swatch=theme.side_colours(view.sides, side), right=_number(total))
    for side, hand in enumerate(view.hands):
        if hand:
            _draw_hand(view, col, side, hand)


def _draw_check_rules(view: View, col: _Column) -> None:
    """Three players: each side's line says whose king it may check and whose never; the side to
    move's line stands on a band."""
    for side, left, right in view.check_rules:
        band = theme.BUTTON if side == view.side_to_move else None
        col.line(f"{_side_name(view, side)} checks {_side_name(view, left)}, never {_side_name(view, right)}", 16,
                 swatch=theme.side_colours(view.sides, side), band=band)


def _draw_hand(view: View, col: _Column, side: int, hand: tuple[tuple[PieceView, int], ...]) -> None:
    """The side's pieces in hand with their counts: as many rows as they need (a full row
    continues on the next, no kind is left out); when the panel has no room for them all, the
    last row ends with ``+N`` kinds not shown."""
    f = theme.font(_px(18, col.s))
    hgt = round(f.get_linesize() * 1.5)
    if hgt > col.room:
        return
    x0 = col.rect.x
    label = f"{_side_name(view, side)} hand:"
    name = f.render(label, True, theme.TEXT_DIM)
    _put_text(col.surface, col.layout, name, label, name.get_rect(midleft=(x0, col.y + hgt / 2)), "panel")
    x = x0 + name.get_width() + round(6 * col.s)
    gap = round(8 * col.s)
    widths = [hgt + f.size(str(count))[0] + gap for _piece, count in hand]
    for i, (piece, count) in enumerate(hand):
        if x + widths[i] - gap > col.rect.right:
            if col.y + 2 * hgt > col.rect.bottom:  # no room for another row: say how many are left
                more = f"+{len(hand) - i}"
                img = f.render(more, True, theme.ACCENT)
                _put_text(col.surface, col.layout, img, more,
                          img.get_rect(midright=(col.rect.right, col.y + hgt / 2)), "panel")
                break
            col.y += hgt
            x = x0 + round(12 * col.s)
        col.surface.blit(sprite(piece, view.sides, hgt), (x, col.y))
        x += hgt
        img = f.render(str(count), True, theme.TEXT)
        _put_text(col.surface, col.layout, img, str(count), img.get_rect(midleft=(x, col.y + hgt / 2)), "panel")
        x += img.get_width() + gap
    col.y += hgt


def _draw_legend(view: View, col: _Column) -> None:
    for note in view.notes:
        col.wrapped(note, 16, colour=theme.TEXT_DIM, max_lines=3)
    if view.notes:
        col.space(6)
    entries = [p for p in view.legend if not p.plain]
    if not entries:
        return
    f = theme.font(_px(17, col.s))
    hgt = round(f.get_linesize() * 1.25)
    per_row = 2 if col.rect.w > 360 * col.s else 1
    cell_w = col.rect.w // per_row
    for i in range(0, len(entries), per_row):
        if hgt > col.room:
            return
        for k, piece in enumerate(entries[i:i + per_row]):
            x = col.rect.x + k * cell_w
            col.surface.blit(sprite(piece, view.sides, hgt), (x, col.y))
            label = f"{piece.san}  {piece.name}" if piece.san else piece.name or piece.letter
            col._fit(label, 17, False, theme.TEXT, x + hgt + round(6 * col.s),
                     cell_w - hgt - round(12 * col.s), y=col.y + (hgt - f.get_linesize()) // 2)
        col.y += hgt
    col.space(8)


def _draw_moves(view: View, col: _Column) -> None:
    if not view.moves:
        return
    nsides = max(1, len(view.sides))
    f = theme.font(_px(19, col.s))
    hgt = f.get_linesize()
    rows: list[tuple[int, list[tuple[int, str]]]] = []
    for i, text in enumerate(view.moves):
        ply = view.first_side + i
        number = view.first_move_number + ply // nsides
        if not rows or rows[-1][0] != number:
            rows.append((number, []))
        rows[-1][1].append((ply % nsides, text))
    fit = max(0, col.room // hgt)
    num_w = f.size(f"{rows[-1][0]}.")[0] + round(8 * col.s)
    move_w = (col.rect.w - num_w) // nsides
    for number, entries in rows[max(0, len(rows) - fit):] if fit else []:  # the latest rows that fit
        img = f.render(f"{number}.", True, theme.TEXT_DIM)
        where = img.get_rect(topright=(col.rect.x + num_w - round(8 * col.s), col.y))
        _put_text(col.surface, col.layout, img, f"{number}.", where, "panel")
        for side, text in entries:
            col._fit(text, 19, False, theme.TEXT, col.rect.x + num_w + side * move_w, move_w - round(6 * col.s))
        col.y += hgt


_BUTTON_MIN, _BUTTON_MAX, _BUTTON_GAP, _BUTTON_TEXT = 52, 76, 8, 20


def _button_widths(prompt: Prompt, s: float, compact: bool = False) -> list[int]:
    """Widths the buttons need for their whole labels (``compact``: for the short ones)."""
    f = theme.font(_px(_BUTTON_TEXT, s))
    pad = round(20 * s)
    piece = round(_BUTTON_MIN * s * 0.8) + round(8 * s)
    return [f.size(_choice_text(c, compact))[0] + (piece if c.piece else 0) + pad for c in prompt.choices]


def _columns_that_fit(prompt: Prompt, width: int, s: float, compact: bool = False) -> int:
    """The most columns (up to 4) whose buttons still hold their labels."""
    gap = round(_BUTTON_GAP * s)
    need = max(_button_widths(prompt, s, compact), default=0)
    fit = [c for c in range(1, 5) if (width - (c - 1) * gap) // c >= need]
    return fit[-1] if fit else 1


def _prompt_height(prompt: Prompt | None, width: int, s: float) -> int:
    """The least height a prompt needs: its title and buttons of the minimum touch size."""
    if prompt is None:
        return 0
    f = theme.font(_px(21, s), True)
    title = min(2, len(wrap(prompt.title, f, width))) * f.get_linesize() + round(6 * s)
    rows = math.ceil(len(prompt.choices) / _columns_that_fit(prompt, width, s, compact=True))
    return title + rows * round(_BUTTON_MIN * s) + max(0, rows - 1) * round(_BUTTON_GAP * s)


def _draw_prompt(view: View, col: _Column) -> None:
    prompt = view.prompt
    assert prompt is not None
    col.wrapped(prompt.title, 21, bold=True, colour=theme.ACCENT, max_lines=2)
    col.space(6)
    n = len(prompt.choices)
    if n == 0 or col.room <= 0:
        return
    s = col.s
    gap = round(_BUTTON_GAP * s)
    min_h, max_h = round(_BUTTON_MIN * s), round(_BUTTON_MAX * s)
    px = _px(_BUTTON_TEXT, s)
    # Fewest columns with touch-sized buttons that hold their labels; failing that, more columns
    # with short labels (a piece picture and its count say enough); failing that, shorter buttons.
    full = _columns_that_fit(prompt, col.rect.w, s)
    short = max(full, _columns_that_fit(prompt, col.rect.w, s, compact=True))
    cols = short
    for c in range(1, short + 1):
        rows = math.ceil(n / c)
        if (col.room - (rows - 1) * gap) // rows >= min_h:
            cols = c
            break
    rows = math.ceil(n / cols)
    bw = (col.rect.w - (cols - 1) * gap) // cols
    bh = max(1, min(max_h, (col.room - (rows - 1) * gap) // rows))
    # All pictured pieces drop their names together, so the buttons read alike.
    compact = max(_button_widths(prompt, s), default=0) > bw
    for i, choice in enumerate(prompt.choices):
        r, c = divmod(i, cols)
        rect = pygame.Rect(col.rect.x + c * (bw + gap), col.y + r * (bh + gap), bw, bh)
        selected = i == prompt.selected
        pygame.draw.rect(col.surface, theme.BUTTON_SELECTED if selected else theme.BUTTON, rect,
                         border_radius=round(8 * s))
        pygame.draw.rect(col.surface, theme.ACCENT if selected else theme.BUTTON_BORDER, rect,
                         width=max(2, round((4 if selected else 2) * s)), border_radius=round(8 * s))
        col.layout.choices.append(rect)
        x = rect.x + round(10 * s)
        if choice.piece is not None:
            size = round(min(bh * 0.8, bw * 0.4))
            col.surface.blit(sprite(choice.piece, view.sides, size), (x, rect.centery - size // 2))
            x += size + round(8 * s)
        room = rect.right - round(10 * s) - x
        text = _choice_text(choice, compact)
        img = fitted_text(text, px, selected, theme.TEXT, room)
        where = img.get_rect(midleft=(x, rect.centery)) if choice.piece else img.get_rect(
            center=((x + rect.right - round(10 * s)) / 2, rect.centery))
        if img.get_height() <= rect.h:
            _put_text(col.surface, col.layout, img, text, where, "button")
    col.y += rows * (bh + gap)


def _draw_menu(menu: Prompt, view: View, surface: pygame.Surface, layout: Layout, s: float) -> None:
    """An operator menu screen over the whole window: its title, then a grid of touch buttons
    (``menu.columns`` wide, else as many columns as the labels allow)."""
    pygame.draw.rect(surface, theme.PANEL, layout.panel)
    pad = max(6, round(14 * s))
    col = _Column(surface, layout, layout.panel.inflate(-2 * pad, -2 * pad), s)
    col.wrapped(menu.title, 24, bold=True, colour=theme.ACCENT, max_lines=2)
    col.space(8)
    n = len(menu.choices)
    if n == 0 or col.room <= 0:
        return
    gap = round(_BUTTON_GAP * s)
    cols = menu.columns or _columns_that_fit(menu, col.rect.w, s)
    rows = math.ceil(n / cols)
    px = _px(_BUTTON_TEXT + 2, s)
    # Many buttons (a variant list that grew): rather more columns than the menu asks for, with
    # narrower buttons, than buttons too short to carry their labels (labels shrink to the width).
    need = theme.font(px).get_height()
    while cols < n and (col.room - (rows - 1) * gap) // rows < need:
        cols += 1
        rows = math.ceil(n / cols)
    bw = (col.rect.w - (cols - 1) * gap) // cols
    bh = max(1, min(round(_BUTTON_MAX * 1.2 * s), (col.room - (rows - 1) * gap) // rows))
    # Many choices (the variant list grows) make short buttons: a smaller label still fits.
    px = min(_px(_BUTTON_TEXT + 2, s), max(8, bh * 3 // 4))
    for i, choice in enumerate(menu.choices):
        r, c = divmod(i, cols)
        rect = pygame.Rect(col.rect.x + c * (bw + gap), col.y + r * (bh + gap), bw, bh)
        selected = i == menu.selected
        pygame.draw.rect(surface, theme.BUTTON_SELECTED if selected else theme.BUTTON, rect,
                         border_radius=round(8 * s))
        pygame.draw.rect(surface, theme.ACCENT if selected else theme.BUTTON_BORDER, rect,
                         width=max(2, round((4 if selected else 2) * s)), border_radius=round(8 * s))
        layout.choices.append(rect)
        img = fitted_text(choice.label, px, selected, theme.TEXT, rect.w - round(12 * s))
        if img.get_height() <= rect.h:
            _put_text(surface, layout, img, choice.label, img.get_rect(center=rect.center), "button")
    col.y += rows * (bh + gap)


def _choice_text(choice: Choice, compact: bool = False) -> str:
    """A button's label; ``compact`` drops the name of a pictured piece, keeping its count."""
    if compact and choice.piece is not None:
        return f"×{choice.count}" if choice.count is not None else ""
    return f"{choice.label}  ×{choice.count}" if choice.count is not None else choice.label


# ---------------------------------------------------------------------------------------------
# Geometry helpers
# ---------------------------------------------------------------------------------------------
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
