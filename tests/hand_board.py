"""A board the test plays by hand: it writes the firmware's frames into a real pty itself, so it
has exact control of what is lost (a skipped sequence number) and reads what the host sends."""

from __future__ import annotations

import dataclasses
import select
import time

from firmware_bridge.codec import encode
from firmware_bridge.firmware import protocol as P
from firmware_bridge.framer import Framer
from firmware_bridge.messages import Snapshot
from firmware_bridge.virtual_port import PtyPort

WAIT = 8.0  # seconds: generous upper bounds; a passing run takes a fraction of that


class HandBoard:
    """The test plays the board by writing frames into a pty by hand."""

    def __init__(self) -> None:
        self.port = PtyPort()
        self.port.plug()
        self.framer = Framer(P.HOST_TYPES)
        self.seq = 0
        self.states = bytearray(64)
        for cell in (12, 52, 6):
            self.states[cell] = 1

    def send(self, message, skip: int = 0) -> None:
        self.seq += skip
        self.port.write(encode(dataclasses.replace(message, seq=self.seq)))
        self.seq += 1

    def expect(self, kind, timeout: float = WAIT):
        deadline = time.monotonic() + timeout
        pending: list = []
        while True:
            for message in pending:
                if isinstance(message, kind):
                    return message
            remaining = deadline - time.monotonic()
            assert remaining > 0, f"no {kind.__name__} from the host"
            master = self.port._master
            assert master is not None, "the hand board's pty was unplugged"
            ready, _, _ = select.select([master], [], [], remaining)
            if ready:
                pending = self.framer.feed(self.port.read())

    def snapshot(self) -> Snapshot:
        return Snapshot(0, False, bytes(self.states))
