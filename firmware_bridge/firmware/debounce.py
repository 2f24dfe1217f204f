"""Per-cell debouncing of sensor readings (portable: MicroPython and CPython).

A reading is a byte per cell: 0 empty, 1 occupied (piece unknown), or a piece byte. A cell's
reported state changes only when every scan for ``debounce_ms`` has read the same new value:
a reed switch that chatters or a piece that wobbles for less than that is never reported. The
change carries the time it was *first* seen, so a move's timing does not include the delay.
"""


class Debouncer:
    def __init__(self, initial, debounce_ms):
        self.state = bytearray(initial)  # the reported (debounced) value per cell
        self.candidate = bytearray(initial)
        self.since = [-1] * len(initial)  # when the candidate was first read; -1: none pending
        self.debounce_ms = debounce_ms

    def update(self, readings, now):
        """Feed one full scan; returns the changes that became stable as
        ``(cell, old, new, first_seen_ms)`` in cell order."""
        changes = []
        state = self.state
        candidate = self.candidate
        since = self.since
        wait = self.debounce_ms
        for cell in range(len(state)):
            value = readings[cell]
            if value == state[cell]:
                since[cell] = -1
                continue
            if since[cell] < 0 or value != candidate[cell]:
                candidate[cell] = value
                since[cell] = now
            if now - since[cell] >= wait:
                changes.append((cell, state[cell], value, since[cell]))
                state[cell] = value
                since[cell] = -1
        return changes

    def reset(self, readings):
        """Take ``readings`` as the reported state without reporting anything (at boot)."""
        for cell in range(len(self.state)):
            self.state[cell] = readings[cell]
            self.candidate[cell] = readings[cell]
            self.since[cell] = -1
