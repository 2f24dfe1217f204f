"""The display package's shape, read from its source: data flows controller -> display, so no
display module imports the serial line, the board bridge, the controller or the hardware; each
module stays small; the names callers import from ``display.render`` keep working after its split."""

from __future__ import annotations

import ast
from pathlib import Path

DISPLAY = Path(__file__).resolve().parent.parent / "display"

#: Packages the display never imports: it draws a view the controller built, nothing more.
UPSTREAM = {"serial", "firmware_bridge", "controller", "hardware"}


def imported_packages(path: Path) -> set[str]:
    """The top-level names of the absolute imports in ``path`` (anywhere, in a function too)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found


def test_the_display_imports_nothing_upstream_of_it() -> None:
    wrong = {path.name: sorted(imported_packages(path) & UPSTREAM) for path in sorted(DISPLAY.rglob("*.py"))}
    assert {name: packages for name, packages in wrong.items() if packages} == {}


def test_the_import_reader_sees_an_import_inside_a_function(tmp_path: Path) -> None:
    source = tmp_path / "probe.py"
    source.write_text("from . import theme\nimport pygame\ndef f():\n    from firmware_bridge.link import Link\n"
                      "    import serial.tools\n", encoding="utf-8")
    assert imported_packages(source) == {"pygame", "firmware_bridge", "serial"}


def test_every_display_module_is_under_400_lines() -> None:
    sizes = {path.name: len(path.read_text(encoding="utf-8").splitlines()) for path in DISPLAY.rglob("*.py")}
    assert {name: n for name, n in sizes.items() if n > 400} == {}


def test_render_still_offers_the_names_callers_import() -> None:
    from display import render
    from display.board_drawing import cell_colour, step_region_boxes
    from display.layout import Layout
    from display.text import MIN_PANEL_PX, fitted_text, wrap

    assert (render.Layout, render.cell_colour, render.step_region_boxes) == (Layout, cell_colour, step_region_boxes)
    assert (render.MIN_PANEL_PX, render.fitted_text, render.wrap) == (MIN_PANEL_PX, fitted_text, wrap)
    assert callable(render.render)
