"""The firmware's main loop body (portable): port in, scan, heartbeat, port out, lights.

``step(now)`` is called over and over by main.py on the Pico, and by the simulated board's
thread on the host, so both run the same loop. ``port`` needs ``read()`` (bytes available now,
possibly empty, never blocking) and ``write(data)``, which never blocks either: it returns how
many bytes it took (None: all of them). Bytes it did not take (no host holds the port, or the
host does not read) wait in the core's output queue, which is bounded: the board goes on
scanning, drops events when the queue is full and says so with ERROR overflow once there is room
(docs/protocol.md, board rule 6). ``lights`` (optional) needs ``show(levels)`` with one 0/1 byte
per cell.
"""

try:
    from firmware_bridge.firmware.core import BoardCore
except ImportError:
    from core import BoardCore  # type: ignore[no-redef]


class FirmwareApp:
    def __init__(self, core, matrix, port, lights=None, now=0):
        self.core = core
        self.matrix = matrix
        self.port = port
        self.lights = lights
        self.readings = bytearray(matrix.cells)
        self.levels = bytearray(matrix.cells)
        self.next_scan = now

    @classmethod
    def boot(cls, matrix, port, now=0, lights=None, **options):
        """A freshly powered board: reads the matrix once as the starting state (no events for
        what already stands there) and sends its HELLO."""
        readings = matrix.scan()
        core = BoardCore(matrix.cells, now=now, initial=readings, **options)
        core.boot(now)
        app = cls(core, matrix, port, lights, now)
        app.flush()
        return app

    def step(self, now):
        core = self.core
        data = self.port.read()
        if data:
            core.receive(data, now)
        if now >= self.next_scan:
            self.matrix.scan(self.readings)
            core.scan(self.readings, now)
            self.next_scan = now + core.scan_ms
        core.tick(now)
        self.flush()
        if self.lights is not None:
            self.lights.show(core.leds.levels(now, self.levels))

    def flush(self):
        data = self.core.take_output()
        if data:
            taken = self.port.write(data)
            if taken is not None and taken < len(data):
                self.core.unsent(data[taken:])
