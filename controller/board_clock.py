"""A board's own clock read on the service's clock.

A board stamps each change with its clock (ms since its boot). The service sees the gaps the
hands made through those stamps, not through the moment a busy host got round to reading the
line, which may bunch several changes together or come seconds late: the chess clock charges a
player from the stamps, and the core's waits are measured by them.
"""

from __future__ import annotations

from collections import deque

#: How many of a board's latest events the offset is the smallest of. One late read among
#: them cannot move it; a board clock slower than the host's is followed within this many.
WINDOW = 16


class BoardClock:
    """One board's offset (host ms - board ms), the smallest seen over the last :data:`WINDOW`
    events: the event that reached the host fastest says best how the two clocks stand.

    Until round 12 an event seen more than 2 s later than the offset counted as a board restart
    and became the new offset, so a host that stalled for 2 s charged the mover's clock those
    seconds (``tests/test_e2e_clock.py`` on a loaded machine). A restart (or the u32 wrapping)
    shows instead as the board's clock going back; a link that reconnected may be another boot
    too, so :meth:`restart` forgets the offset.
    """

    def __init__(self) -> None:
        self._seen: deque[int] = deque(maxlen=WINDOW)
        self._last_board_ms: int | None = None

    def restart(self) -> None:
        self._seen.clear()
        self._last_board_ms = None

    def time_of(self, board_ms: int, host_ms: int, now: int) -> int:
        """The service-clock time of an event the board stamped ``board_ms`` and the host read at
        ``host_ms``; never later than ``now``."""
        if self._last_board_ms is not None and board_ms < self._last_board_ms:
            self.restart()
        self._last_board_ms = board_ms
        self._seen.append(host_ms - board_ms)
        return min(board_ms + min(self._seen), now)
