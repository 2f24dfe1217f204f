"""What the board emulators share (``emulators``: a DGT e-board and a Millennium ChessLink on a real
pseudo-terminal, playing event scripts with each board's own timing, for tests and demos).

They are written from the makers' protocol descriptions (docs/boards.md), deliberately *not*
from the drivers' codecs (nothing here imports them): a misreading shared by both would
otherwise pass every test.

* DGT: the board scans its squares one after another, a full scan every ``scan_ms`` (220 by
  default); a square found changed is reported by a field update when the host has asked for
  update mode, so the updates of one move come in scan order, and a piece dragged fast across
  the board may or may not be seen on the squares it passed. A dump reports the board as last
  scanned.
* Millennium: the whole board is scanned every scan time (setting 1, 20 x 2.048 ms = 41 ms by
  default) and reported according to setting 2 (every scan, on change, on change after N stable
  scans). Commands with a wrong check are ignored, as the board does.

What the board sends takes the time its line would take (9600 baud: a DGT dump 70 ms; 38400:
a Millennium status 17 ms). Scripts are played in real time: lift and place change the physical board at once, ``sleep``
waits, ``choose`` is ignored. By default the script starts once the host has read the board.
Faults (the ``--faults`` syntax): flip, drop, pause (silence), unplug, garbage, corrupt; reset
restarts the board (DGT: back to idle mode; Millennium: lights off).
"""

from __future__ import annotations

import collections
import logging
import random
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass

import engine

from ..faults import Faults, parse_faults
from ..pty_board import PtyBoard
from ..script import Command, Lift, Place, ScriptError, Sleep, parse_script


@dataclass
class LineEntry:
    """One message the board sent, as the line carried it (``time.monotonic()`` seconds): for
    benchmarks that take a latency apart."""

    queued: float
    due: float  # when the line would have carried its last byte (the model's time, not measured)
    written: float | None  # when it went to the pty (None: still waiting for the line)
    head: bytes  # its first five bytes
    change: bool  # whether it told the host of a change on the board

log = logging.getLogger(__name__)

TICK_S = 0.001


def _wire_of(cell: int) -> int:
    """Engine cell of an 8x8 game (a1 = 0, rank by rank) -> square numbered from a8 (a8 = 0)."""
    rank, file = divmod(cell, 8)
    return 8 * (7 - rank) + file


class BoardEmulator(PtyBoard[float]):
    protocol = ""
    default_scan_ms = 0.0
    bits_per_byte_ms = 0.0  # line time of one byte: start bit, data, parity, stop bit at the baud rate

    def __init__(self, variant: str = "chess", *, faults: Faults | str | None = None, seed: int = 0,
                 link_path: str | None = None, scan_ms: float | None = None, turned: bool = False,
                 empty: bool = False, cells: Sequence[int] | None = None) -> None:
        """``turned``: the board stands turned round (its a8 corner where h1 belongs). ``cells``:
        the 64 cells of the variant this board holds, a1 to h8 rank by rank (one board of a set
        on several ports, ``firmware_bridge.board_set``); scripts then name squares 0-63."""
        self.variant = engine.find_variant(variant)
        held = list(range(self.variant.geometry.size)) if cells is None else list(cells)
        if len(held) != 64:
            raise ValueError(f"{self.variant.name} has {len(held)} cells; "
                             f"a {self.protocol} board has 64 squares")
        self.faults = parse_faults(faults) if isinstance(faults, str) or faults is None else faults
        self.rng = random.Random(seed)
        self.scan_ms = float(scan_ms or self.default_scan_ms)
        self.turned = turned
        #: The pieces on the board, by the board's own square numbers (0 = a8 as wired).
        self.physical: list[str | None] = [None] * 64
        if not empty:
            start = engine.start_position(self.variant)
            for square, cell in enumerate(held):
                code = start.board[cell]
                if code:
                    self.physical[self._square(square)] = self.variant.symbol(code)
        self.seen = list(self.physical)  # the board as last scanned
        super().__init__(link_path)
        self.host_ready = threading.Event()
        self.sent: list[bytes] = []  # every message sent, for tests
        #: What went over the line, for benchmarks that take a latency apart: each message sent;
        #: per host command read, (time.monotonic(), bytes); per hand action played,
        #: (time.monotonic(), square, piece).
        self.line_log: list[LineEntry] = []
        self.host_log: list[tuple[float, bytes]] = []
        self.hand_log: list[tuple[float, int, str | None]] = []
        # A pty has no baud rate: what the board says waits here until the line would have carried
        # it (due time in ms, bytes, its log entry).
        self._line: collections.deque[tuple[float, bytes, LineEntry]] = collections.deque()
        self._line_free = 0.0
        self._reporting_change = False
        self.boots = 0
        self._t0 = time.monotonic()
        self._script: list[Command] | None = None
        self._cursor = 0
        self._actions = 0
        self._wake_at = 0.0
        self._wait_host = True
        self._at_square: int | None = None
        self._hand: list[str | None] = []
        self._paused_until = 0.0
        self._corrupt_next = False
        self._fired: set[tuple[str, int]] = set()

    def _square(self, cell: int) -> int:
        square = _wire_of(cell)
        return 63 - square if self.turned else square

    # -- life cycle: path, start, stop, play (PtyBoard's) ----------------------------------------------
    # -- the script -----------------------------------------------------------------------------------
    def start_script(self, script: str | Sequence[Command], wait_for_host: bool = True,
                     at_square: int | None = None) -> None:
        """``at_square``: start when the scan next reaches this square (wire number, a8 = 0) on
        a board that scans its squares in turn, so that a test knows which change of a scan the
        board reports first."""
        commands = parse_script(script, self.variant) if isinstance(script, str) else list(script)
        with self._lock:
            self.check_script(commands)
            self._script = commands
            self._cursor = 0
            self._wait_host = wait_for_host
            self._at_square = at_square
            self._wake_at = 0.0
            self.done.clear()

    def check_script(self, commands: Sequence[Command], source: str = "script") -> None:
        """Every lift from an occupied square, every place onto an empty one with a piece to put."""
        with self._lock:
            occupied = [p is not None for p in self.physical]
        hand = len(self._hand)
        for command in commands:
            if isinstance(command, Lift):
                square = self._square(command.cell)
                if not occupied[square]:
                    raise ScriptError(f"lift {command.name}: the square is empty", command.line, source)
                occupied[square] = False
                hand += 1
            elif isinstance(command, Place):
                square = self._square(command.cell)
                if occupied[square]:
                    raise ScriptError(f"place {command.name}: the square is occupied", command.line, source)
                if command.piece is None and hand == 0:
                    raise ScriptError(f"place {command.name}: which piece? nothing was lifted and no PIECE given",
                                      command.line, source)
                occupied[square] = True
                hand = max(0, hand - 1)

    def pieces(self) -> list[str | None]:
        """The physical board by the board's own square numbers."""
        with self._lock:
            return list(self.physical)

    @property
    def change_reports(self) -> list[float]:
        """When each message that told the host of a change went to the pty (benchmarks). The
        line is first in, first out, so these are in the order the host read them."""
        return [e.written for e in list(self.line_log) if e.change and e.written is not None]

    # -- the board thread -------------------------------------------------------------------------------
    def _now(self) -> float:
        return (time.monotonic() - self._t0) * 1000

    def _thread_name(self) -> str:
        return f"{self.protocol} emulator"

    def _tick(self, now: float) -> None:
        self._play(now)
        self._flush(now)
        if self.port.plugged and now >= self._paused_until:
            data = self.port.read()
            if data:
                self.host_log.append((time.monotonic(), data))
                self._from_host(data, now)
            self._scan(now)

    def _play(self, now: float) -> None:
        if self._script is None or self.done.is_set():
            return
        if self._wait_host:
            if not self.host_ready.is_set():
                return
            self._wait_host = False
            self._wake_at = now
        if self._at_square is not None:
            if not self._scan_reached(self._at_square):
                return
            self._at_square = None
            self._wake_at = now
        while now >= self._wake_at:
            if self._cursor >= len(self._script):
                if self._replug_at is None:
                    self.done.set()
                return
            command = self._script[self._cursor]
            if isinstance(command, Lift | Place):
                self._inject(self._actions + 1, now)
            self._cursor += 1
            if isinstance(command, Sleep):
                self._wake_at = now + command.ms
            elif isinstance(command, Lift):
                self._actions += 1
                square = self._square(command.cell)
                self._hand.append(self.physical[square])
                self.physical[square] = None
                self.hand_log.append((time.monotonic(), square, None))
            elif isinstance(command, Place):
                self._actions += 1
                piece = self.variant.symbol(self.variant.parse_symbol(command.piece)) if command.piece else None
                if piece is not None and piece in self._hand:
                    self._hand.remove(piece)
                elif piece is None:
                    piece = self._hand.pop()
                self.physical[self._square(command.cell)] = piece
                self.hand_log.append((time.monotonic(), self._square(command.cell), piece))

    def _inject(self, action: int, now: float) -> None:
        f = self.faults
        for kind, table in (("garbage", f.garbage), ("corrupt", f.corrupt), ("reset", f.resets),
                            ("unplug", f.unplugs), ("pause", f.pauses)):
            if action not in table or (kind, action) in self._fired:
                continue
            self._fired.add((kind, action))
            log.info("fault: %s before action %d", kind, action)
            if kind == "garbage":
                self.port.write(bytes(self.rng.randrange(256) for _ in range(f.garbage[action])))
            elif kind == "corrupt":
                self._corrupt_next = True
            elif kind == "reset":
                self._boot(now)
            elif kind == "unplug":
                self.port.unplug()
                self._line.clear()
                self._replug_at = now + f.unplugs[action]
            elif kind == "pause":
                ms = f.pauses[action]
                self._paused_until = now + (3500 if ms is None else ms)

    def _flush(self, now: float) -> None:
        while self._line and self._line[0][0] <= now:
            _, data, entry = self._line.popleft()
            entry.written = time.monotonic()
            self.port.write(data)

    def _send(self, data: bytes) -> None:
        """Everything the board says goes through here: byte faults, a damaged message on request,
        the line's speed."""
        self.sent.append(data)
        change, self._reporting_change = self._reporting_change, False
        if self._corrupt_next:
            self._corrupt_next = False
            data = self._damage(data)
        f = self.faults
        if f.flip or f.drop:
            out = bytearray()
            for byte in data:
                if f.drop and self.rng.random() < f.drop:
                    continue
                if f.flip and self.rng.random() < f.flip:
                    byte ^= 1 << self.rng.randrange(8)
                out.append(byte)
            data = bytes(out)
        if not self.port.plugged:
            return
        now = self._now()
        self._line_free = max(now, self._line_free) + len(data) * self.bits_per_byte_ms
        entry = LineEntry(time.monotonic(), self._t0 + self._line_free / 1000, None, data[:5], change)
        self.line_log.append(entry)
        self._line.append((self._line_free, data, entry))

    # -- each protocol ------------------------------------------------------------------------------------
    def _boot(self, now: float) -> None:
        self.boots += 1

    def _from_host(self, data: bytes, now: float) -> None:
        raise NotImplementedError

    def _scan(self, now: float) -> None:
        raise NotImplementedError

    def _scan_reached(self, square: int) -> bool:
        """Whether the scan has just reached ``square`` (a board that scans its squares in turn)."""
        return True

    def _damage(self, data: bytes) -> bytes:
        raise NotImplementedError
