"""The controller thread: it owns the session. It waits on the input queue with a timeout that
ends at the next deadline (the core's, the clock's, the demo player's, the watchdog's), hands each
input to the part that handles it, fires the deadlines that fell due -- holding a late one back
while the boards' reports from before it may still be on their way (stall grace) -- and ends
each turn showing what it did."""

from __future__ import annotations

import logging
import queue
import threading
from collections import Counter
from typing import TYPE_CHECKING

from ..core_types import StatusKind
from ..session_endings import Phase
from .bus import Button, Drained, Input, LinkChange, Quit, Sensor, Touch, Wake
from .readiness import Readiness

if TYPE_CHECKING:
    from .service import Service

log = logging.getLogger("chessery")

#: The controller loop's longest sleep with nothing to do (s): everything it waits for (inputs,
#: deadlines, the clock's next visible change, the watchdog) wakes it by itself.
IDLE_WAKE_S = 5.0
#: A deadline is due but a board's reports up to it are not all handled yet: look again after
#: this long (a link reads its port at least every read timeout, 10 ms).
HEARD_POLL_S = 0.002
#: A deadline found due this much after its time: the host stalled (or starved this thread).
STALL_MS = 25
#: After a stall, a deadline waits at most this long for the links to read what the boards
#: sent meanwhile (a link blocked in a read with nothing to read only returns at its timeout).
STALL_GRACE_MS = 300


class Loop:
    def __init__(self, service: Service) -> None:
        self.service = service
        #: What systemd hears while the loop runs.
        self.readiness = Readiness(service)
        #: Set once the loop has ended; ``error``: what ended it, when it stopped by itself.
        self.finished = threading.Event()
        self.error: BaseException | None = None
        #: late_deadlines, late_deadlines_given_up.
        self.counts: Counter[str] = Counter()
        #: Stop as soon as the game is at rest (every board has drained its reports).
        self.finish_at_rest = False
        #: When the session's deadline was first found overdue (service ms), while held back.
        self._late_since: int | None = None

    def run(self) -> None:
        service = self.service
        try:
            while not service.stopping.is_set():
                self.readiness.notify()
                timeout = IDLE_WAKE_S
                ping = self.readiness.wait_s()
                if ping is not None:
                    timeout = min(timeout, ping)
                deadline = self._next_deadline()
                if deadline is not None:
                    timeout = max(0.0, (deadline - service.now()) / 1000)
                    if not timeout and not self._heard_past():
                        timeout = HEARD_POLL_S  # due, but a board's reports up to then are not all in
                item: Input | None
                try:
                    item = service.inputs.get_nowait()
                except queue.Empty:
                    service.session.prepare()  # index the new position while the hands are away
                    try:
                        item = service.inputs.get(timeout=timeout)
                    except queue.Empty:
                        item = None
                with service.store.transaction():  # committed in Service.report, before anything is shown
                    self.handle(item)
                    # Drain what arrived meanwhile before redrawing: one frame per burst.
                    while True:
                        try:
                            self.handle(service.inputs.get_nowait())
                        except queue.Empty:
                            break
                    self._due()
                service.store.retry()  # writes a full disk refused, once there is room
                if self.finish_at_rest and self._at_rest():
                    self.handle(Quit())
                service.opponents.follow()  # a computer's or a remote board's turn, before the frame
                service.outputs.show()  # each turn ends showing what it did: the last one before stopping too
        except BaseException as exc:  # reported by run_service; the service must not hang
            self.error = exc
            log.exception("controller stopped")
        finally:
            self.finished.set()
            # Only now: stopped before, the window would end without the last frame, which can
            # hold a move already printed and stored.
            if service.window is not None:
                service.window.stop()

    def handle(self, item: Input | None) -> None:
        """One input (None: the wait timed out); every input goes through here."""
        service = self.service
        if item is not None and service.on_input is not None:
            service.on_input(item)
        now = service.now()
        if isinstance(item, Sensor | Button | Touch):
            service.controls.clock_note = ""  # shown until the next thing the players do
        match item:
            case Sensor(index, event):
                if not service.boards.sensor(index, event, now):
                    return
            case LinkChange(index, status):
                service.boards.link_changed(index, status)
            case Drained(index):
                self.finish_at_rest = service.boards.drained(index)
            case Button(name):
                service.controls.button(name, now)
            case Touch(event):
                service.controls.touch(event, now)
            case Quit():
                service.stopping.set()  # the loop shows the last frame, then stops the window
                return
            case Wake() | None:
                pass
        service.demo.maybe_answer()

    def catch_up(self, t: int) -> None:
        """Fire the core's deadlines that fell before an event that happened at ``t``, at their
        own time (and let the demo player answer a question that opens). A deadline is never
        fired at "now" while inputs are still queued (the loop does that once the queue is
        empty): a busy controller would decide that the board was still before the events that
        were waiting."""
        service = self.service
        while (d := service.session.deadline) is not None and d <= t:
            service.report(service.session.tick(d))
            service.demo.maybe_answer()
            if service.session.deadline == d:
                break

    def _next_deadline(self) -> int | None:
        service = self.service
        d = service.session.deadline
        answer_at = service.demo.answer_at
        if answer_at is not None:
            d = answer_at if d is None else min(d, answer_at)
        if service.clock is not None:
            now = service.now()
            clock = service.clock
            for t in (clock.deadline(), clock.next_change(now) if service.window is not None else None):
                if t is not None:
                    d = t if d is None else min(d, t)
        return d

    def _heard_past(self) -> bool:
        """Whether the session's deadline, due by the clock, may fall due now. Found due late
        (by more than ``STALL_MS``: the host stalled -- swapping, a throttled CPU, this thread
        starved), the board's reports from meanwhile may still wait in the port, though they
        came before the deadline: deciding now would ignore them (a slide going on, the victim
        of a capture). So a late deadline waits until every connected link has read its port
        past it, its forwarder has passed on every event queued by then and the controller has
        taken them all (``catch_up`` then fires it at its own time, between the events) -- at
        most ``STALL_GRACE_MS``, as a link blocked in a read with nothing to read returns only
        at its read timeout. On time, nothing waits (no latency added)."""
        service = self.service
        deadline = service.session.deadline
        now = service.now()
        if deadline is None or now - deadline <= STALL_MS:
            self._late_since = None
            return True
        if self._late_since is None:
            self._late_since = now
            self.counts["late_deadlines"] += 1
        if now - self._late_since > STALL_GRACE_MS:
            self.counts["late_deadlines_given_up"] += 1
            return True
        return service.boards.read_past(deadline) and service.inputs.empty()

    def _due(self) -> None:
        service = self.service
        now = service.now()
        if (service.session.deadline is not None and now >= service.session.deadline
                and self._heard_past()):
            self._late_since = None
            service.report(service.session.tick(now))
        if service.clock is not None:
            outcome = service.clock.tick(service.session, now)
            if outcome is not None:
                service.report(service.session.end(outcome, now, "flag fall"))
        service.demo.maybe_answer()

    def _at_rest(self) -> bool:
        session = self.service.session
        return (session.deadline is None and self.service.demo.answer_at is None
                and (session.phase == Phase.OVER or session.status.kind == StatusKind.IDLE))
