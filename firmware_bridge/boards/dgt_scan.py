"""How long a DGT board takes to scan its 64 squares, learnt from when its field updates arrive.

A DGT board visits its squares one after another in wire order (a8 = 0 ... h1 = 63), a full
scan every P ms, and reports a square in the visit that finds it changed. Two updates, of
square s1 at t1 and of s2 at t2, are then ``(s2 - s1) mod 64 / 64 + k`` scans apart for some
whole k. Makers give P as 200-250 ms; for updates less than about three scans apart only one k
puts P in that range, so each such pair measures P. A board outside the range would be misread
(at 300 ms, two updates 609 ms apart read as three scans of 201 ms), but it also leaves many
pairs at least a scan apart that no P in the range explains: when more than one in eight of
the recent pairs are such misfits, the driver keeps to the slowest period; and its measures, read
at the wrong number of scans, disagree by tens of ms, which a board in the range never shows.

Only updates that reached the host with the line idle before them count (an update queued
behind a dump arrives up to 70 ms late), pairs less than one scan apart do not measure (a few
ms of jitter would be a large error), and the estimate is a high percentile of the recent
measures, so that jitter and a board whose scan time varies a little make it longer, never
shorter. Until enough pairs are in, the slowest period stands. The referee waits one scan
after a piece's report before it trusts that the piece rests there (``Timing.scan_ms``): the
board's own period rather than the slowest a DGT board may have is what the latency goal is
about.

A board on Bluetooth scans at half speed (PicoChess waits 0.5 s for a stable board there, 0.25 s
on USB). The driver cannot tell the link from the bytes, so it learns it from where the port is:
an ``rfcomm`` device (the Bluetooth serial port) or the configuration (``dgt.bluetooth``); the
estimate then works in the doubled range (390-510 ms measures, 400-500 ms declared) and starts
at 500 ms. Read at the USB range, a 500 ms board would look like a misfit and be declared 250 ms:
the referee would then trust a piece half a scan too early.
"""

from __future__ import annotations

import collections
import math

SQUARES = 64
#: The makers' range (ms), with room for jitter, in which a pair's measure must fall.
LOW_MS, HIGH_MS = 195.0, 255.0
#: What the driver declares: never below the fastest DGT scan, never above the slowest.
FASTEST_MS, SLOWEST_MS = 200, 250
#: Measures of one period through a few ms of jitter agree within this; a board outside the
#: range, read at the wrong number of scans, gives measures tens of ms apart.
SPREAD_MS = 16.0


class ScanPeriod:
    def __init__(self, *, window_ms: float = 700.0, keep: int = 48, need: int = 6, quantile: float = 0.9,
                 half_speed: bool = False) -> None:
        """``window_ms``: pairs further apart are ambiguous. ``keep`` measures are kept; ``need``
        are needed before the estimate replaces the slowest period. ``half_speed``: a board on
        Bluetooth (every period doubled)."""
        factor = 2 if half_speed else 1
        self.low_ms, self.high_ms = LOW_MS * factor, HIGH_MS * factor
        self.fastest_ms, self.slowest_ms = FASTEST_MS * factor, SLOWEST_MS * factor
        self.spread_ms = SPREAD_MS * factor
        self.window_ms = window_ms * factor
        self.need = need
        self.quantile = quantile
        self._updates: collections.deque[tuple[float, int]] = collections.deque()
        self._measures: collections.deque[float] = collections.deque(maxlen=keep)
        self._fits: collections.deque[bool] = collections.deque(maxlen=keep)  # pairs a scan apart: explained?

    def observe(self, square: int, t_ms: float) -> None:
        """A field update of ``square`` that reached the host at ``t_ms`` with the line idle."""
        while self._updates and t_ms - self._updates[0][0] > self.window_ms:
            self._updates.popleft()
        for t0, s0 in self._updates:
            dt = t_ms - t0
            measure = _period(dt, (square - s0) % SQUARES, self.low_ms, self.high_ms)
            if measure is not None:
                self._measures.append(measure)
            if dt >= self.low_ms:
                self._fits.append(measure is not None
                                  or _explained(dt, (square - s0) % SQUARES, self.low_ms, self.high_ms))
        self._updates.append((t_ms, square))

    @property
    def measures(self) -> int:
        return len(self._measures)

    @property
    def ms(self) -> int:
        """The scan period to wait for (whole ms, rounded up)."""
        if len(self._measures) < self.need or 8 * self._fits.count(False) > len(self._fits):
            return self.slowest_ms
        ordered = sorted(self._measures)
        high = ordered[min(len(ordered) - 1, math.ceil(self.quantile * (len(ordered) - 1)))]
        low = ordered[int((1 - self.quantile) * (len(ordered) - 1))]
        if high - low > self.spread_ms:
            return self.slowest_ms  # the measures disagree: not one period seen through jitter
        return max(self.fastest_ms, min(self.slowest_ms, math.ceil(high)))


def _period(dt: float, squares: int, low_ms: float = LOW_MS, high_ms: float = HIGH_MS) -> float | None:
    """The scan period that puts two updates ``squares`` apart in scan order ``dt`` ms apart,
    when exactly one whole number of scans between them gives a period in range and they are
    at least one scan apart; None otherwise."""
    fraction = squares / SQUARES
    found: float | None = None
    k = 0 if squares else 1
    while (fraction + k) * low_ms <= dt:
        period = dt / (fraction + k)
        if period <= high_ms:
            if found is not None:
                return None
            found = period if fraction + k >= 1 else -1.0
        k += 1
    return None if found is None or found < 0 else found


def _explained(dt: float, squares: int, low_ms: float = LOW_MS, high_ms: float = HIGH_MS) -> bool:
    """Some whole number of scans of a period in range puts two updates ``squares`` apart ``dt``
    ms apart (whether or not that tells the period)."""
    fraction = squares / SQUARES
    k = 0 if squares else 1
    while (fraction + k) * low_ms <= dt:
        if dt / (fraction + k) <= high_ms:
            return True
        k += 1
    return False
