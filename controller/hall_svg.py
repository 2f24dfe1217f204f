"""A board drawn as SVG for the hall's pages, from the variant's geometry alone: each cell's
outline polygon and centre (engine.geometry's drawing data, the same the screen draws from), so
any variant -- the 48-cell ring, two boards side by side, 13x13 -- is drawn without knowing the
game. Pieces are chess symbols where the variant names one (``glyph``), else the piece's letter,
in the side's colour."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

from engine import Variant

#: Cell fills by the geometry's colour index (light, dark, and two more for boards that use them).
CELL_FILLS = ("#f0d9b5", "#b58863", "#e8e0c8", "#9e9e8e")
LAST_MOVE_FILL = "#cdd26a"
#: Territory tints by owner (Mathematichess): the first side's, the second's; shared is grey.
TERRITORY_FILLS = ("#f7eeb0", "#8e9ab8")
SHARED_FILL = "#c4c4c4"
#: Piece fills by side, and an outline that shows on both light and dark cells.
SIDE_FILLS = ("#ffffff", "#202020", "#d23c3c", "#3c6ed2", "#2a9d3a", "#d2a018", "#9a3cc8")
SIDE_STROKES = ("#202020", "#f0f0f0", "#202020", "#202020", "#202020", "#202020", "#202020")
#: The solid chess symbols (drawn in the side's fill with an outline, so one set serves every side).
GLYPHS = {"king": "\u265a", "queen": "\u265b", "rook": "\u265c", "bishop": "\u265d", "knight": "\u265e",
          "pawn": "\u265f"}


def _symbol(variant: Variant, code: int) -> str:
    kind = variant.kinds[variant.kind_at[code]]
    glyph = kind.glyph.split()[0] if kind.glyph else ""
    return GLYPHS.get(glyph) or (glyph if len(glyph) == 1 else kind.letter.lstrip("~")[:2])


@dataclass(frozen=True)
class _Drawing:
    """What never changes in a variant's drawing, worked out once per variant: a busy hall draws
    a board on every move, and the geometry's numbers as text are most of the work."""

    width: float
    height: float
    cell_tags: tuple[tuple[str, str], ...]  # per cell: the polygon's start up to its fill, its end
    fills: tuple[str, ...]  # per cell: its own colour
    piece_tags: tuple[str, ...]  # per cell: a piece's <text> start up to its colours
    names: tuple[str, ...]  # per cell: its name, escaped


_DRAWINGS: dict[str, _Drawing] = {}


def _drawing(variant: Variant) -> _Drawing:
    """The variant's drawing, by its name (a variant's geometry is fixed with its name)."""
    drawing = _DRAWINGS.get(variant.name)
    if drawing is None:
        drawing = _DRAWINGS[variant.name] = _draw(variant)
    return drawing


def _draw(variant: Variant) -> _Drawing:
    geo = variant.geometry
    xs = [x for outline in geo.outlines for x, _y in outline]
    ys = [y for outline in geo.outlines for _x, y in outline]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    cell_tags = []
    piece_tags = []
    for cell, outline in enumerate(geo.outlines):
        points = " ".join(f"{x - x0:.3f},{y1 - y:.3f}" for x, y in outline)
        cell_tags.append((f'<polygon points="{points}" fill="',
                          f'" stroke="#6b5a45" stroke-width="0.02"><title>{escape(geo.names[cell])}</title></polygon>'))
        cx, cy = geo.centers[cell]
        # the size of the cell around its centre, so that small ring cells get small pieces
        size = min(_extent(outline)) * 0.8
        piece_tags.append(f'<text x="{cx - x0:.3f}" y="{y1 - cy:.3f}" font-size="{size:.3f}" text-anchor="middle" '
                          f'dominant-baseline="central" stroke-width="{size * 0.06:.3f}" '
                          # the outline under the fill: on a thin letter a stroke on top hides the side's colour
                          f'paint-order="stroke" font-weight="bold" ')
    fills = tuple(CELL_FILLS[c % len(CELL_FILLS)] for c in geo.colors)
    return _Drawing(x1 - x0, y1 - y0, tuple(cell_tags), fills, tuple(piece_tags), tuple(map(escape, geo.names)))


def board_svg(variant: Variant, cells: Sequence[int], last: Sequence[int] = (), px: int = 240,
              territories: Sequence[tuple[Sequence[int], int | None]] = ()) -> str:
    """``cells``: the piece code on each cell (0: empty); ``last``: cells of the last move;
    ``territories``: (cells, owner or None for shared) to tint."""
    drawing = _drawing(variant)
    w, h = drawing.width, drawing.height
    fills = list(drawing.fills)
    for owned, owner in territories:
        for cell in owned:
            fills[cell] = SHARED_FILL if owner is None else TERRITORY_FILLS[owner % len(TERRITORY_FILLS)]
    for cell in last:
        fills[cell] = LAST_MOVE_FILL
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="board" viewBox="0 0 {w:.3f} {h:.3f}" '
             f'width="{px}" height="{px * h / w:.0f}" role="img" aria-label="{escape(variant.title)}">']
    parts += [f"{start}{fill}{end}" for (start, end), fill in zip(drawing.cell_tags, fills, strict=True)]
    for cell, code in enumerate(cells):
        if not code:
            continue
        side = variant.side_of(code)
        parts.append(f'{drawing.piece_tags[cell]}fill="{SIDE_FILLS[side % len(SIDE_FILLS)]}" '
                     f'stroke="{SIDE_STROKES[side % len(SIDE_STROKES)]}" data-cell="{drawing.names[cell]}" '
                     f'data-piece="{escape(variant.symbol(code))}">{escape(_symbol(variant, code))}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _extent(outline: Sequence[tuple[float, float]]) -> tuple[float, float]:
    xs = [x for x, _ in outline]
    ys = [y for _, y in outline]
    return max(xs) - min(xs), max(ys) - min(ys)
