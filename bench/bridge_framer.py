"""How fast the host decodes the sensor-board stream, against references measured in the same run.

    ./dev bench bridge_framer

Prints frames per second for the full framer (COBS, CRC, checks, typed messages), for a bare
reference that only splits at 0x00 and runs crc_hqx (the least any decoder must do), the
headroom over a saturated 115200-baud line, and the cost of the portable CRC the firmware uses
(MicroPython has no crc_hqx) relative to crc_hqx.
"""

from __future__ import annotations

import binascii
import time

from firmware_bridge.codec import encode
from firmware_bridge.firmware import protocol as P
from firmware_bridge.framer import Framer
from firmware_bridge.messages import Event, Heartbeat


def best_of(runs: int, func) -> float:
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        func()
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    frames = [encode(Event(i % 64, i % 2, 0, i * 7, seq=i & 0xFFFF)) if i % 10 else encode(Heartbeat(i, 1, i))
              for i in range(20000)]
    stream = b"".join(frames)
    chunks = [stream[i:i + 64] for i in range(0, len(stream), 64)]  # as a serial read delivers it

    def framer() -> None:
        f = Framer()
        for chunk in chunks:
            f.feed(chunk)

    def reference() -> None:
        for part in stream.split(b"\x00"):
            binascii.crc_hqx(part, 0xFFFF)

    t_framer = best_of(3, framer)
    t_ref = best_of(3, reference)
    n = len(frames)
    line_rate = 115200 / 10 / (len(stream) / n)  # frames/s on a saturated 8N1 line
    print(f"frames decoded: {n}, {len(stream)} bytes")
    print(f"framer:    {n / t_framer:12.0f} frames/s")
    print(f"reference: {n / t_ref:12.0f} frames/s (split + crc_hqx only)")
    print(f"framer / reference time: {t_framer / t_ref:.1f}x")
    print(f"headroom over a saturated 115200-baud line ({line_rate:.0f} frames/s): {n / t_framer / line_rate:.0f}x")

    data = bytes(range(256)) * 64
    t_portable = best_of(3, lambda: P.crc16_portable(data))
    t_hqx = best_of(3, lambda: binascii.crc_hqx(data, 0xFFFF))
    print(f"portable CRC / crc_hqx time on {len(data)} bytes: {t_portable / t_hqx:.0f}x")


if __name__ == "__main__":
    main()
