"""Dream Chess 47 and Sesqui-dimensional Chess on physical boards: the shipped sensor layouts
map every cell (and only the cells) of each game, also with the board turned round, and the
display draws the two supersquares and the zig-zag ring with its central sectors (pixels
checked on real pygame surfaces)."""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import pygame
import pytest

import engine
from controller.board_map import SensorMap
from display import theme
from display.render import render, step_region_boxes
from display.view import view_from_position
from hardware.layout import load_layout

DC = engine.find_variant("dreamchess47")
SQ = engine.find_variant("sesqui")


@pytest.mark.parametrize(("layout", "sensors", "unused"), [("dreamchess47-7x7", 49, {"g1", "a7"}),
                                                           ("dreamchess47-8x8", 64, None)])
def test_dream_chess_layouts_cover_the_47_cells_and_mark_the_rest_unused(layout: str, sensors: int,
                                                                          unused: set[str] | None) -> None:
    lay = load_layout(layout)
    m = SensorMap(DC, lay)
    assert m.sensors == sensors
    assert sorted(c for c in m.cell_of if c >= 0) == list(range(47))
    blank = {i for i, c in enumerate(m.cell_of) if c < 0}
    assert len(blank) == sensors - 47
    if unused:  # on the 7x7 board the two missing corners, sensors 6 (g1) and 42 (a7)
        assert blank == {6, 42}
    turned = SensorMap(DC, lay, orientation=180)
    g = DC.geometry
    # turned round, the sensor under a1 reads g7 and the one under f1 reads b7
    assert turned.cell_of[m.sensor_of[g.index("a1")]] == g.index("g7")
    assert turned.cell_of[m.sensor_of[g.index("f1")]] == g.index("b7")


def test_sesqui_ring_layout_follows_the_zigzag_counter_clockwise() -> None:
    m = SensorMap(SQ, load_layout("sesqui-ring48"))
    assert m.cell_of == tuple(range(48))
    g = SQ.geometry
    radius = [math.hypot(x, y) for x, y in g.centers]
    # the zig-zag: every other cell sits half a cell further out
    assert all(abs(radius[i + 1] - radius[i] - (0.5 if i % 2 == 0 else -0.5)) < 1e-9 for i in range(47))
    turned = SensorMap(SQ, load_layout("sesqui-ring48"), orientation=180)
    assert turned.cell_of == tuple((c + 24) % 48 for c in range(48))  # turned round: the opposite cell


def draw(variant, size=(800, 480)):
    surface = pygame.Surface(size)
    layout = render(view_from_position(engine.start_position(variant)), surface)
    return surface, layout


def test_display_draws_the_two_supersquares() -> None:
    surface, layout = draw(DC)
    g = DC.geometry
    boxes = step_region_boxes(g)
    assert boxes == [(0.0, 6.0, 0.0, 6.0), (1.0, 7.0, 1.0, 7.0)]
    width = max(3, round(layout.scale * 0.08))
    for k, (x0, x1, y0, y1) in enumerate(boxes):
        inset = width * (0.5 + k) / layout.scale + width / 2 / layout.scale
        colour = theme.STEP_REGIONS[k]
        # a point on each of the four sides of the frame, half way along
        for point in (((x0 + x1) / 2, y0 + inset), ((x0 + x1) / 2, y1 - inset),
                      (x0 + inset, (y0 + y1) / 2), (x1 - inset, (y0 + y1) / 2)):
            px = layout.to_px(point)
            assert surface.get_at((round(px[0]), round(px[1])))[:3] == colour, (k, point)
    # the missing corners show the background, the cells next to them their square colour
    for hole in ((6.5, 0.5), (0.5, 6.5)):
        px = layout.to_px(hole)
        assert surface.get_at((round(px[0]), round(px[1])))[:3] == theme.BACKGROUND
    # an overlap cell centre is a plain square (no frame runs through it)
    d4 = g.index("d4")
    px = layout.to_px(g.centers[d4])
    assert surface.get_at((round(px[0]), round(px[1])))[:3] == theme.SQUARES[g.colors[d4]]


def test_display_draws_the_ring_in_its_zigzag_with_the_central_sectors() -> None:
    surface, layout = draw(SQ)
    g = SQ.geometry
    cx, cy = layout.to_px((0.0, 0.0))
    # the eight wedges in the centre alternate light and dark; sector A's wedge is the light one
    inner = min(math.hypot(x, y) for pts in g.outlines for x, y in pts) - 0.25
    for s in range(8):
        ang = 2 * math.pi * (6 * s + 2.5) / 48
        r = inner * 0.35 * layout.scale
        colour = surface.get_at((round(cx + r * math.cos(ang)), round(cy - r * math.sin(ang))))[:3]
        assert colour == theme.RING_WEDGES[s % 2], s
    # the zig-zag on screen: outer cells' centres lie half a cell further from the centre
    dist = [math.hypot(layout.to_px(c)[0] - cx, layout.to_px(c)[1] - cy) for c in g.centers]
    assert all(abs(dist[i + 1] - dist[i]) == pytest.approx(0.5 * layout.scale) for i in range(47))
    # an empty cell shows its sector's colour at its centre; an occupied one is covered by a piece
    for name in ("B4", "C1"):
        c = g.index(name)
        px = layout.to_px(g.centers[c])
        colour = surface.get_at((round(px[0]), round(px[1])))[:3]
        if engine.start_position(SQ).board[c]:
            assert colour != theme.SQUARES[g.colors[c]]
        else:
            assert colour == theme.SQUARES[g.colors[c]]
    labels = {text for text, _box, role in layout.texts if role == "label"}
    assert {"A1", "H6", "E3"} <= labels
    assert {text for text, _box, role in layout.texts if role == "value"} == set("ABCDEFGH")


@pytest.mark.parametrize("variant", ["dreamchess47", "sesqui"])
def test_chessery_render_writes_the_png(tmp_path: Path, variant: str) -> None:
    out = tmp_path / f"{variant}.png"
    done = subprocess.run([sys.executable, "-m", "controller.cli", "render", variant, "--out", str(out)],
                          capture_output=True, text=True, timeout=60, env={"SDL_VIDEODRIVER": "dummy",
                                                                            "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr
    image = pygame.image.load(str(out))
    surface, _ = draw(engine.find_variant(variant))
    assert image.get_size() == surface.get_size()
    assert pygame.image.tobytes(image, "RGB") == pygame.image.tobytes(surface, "RGB")
