"""The pure framer: feed it bytes, get decoded messages; every malformed frame is counted.

No I/O and no exceptions on bad input: a garbled stream, a truncated frame, a frame from a
future protocol version, an endless run without a delimiter or a type this side does not
understand each end up in :attr:`Framer.errors` (by class name) and in :attr:`Framer.last_error`
as a one-line description, and decoding carries on at the next 0x00.

Fields are checked against the board's latest HELLO as well: the framer remembers its cell count
(:attr:`Framer.cells`), so an EVENT for a cell the board does not have, or a SNAPSHOT of another
number of cells, is a *bad payload* like any other out-of-range field: dropped, counted, never
delivered (docs/protocol.md, section 1).
"""

from __future__ import annotations

from collections import Counter

from .codec import PayloadError, decode_frame
from .firmware import protocol as P
from .messages import Event, Hello, Message, Snapshot

#: The error classes a framer counts, in the order they are checked.
ERROR_CLASSES = ("oversized", "truncated", "bad_crc", "wrong_version", "unknown_type", "bad_payload")


class Framer:
    """Decodes one direction of the stream.

    ``Framer()`` reads what a board sends (HELLO, EVENT, SNAPSHOT, HEARTBEAT, ERROR);
    ``Framer(accept=P.HOST_TYPES)`` reads what a host sends. Anything else is ``unknown_type``.
    """

    def __init__(self, accept: tuple[int, ...] = P.BOARD_TYPES) -> None:
        self._deframer = P.Deframer(accept)
        self._payload_errors = 0
        self.last_error = ""
        self.frames = 0
        #: The cell count of the latest HELLO (None before one arrived): later EVENT and
        #: SNAPSHOT frames must fit it.
        self.cells: int | None = None

    def feed(self, data: bytes) -> list[Message]:
        raw = self._deframer.feed(bytes(data))
        if self._deframer.rejected:
            code, seq = self._deframer.rejected[-1]
            where = f" (seq {seq})" if seq != P.NO_SEQ else ""
            self.last_error = f"{P.ERROR_NAMES[code]} frame{where}"
            self._deframer.rejected = []
        out: list[Message] = []
        for mtype, seq, payload in raw:
            try:
                message = decode_frame(mtype, seq, payload)
                self._check_cells(message)
                out.append(message)
            except PayloadError as exc:
                self._payload_errors += 1
                self.last_error = f"bad_payload frame (seq {seq}): {exc}"
        self.frames += len(out)
        return out

    def _check_cells(self, message: Message) -> None:
        if isinstance(message, Hello):
            self.cells = message.cells
        elif self.cells is None:
            return
        elif isinstance(message, Event) and message.cell >= self.cells:
            raise PayloadError(f"EVENT for cell {message.cell} of a board of {self.cells} cells")
        elif isinstance(message, Snapshot) and message.cells != self.cells:
            raise PayloadError(f"SNAPSHOT of {message.cells} cells from a board of {self.cells} cells")

    @property
    def foreign_version(self) -> int | None:
        """The version byte of the latest frame of another protocol version (None: none seen)."""
        return self._deframer.foreign_version

    def reset(self) -> None:
        """Forget a partial frame (after the port was reopened)."""
        self._deframer.reset()

    @property
    def errors(self) -> Counter[str]:
        counts = Counter({P.ERROR_NAMES[code]: n for code, n in self._deframer.errors.items()})
        counts["bad_payload"] += self._payload_errors
        return counts

    @property
    def error_total(self) -> int:
        return sum(self.errors.values())

    def unreadable_reason(self) -> str:
        """Why every frame is rejected, for the player (asked once the rejections pile up): a
        board of another protocol version, or the error class seen most."""
        version = self.foreign_version
        errors = self.errors
        if version is not None and errors["wrong_version"] >= max(errors.values()):
            return (f"this board speaks protocol {version}, this host speaks protocol {P.VERSION}: "
                    f"update Chessery or the board's firmware")
        worst = max(errors, key=lambda k: errors[k])
        return (f"nothing the board sends can be read (every frame rejected, mostly {worst}): check the cable, "
                f"the baud rate and that this port is the board")
