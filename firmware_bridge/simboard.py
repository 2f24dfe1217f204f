"""A simulated sensor board on a real pseudo-terminal, running the reference firmware's code.

    board = SimBoard("chess", identity=True).start()
    print(board.path)                       # what the host opens (a stable symlink to the pty)
    board.play(parse_script(text, "chess"), timeout=10)
    board.stop()

One thread plays the part of the microcontroller: every millisecond it lets the script move
pieces in a virtual sensor matrix and calls the firmware's own loop body,
:meth:`firmware_bridge.firmware.app.FirmwareApp.step`, which scans that matrix through
:class:`~firmware_bridge.firmware.matrix.Matrix`, debounces, encodes and answers the host. So a
host tested against this board is tested against the firmware's code.

Each lift/place of the script waits until the firmware has reported it before the next one
starts, so the events come out in script order even when a later cell is scanned first. By
default the script starts once the host has connected (the board has answered its first
REQUEST_SNAPSHOT), so nothing happens before the host has its baseline.

Sensor index = engine cell index. The board starts with the variant's start position (piece
bytes from ``variant.symbol`` on identity boards), or empty with ``empty=True``. Faults: see
:mod:`firmware_bridge.faults`.
"""

from __future__ import annotations

import collections
import logging
import math
import random
import time
from collections.abc import Callable, Sequence

import engine
from engine import Variant
from engine.pictures import physical_codes

from .events import piece_for_code, piece_text
from .faults import Faults, parse_faults
from .firmware.app import FirmwareApp
from .firmware.matrix import VirtualPins
from .frame_faults import EventFrameFaults
from .pty_board import PtyBoard
from .script import Command, Lift, Place, ScriptError, Sleep, parse_script
from .virtual_port import PtyPort

log = logging.getLogger(__name__)

TICK_S = 0.001


class FaultyPort:
    """Wraps the pty: bit flips and dropped bytes on what the board sends, and EVENT frames
    resent or destroyed (``frames``)."""

    def __init__(self, port: PtyPort, faults: Faults, rng: random.Random) -> None:
        self.port = port
        self.faults = faults
        self.rng = rng
        self.flipped = 0
        self.dropped = 0
        self.frames = EventFrameFaults(rng)

    def read(self) -> bytes:
        return self.port.read()

    def write(self, data: bytes) -> None:
        data = self.frames.apply(data)
        flip, drop, rng = self.faults.flip, self.faults.drop, self.rng
        if flip or drop:
            out = bytearray()
            for byte in data:
                if drop and rng.random() < drop:
                    self.dropped += 1
                    continue
                if flip and rng.random() < flip:
                    byte ^= 1 << rng.randrange(8)
                    self.flipped += 1
                out.append(byte)
            data = bytes(out)
        self.port.write(data)


def matrix_layout(variant: Variant) -> VirtualPins:
    """A virtual matrix for the variant: two matrices for a two-board game, else one matrix
    as square as it gets (13 x 13 for 169 cells); positions follow engine cell order."""
    geometry = variant.geometry
    n = geometry.size
    if n > 256:
        raise ValueError(f"{variant.name} has {n} cells; the protocol serves up to 256")
    boards = sorted(set(geometry.board_of))
    per_board = [[c for c in range(n) if geometry.board_of[c] == b] for b in boards]
    if len(boards) == 2 and len(per_board[0]) == len(per_board[1]) and len(per_board[0]) <= 256:
        side = math.ceil(math.sqrt(len(per_board[0])))
        rows, cols = math.ceil(len(per_board[0]) / side), side
        cell_map = []
        for cells in per_board:
            cell_map += cells + [-1] * (rows * cols - len(cells))
        return VirtualPins(rows, cols, 2, cell_map)
    side = math.ceil(math.sqrt(n))
    return VirtualPins(math.ceil(n / side), side, 1, cells=n)


class SimBoard(PtyBoard[int]):
    def __init__(
        self,
        variant: Variant | str,
        *,
        identity: bool = False,
        empty: bool = False,
        faults: Faults | str | None = None,
        seed: int = 0,
        link_path: str | None = None,
        scan_ms: int = 2,
        debounce_ms: int = 10,
        heartbeat_ms: int = 250,
        board_id: int = 0x51B0A4D1,
        on_command: Callable[[Command], None] | None = None,
        cells: Sequence[int] | None = None,
    ) -> None:
        """``link_path``: where the stable symlink goes (default: a new temporary directory).
        ``scan_ms``, ``debounce_ms``, ``heartbeat_ms``: the firmware's parameters at boot.
        ``on_command(command)`` is called on the board thread as each script command starts
        (``choose`` lines included, which the board otherwise ignores), so a replay tool can
        hand answers to the controller in step; it must not block. ``cells``: the board holds
        only these cells of the variant, sensor ``i`` under ``cells[i]`` (one board of a set on
        several ports, :mod:`firmware_bridge.board_set`); scripts then name sensors, not cells."""
        self.variant = engine.find_variant(variant) if isinstance(variant, str) else variant
        self.identity = identity
        self.faults = parse_faults(faults) if isinstance(faults, str) or faults is None else faults
        self.rng = random.Random(seed)
        held = list(range(self.variant.geometry.size)) if cells is None else list(cells)
        if cells is None:
            self.pins = matrix_layout(self.variant)
        else:
            side = math.ceil(math.sqrt(len(held)))
            self.pins = VirtualPins(math.ceil(len(held) / side), side, 1, cells=len(held))
        self.cells = self.pins.matrix.cells
        if not empty:
            board = engine.start_position(self.variant).board
            # an identity board reads the physical man (a ringed rook is a rook to its sensors)
            look = physical_codes(self.variant)
            for sensor, cell in enumerate(held):
                code = board[cell]
                if code:
                    if look is not None:
                        code = look[code]
                    self.pins.readings[sensor] = piece_for_code(self.variant, code) if identity else 1
        self.options = {"scan_ms": scan_ms, "debounce_ms": debounce_ms, "heartbeat_ms": heartbeat_ms,
                        "board_id": board_id, "identity": identity, "leds": True}
        super().__init__(link_path)
        self.faulty = FaultyPort(self.port, self.faults, self.rng)
        self.on_command = on_command
        self._t0 = time.monotonic()
        self._app: FirmwareApp | None = None
        self._boot_at = 0
        self.boots = 0
        self._paused_until = 0
        self._script: list[Command] | None = None
        self._cursor = 0
        self._actions = 0
        self._steps: collections.deque[tuple[int, int, int, bool]] = collections.deque()
        self._step: tuple[int, int, int, bool] | None = None  # cell, value, hold until, wait reported
        self._wake_at = 0
        self._wait_host = True
        self._hand: list[int] = []
        self._fired: set[tuple[str, int]] = set()

    # -- life cycle (path, start, stop: PtyBoard's) -----------------------------------------------------
    @property
    def pty_path(self) -> str | None:
        """The current pty's own path (changes after an unplug)."""
        return self.port.pty_path

    # -- the script -------------------------------------------------------------------------------
    def start_script(self, script: str | Sequence[Command], wait_for_host: bool = True) -> None:
        """Begin playing a script (text, or commands from parse_script) in the board thread;
        ``done`` is set at the end. Raises ScriptError first if the script cannot be played from
        the current position."""
        commands = parse_script(script, self.variant) if isinstance(script, str) else list(script)
        with self._lock:
            self.check_script(commands)
            self._script = commands
            self._cursor = 0
            self._actions = 0
            self._fired.clear()
            self._wait_host = wait_for_host
            self.done.clear()

    def check_script(self, commands: Sequence[Command], source: str = "script") -> None:
        """Dry run: every lift from an occupied cell, every place onto an empty one, and on an
        identity board a piece for every place. Raises ScriptError naming the line."""
        occupied = [bool(r) for r in self.pins.readings]
        hand = 0
        for command in commands:
            if isinstance(command, Lift):
                if not occupied[command.cell]:
                    raise ScriptError(f"lift {command.name}: the cell is empty", command.line, source)
                occupied[command.cell] = False
                hand += 1
            elif isinstance(command, Place):
                if occupied[command.cell]:
                    raise ScriptError(f"place {command.name}: the cell is occupied", command.line, source)
                occupied[command.cell] = True
                if command.piece is None and self.identity and hand == 0:
                    raise ScriptError(f"place {command.name}: which piece? nothing was lifted and no PIECE given",
                                      command.line, source)
                hand = max(0, hand - 1)

    # -- what the board holds ------------------------------------------------------------------------
    def occupancy(self) -> tuple[bool, ...]:
        """The physical truth: which sensors see a piece now."""
        with self._lock:
            return tuple(bool(r) for r in self.pins.readings)

    def pieces(self) -> tuple[str | None, ...]:
        """Piece text per cell as an identity board reads it (None: empty or no identity)."""
        with self._lock:
            return tuple(piece_text(r) for r in self.pins.readings)

    def leds(self) -> bytes:
        """The firmware's light pattern per cell (protocol.LED_*); empty while unplugged."""
        with self._lock:
            return bytes(self._app.core.leds.patterns) if self._app is not None else b""

    @property
    def core(self):
        """The firmware core now running (None while unplugged)."""
        return self._app.core if self._app is not None else None

    # -- the board thread ------------------------------------------------------------------------------
    def _now(self) -> int:
        return int((time.monotonic() - self._t0) * 1000)

    def _boot(self, now: int) -> None:
        self.boots += 1
        self._boot_at = now
        boot_id = self.rng.getrandbits(16)
        self._app = FirmwareApp.boot(self.pins.matrix, self.faulty, 0, boot_id=boot_id, **self.options)

    def _thread_name(self) -> str:
        return f"sim board {self.path}"

    def _tick(self, now: int) -> None:
        self._play(now)
        if self._app is not None and now >= self._paused_until:
            self._app.step(now - self._boot_at)

    def _reported(self, cell: int) -> int:
        assert self._app is not None
        return self._app.core.debouncer.state[cell]

    def _play(self, now: int) -> None:
        if self._script is None or self.done.is_set():
            return
        if self._wait_host:
            if self._app is None or self._app.core.snapshots_sent == 0:
                return
            self._wait_host = False
        while True:
            if self._step is not None:
                cell, value, hold_until, wait_reported = self._step
                if now < hold_until:
                    return
                running = self._app is not None and now >= self._paused_until
                if wait_reported and running and self._reported(cell) != value:
                    return
                self._step = None
            if self._steps:
                cell, value, hold_ms, wait_reported = self._steps.popleft()
                self.pins.readings[cell] = value
                self._step = (cell, value, now + hold_ms, wait_reported)
                continue
            if now < self._wake_at:
                return
            if self._cursor >= len(self._script):
                if self._replug_at is None:  # done only once the board is back
                    self.done.set()
                return
            command = self._script[self._cursor]
            if isinstance(command, Lift | Place) and self._inject(self._actions + 1, now):
                return
            self._cursor += 1
            if self.on_command is not None:
                self.on_command(command)
            if isinstance(command, Sleep):
                self._wake_at = now + command.ms
                return
            if isinstance(command, Lift | Place):
                self._actions += 1
                self._queue_action(command)

    def _inject(self, action: int, now: int) -> bool:
        """Faults due before the action numbered ``action``; True when the board must wait."""
        f = self.faults
        if action in f.resets and ("reset", action) not in self._fired:
            self._fired.add(("reset", action))
            log.info("fault: board reset before action %d", action)
            if self._app is not None:
                self._boot(now)
        if action in f.unplugs and ("unplug", action) not in self._fired:
            self._fired.add(("unplug", action))
            log.info("fault: unplugged for %d ms before action %d", f.unplugs[action], action)
            self.port.unplug()
            self._app = None
            self._replug_at = now + f.unplugs[action]
        if action in f.resends and ("resend", action) not in self._fired:
            self._fired.add(("resend", action))
            self.faulty.frames.resend_ms = f.resends[action]
        if action in f.smashes and ("smash", action) not in self._fired:
            self._fired.add(("smash", action))
            self.faulty.frames.smash_bytes = f.smashes[action]
        if action in f.pauses and ("pause", action) not in self._fired:
            self._fired.add(("pause", action))
            ms = f.pauses[action]
            ms = 5 * int(self.options["heartbeat_ms"]) if ms is None else ms
            log.info("fault: board paused for %d ms before action %d", ms, action)
            self._paused_until = now + ms
            self._wake_at = self._paused_until
            return True
        return False

    def _queue_action(self, command: Lift | Place) -> None:
        cell = command.cell
        old = self.pins.readings[cell]
        if isinstance(command, Lift):
            target = 0
            self._hand.append(old)
        elif not self.identity:
            target = 1
        elif command.piece is not None:
            target = piece_for_code(self.variant, self.variant.parse_symbol(command.piece))
            if target in self._hand:
                self._hand.remove(target)
        else:
            target = self._hand.pop()
        bounce = self.faults.bounce_ms
        debounce = int(self.options["debounce_ms"])
        if bounce is None:
            self._steps.append((cell, target, 0, True))
        elif bounce < debounce:  # chatter the firmware must swallow
            glitch = bounce or max(1, debounce // 4)
            for _ in range(self.rng.randint(1, 3)):
                self._steps.append((cell, target, glitch, False))
                self._steps.append((cell, old, glitch, False))
            self._steps.append((cell, target, 0, True))
        else:  # flicker long enough to be reported: the host sees it
            self._steps.append((cell, target, bounce, True))
            self._steps.append((cell, old, bounce, True))
            self._steps.append((cell, target, 0, True))
