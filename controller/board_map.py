"""Sensors to engine cells: a hardware layout checked against a variant's geometry, with the
board's orientation applied.

Sensor numbers are global across a set of boards: the first board's sensors come first, then
the second's (the host link adds each port's ``cell_offset``). Without a layout, sensor ``i``
reads engine cell ``i`` (the simulated board's numbering); with several ports and no layout the
cells are split by the geometry's boards.

A board turned 180 degrees puts the sensor the layout places under ``a1`` under ``h8``: each
cell is mapped to the cell at its point reflection through the centre of its own board, from the
geometry's drawing coordinates, so the same rule serves squares, rectangles, rings and two-board
sets. A geometry without such a symmetry cannot be turned (a clear error says which cell has no
opposite).
"""

from __future__ import annotations

from engine import Variant
from hardware.layout import Layout, LayoutError


def rotated_cells(variant: Variant) -> list[int]:
    """For each cell, the cell at the same place once its board is turned 180 degrees."""
    g = variant.geometry
    by_board: dict[int, list[int]] = {}
    for c in range(g.size):
        by_board.setdefault(g.board_of[c], []).append(c)
    out = [-1] * g.size
    for cells in by_board.values():
        xs = [g.centers[c][0] for c in cells]
        ys = [g.centers[c][1] for c in cells]
        for c in cells:
            for pt in g.outlines[c]:
                xs.append(pt[0])
                ys.append(pt[1])
        cx, cy = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
        at = {(round(g.centers[c][0], 3), round(g.centers[c][1], 3)): c for c in cells}
        for c in cells:
            x, y = g.centers[c]
            opposite = at.get((round(2 * cx - x, 3), round(2 * cy - y, 3)))
            if opposite is None:
                raise LayoutError(f"{variant.name}: cell {g.names[c]} has no opposite cell; this board "
                                  f"cannot be turned 180 degrees")
            out[c] = opposite
    return out


class SensorMap:
    """``cell_of[sensor]`` (engine cell, or -1 for a sensor reading nothing) and ``sensor_of``;
    ``board_sizes``: sensors per board, in port order."""

    def __init__(self, variant: Variant, layout: Layout | None = None, orientation: int = 0,
                 boards: int = 1) -> None:
        g = variant.geometry
        self.variant = variant
        if layout is None:
            if boards == 1:
                order = list(range(g.size))
                sizes = [g.size]
            else:
                groups = sorted(set(g.board_of))
                if len(groups) != boards:
                    raise LayoutError(f"{variant.name} has {len(groups)} board(s), not {boards}: "
                                      f"give a layout for {boards} ports")
                order = [c for b in groups for c in range(g.size) if g.board_of[c] == b]
                sizes = [sum(1 for c in range(g.size) if g.board_of[c] == b) for b in groups]
            cells = order
            name = "default"
        else:
            if len(layout.boards) != boards:
                raise LayoutError(f"layout {layout.name} has {len(layout.boards)} board(s) but {boards} port(s) "
                                  f"are configured")
            cells = []
            for b, board in enumerate(layout.boards):
                for i, cell_name in enumerate(board.cells):
                    if not cell_name:
                        cells.append(-1)
                        continue
                    if not g.has_cell(cell_name):
                        raise LayoutError(f"layout {layout.name}: board {b + 1} sensor {i}: no cell "
                                          f"{cell_name!r} on {variant.name}")
                    cells.append(g.index(cell_name))
            sizes = [len(board.cells) for board in layout.boards]
            name = layout.name
            missing = sorted(set(range(g.size)) - set(cells))
            if missing:
                shown = ", ".join(g.names[c] for c in missing[:5])
                raise LayoutError(f"layout {name}: {len(missing)} cell(s) of {variant.name} have no sensor "
                                  f"({shown}{', ...' if len(missing) > 5 else ''})")
        if orientation == 180:
            turn = rotated_cells(variant)
            cells = [turn[c] if c >= 0 else -1 for c in cells]
        elif orientation != 0:
            raise LayoutError(f"orientation must be 0 or 180, not {orientation}")
        self.name = name
        self.orientation = orientation
        self.cell_of: tuple[int, ...] = tuple(cells)
        self.sensor_of: dict[int, int] = {c: s for s, c in enumerate(cells) if c >= 0}
        self.board_sizes = tuple(sizes)

    @property
    def sensors(self) -> int:
        return len(self.cell_of)

    def offsets(self) -> list[int]:
        """First global sensor number of each board (the link's ``cell_offset``)."""
        out, n = [], 0
        for size in self.board_sizes:
            out.append(n)
            n += size
        return out

    def readings(self, sensor_values: list[int]) -> list[int]:
        """Per engine cell, the value of the sensor under it."""
        out = [0] * self.variant.geometry.size
        for s, value in enumerate(sensor_values):
            c = self.cell_of[s] if s < len(self.cell_of) else -1
            if c >= 0:
                out[c] = value
        return out
