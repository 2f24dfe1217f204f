"""The protocol's messages as typed values (host side).

Each frame decodes to one of these; ``seq`` is the frame's sequence number. Wire layouts live in
:mod:`firmware_bridge.firmware.protocol` (shared with the board) and docs/protocol.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .firmware import protocol as P


@dataclass(frozen=True)
class Hello:
    """Board -> host at boot and in answer to PING or SET_PARAMS."""

    board_id: int
    cells: int
    caps: int
    firmware: tuple[int, int, int]
    boot_id: int
    heartbeat_ms: int
    scan_ms: int
    debounce_ms: int
    token: int = 0
    protocol: int = P.VERSION
    seq: int = 0

    @property
    def identity(self) -> bool:
        return bool(self.caps & P.CAP_IDENTITY)

    @property
    def leds(self) -> bool:
        return bool(self.caps & P.CAP_LEDS)


@dataclass(frozen=True)
class Event:
    """Board -> host: a debounced change of one cell. ``piece`` is the piece byte (0: none)."""

    cell: int
    action: int  # P.ACTION_LIFT or P.ACTION_PLACE
    piece: int
    time_ms: int
    seq: int = 0


@dataclass(frozen=True)
class Snapshot:
    """Board -> host: every cell. ``states[cell]``: 0 empty, 1 occupied, or a piece byte."""

    time_ms: int
    identity: bool
    states: bytes
    seq: int = 0

    @property
    def cells(self) -> int:
        return len(self.states)


@dataclass(frozen=True)
class Heartbeat:
    time_ms: int
    boot_id: int
    seq: int = 0


@dataclass(frozen=True)
class Error:
    """Board -> host: ``code`` (P.ERR_*) about the host frame ``ref_seq`` (P.NO_SEQ: none)."""

    code: int
    ref_seq: int = P.NO_SEQ
    seq: int = 0

    @property
    def name(self) -> str:
        return P.ERROR_NAMES.get(self.code, f"error {self.code}")


@dataclass(frozen=True)
class RequestSnapshot:
    seq: int = 0


@dataclass(frozen=True)
class SetLeds:
    pattern: int
    cells: tuple[int, ...] = field(default=())
    replace: bool = True
    seq: int = 0


@dataclass(frozen=True)
class Ping:
    token: int
    seq: int = 0


@dataclass(frozen=True)
class SetParams:
    """``P.KEEP`` (0xFFFF) leaves a parameter as it is."""

    scan_ms: int = P.KEEP
    debounce_ms: int = P.KEEP
    heartbeat_ms: int = P.KEEP
    seq: int = 0


Message = Hello | Event | Snapshot | Heartbeat | Error | RequestSnapshot | SetLeds | Ping | SetParams
BoardMessage = Hello | Event | Snapshot | Heartbeat | Error
HostMessage = RequestSnapshot | SetLeds | Ping | SetParams
