"""The two questions the host link asks our board until they are answered, and when to ask again.

PING (answered by a HELLO) greets the board at the start of each session; REQUEST_SNAPSHOT
(answered by a SNAPSHOT) asks for every cell, at the start and after a loss. An unanswered
question is asked again after ``interval``, then after twice as long each time it stays
unanswered, up to ``cap``. A garbled frame may have been the answer: the question is then asked
again sooner, but no sooner than a tenth of its wait (a board of another protocol version or a
line that garbles every frame must not turn each bad answer into two new questions).

Times are ``time.monotonic()`` seconds. No I/O: the link (:class:`~firmware_bridge.link.Link`)
sends, and tells this what it sent and what came back, with its lock held.
"""

from __future__ import annotations


class Asks:
    def __init__(self, interval: float, cap: float) -> None:
        self.interval = interval
        self.cap = max(cap, interval)
        self._ping_sent = 0.0
        self._pings = 0  # PINGs of this session still unanswered
        self.snapshot_asked: float | None = None  # when the unanswered REQUEST_SNAPSHOT went (None: none)
        self._snapshot_asks = 0  # REQUEST_SNAPSHOTs since the last snapshot arrived

    def gap(self, asked: int) -> float:
        """How long a question that has been sent ``asked`` times waits for its answer."""
        return min(self.interval * 2 ** max(0, asked - 1), self.cap)

    def greeted(self, now: float) -> None:
        """A new connection, greeted with a PING sent at ``now``."""
        self._ping_sent = now
        self._pings = 1

    def pinged(self, now: float) -> None:
        self._ping_sent = now
        self._pings += 1

    def hello_came(self) -> None:
        self._pings = 0

    def snapshot_sent(self, now: float) -> None:
        if self.snapshot_asked is None:
            self._snapshot_asks = 0
        self.snapshot_asked = now
        self._snapshot_asks += 1

    def snapshot_came(self) -> None:
        self.snapshot_asked = None
        self._snapshot_asks = 0

    def ping_due(self, now: float, *, garbled: bool = False) -> bool:
        """Whether to PING again (when no HELLO came this session): the wait is over, or a
        tenth of it after a garbled frame."""
        waited = now - self._ping_sent
        gap = self.gap(self._pings)
        return waited >= gap / 10 if garbled else waited > gap

    def snapshot_due(self, now: float, *, garbled: bool = False) -> bool:
        """Whether to ask for the snapshot again: asked, and the wait is over (or a tenth of it
        after a garbled frame)."""
        if self.snapshot_asked is None:
            return False
        waited = now - self.snapshot_asked
        gap = self.gap(self._snapshot_asks)
        return waited >= gap / 10 if garbled else waited > gap
