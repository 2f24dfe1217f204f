"""The link's model of the board (``BoardSync``) and its questions' back-off (``Asks``), driven
directly with decoded frames: the guarantee that delivered events, applied to the first
snapshot, give the model, whatever was lost. (The link over a real pty: test_bridge_link*.py.)"""

from __future__ import annotations

from collections import Counter

from firmware_bridge.board_asks import Asks
from firmware_bridge.board_sync import BoardSync
from firmware_bridge.events import LIFT, PLACE
from firmware_bridge.firmware import protocol as P
from firmware_bridge.messages import Event, Heartbeat, Message, Snapshot


class Rig:
    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()
        self.delivered: list[tuple[int, str, bool]] = []  # (cell, action, synthetic)
        self.asked: list[float] = []
        self.sync = BoardSync("test", self.counts, self.deliver, self.asked.append)

    def deliver(self, cell: int, action: str, piece: int, now: float, event: Event | None) -> None:
        self.delivered.append((cell, action, event is None))

    def frame(self, message: Message, now: float = 0.0) -> None:
        """What the link does with one frame (numbering first, then the model)."""
        self.sync.board_reset(message, now)
        if not self.sync.in_order(message, now):
            return
        if isinstance(message, Snapshot):
            self.sync.snapshot(message.states, now)
        elif isinstance(message, Event) and self.sync.model is not None:
            self.sync.event(message, now)


def lift(cell: int, seq: int) -> Event:
    return Event(cell, P.ACTION_LIFT, 0, 0, seq=seq)


def place(cell: int, seq: int) -> Event:
    return Event(cell, P.ACTION_PLACE, 0, 0, seq=seq)


def test_a_lost_frame_is_reported_where_it_happened() -> None:
    rig = Rig()
    rig.frame(Snapshot(0, False, bytes([1, 1, 0, 0]), seq=0))
    rig.frame(lift(0, seq=1))
    # frame 2 (place on 2) is lost; frame 3 lifts cell 1: a gap, so events wait for a snapshot
    rig.frame(lift(1, seq=3))
    assert rig.counts["gaps"] == 1 and rig.asked and rig.sync.held is not None
    assert rig.delivered == [(0, LIFT, False)]
    rig.frame(Snapshot(0, False, bytes([0, 0, 1, 0]), seq=4))
    # the lost place comes first (synthetic), then the held lift, and the model is the board's
    assert rig.delivered == [(0, LIFT, False), (2, PLACE, True), (1, LIFT, False)]
    assert rig.sync.model == bytearray([0, 0, 1, 0]) and rig.sync.held is None


def test_a_repeated_frame_is_delivered_once_and_a_misfit_asks_for_the_board() -> None:
    rig = Rig()
    rig.frame(Snapshot(0, False, bytes([1, 0]), seq=0))
    rig.frame(lift(0, seq=1))
    rig.frame(lift(0, seq=1))
    assert rig.counts["duplicates"] == 1 and rig.delivered == [(0, LIFT, False)]
    rig.frame(lift(1, seq=2))  # an empty cell lifted: does not fit, held until a snapshot
    assert rig.asked and rig.delivered == [(0, LIFT, False)]
    rig.frame(Snapshot(0, False, bytes([0, 0]), seq=3))
    # the snapshot explains it: a man was put on cell 1 unseen, then lifted
    assert rig.delivered[1:] == [(1, PLACE, True), (1, LIFT, False)]
    assert rig.counts["inconsistent"] == 0 and rig.sync.model == bytearray([0, 0])


def test_a_board_reset_restarts_the_numbering_and_asks_for_the_board() -> None:
    rig = Rig()
    rig.frame(Heartbeat(0, boot_id=7, seq=0))
    rig.frame(Snapshot(0, False, bytes([1]), seq=1))
    assert not rig.sync.board_reset(Heartbeat(0, boot_id=7, seq=2), 0.0)
    assert rig.sync.board_reset(Heartbeat(0, boot_id=8, seq=0), 0.0)
    assert rig.counts["resets"] == 1 and rig.asked
    assert rig.sync.in_order(place(0, seq=0), 0.0)  # numbering starts again: not a repeat


def test_questions_back_off_and_come_sooner_after_a_garbled_frame() -> None:
    asks = Asks(interval=0.5, cap=2.0)
    assert [asks.gap(n) for n in (1, 2, 3, 4, 5)] == [0.5, 1.0, 2.0, 2.0, 2.0]
    assert not asks.snapshot_due(100.0)  # nothing asked
    asks.snapshot_sent(10.0)
    assert not asks.snapshot_due(10.5) and asks.snapshot_due(10.51)
    assert asks.snapshot_due(10.05, garbled=True) and not asks.snapshot_due(10.04, garbled=True)
    asks.snapshot_sent(10.51)  # asked twice: the wait doubles
    assert not asks.snapshot_due(11.5) and asks.snapshot_due(11.52)
    asks.snapshot_came()
    assert not asks.snapshot_due(1000.0)
    asks.greeted(20.0)
    assert asks.ping_due(20.51) and not asks.ping_due(20.5)
