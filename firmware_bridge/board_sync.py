"""The host link's model of our board, kept in sync from the board's numbered frames.

The link (:class:`~firmware_bridge.link.Link`) keeps a model of the board (which cells are
occupied, by which piece on identity boards) and guarantees: *the events it delivers, applied in
order to the first snapshot, always give the model; and the model comes back to the board's true
state after any fault*. This module holds that model and the rules that keep the guarantee:

* a sequence gap (a frame lost to noise), an ERROR OVERFLOW from the board, a board reset, or an
  event that does not fit the model (a lift from an empty cell) makes the link request a
  snapshot, and further events are held back until it arrives. The snapshot minus the held
  events is the state just before them: the differences up to there come first as
  ``synthetic`` events (lifts, then places), then the held events in order, so a lost change is
  reported where it happened;
* an event that still does not fit the model is not delivered (counted as ``inconsistent``);
* a frame under a number handled a moment ago is a repeat, never delivered twice
  (:mod:`firmware_bridge.repeats`).

No port, no thread, no lock of its own: the link calls it from its reader thread with its lock
held, and hands it two callbacks, one that delivers an event and one that asks for a snapshot.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable

from .events import LIFT, PLACE
from .firmware import protocol as P
from .messages import Event, Heartbeat, Hello, Message
from .repeats import RecentFrames, Repeat

#: The link's logger: what the model's rules log is the link's story (one name to configure).
log = logging.getLogger("firmware_bridge.link")

#: Delivers one change of the model: (board cell, LIFT or PLACE, piece code, host time, the
#: board's event, or None for a synthetic one).
Deliver = Callable[[int, str, int, float, Event | None], None]


class BoardSync:
    def __init__(self, name: str, counts: Counter[str], deliver: Deliver,
                 ask_snapshot: Callable[[float], None]) -> None:
        """``counts``: the link's counters (resets, gaps, inconsistent, duplicates, reused_seq);
        ``ask_snapshot(now)``: ask the board for a snapshot unless one is asked already."""
        self.name = name
        self.counts = counts
        self._deliver = deliver
        self._ask_snapshot = ask_snapshot
        #: Per board cell: 0 empty, else the piece code (1 on occupancy boards); None before
        #: the first snapshot.
        self.model: bytearray | None = None
        #: Events waiting for a snapshot after a loss, with the time they arrived.
        self.held: list[tuple[Event, float]] | None = None
        self._boot_id: int | None = None
        self._expected_seq: int | None = None
        self._recent = RecentFrames()  # the latest frames by number: a repeat is not a new event

    def new_session(self) -> bool:
        """A new connection: the held events go out (those that fit); the numbering starts
        afresh. True when events were released."""
        released = self.held is not None
        if released:
            self.release_held()
        self._expected_seq = None
        self._recent.clear()
        return released

    # -- numbering ------------------------------------------------------------------------------------
    def board_reset(self, message: Message, now: float) -> bool:
        """True when ``message`` (a HELLO or HEARTBEAT) names a new boot id: the board was reset.
        Its numbering starts again, and a snapshot is asked for (the lost changes come first)."""
        boot_id = message.boot_id if isinstance(message, Hello | Heartbeat) else None
        if boot_id is None:
            return False
        reset = self._boot_id is not None and boot_id != self._boot_id
        if reset:
            self.counts["resets"] += 1
            log.warning("%s: the board was reset (boot id %04x -> %04x); resynchronising",
                        self.name, self._boot_id, boot_id)
            self._expected_seq = None
            self._recent.clear()
            self.hold(now)
        self._boot_id = boot_id
        return reset

    def in_order(self, message: Message, now: float) -> bool:
        """Whether ``message`` is to be handled: False for a repeat (counted, never delivered
        again). A gap in the numbering holds events back until a snapshot comes."""
        repeat = self._recent.check(message, self._expected_seq)
        if repeat is not Repeat.NEW:
            self.counts[repeat.value] += 1
            if repeat is Repeat.REUSED:
                log.warning("%s: frame %d came again with other content (%s); the first one stands, this one "
                            "is dropped", self.name, message.seq, message)
            return False
        self._recent.note(message)
        if self._expected_seq is not None and message.seq != self._expected_seq:
            self.counts["gaps"] += 1
            log.info("%s: sequence gap (expected %d, got %d); requesting a snapshot",
                     self.name, self._expected_seq, message.seq)
            self.hold(now)
        self._expected_seq = (message.seq + 1) & 0xFFFF
        return True

    # -- the model ------------------------------------------------------------------------------------
    def resized(self, cells: int) -> bool:
        """The board now announces ``cells`` cells, another count than the model's: the model
        is dropped (True), and the next snapshot starts a new one."""
        if self.model is None or cells == len(self.model):
            return False
        log.warning("%s: the board now has %d cells (was %d); starting from its next snapshot",
                    self.name, cells, len(self.model))
        self.model = None
        return True

    def event(self, event: Event, now: float) -> None:
        """A change the board reported (after the first snapshot): held while a snapshot is
        awaited; one that does not fit the model asks for a snapshot and waits for it too."""
        if self.held is None and not self._fits(event):
            log.info("%s: %s of cell %d does not fit the model; requesting a snapshot", self.name,
                     "lift" if event.action == P.ACTION_LIFT else "place", event.cell)
            self.hold(now)
        if self.held is not None:
            self.held.append((event, now))
        else:
            self._apply(event, now)

    def hold(self, now: float) -> None:
        """Something was lost: ask for a snapshot and hold events back until it comes, so that
        the lost changes can be reported *before* the events that followed them. A snapshot
        already asked for covers this loss too (the lost frame was sent before it), so a noisy
        line costs one question, not one per gap."""
        if self.model is not None and self.held is None:
            self.held = []
        self._ask_snapshot(now)

    def snapshot(self, states: bytes, now: float) -> None:
        """The board's every cell: the model adopts it, reporting the differences."""
        if self.model is None or len(self.model) != len(states):
            self.model = bytearray(states)
            self.held = None
            return
        # The snapshot includes the held events (they were sent before it). Undo them to get the
        # state just before them, report the lost changes up to there, then the held events
        # themselves, then whatever still differs.
        held = self.held or []
        before = bytearray(states)
        for event, _ in reversed(held):
            if event.cell < len(before):
                before[event.cell] = (event.piece or 1) if event.action == P.ACTION_LIFT else 0
        self._reconcile(before, now)
        self.release_held()
        self._reconcile(states, now)

    def release_held(self) -> None:
        """Deliver the held events that fit the model; the others are counted as inconsistent."""
        held, self.held = self.held or [], None
        for event, arrived in held:
            if self._fits(event):
                self._apply(event, arrived)
            else:
                self.counts["inconsistent"] += 1

    def _fits(self, event: Event) -> bool:
        assert self.model is not None
        if event.cell >= len(self.model):
            return False
        occupied = bool(self.model[event.cell])
        return occupied if event.action == P.ACTION_LIFT else not occupied

    def _apply(self, event: Event, now: float) -> None:
        model = self.model
        assert model is not None
        cell = event.cell
        if event.action == P.ACTION_LIFT:
            piece = event.piece if event.piece >= 0x41 else model[cell]
            model[cell] = 0
            self._deliver(cell, LIFT, piece, now, event)
        else:
            model[cell] = event.piece or 1
            self._deliver(cell, PLACE, event.piece, now, event)

    def _reconcile(self, states: bytes | bytearray, now: float) -> None:
        """Synthetic events from the model to ``states`` (lifts, then places), and adopt them."""
        model = self.model
        assert model is not None
        lifts = [c for c in range(len(states)) if model[c] and model[c] != states[c]]
        places = [c for c in range(len(states)) if states[c] and model[c] != states[c]]
        for cell in lifts:
            self._deliver(cell, LIFT, model[cell], now, None)
        for cell in places:
            self._deliver(cell, PLACE, states[cell], now, None)
        model[:] = states
