"""The board's protocol logic (portable): what the firmware sends, and how it answers the host.

``BoardCore`` holds no pins and no clock: every call gets ``now`` in milliseconds since boot
(a plain, ever-growing integer), readings arrive as bytes from :class:`matrix.Matrix`, and the
bytes to send pile up in ``out`` until the I/O layer takes them with :meth:`take_output`.

Rules it follows (docs/protocol.md, "Board behaviour"):

* at boot: a lone 0x00 (flushes a half-received frame at the host) and a HELLO with token 0;
* every frame it sends carries the next sequence number (u16, from 0 at boot, wrapping);
* EVENT frames for every debounced change, in scan order; a piece swapped in one step is a
  lift and a place;
* SNAPSHOT reports the debounced state, i.e. exactly the state after the EVENTs sent before it;
* HEARTBEAT when nothing has been sent for ``heartbeat_ms`` and nothing waits to be sent (a
  board nobody reads does not pile up heartbeats);
* a host frame that is rejected is answered with ERROR (its code and, when readable, its seq);
* when more than ``max_output`` bytes wait unsent, new events are dropped (without using a
  sequence number) and an ERROR OVERFLOW follows as soon as there is room, so the host takes a
  snapshot;
* SET_LEDS with a reserved flag bit, a pattern above 3 or a cell it does not have is refused
  whole (ERROR bad_payload); on a board without lights a valid SET_LEDS is accepted and does
  nothing.
"""

try:
    from firmware_bridge.firmware import protocol as P
    from firmware_bridge.firmware.debounce import Debouncer
    from firmware_bridge.firmware.leds import Leds
except ImportError:
    import protocol as P  # type: ignore[no-redef]
    from debounce import Debouncer  # type: ignore[no-redef]
    from leds import Leds  # type: ignore[no-redef]

FIRMWARE_VERSION = (1, 0, 0)


class BoardCore:
    def __init__(self, cells, now=0, boot_id=0, board_id=0, identity=False, leds=True, initial=None,
                 scan_ms=5, debounce_ms=20, heartbeat_ms=250, firmware=FIRMWARE_VERSION, max_output=2048):
        if not 1 <= cells <= P.MAX_CELLS:
            raise ValueError(f"a board has 1..256 cells, not {cells}")
        self.cells = cells
        self.boot_id = boot_id & 0xFFFF
        self.board_id = board_id & 0xFFFFFFFF
        self.identity = identity
        self.has_leds = leds
        self.firmware = firmware
        self.scan_ms = scan_ms
        self.debounce_ms = debounce_ms
        self.heartbeat_ms = heartbeat_ms
        self.max_output = max_output
        self.seq = 0
        self.out = bytearray()
        self.overflowed = False
        self.last_sent = now
        self.snapshots_sent = 0
        self.deframer = P.Deframer(P.HOST_TYPES)
        self.debouncer = Debouncer(initial if initial is not None else bytes(cells), debounce_ms)
        self.leds = Leds(cells)

    # -- sending ---------------------------------------------------------------------------------
    def _send(self, mtype, payload, now):
        self.out.extend(P.encode_frame(mtype, self.seq, payload))
        self.seq = (self.seq + 1) & 0xFFFF
        self.last_sent = now

    def take_output(self):
        """The bytes waiting to be sent (and forget them)."""
        data = bytes(self.out)
        self.out = bytearray()
        return data

    def unsent(self, data):
        """Give back the bytes the port did not take: they go out first next time."""
        if data:
            self.out = bytearray(data) + self.out

    def caps(self):
        return (P.CAP_IDENTITY if self.identity else 0) | (P.CAP_LEDS if self.has_leds else 0)

    def send_hello(self, now, token=0):
        self._send(P.HELLO, P.pack_hello(self.board_id, self.cells, self.caps(), self.firmware, self.boot_id,
                                         self.heartbeat_ms, self.scan_ms, self.debounce_ms, token), now)

    def boot(self, now):
        self.out.extend(b"\x00")
        self.send_hello(now)

    def send_snapshot(self, now):
        self.snapshots_sent += 1
        self._send(P.SNAPSHOT, P.pack_snapshot(now, self.debouncer.state, self.identity), now)

    # -- the sensors -----------------------------------------------------------------------------
    def scan(self, readings, now):
        """Debounce one scan and send an EVENT per stable change; returns the events as
        ``(cell, action, piece byte, time_ms)``."""
        if self.overflowed and len(self.out) < self.max_output // 2:
            self.overflowed = False
            self._send(P.ERROR, P.pack_error(P.ERR_OVERFLOW), now)
        events = []
        for cell, old, new, first_seen in self.debouncer.update(readings, now):
            if old:
                events.append((cell, P.ACTION_LIFT, self._piece(old), first_seen))
            if new:
                events.append((cell, P.ACTION_PLACE, self._piece(new), first_seen))
        for cell, action, piece, time_ms in events:
            if len(self.out) >= self.max_output:
                self.overflowed = True  # the host learns through ERROR OVERFLOW and a snapshot
                continue
            self._send(P.EVENT, P.pack_event(cell, action, piece, time_ms), now)
        return events

    def _piece(self, reading):
        return reading if self.identity and reading >= 0x41 else P.PIECE_NONE

    def tick(self, now):
        """Send a HEARTBEAT when the line has been quiet for ``heartbeat_ms``."""
        if not self.out and now - self.last_sent >= self.heartbeat_ms:
            self._send(P.HEARTBEAT, P.pack_heartbeat(now, self.boot_id), now)

    # -- the host --------------------------------------------------------------------------------
    def receive(self, data, now):
        """Handle bytes from the host; answers go to ``out``."""
        frames = self.deframer.feed(data)
        for code, seq in self.deframer.rejected:
            self._send(P.ERROR, P.pack_error(code, seq), now)
        self.deframer.rejected = []
        for mtype, seq, payload in frames:
            if mtype == P.REQUEST_SNAPSHOT:
                self.send_snapshot(now)
            elif mtype == P.PING:
                self.send_hello(now, P.unpack_ping(payload))
            elif mtype == P.SET_LEDS:
                self._set_leds(seq, payload, now)
            elif mtype == P.SET_PARAMS:
                self._set_params(seq, payload, now)

    def _set_leds(self, seq, payload, now):
        pattern, flags, cells = P.unpack_set_leds(payload)
        if (pattern not in P.LED_PATTERNS or flags & ~P.LEDS_REPLACE & 0xFF
                or any(cell >= self.cells for cell in cells)):
            self._send(P.ERROR, P.pack_error(P.ERR_BAD_PAYLOAD, seq), now)
            return
        self.leds.set(cells, pattern, flags & P.LEDS_REPLACE)

    def _set_params(self, seq, payload, now):
        scan_ms, debounce_ms, heartbeat_ms = P.unpack_set_params(payload)
        if scan_ms == P.KEEP:
            scan_ms = self.scan_ms
        if debounce_ms == P.KEEP:
            debounce_ms = self.debounce_ms
        if heartbeat_ms == P.KEEP:
            heartbeat_ms = self.heartbeat_ms
        if not (_within(scan_ms, P.SCAN_MS_RANGE) and _within(debounce_ms, P.DEBOUNCE_MS_RANGE)
                and _within(heartbeat_ms, P.HEARTBEAT_MS_RANGE)):
            self._send(P.ERROR, P.pack_error(P.ERR_BAD_PAYLOAD, seq), now)
            return
        self.scan_ms = scan_ms
        self.debounce_ms = debounce_ms
        self.debouncer.debounce_ms = debounce_ms
        self.heartbeat_ms = heartbeat_ms
        self.send_hello(now)


def _within(value, bounds):
    return bounds[0] <= value <= bounds[1]
