"""Frames whose sequence number the host has already handled: a repeat is not a new event.

A board numbers its frames (docs/protocol.md, section 2); the host expects ``seq + 1`` next. A
frame that comes with a number the host handled a moment ago is a *repeat*, not a lost frame:

* the same frame, byte for byte (a board or a line that sends it twice): a ``duplicates``
  count, nothing else -- the event was delivered once already;
* another frame under that number (an EVENT with a later timestamp, say): the board has reused
  a number, so one of the two is wrong and the host cannot tell which. The first stands; the
  second is counted as the error ``reused_seq``, named on the log, and dropped: its timestamp
  never reaches the event history, and it is not a gap (the frames after it are not held back
  for a snapshot that would report the same change twice).

Only the last :data:`WINDOW` frames are remembered (bounded: a link runs for days); a number
further back than that, or one ahead of the expected one, is an ordinary gap.
"""

from __future__ import annotations

from collections import OrderedDict
from enum import Enum

from .messages import Message

#: How many of the latest frames are remembered by their number.
WINDOW = 32


class Repeat(Enum):
    NEW = "new"  # not seen: handle it
    DUPLICATE = "duplicates"  # the same frame again
    REUSED = "reused_seq"  # another frame under a number already handled


class RecentFrames:
    """The latest :data:`WINDOW` frames handled, by sequence number."""

    def __init__(self) -> None:
        self._frames: OrderedDict[int, Message] = OrderedDict()

    def clear(self) -> None:
        """Forget them (a new session or a board reset: numbers start again)."""
        self._frames.clear()

    def check(self, message: Message, expected: int | None) -> Repeat:
        """Whether ``message`` repeats a frame handled before ``expected`` (the next number)."""
        if expected is None:
            return Repeat.NEW
        behind = (expected - message.seq) & 0xFFFF
        if not 1 <= behind <= WINDOW:
            return Repeat.NEW
        seen = self._frames.get(message.seq)
        if seen is None:
            return Repeat.NEW
        return Repeat.DUPLICATE if seen == message else Repeat.REUSED

    def note(self, message: Message) -> None:
        """Remember a frame that was handled."""
        self._frames.pop(message.seq, None)
        self._frames[message.seq] = message
        while len(self._frames) > WINDOW:
            self._frames.popitem(last=False)
