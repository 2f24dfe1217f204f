"""The board half of a render: cells with their square colours and tints, edge labels, the
ring's sector wedges, step-region frames, highlights, pieces and territory values."""

from __future__ import annotations

import math
import re

import pygame

from engine import Geometry

from . import theme
from .layout import Layout, Point, board_shape
from .pieces import sprite
from .text import number_text, put_text
from .view import View


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


def draw_board(view: View, surface: pygame.Surface, layout: Layout, label_px: int) -> None:
    """Cells, frames, labels, highlights, pieces and territory values, in that order (later on top)."""
    geo = view.geometry
    shape = board_shape(geo)
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
            put_text(surface, layout, text, geo.names[cell], text.get_rect(center=pos), "label")
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
                put_text(surface, layout, text, label, rect, "label")
        for j, label in enumerate(ranks):
            ys = [layout.to_px(geo.centers[c])[1] for c in cells if geo.coords[c][1] == j]
            if ys:
                text = f.render(label, True, theme.LABEL)
                rect = text.get_rect(midright=(left - pad, sum(ys) / len(ys)))
                put_text(surface, layout, text, label, rect, "label")


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
            put_text(surface, layout, text, letter, text.get_rect(center=pos), "value")


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
        label = number_text(terr.value)
        centre = layout.to_px(geo.centers[cell])
        text = f.render(label, True, ink)
        put_text(surface, layout, text, label, text.get_rect(center=centre), "value")
