"""What the link hands the controller: sensor events, link states, piece texts, flicker pairs.

A :class:`SensorEvent` is one cell gaining ("place") or losing ("lift") a piece. Raw events keep
the board's own timestamp (``board_ms``) and the host's ``time.monotonic()`` at reception; events
the link makes up after a reconnect or a sequence gap (the difference between what it knew and
the board's snapshot) are ``synthetic``, have no board time, and come lifts first, then places.

Host-side debounce is deliberately *not* done by the link: the firmware already filters chatter
shorter than its debounce time, and anything slower may be a real, fast move. The link keeps
every raw event; :func:`flicker_pairs` and :func:`without_flicker` are helpers that find a cell
going down and up again (or up and down) within a short window, so the controller can treat
them as noise *when the engine agrees*. They never pair events of different cells, so a fast
reply (the opponent lifting a piece 50 ms after a move) is never merged into the move.
"""

from __future__ import annotations

import enum
import queue
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .firmware import protocol as P

LIFT = "lift"
PLACE = "place"

#: Default window (ms) within which an opposite change on the same cell counts as flicker:
#: longer than a wobbling piece or a piece dragged over a square, shorter than a deliberate
#: lift-and-put-back.
FLICKER_MS = 120


@dataclass(frozen=True)
class SensorEvent:
    """One change of one cell, in the controller's cell numbering."""

    cell: int
    action: str  # LIFT ("up": the cell lost its piece) or PLACE ("down": a piece arrived)
    piece: str | None = None  # see piece_text(); None on occupancy-only boards
    board_ms: int | None = None  # the board's clock (ms since its boot, u32); None when synthetic
    host_time: float = 0.0  # time.monotonic() when the link produced the event
    #: time.monotonic() when the change happened, by the board's stamp (firmware_bridge.board_clock);
    #: None on boards that stamp nothing, and for synthetic events.
    changed_at: float | None = None
    synthetic: bool = False  # made up from a snapshot difference, not reported by the board
    seq: int | None = None  # the frame's sequence number (None when synthetic)

    @property
    def lifted(self) -> bool:
        return self.action == LIFT

    @property
    def placed(self) -> bool:
        return self.action == PLACE

    def __str__(self) -> str:
        piece = f" {self.piece}" if self.piece and self.placed else ""
        return f"{self.action} {self.cell}{piece}{' (synthetic)' if self.synthetic else ''}"


class LinkState(enum.Enum):
    IDLE = "idle"  # created, reader thread not started yet
    CONNECTING = "connecting"  # port open, waiting for the board's HELLO and SNAPSHOT
    CONNECTED = "connected"  # in sync with the board: events flow
    DISCONNECTED = "disconnected"  # no port or a silent board; retrying with back-off
    CLOSED = "closed"  # close() was called, or the URL can never work


@dataclass(frozen=True)
class LinkStatus:
    """A state change, as put on ``Link.states`` (and on ``Link.events`` with
    ``states_in_events``) and passed to ``on_state``.

    ``occupancy`` and ``pieces`` are the link's model of the board *at this change* (per board
    cell; None before the first snapshot and after the board changed its number of cells). Take
    a baseline from the CONNECTED status, not from ``Link.occupancy()`` later: the live model may
    already include events that are still waiting in ``Link.events``, which would then be counted
    twice. The model is the previous status's with every event delivered between the two
    applied, and every event delivered after this status applies on top of it; only
    ``states_in_events`` delivers both in that one order."""

    state: LinkState
    previous: LinkState
    reason: str = ""
    host_time: float = 0.0
    occupancy: tuple[bool, ...] | None = None
    pieces: tuple[str | None, ...] | None = None
    #: Why the board cannot be reached, when the link can tell ("this board speaks protocol
    #: 2, ..."); a status that only names a new problem has ``state == previous``.
    problem: str = ""


# -- piece texts ----------------------------------------------------------------------------------
def piece_text(value: int) -> str | None:
    """The text of a piece byte: the FEN letter for the first two sides (``N``, ``n``), a side
    digit and the letter for more sides (``2N``), None for no piece/unknown/invalid."""
    decoded = P.piece_of_byte(value)
    if decoded is None:
        return None
    side, letter = decoded
    if side == 0:
        return letter
    if side == 1:
        return letter.lower()
    return f"{side}{letter}"


def piece_value(text: str) -> int:
    """Inverse of :func:`piece_text`; raises ValueError."""
    if len(text) == 2 and text[0].isdigit():
        return P.piece_byte(int(text[0]), text[1])
    if len(text) != 1 or not text.isalpha() or not text.isascii():
        raise ValueError(f"not a piece: {text!r}")
    return P.piece_byte(0 if text.isupper() else 1, text.upper())


def piece_for_code(variant, code: int) -> int:
    """The piece byte of an engine piece code (its side and upper-case kind letter)."""
    return P.piece_byte(variant.side_of(code), variant.kinds[variant.kind_of(code)].letter)


def code_for_piece(variant, text: str) -> int:
    """The engine piece code of a piece text from an event; raises ValueError."""
    side, letter = P.piece_of_byte(piece_value(text)) or (0, "")
    if letter not in variant.kind_index or side >= variant.nsides:
        raise ValueError(f"{variant.name}: no piece {text!r}")
    return variant.code(variant.kind_index[letter], side)


# -- flicker ------------------------------------------------------------------------------------
def _time(event: SensorEvent) -> float | None:
    return None if event.synthetic or event.board_ms is None else float(event.board_ms)


def flicker_pairs(events: Sequence[SensorEvent], window_ms: int = FLICKER_MS) -> list[tuple[int, int]]:
    """Index pairs (i, j) of events that cancel out: the same cell, opposite actions, the same
    piece (or both unknown), at most ``window_ms`` apart on the board clock, and no other event
    of that cell in between. Synthetic events are never paired."""
    pairs: list[tuple[int, int]] = []
    last: dict[int, int] = {}  # cell -> index of its latest unpaired event
    for j, event in enumerate(events):
        i = last.get(event.cell)
        if i is not None:
            before = events[i]
            t0, t1 = _time(before), _time(event)
            if (t0 is not None and t1 is not None and before.action != event.action
                    and before.piece == event.piece and 0 <= (t1 - t0) % 2**32 <= window_ms):
                pairs.append((i, j))
                del last[event.cell]
                continue
        last[event.cell] = j
    return pairs


def without_flicker(events: Sequence[SensorEvent], window_ms: int = FLICKER_MS) -> list[SensorEvent]:
    """``events`` minus every flicker pair (see :func:`flicker_pairs`), order kept."""
    drop = {k for pair in flicker_pairs(events, window_ms) for k in pair}
    return [e for k, e in enumerate(events) if k not in drop]


@dataclass(frozen=True)
class Mark:
    """A consumer's own marker on a link's ``events`` queue: it comes out after every event the
    link queued before it (the link never puts one)."""

    name: str


class EventQueue(queue.Queue["SensorEvent | LinkStatus | Mark"]):
    """A link's ``events`` queue, counting what was ever put in (``puts``): with the link's
    ``drained`` mark, a consumer can tell that it has taken everything the link read before a
    moment (see ``controller.service.loop``: a deadline falls due on the board's reports, not on a
    clock that a stalled host got ahead of)."""

    def __init__(self) -> None:
        super().__init__()
        self.puts = 0

    def _put(self, item: Any) -> None:  # (called under the queue's lock)
        self.puts += 1
        super()._put(item)
