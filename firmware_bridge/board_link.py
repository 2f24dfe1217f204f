"""The board-link interface: what the controller drives, whatever the board speaks.

One board on one serial port is one :class:`BoardLink`. Our own protocol's
:class:`~firmware_bridge.link.Link` and the DGT and Millennium drivers
(:mod:`firmware_bridge.boards`) implement it, through the reconnect loop they share
(:class:`~firmware_bridge.port_link.PortLink`); the controller knows no other link type and never
asks a link what it happens to have (no ``getattr``): what a board said about itself is one
:class:`BoardHello`, whatever the make.

The guarantee every link keeps (see ``firmware_bridge.link`` for how ours keeps it): the events
it delivers on ``events``, applied in order to the board of its latest CONNECTED
:class:`~firmware_bridge.events.LinkStatus`, always give its model of the board, and the model
comes back to the board's true state after any fault.
"""

from __future__ import annotations

import queue
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal, Self

from engine.errors import ChesseryError

from .events import EventQueue, LinkState, LinkStatus

#: How a board light is lit.
LightPattern = Literal["off", "on", "blink", "fast"]
LIGHT_PATTERNS: tuple[LightPattern, ...] = ("off", "on", "blink", "fast")

#: The makes of board a link speaks to (``open_board``'s ``kind``).
BoardKind = Literal["chessery", "dgt", "millennium"]

#: Which side of a chess clock runs (as the clock stands: White's time is on the left).
ClockSide = Literal["left", "right"]


class LinkError(ChesseryError, ConnectionError):
    """The link cannot do what was asked (not connected, or the board did not answer in time)."""


@dataclass(frozen=True)
class BoardHello:
    """What a board said about itself, the same for every make: our firmware's HELLO frame
    (:class:`firmware_bridge.messages.Hello`, the wire message) or what a DGT or Millennium board
    answers about its serial number and version."""

    kind: BoardKind
    #: Cells the board reads.
    cells: int
    #: Whether the board reads which piece stands on a cell, not only that one does.
    identity: bool
    #: Whether the board has lights the host may set.
    lights: bool
    #: The board's scan period (ms) the referee's timing follows (0: reports changes as they
    #: happen, as far as the referee is concerned).
    scan_ms: int = 0
    #: The wait after a piece's report before the referee takes it to have stopped rather than
    #: paused on its way (ms; 0: the referee's own ``drag_ms``), for a board that shows a piece
    #: going on sooner than the referee's default assumes.
    drag_ms: int = 0
    #: The firmware's version as the board says it (``1.0.0``, ``3.1``).
    firmware: str = ""
    board_id: int = 0
    boot_id: int | None = None  # None: the board says nothing of its boots
    serial: str = ""
    heartbeat_ms: int = 1000


class BoardLink(ABC):
    """One board on one serial port, kept in sync whatever the cable does. The attributes below
    are set by every implementation; the methods are the only way the controller acts on it."""

    #: The port's URL as given, and the name the link's messages use.
    url: str
    name: str
    #: Added to every cell number (two boards of one game on two ports).
    cell_offset: int
    #: SensorEvent values in order (and LinkStatus values with ``states_in_events``).
    events: EventQueue
    #: LinkStatus values, one per state change.
    states: queue.Queue[LinkStatus]
    #: (time.monotonic(), events.puts): every byte that reached the port before that moment has
    #: been read and its events queued (the first ``puts`` of them); None before the first read.
    drained: tuple[float, int] | None
    #: Why the link cannot referee the board it reaches ("" when none).
    problem: str
    #: Unix time of the latest state change and of the latest full report (None: none yet).
    state_since: float
    last_snapshot_at: float | None
    #: What the board said about itself (None: nothing yet).
    hello: BoardHello | None

    # -- life cycle -------------------------------------------------------------------------------
    @abstractmethod
    def start(self) -> Self:
        """Start the reader thread (it connects in the background)."""

    @abstractmethod
    def close(self, timeout: float = 2.0) -> None:
        """Stop the reader thread and close the port."""

    # -- what the controller reads ------------------------------------------------------------------
    @property
    @abstractmethod
    def state(self) -> LinkState: ...

    @abstractmethod
    def wait_connected(self, timeout: float | None = None) -> bool:
        """True once the link is in sync with a board (False on timeout or when closed)."""

    @property
    @abstractmethod
    def cells(self) -> int:
        """Cells of the board (0 before its first full report)."""

    @abstractmethod
    def occupancy(self) -> tuple[bool, ...]:
        """The model now, per board cell: occupied or not (may include events still queued)."""

    @abstractmethod
    def pieces(self) -> tuple[str | None, ...]:
        """The model on identity boards: piece text per board cell (None: empty or unknown)."""

    @property
    @abstractmethod
    def stats(self) -> Counter[str]:
        """The link's counters (frames, events, error classes...)."""

    @property
    def scan_ms(self) -> float:
        """How late the board may report a change (ms): a board that reports one scan's changes
        in scan order, up to a scan after they happened (DGT, Millennium); 0 for a board that
        reports each change as it happens."""
        return 0

    # -- commands -----------------------------------------------------------------------------------
    @abstractmethod
    def request_snapshot(self, timeout: float = 2.0) -> tuple[bool, ...]:
        """Ask for the whole board and wait until the model agrees with it (differences arrive
        as synthetic events first); the occupancy. Raises :class:`LinkError`."""

    @abstractmethod
    def ping(self, timeout: float = 1.0) -> float:
        """Round trip to the board (s). Raises :class:`LinkError`."""

    @abstractmethod
    def set_leds(self, cells: Iterable[int], pattern: LightPattern = "on", replace: bool = True) -> None:
        """Light ``cells`` (controller numbering); with ``replace`` every other light goes off.
        Remembered and sent again after a reconnect; nothing is sent to a board without lights."""

    # -- what only some boards do ------------------------------------------------------------------
    # Every link takes these calls and a board without the feature does nothing (the bodies here),
    # so the controller never asks which make of board it drives.
    def expect_position(self, pieces: Sequence[str | None]) -> None:
        """The position a resumed game stands at on this board (its 64 cells, a1 = 0; piece
        letters, None for an empty square), told before the link connects. A board that cannot
        tell from its first report which way round it stands (DGT, Millennium: only the start
        position shows it) reads that report whichever way matches better. A board that knows
        its own orientation (ours: the sensor map fixes it) ignores it."""
        return

    def show_clock(self, left_ms: int, right_ms: int, running: ClockSide | None, move_text: str = "") -> None:
        """Show the referee's clock on a chess clock plugged into the board (a DGT 3000 or XL on
        a DGT board's line): both times in ms, White's on the left, which side runs (None:
        stopped) and the last move (on a clock with letters). A board without such a clock
        ignores it: the referee's clock stays on the screen alone."""
        return
