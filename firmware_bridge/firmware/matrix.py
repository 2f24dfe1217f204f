"""Scanning a sensor matrix through multiplexers (portable).

The pin layer is two calls, so the same scan runs against real pins on the Pico (main.py) and
against a virtual matrix in the tests and the simulated board:

* ``pins.row(board, row)``: drive one row of one matrix (through a row multiplexer/decoder);
* ``pins.col(board, col)``: select one column on the column multiplexer and return the reading:
  0 empty, 1 occupied, or a piece byte where the board identifies pieces.

A matrix position (board, row, col) becomes a protocol cell through ``cell_map`` (a list, one
entry per position in board-row-column order, -1 for a position with no sensor); without a map
positions are numbered row by row. Limits: rows and cols up to 16 (one 16-channel multiplexer
each, e.g. CD74HC4067), up to 2 matrices (Alice chess: 2 x 8 x 8), at most 256 cells in all.
"""

try:
    from firmware_bridge.firmware import protocol as P
except ImportError:
    import protocol as P  # type: ignore[no-redef]

MAX_LINES = 16
MAX_BOARDS = 2


class MatrixError(ValueError):
    pass


class Matrix:
    def __init__(self, pins, rows, cols, boards=1, cell_map=None, cells=None):
        if not (1 <= rows <= MAX_LINES and 1 <= cols <= MAX_LINES and 1 <= boards <= MAX_BOARDS):
            raise MatrixError(f"matrix {boards}x{rows}x{cols}: rows and cols 1..16, boards 1..2")
        positions = boards * rows * cols
        if cell_map is None:
            count = positions if cells is None else cells
            cell_map = [p if p < count else -1 for p in range(positions)]
        if len(cell_map) != positions:
            raise MatrixError(f"cell map has {len(cell_map)} entries for {positions} positions")
        used = [c for c in cell_map if c >= 0]
        if not used or len(used) > P.MAX_CELLS or len(set(used)) != len(used) or max(used) != len(used) - 1:
            raise MatrixError("cell map must number the cells 0..n-1 once each, n <= 256")
        self.pins = pins
        self.rows = rows
        self.cols = cols
        self.boards = boards
        self.cell_map = cell_map
        self.cells = len(used)

    def scan(self, out=None):
        """One full scan: the reading of every cell, as a bytearray indexed by cell."""
        if out is None:
            out = bytearray(self.cells)
        pins = self.pins
        cell_map = self.cell_map
        position = 0
        for board in range(self.boards):
            for row in range(self.rows):
                pins.row(board, row)
                for col in range(self.cols):
                    cell = cell_map[position]
                    position += 1
                    if cell >= 0:
                        out[cell] = pins.col(board, col)
        return out


class VirtualPins:
    """A matrix in memory: ``readings[cell]`` as the sensors would read them. Used by the tests
    and by the simulated board, so that both go through :meth:`Matrix.scan`."""

    def __init__(self, rows, cols, boards=1, cell_map=None, cells=None):
        self.matrix = Matrix(self, rows, cols, boards, cell_map, cells)
        self.readings = bytearray(self.matrix.cells)
        self._row = (0, 0)
        self._index = {}
        position = 0
        for board in range(boards):
            for row in range(rows):
                for col in range(cols):
                    self._index[(board, row, col)] = self.matrix.cell_map[position]
                    position += 1

    def row(self, board, row):
        self._row = (board, row)

    def col(self, board, col):
        return self.readings[self._index[(board, self._row[1], col)]]
