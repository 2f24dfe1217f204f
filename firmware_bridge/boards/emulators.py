"""Board emulators: a DGT e-board and a Millennium ChessLink on a real pseudo-terminal, playing
event scripts with each board's own timing, for tests and demos.

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
from typing import ClassVar

import engine

from ..faults import Faults, parse_faults
from ..pty_board import PtyBoard
from ..script import Command, Lift, Place, ScriptError, Sleep, parse_script

log = logging.getLogger(__name__)

TICK_S = 0.001
FEN_ORDER = "PRNBKQprnbkq"  # the DGT piece codes 1..12, in this order


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
        #: time.monotonic() of each message that told the host of a change on the board (benchmarks)
        self.change_reports: list[float] = []
        # A pty has no baud rate: what the board says waits here until the line would have carried
        # it (due time in ms, bytes, whether it reports a change).
        self._line: collections.deque[tuple[float, bytes, bool]] = collections.deque()
        self._line_free = 0.0
        self._reporting_change = False
        self.boots = 0
        self._t0 = time.monotonic()
        self._script: list[Command] | None = None
        self._cursor = 0
        self._actions = 0
        self._wake_at = 0.0
        self._wait_host = True
        self._hand: list[str | None] = []
        self._paused_until = 0.0
        self._corrupt_next = False
        self._fired: set[tuple[str, int]] = set()

    def _square(self, cell: int) -> int:
        square = _wire_of(cell)
        return 63 - square if self.turned else square

    # -- life cycle: path, start, stop, play (PtyBoard's) ----------------------------------------------
    # -- the script -----------------------------------------------------------------------------------
    def start_script(self, script: str | Sequence[Command], wait_for_host: bool = True) -> None:
        commands = parse_script(script, self.variant) if isinstance(script, str) else list(script)
        with self._lock:
            self.check_script(commands)
            self._script = commands
            self._cursor = 0
            self._wait_host = wait_for_host
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
            elif isinstance(command, Place):
                self._actions += 1
                piece = self.variant.symbol(self.variant.parse_symbol(command.piece)) if command.piece else None
                if piece is not None and piece in self._hand:
                    self._hand.remove(piece)
                elif piece is None:
                    piece = self._hand.pop()
                self.physical[self._square(command.cell)] = piece

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
            _, data, change = self._line.popleft()
            if change:
                self.change_reports.append(time.monotonic())
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
        self._line.append((self._line_free, data, change))

    # -- each protocol ------------------------------------------------------------------------------------
    def _boot(self, now: float) -> None:
        self.boots += 1

    def _from_host(self, data: bytes, now: float) -> None:
        raise NotImplementedError

    def _scan(self, now: float) -> None:
        raise NotImplementedError

    def _damage(self, data: bytes) -> bytes:
        raise NotImplementedError


class DgtEmulator(BoardEmulator):
    """A DGT e-board: single-byte commands, messages ``id|0x80, size>>7, size&0x7F, payload``."""

    protocol = "dgt"
    default_scan_ms = 220.0
    bits_per_byte_ms = 10 / 9.6  # 9600 baud, 8N1

    def __init__(self, variant: str = "chess", *, revelation: bool = False, serial: str = "12345", **options) -> None:
        """``revelation``: a Revelation II (square lights, long serial number ``REVII...``)."""
        super().__init__(variant, **options)
        self.revelation = revelation
        self.serial = serial
        self.update_mode = False
        self.lit: set[int] = set()  # squares lit (Revelation II)
        self.led_commands = 0  # SET_LEDS commands received, whatever the board
        self._pending = bytearray()
        self._scan_pos = 0.0  # squares scanned since boot (fractional)
        self._last_scan_at = 0.0

    def _boot(self, now: float) -> None:
        super()._boot(now)
        self.update_mode = False
        self.lit.clear()
        self._pending.clear()
        self._last_scan_at = now

    @staticmethod
    def _message(code: int, payload: bytes) -> bytes:
        size = 3 + len(payload)
        return bytes((0x80 | code, size >> 7, size & 0x7F)) + payload

    def _piece_code(self, piece: str | None) -> int:
        return 0 if piece is None else 1 + FEN_ORDER.index(piece)

    def _from_host(self, data: bytes, now: float) -> None:
        self._pending += data
        while self._pending:
            cmd = self._pending[0]
            if cmd == 0x60:  # SET_LEDS: 0x60 0x04 pattern start end 0x00
                if len(self._pending) < 6:
                    return
                _, _, pattern, start, end, _ = self._pending[:6]
                del self._pending[:6]
                self.led_commands += 1
                if self.revelation:
                    span = set(range(min(start, 63), min(end, 63) + 1))
                    self.lit = self.lit | span if pattern else self.lit - span
                continue
            del self._pending[0]
            if cmd == 0x40:
                self.update_mode = False
            elif cmd == 0x42:
                self._send(self._message(0x06, bytes(self._piece_code(p) for p in self.seen)))
                self.host_ready.set()
            elif cmd in (0x43, 0x44, 0x4B):
                self.update_mode = True
            elif cmd == 0x45:
                self._send(self._message(0x11, self.serial.encode("ascii")[:5].rjust(5, b"0")))
            elif cmd == 0x55:
                text = ("REVII" if self.revelation else "DGTUS") + self.serial.rjust(5, "0")[:5]
                self._send(self._message(0x22, text.encode("ascii")))
            elif cmd == 0x4D:
                self._send(self._message(0x13, bytes((3, 1))))

    def _scan(self, now: float) -> None:
        # The scan walks the squares in wire order, 64 per scan period.
        elapsed = now - self._last_scan_at
        self._last_scan_at = now
        start = self._scan_pos
        self._scan_pos += 64 * elapsed / self.scan_ms
        for i in range(int(start), int(self._scan_pos)):
            square = i % 64
            if self.physical[square] != self.seen[square]:
                self.seen[square] = self.physical[square]
                if self.update_mode:
                    self._reporting_change = True
                    self._send(self._message(0x0E, bytes((square, self._piece_code(self.seen[square])))))

    def _damage(self, data: bytes) -> bytes:
        return data[:-1]  # cut short: the next message's header ends it


class MillenniumEmulator(BoardEmulator):
    """A Millennium ChessLink: ASCII commands and replies, each ending in the XOR of its
    characters as two upper-case hex digits."""

    protocol = "millennium"
    default_scan_ms = 20 * 2.048
    bits_per_byte_ms = 10 / 38.4  # 38400 baud, 7O1
    COMMAND_LENGTHS: ClassVar[dict[str, int]] = {"S": 3, "V": 3, "X": 3, "T": 3, "W": 7, "R": 5, "L": 1 + 2 + 162 + 2}

    def __init__(self, variant: str = "chess", **options) -> None:
        super().__init__(variant, **options)
        self.settings = {0x00: 0, 0x01: 20, 0x02: 0, 0x03: 50, 0x04: 15}
        if options.get("scan_ms"):
            self.settings[0x01] = max(15, round(self.scan_ms / 2.048))
        self.led_patterns = [0] * 81
        self.slot = 0
        self.bad_commands = 0
        self._pending = ""
        self._next_scan = 0.0
        self._reported: list[str | None] | None = None
        self._stable = 0
        self._next_timed = 0.0
        self._last_status = ""

    def _boot(self, now: float) -> None:
        super()._boot(now)
        self.led_patterns = [0] * 81
        self._pending = ""
        self._next_scan = now

    @staticmethod
    def _checked(text: str) -> bytes:
        value = 0
        for byte in text.encode("ascii"):
            value ^= byte
        return (text + format(value, "02X")).encode("ascii")

    def _status(self) -> bytes:
        text = "s" + "".join(p or "." for p in self.seen)
        if text != self._last_status:
            self._last_status = text
            self._reporting_change = True
        return self._checked(text)

    def lit_squares(self) -> set[int]:
        """Squares whose four corner LEDs are all lit in some slot (the lights the driver sets)."""
        out = set()
        for square in range(64):
            file, row = square % 8, square // 8
            corners = [self.led_patterns[f * 9 + r] for f in (file, file + 1) for r in (row, row + 1)]
            if all(corners):
                out.add(square)
        return out

    def _from_host(self, data: bytes, now: float) -> None:
        self._pending += bytes(b & 0x7F for b in data).decode("ascii")
        while self._pending:
            letter = self._pending[0]
            length = self.COMMAND_LENGTHS.get(letter)
            if length is None:
                self._pending = self._pending[1:]
                continue
            if len(self._pending) < length:
                return
            text, check = self._pending[:length - 2], self._pending[length - 2:length]
            if self._checked(text)[-2:].decode() != check.upper():
                self.bad_commands += 1  # the board ignores it
                self._pending = self._pending[1:]
                continue
            self._pending = self._pending[length:]
            self._command(text, now)

    def _command(self, text: str, now: float) -> None:
        letter, data = text[0], text[1:]
        if letter == "S":
            self._send(self._status())
            self.host_ready.set()
        elif letter == "V":
            self._send(self._checked("v0103"))
        elif letter == "X":
            self.led_patterns = [0] * 81
            self._send(self._checked("x"))
        elif letter == "L":
            self.slot = int(data[:2], 16)
            self.led_patterns = [int(data[2 + 2 * i:4 + 2 * i], 16) for i in range(81)]
            self._send(self._checked("l"))
        elif letter == "W":
            address, value = int(data[:2], 16), int(data[2:4], 16)
            if address == 0x01 and value < 15:
                value = 20
            self.settings[address] = value
            self._send(self._checked("w" + data[:4]))
        elif letter == "R":
            address = int(data[:2], 16)
            self._send(self._checked(f"r{data[:2]}{self.settings.get(address, 0):02X}"))
        elif letter == "T":
            self._boot(now)

    def _scan(self, now: float) -> None:
        if now < self._next_scan:
            return
        self._next_scan = now + self.settings[0x01] * 2.048
        changed = self.seen != self.physical
        self.seen = list(self.physical)
        mode = self.settings[0x02] & 0x07
        if mode == 0:
            self._send(self._status())
        elif mode == 2:
            if now >= self._next_timed:
                self._next_timed = now + self.settings[0x03] * 4.096
                self._send(self._status())
        elif mode >= 3:
            self._stable = 0 if changed else self._stable + 1
            need = 0 if mode == 3 else mode - 2  # scans the board must stay unchanged
            if self._reported != self.seen and self._stable >= need:
                self._reported = list(self.seen)
                self._send(self._status())

    def _damage(self, data: bytes) -> bytes:
        last = data[-1:]
        return data[:-1] + (b"0" if last != b"0" else b"1")  # a wrong check digit


EMULATORS = {"dgt": DgtEmulator, "millennium": MillenniumEmulator}
