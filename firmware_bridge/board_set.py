"""A game on several physical boards, one port each (Alice Chess on two boards side by side):
one script of the whole game played by the hands across the boards, in order.

Each board holds the cells of one board of the variant's geometry, in engine cell order (the
split the controller's sensor map makes for several ports without a layout, and what the
``alice-2x8x8`` layout says): for Alice, board A holds a1..h8, board B a1'..h8'. A board is a
simulated board (:class:`~firmware_bridge.simboard.SimBoard`) or a board emulator
(``firmware_bridge.boards.emulators``) made for those cells; it plays one command at a time,
told in its own sensor numbers.

One hand moves pieces between boards: a piece lifted on board A and put down on board B is the
same piece, so the set keeps the pieces in the hand itself and names the piece of every place
(a board on its own would only know what was lifted from it). Each lift or place waits until its
board has played it (a simulated board: until its firmware has reported it) before the next
command starts, so the host sees the events in the script's order across the ports.

Faults that strike before the N-th action (``@N``) are counted per board, not across the set,
so a set refuses them; line faults (bounce, flips, drops) apply to every board.
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Callable, Sequence
from typing import Any, Self

import engine
from engine import Variant

from .faults import Faults
from .script import Command, Lift, Place, ScriptError, Sleep

#: Longest a board may take to play one command (s); a board that hangs fails the script.
STEP_TIMEOUT_S = 30.0


def board_cells(variant: Variant) -> list[list[int]]:
    """The variant's cells by physical board (its geometry's boards), each in engine order."""
    g = variant.geometry
    return [[c for c in range(g.size) if g.board_of[c] == b] for b in sorted(set(g.board_of))]


def check_set_faults(faults: Faults) -> None:
    if faults.pauses or faults.unplugs or faults.resets or faults.garbage or faults.corrupt:
        raise ScriptError("faults before the N-th action (@N) are counted per board: a set of boards on "
                          "several ports takes only bounce, flip and drop")


class BoardSet:
    """Boards made by ``make(index, cells)``, one per board of ``variant``'s geometry; the same
    surface as one board for ``chessery sim-board``: ``paths``, ``start``, ``stop``,
    ``check_script``, ``start_script``, ``play``, ``done``, ``error``."""

    def __init__(self, variant: Variant | str, make: Callable[[int, list[int]], Any]) -> None:
        self.variant = engine.find_variant(variant) if isinstance(variant, str) else variant
        self.cells = board_cells(self.variant)
        self.boards = [make(i, cells) for i, cells in enumerate(self.cells)]
        #: engine cell -> (board index, sensor on that board)
        self.where = {cell: (i, sensor) for i, cells in enumerate(self.cells) for sensor, cell in enumerate(cells)}
        start = engine.start_position(self.variant).board
        #: The pieces on the boards and in the hand once the scripts started so far are played.
        self._symbols: list[str | None] = [self.variant.symbol(code) if code else None for code in start]
        self._hand: list[str] = []
        self.done = threading.Event()
        self.stopping = threading.Event()
        self.error: BaseException | None = None
        self._thread: threading.Thread | None = None

    @property
    def paths(self) -> list[str]:
        return [board.path for board in self.boards]

    @property
    def path(self) -> str:
        return self.boards[0].path

    def start(self) -> Self:
        for board in self.boards:
            board.start()
        return self

    def stop(self) -> None:
        self.stopping.set()
        if self._thread is not None:
            self._thread.join(2.0)
        for board in self.boards:
            board.stop()

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- the script -----------------------------------------------------------------------------------
    def check_script(self, commands: Sequence[Command], source: str = "script") -> None:
        """Every lift from an occupied cell, every place onto an empty one (across the boards)."""
        self._local(commands, source, list(self._symbols), list(self._hand))

    def _local(self, commands: Sequence[Command], source: str, symbols: list[str | None],
               hand: list[str]) -> list[tuple[int, Command]]:
        """``(board index, command in that board's sensor numbers)`` per command (-1: no board),
        with every place naming its piece: the hand carries pieces from board to board.
        ``symbols`` and ``hand`` are brought to the end of the script."""
        out: list[tuple[int, Command]] = []
        for command in commands:
            if isinstance(command, Lift):
                lifted = symbols[command.cell]
                if lifted is None:
                    raise ScriptError(f"lift {command.name}: the cell is empty", command.line, source)
                hand.append(lifted)
                symbols[command.cell] = None
            elif isinstance(command, Place):
                if symbols[command.cell] is not None:
                    raise ScriptError(f"place {command.name}: the cell is occupied", command.line, source)
                if command.piece is not None:
                    piece = self.variant.symbol(self.variant.parse_symbol(command.piece))
                    if piece in hand:
                        hand.remove(piece)
                elif hand:
                    piece = hand.pop()
                else:
                    raise ScriptError(f"place {command.name}: which piece? nothing was lifted and no PIECE given",
                                      command.line, source)
                symbols[command.cell] = piece
                command = dataclasses.replace(command, piece=piece)
            else:
                out.append((-1, command))
                continue
            board, sensor = self.where[command.cell]
            out.append((board, dataclasses.replace(command, cell=sensor)))
        return out

    def start_script(self, commands: Sequence[Command], wait_for_host: bool = True) -> None:
        symbols, hand = list(self._symbols), list(self._hand)
        steps = self._local(commands, "script", symbols, hand)
        self._symbols, self._hand = symbols, hand
        self.done.clear()
        self._thread = threading.Thread(target=self._play, args=(steps, wait_for_host), name="board set",
                                         daemon=True)
        self._thread.start()

    def play(self, commands: Sequence[Command], timeout: float | None = None, wait_for_host: bool = True) -> None:
        self.start_script(commands, wait_for_host)
        if not self.done.wait(timeout):
            raise TimeoutError(f"script not finished within {timeout} s")
        if self.error is not None:
            raise self.error

    def _play(self, steps: list[tuple[int, Command]], wait_for_host: bool) -> None:
        try:
            if wait_for_host:  # every host has its baseline before the hands start
                for board in self.boards:
                    board.play([], timeout=4 * STEP_TIMEOUT_S)
            for index, command in steps:
                if self.stopping.is_set():
                    return
                if isinstance(command, Sleep):
                    self.stopping.wait(command.ms / 1000)
                elif index >= 0:
                    self.boards[index].play([command], timeout=STEP_TIMEOUT_S, wait_for_host=False)
            self.done.set()
        except BaseException as exc:  # reported through error, like a board's own crash
            self.error = exc
            self.done.set()
