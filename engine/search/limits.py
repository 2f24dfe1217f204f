"""What bounds a search: depth, nodes, a fixed time, a clock with increment, or nothing (until
stopped), and the time plan derived from them.

The engine stays pure: the clock is a callable handed in (``time.monotonic`` by default), and
``stop`` is anything with ``is_set()`` (a ``threading.Event`` in the UCI engine), checked every few
nodes.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

#: The deepest an iterative deepening goes when nothing else bounds it.
MAX_DEPTH = 64
#: Seconds kept back from any time budget for the answer to travel.
MARGIN = 0.03
#: A clock's remaining time is shared out as if this many moves were still to come.
MOVES_TO_GO = 30


class StopSignal(Protocol):
    def is_set(self) -> bool: ...


class NeverStop:
    def is_set(self) -> bool:
        return False


@dataclass(frozen=True)
class Limits:
    """A ``go`` command's bounds (seconds, not milliseconds). ``time_left``/``increment`` are the
    searching side's clock. No bound at all: search until stopped (``infinite``)."""

    depth: int | None = None
    nodes: int | None = None
    movetime: float | None = None
    time_left: float | None = None
    increment: float = 0.0
    moves_to_go: int | None = None
    infinite: bool = False

    def budget(self) -> tuple[float | None, float | None]:
        """(soft, hard) seconds: no new iteration starts after ``soft``; the search is cut at
        ``hard``. None: no time bound."""
        if self.infinite:
            return None, None
        if self.movetime is not None:
            hard = max(0.005, self.movetime - MARGIN)
            return hard, hard
        if self.time_left is not None:
            left = max(0.0, self.time_left - MARGIN)
            togo = self.moves_to_go or MOVES_TO_GO
            soft = min(left / togo + 0.8 * self.increment, left * 0.5)
            hard = min(left * 0.8, soft * 4)
            return max(0.005, soft * 0.6), max(0.01, hard)
        return None, None


class Deadline:
    """The running search's view of its limits: has it used its time or nodes, was it stopped."""

    def __init__(self, limits: Limits, stop: StopSignal | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits
        self.stop = stop or NeverStop()
        self.clock = clock
        self.start = clock()
        self.soft, self.hard = limits.budget()
        self.max_nodes = limits.nodes
        self.max_depth = min(limits.depth, MAX_DEPTH) if limits.depth else MAX_DEPTH

    def elapsed(self) -> float:
        return self.clock() - self.start

    def out_of_time(self) -> bool:
        """Cut the search now (the hard bound, or ``stop``)."""
        if self.stop.is_set():
            return True
        return self.hard is not None and self.elapsed() >= self.hard

    def may_deepen(self) -> bool:
        """Whether another iteration may start (the soft bound)."""
        if self.stop.is_set():
            return False
        return self.soft is None or self.elapsed() < self.soft
