"""Faults in the frames the simulated board sends: an EVENT sent again under its own number with
other content, an EVENT destroyed by garbage (``resend`` and ``smash`` in
:mod:`firmware_bridge.faults`).

Armed for the next EVENT frame the board writes (the simulated board arms them just before the
action whose event it is), then spent. Other frames pass untouched.
"""

from __future__ import annotations

import random

from .codec import PayloadError, decode_frame, encode
from .firmware import protocol as P
from .messages import Event


class EventFrameFaults:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.resend_ms: int | None = None
        self.smash_bytes: int | None = None
        self.resent = 0
        self.smashed = 0

    @property
    def armed(self) -> bool:
        return self.resend_ms is not None or self.smash_bytes is not None

    def apply(self, data: bytes) -> bytes:
        """``data`` (whole frames, as the firmware writes them) with the armed faults applied."""
        if not self.armed:
            return data
        out = bytearray()
        *frames, rest = data.split(b"\x00")
        for raw in frames:
            out += self._frame(raw)
        out += rest
        return bytes(out)

    def _frame(self, raw: bytes) -> bytes:
        whole = raw + b"\x00"
        event = self._event(raw)
        if event is None:
            return whole
        if self.smash_bytes is not None:
            garbage = bytes(self.rng.randrange(1, 256) for _ in range(self.smash_bytes))  # no 0x00
            at = self.rng.randrange(1, len(raw))
            self.smash_bytes = None
            self.smashed += 1
            return raw[:at] + garbage + raw[at:] + b"\x00"
        if self.resend_ms is not None:
            later = Event(event.cell, event.action, event.piece, (event.time_ms + self.resend_ms) & 0xFFFFFFFF,
                          event.seq)
            self.resend_ms = None
            self.resent += 1
            return whole + encode(later)
        return whole

    @staticmethod
    def _event(raw: bytes) -> Event | None:
        body = P.cobs_decode(raw)
        if body is None or len(body) < P.HEADER_LEN + P.CRC_LEN or body[1] != P.EVENT:
            return None
        try:
            message = decode_frame(P.EVENT, body[2] << 8 | body[3], bytes(body[P.HEADER_LEN:-P.CRC_LEN]))
        except PayloadError:
            return None
        return message if isinstance(message, Event) else None
