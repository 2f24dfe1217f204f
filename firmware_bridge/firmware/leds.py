"""Cell lights: the pattern per cell and its level at a given time (portable).

All blinking lights share the board clock, so cells with the same pattern blink together.
"""

try:
    from firmware_bridge.firmware import protocol as P
except ImportError:  # on the board the modules sit flat in the root directory
    import protocol as P  # type: ignore[no-redef]


class Leds:
    def __init__(self, cells):
        self.patterns = bytearray(cells)

    def set(self, cells, pattern, replace):
        if replace:
            for cell in range(len(self.patterns)):
                self.patterns[cell] = P.LED_OFF
        for cell in cells:
            self.patterns[cell] = pattern

    def level(self, cell, now):
        """1 when the cell's light is on at time ``now`` (ms)."""
        pattern = self.patterns[cell]
        if pattern == P.LED_ON:
            return 1
        if pattern == P.LED_BLINK:
            return 1 if (now // 500) % 2 == 0 else 0
        if pattern == P.LED_FAST:
            return 1 if (now // 125) % 2 == 0 else 0
        return 0

    def levels(self, now, out=None):
        """Every cell's level into ``out`` (a bytearray, reused by the caller to avoid garbage)."""
        if out is None:
            out = bytearray(len(self.patterns))
        for cell in range(len(self.patterns)):
            out[cell] = self.level(cell, now)
        return out
