"""A chess clock, pure: no threads, no time source of its own; every call passes ``now`` (ms on the
service's monotonic clock), like the decision core.

Time controls (:func:`parse_time_control`), written as on a tournament poster:

* ``5+3``: 5 minutes for the game, 3 seconds Fischer increment after each move (``5`` alone: sudden death);
* ``5d3``: 5 minutes with a 3 s US (simple) delay: the clock waits 3 s each turn before it runs;
* ``5b3``: 5 minutes with a 3 s Bronstein delay: time used is given back, up to 3 s a move;
* ``40/90+30,30+30``: 90 minutes for the first 40 moves, then 30 minutes for the rest, 30 s
  increment from move 1 (periods separated by commas; a period without ``N/`` is the last).

Minutes may be fractional (``0.5`` is 30 s). Every side gets the same control; any number of sides.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Literal

from engine.errors import ChesseryError


class TimeControlError(ChesseryError, ValueError):
    """A time control text that does not parse."""


#: What a period adds to a move: nothing, an increment (Fischer), a US (simple) or Bronstein delay.
Delay = Literal["", "fischer", "us", "bronstein"]


@dataclass(frozen=True)
class Period:
    minutes: float
    moves: int = 0  # 0: the rest of the game
    increment_s: float = 0.0
    delay_s: float = 0.0
    delay: Delay = ""

    @property
    def base_ms(self) -> int:
        return round(self.minutes * 60_000)


_PERIOD = re.compile(r"^(?:(\d+)/)?(\d+(?:\.\d+)?)(?:([+db])(\d+(?:\.\d+)?))?$")


@dataclass(frozen=True)
class TimeControl:
    periods: tuple[Period, ...]

    @property
    def text(self) -> str:
        out = []
        for p in self.periods:
            t = (f"{p.moves}/" if p.moves else "") + f"{p.minutes:g}"
            if p.delay == "fischer":
                t += f"+{p.increment_s:g}"
            elif p.delay == "us":
                t += f"d{p.delay_s:g}"
            elif p.delay == "bronstein":
                t += f"b{p.delay_s:g}"
            out.append(t)
        return ",".join(out)

    @property
    def pgn(self) -> str:
        """The PGN ``TimeControl`` tag: ``moves/seconds`` and ``seconds+increment`` joined by ``:``.
        PGN has no delay; a delay control is written as its base time."""
        out = []
        for p in self.periods:
            t = (f"{p.moves}/" if p.moves else "") + str(round(p.minutes * 60))
            if p.delay == "fischer" and p.increment_s:
                t += f"+{p.increment_s:g}"
            out.append(t)
        return ":".join(out)


def parse_time_control(text: str) -> TimeControl:
    periods: list[Period] = []
    parts = [p.strip() for p in text.strip().split(",")]
    for i, part in enumerate(parts):
        m = _PERIOD.match(part)
        if m is None:
            raise TimeControlError(f"time control {text!r}: cannot read {part!r} "
                                   "(examples: 5+3, 90+30, 40/90+30,30+30, 5d3, 5b3)")
        moves = int(m.group(1) or 0)
        if moves and i == len(parts) - 1:
            raise TimeControlError(f"time control {text!r}: the last period must be for the rest of the game")
        if not moves and i < len(parts) - 1:
            raise TimeControlError(f"time control {text!r}: only the last period may be for the rest of the game")
        minutes = float(m.group(2))
        kinds: dict[str | None, Delay] = {"+": "fischer", "d": "us", "b": "bronstein", None: ""}
        kind = kinds[m.group(3)]
        amount = float(m.group(4) or 0)
        if minutes <= 0 and not amount:
            raise TimeControlError(f"time control {text!r}: a period needs some time")
        periods.append(Period(minutes, moves, amount if kind == "fischer" else 0.0,
                              amount if kind in ("us", "bronstein") else 0.0, kind))
    return TimeControl(tuple(periods))


@dataclass
class Clock:
    """One clock per side. ``running`` is the side whose time runs (None: stopped)."""

    control: TimeControl
    nsides: int = 2
    remaining: list[int] = field(default_factory=list)  # ms at the start of the current turn
    moves: list[int] = field(default_factory=list)  # moves completed per side
    period: list[int] = field(default_factory=list)
    turn: int = 0  # the side whose turn it is
    running: bool = False
    used: int = 0  # ms of the current turn before the latest resume
    since: int | None = None  # now of the latest resume while running
    flagged: int | None = None

    def __post_init__(self) -> None:
        if not self.remaining:
            base = self.control.periods[0].base_ms
            self.remaining = [base] * self.nsides
            self.moves = [0] * self.nsides
            self.period = [0] * self.nsides

    # -- reading ----------------------------------------------------------------------------------
    def _turn_used(self, now: int) -> int:
        return self.used + (now - self.since if self.running and self.since is not None else 0)

    def _charged(self, side: int, used: int) -> int:
        p = self.control.periods[self.period[side]]
        if p.delay == "us":
            return max(0, used - round(p.delay_s * 1000))
        return used

    def left(self, side: int, now: int) -> int:
        """Ms left on ``side``'s clock now (never below 0)."""
        if side != self.turn:
            return max(0, self.remaining[side])
        return max(0, self.remaining[side] - self._charged(side, self._turn_used(now)))

    def seconds(self, now: int) -> tuple[float, ...]:
        return tuple(self.left(s, now) / 1000 for s in range(self.nsides))

    def flag_at(self) -> int | None:
        """When the running side's flag falls, at the current pace (None: not running)."""
        if not self.running or self.since is None or self.flagged is not None:
            return None
        p = self.control.periods[self.period[self.turn]]
        grace = round(p.delay_s * 1000) if p.delay == "us" else 0
        return self.since + self.remaining[self.turn] + grace - self.used

    def next_change(self, now: int) -> int | None:
        """When the display's figures next change: the next whole second of the running clock,
        or the next tenth in its last ten seconds (None: nothing runs)."""
        if not self.running or self.flagged is not None:
            return None
        left = self.left(self.turn, now)
        step = 100 if left < 10_000 else 1000
        part = left % step
        return now + (part if part else step)

    def check_flag(self, now: int) -> int | None:
        """The side whose flag has fallen (it stays fallen), or None."""
        if self.flagged is None and self.running and self.left(self.turn, now) <= 0:
            self.flagged = self.turn
            self.pause(now)
        return self.flagged

    # -- changing ---------------------------------------------------------------------------------
    def start(self, now: int, side: int | None = None) -> None:
        if side is not None and side != self.turn:
            self.turn = side
            self.used = 0
        self.resume(now)

    def resume(self, now: int) -> None:
        if not self.running and self.flagged is None:
            self.running = True
            self.since = now

    def pause(self, now: int) -> None:
        if self.running:
            self.used = self._turn_used(now)
            self.running = False
            self.since = None

    def adjust(self, side: int, ms: int, now: int) -> None:
        """Add ``ms`` to ``side``'s time (a correction by the arbiter; negative takes time away,
        down to zero at most: the arbiter does not make a flag fall by a correction)."""
        ms = max(ms, -self.left(side, now))
        self.remaining[side] += ms

    def press(self, now: int) -> int | None:
        """The side to move completed its move at ``now``: charge its time, add increment or
        delay, move on to the next period if it is due, and start the next side's clock. Returns
        the side whose flag fell (a move made after the flag fell does not save it)."""
        if self.check_flag(now) is not None:
            return self.flagged
        side = self.turn
        used = self._turn_used(now)
        p = self.control.periods[self.period[side]]
        left = self.remaining[side] - self._charged(side, used)
        if p.delay == "bronstein":
            left += min(used, round(p.delay_s * 1000))
        elif p.delay == "fischer":
            left += round(p.increment_s * 1000)
        self.moves[side] += 1
        done = sum(q.moves for q in self.control.periods[:self.period[side] + 1])
        if p.moves and self.moves[side] >= done:
            self.period[side] += 1
            left += self.control.periods[self.period[side]].base_ms
        self.remaining[side] = left
        was_running = self.running
        self.turn = (side + 1) % self.nsides
        self.used = 0
        self.since = now if was_running else None
        return None

    def takeback(self, now: int) -> None:
        """A move was taken back: the turn goes back to the previous side, whose time runs on
        from what it has (time is never given back, an increment already added stays: adjusting
        clocks is the arbiter's call)."""
        running = self.running
        self.pause(now)
        self.remaining[self.turn] -= self._charged(self.turn, self.used)
        self.turn = (self.turn - 1) % self.nsides
        self.moves[self.turn] = max(0, self.moves[self.turn] - 1)
        self.used = 0
        if running:
            self.resume(now)

    # -- persistence -----------------------------------------------------------------------------
    def to_json(self, now: int) -> str:
        """The state as text; a clock restored from it shows the time it had at ``now``, stopped."""
        return json.dumps({"control": self.control.text, "remaining": self.remaining, "moves": self.moves,
                           "period": self.period, "turn": self.turn, "used": self._turn_used(now),
                           "flagged": self.flagged})

    @classmethod
    def from_json(cls, text: str) -> Clock:
        data = json.loads(text)
        return cls(parse_time_control(data["control"]), nsides=len(data["remaining"]),
                   remaining=[int(x) for x in data["remaining"]], moves=[int(x) for x in data["moves"]],
                   period=[int(x) for x in data["period"]], turn=int(data["turn"]), used=int(data["used"]),
                   flagged=data["flagged"])


def format_clock(ms: int) -> str:
    """``1:05:09``, ``9:41``, and tenths in the last ten seconds: ``7.3``."""
    if ms < 10_000:
        return f"{ms // 1000}.{(ms % 1000) // 100}"
    s = ms // 1000
    h, rem = divmod(s, 3600)
    m, sec = divmod(rem, 60)
    return f"{h}:{m:02d}:{sec:02d}" if h else f"{m}:{sec:02d}"


def pgn_clock(ms: int) -> str:
    """The ``[%clk H:MM:SS]`` value of a clock comment."""
    s = (ms + 999) // 1000 if ms % 1000 else ms // 1000
    h, rem = divmod(s, 3600)
    m, sec = divmod(rem, 60)
    return f"{h}:{m:02d}:{sec:02d}"
