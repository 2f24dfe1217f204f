"""What the host has set on our board, remembered so it can be sent again: the lights and the
parameters (scan period, debounce time, heartbeat). A board that was reset or reconnected has
lost them; a garbled command may have been lights."""

from __future__ import annotations

from collections.abc import Iterable

from .firmware import protocol as P
from .messages import Message, SetLeds, SetParams

LED_PATTERNS = {"off": P.LED_OFF, "on": P.LED_ON, "blink": P.LED_BLINK, "fast": P.LED_FAST}


def light_code(pattern: str | int) -> int:
    """The protocol's code of a light pattern (off, on, blink, fast, or a code); ``ValueError``
    for any other."""
    code = LED_PATTERNS.get(pattern, -1) if isinstance(pattern, str) else pattern
    if code not in P.LED_PATTERNS:
        raise ValueError(f"unknown light pattern {pattern!r} (expected one of {', '.join(LED_PATTERNS)})")
    return code


class BoardSettings:
    def __init__(self) -> None:
        self._lights: dict[int, int] = {}  # board cell -> pattern, as the host wants them
        #: The parameters last set (None: the board's own).
        self.params: SetParams | None = None

    def light(self, cells: Iterable[int], code: int, replace: bool) -> None:
        """``cells`` (board numbering) light with ``code``; with ``replace`` every other goes off."""
        if replace:
            self._lights.clear()
        for cell in cells:
            self._lights[cell] = code

    def restore(self, lights: bool) -> list[Message]:
        """The commands that set it all again (no lights for a board without them)."""
        out: list[Message] = []
        if self.params is not None:
            out.append(self.params)
        if self._lights and lights:
            by_pattern: dict[int, list[int]] = {}
            for cell, pattern in self._lights.items():
                by_pattern.setdefault(pattern, []).append(cell)
            first = True
            for pattern, cells in sorted(by_pattern.items()):
                out.append(SetLeds(pattern, tuple(sorted(cells)), replace=first))
                first = False
        return out
