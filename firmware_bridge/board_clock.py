"""A board's own clock read on the host's.

A Chessery board stamps each change, snapshot and heartbeat with its clock (ms since its boot).
The link puts each change on the host's clock by those stamps, not by the moment a busy host got
round to reading the line, which may bunch several changes together or come seconds late: the
chess clock charges a player from these times, and the referee's waits are measured by them.
"""

from __future__ import annotations

from collections import deque

#: The offset is the smallest over the stamped frames of this much of the board's time (ms).
#: A host stalled for less than this (a burst of late heartbeats and changes on waking) cannot
#: move it. A board clock slower than the host's is followed, this much behind: a crystal's
#: 50 ppm is 1.5 ms of error, a ceramic resonator's 0.5 % 150 ms.
WINDOW_MS = 30_000


class BoardClock:
    """One board's offset (host ms - board ms), the smallest seen over the stamped frames of the
    last :data:`WINDOW_MS`: the frame that reached the host fastest says best how the two clocks
    stand.

    Until round 12 the service learned the offset from the changes alone and took a change seen
    more than 2 s later than the offset for a board restart, so a host that stalled for 2 s
    charged the mover's chess clock those seconds (``tests/test_e2e_clock.py`` on a loaded
    machine), and a game's first changes, read late by a service still starting, were its only
    measure. A restart (or the u32 wrapping) shows instead as the board's clock going back; the
    link also starts afresh on a new session and on a new boot id (:meth:`restart`).
    """

    def __init__(self) -> None:
        self._seen: deque[tuple[int, int]] = deque()  # (board ms, host ms - board ms), oldest first

    def restart(self) -> None:
        self._seen.clear()

    def note(self, board_ms: int, host_ms: int) -> None:
        """A frame the board stamped ``board_ms`` was read at ``host_ms``."""
        seen = self._seen
        if seen and board_ms < seen[-1][0]:
            seen.clear()  # the board's clock went back: it restarted (or its u32 wrapped)
        seen.append((board_ms, host_ms - board_ms))
        while seen[0][0] < board_ms - WINDOW_MS:
            seen.popleft()

    def host_ms(self, board_ms: int) -> int | None:
        """When, on the host's clock, the board's clock read ``board_ms``; None before any frame."""
        # A few hundred frames at most (heartbeats come every 250 ms of quiet), and one change
        # asks for every several frames noted: the smallest is taken here, plainly.
        return board_ms + min(offset for _, offset in self._seen) if self._seen else None
