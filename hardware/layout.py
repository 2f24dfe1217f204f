"""Physical board layouts: which cell (by name) each sensor of each board sits under.

A layout is TOML data (shipped ones in ``hardware/layouts/``, or any file). It lists the boards
of a set in port order (one board per serial port; Alice Chess on two boards has two), and for
each board the cell name of every sensor index, either spelled out or generated from a grid::

    title = "8x8 board, sensor 0 at a1, rank by rank"
    [[boards]]
    name = "main"                                    # optional
    grid = { files = 8, ranks = 8, first = "a1", order = "ranks", serpentine = false, suffix = "" }
    # or: cells = ["a1", "b1", ...]                  # "" for a sensor that reads no cell

``grid``: sensor 0 sits under the ``first`` corner (``a1``, ``h1``, ``a8``, ``h8`` -- the
corner's file letter and rank number), indices run along ranks (``order = "ranks"``) or files,
``serpentine`` reverses every other line (sensors chained like an LED strip), ``suffix`` is
appended to every name (the second board of a two-board game). ``grid`` may be a list of such
tables, concatenated (one controller reading two boards).

This module knows nothing of the rules engine: the controller checks the names against the
variant's geometry and applies the board's orientation (turned 180 degrees) from there.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from engine.errors import ChesseryError

FILE_LETTERS = "abcdefghijklmnopqrstuvwxyz"
_BOARD_KEYS = {"name", "grid", "cells"}
_GRID_KEYS = {"files", "ranks", "first", "order", "serpentine", "suffix"}


class LayoutError(ChesseryError, ValueError):
    """A layout that cannot be used; the message names the layout and the key."""


@dataclass(frozen=True)
class BoardLayout:
    name: str
    cells: tuple[str, ...]  # cell name per sensor index; "" for an unused sensor


@dataclass(frozen=True)
class Layout:
    name: str
    title: str
    boards: tuple[BoardLayout, ...]

    @property
    def sensors(self) -> int:
        return sum(len(b.cells) for b in self.boards)


def grid_names(spec: dict[str, Any], where: str) -> list[str]:
    """Cell names in sensor order for one ``grid`` table."""
    unknown = set(spec) - _GRID_KEYS
    if unknown:
        raise LayoutError(f"{where}: unknown key {sorted(unknown)[0]!r}")
    files, ranks = spec.get("files"), spec.get("ranks")
    for key, value in (("files", files), ("ranks", ranks)):
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= len(FILE_LETTERS):
            raise LayoutError(f"{where}: {key}: expected a whole number from 1 to 26, got {value!r}")
    assert isinstance(files, int) and isinstance(ranks, int)
    corners = {f"{FILE_LETTERS[x]}{y + 1}": (x, y) for x in (0, files - 1) for y in (0, ranks - 1)}
    first = spec.get("first", "a1")
    if first not in corners:
        raise LayoutError(f"{where}: first: expected a corner ({', '.join(sorted(corners))}), got {first!r}")
    order = spec.get("order", "ranks")
    if order not in ("ranks", "files"):
        raise LayoutError(f"{where}: order: expected 'ranks' or 'files', got {order!r}")
    serpentine = spec.get("serpentine", False)
    if not isinstance(serpentine, bool):
        raise LayoutError(f"{where}: serpentine: expected true or false, got {serpentine!r}")
    suffix = spec.get("suffix", "")
    if not isinstance(suffix, str):
        raise LayoutError(f"{where}: suffix: expected text, got {suffix!r}")
    x0, y0 = corners[first]
    xs = list(range(files)) if x0 == 0 else list(range(files - 1, -1, -1))
    ys = list(range(ranks)) if y0 == 0 else list(range(ranks - 1, -1, -1))
    outer, inner = (ys, xs) if order == "ranks" else (xs, ys)
    names = []
    for n, a in enumerate(outer):
        line = inner if not (serpentine and n % 2) else inner[::-1]
        for b in line:
            x, y = (b, a) if order == "ranks" else (a, b)
            names.append(f"{FILE_LETTERS[x]}{y + 1}{suffix}")
    return names


def parse_layout(text: str, name: str = "layout") -> Layout:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise LayoutError(f"layout {name}: not valid TOML: {exc}") from None
    unknown = set(data) - {"title", "boards"}
    if unknown:
        raise LayoutError(f"layout {name}: unknown key {sorted(unknown)[0]!r}")
    boards_data = data.get("boards")
    if not isinstance(boards_data, list) or not boards_data:
        raise LayoutError(f"layout {name}: boards: expected at least one [[boards]] table")
    boards = []
    for i, spec in enumerate(boards_data):
        where = f"layout {name}: boards[{i}]"
        if not isinstance(spec, dict):
            raise LayoutError(f"{where}: expected a table")
        unknown = set(spec) - _BOARD_KEYS
        if unknown:
            raise LayoutError(f"{where}: unknown key {sorted(unknown)[0]!r}")
        if ("grid" in spec) == ("cells" in spec):
            raise LayoutError(f"{where}: give either 'grid' or 'cells'")
        if "cells" in spec:
            cells = spec["cells"]
            if not isinstance(cells, list) or not cells or not all(isinstance(c, str) for c in cells):
                raise LayoutError(f"{where}: cells: expected a list of cell names")
        else:
            grids = spec["grid"] if isinstance(spec["grid"], list) else [spec["grid"]]
            cells = []
            for k, grid in enumerate(grids):
                if not isinstance(grid, dict):
                    raise LayoutError(f"{where}: grid: expected a table or a list of tables")
                cells += grid_names(grid, f"{where}.grid" + (f"[{k}]" if len(grids) > 1 else ""))
        named = [c for c in cells if c]
        if len(set(named)) != len(named):
            dup = next(c for c in named if named.count(c) > 1)
            raise LayoutError(f"{where}: cell {dup!r} is under two sensors")
        boards.append(BoardLayout(spec.get("name", f"board {i + 1}"), tuple(cells)))
    every = [c for b in boards for c in b.cells if c]
    if len(set(every)) != len(every):
        dup = next(c for c in every if every.count(c) > 1)
        raise LayoutError(f"layout {name}: cell {dup!r} is on two boards")
    title = data.get("title", name)
    if not isinstance(title, str):
        raise LayoutError(f"layout {name}: title: expected text")
    return Layout(name, title, tuple(boards))


def layout_names() -> list[str]:
    """The shipped layouts."""
    root = resources.files("hardware") / "layouts"
    return sorted(p.name[:-5] for p in root.iterdir() if p.name.endswith(".toml"))


def load_layout(name_or_path: str) -> Layout:
    """A shipped layout by name, or a layout file by path."""
    path = Path(name_or_path)
    if path.suffix == ".toml" or path.exists():
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise LayoutError(f"layout {name_or_path}: cannot read: {exc.strerror}") from None
        return parse_layout(text, path.stem)
    resource = resources.files("hardware") / "layouts" / f"{name_or_path}.toml"
    if not resource.is_file():
        raise LayoutError(f"unknown layout {name_or_path!r} (shipped: {', '.join(layout_names())}; or a .toml file)")
    return parse_layout(resource.read_text(encoding="utf-8"), name_or_path)
