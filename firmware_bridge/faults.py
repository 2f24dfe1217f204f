"""Fault injection for the simulated board, and the ``--faults`` syntax.

A comma-separated list; ``@N`` means "just before the N-th lift/place of the script" (counted
from 1; sleep and choose lines do not count) and defaults to 1:

==================  ===================================================================
``bounce``          every lift/place chatters 1-3 times, each glitch shorter than the
                    firmware's debounce time: the firmware must filter it
``bounce=MS``       glitches of MS ms, each held until the board has reported it when MS
                    is at least the debounce time: the host sees real flicker pairs
``flip=P``          each byte the board sends has one bit flipped with probability P
``drop=P``          each byte the board sends is lost with probability P
``pause=MS@N``      the board stops (sends and reads nothing) for MS ms; default MS: five
                    heartbeats, longer than the host's silence limit
``unplug=MS@N``     the cable is pulled: the pty closes and its link disappears; after MS
                    ms (default 500) a new pty appears behind the same link and the board
                    boots again. Moves of the script go on while it is unplugged
``reset@N``         the board reboots: new boot id, sequence numbers from 0, lights off
``garbage=K@N``     K random bytes on the line (default 16); DGT and Millennium emulators
``corrupt@N``       the board's next message is damaged (a Millennium report with a wrong
                    check, a DGT message cut short); DGT and Millennium emulators
``resend=MS@N``     the EVENT frame of action N is sent a second time right after it, with the
                    same sequence number and a time MS ms later (default 20): a board that
                    reuses a number (simulated board)
``smash=K@N``       the EVENT frame of action N is destroyed: K random bytes without a
                    delimiter are mixed into it (default 8), so the host rejects it whole
                    and sees a sequence gap (simulated board)
==================  ===================================================================

Example: ``bounce,flip=0.01,drop=0.01,pause=1500@3,unplug@12,reset@20``. Every random choice
comes from one ``random.Random(seed)``, so a run is repeatable.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.errors import ChesseryError

FAULT_HELP = ("comma list of: bounce, bounce=MS, flip=P, drop=P, pause=MS@N, unplug=MS@N, reset@N, "
              "garbage=K@N, corrupt@N, resend=MS@N, smash=K@N (@N: before the N-th lift/place, default 1), "
              "e.g. bounce,flip=0.01,unplug@12")


class FaultError(ChesseryError, ValueError):
    """A --faults text that does not parse."""


@dataclass
class Faults:
    bounce_ms: int | None = None  # None: no bounce; 0: short glitches below the debounce time
    flip: float = 0.0
    drop: float = 0.0
    pauses: dict[int, int | None] = field(default_factory=dict)  # action number -> ms (None: default)
    unplugs: dict[int, int] = field(default_factory=dict)  # action number -> ms
    resets: set[int] = field(default_factory=set)
    garbage: dict[int, int] = field(default_factory=dict)  # action number -> bytes (board emulators)
    corrupt: set[int] = field(default_factory=set)  # action numbers (board emulators)
    resends: dict[int, int] = field(default_factory=dict)  # action number -> ms later (simulated board)
    smashes: dict[int, int] = field(default_factory=dict)  # action number -> garbage bytes (simulated board)

    @property
    def any(self) -> bool:
        return bool(self.bounce_ms is not None or self.flip or self.drop or self.pauses or self.unplugs
                    or self.resets or self.garbage or self.corrupt or self.resends or self.smashes)


def parse_faults(text: str | None) -> Faults:
    """Parse the ``--faults`` syntax (see the module docstring); raises FaultError."""
    faults = Faults()
    for item in (text or "").split(","):
        item = item.strip()
        if not item:
            continue
        spec, _, at_text = item.partition("@")
        name, has_value, value = spec.partition("=")
        name = name.strip()

        def bad(why: str, item: str = item) -> FaultError:
            return FaultError(f"bad fault {item!r}: {why} (expected {FAULT_HELP})")

        at = 1
        if at_text:
            if not at_text.isdigit() or int(at_text) < 1:
                raise bad("@N needs a whole number from 1")
            at = int(at_text)
        if name in ("flip", "drop"):
            try:
                probability = float(value)
            except ValueError:
                raise bad("needs a probability such as 0.01") from None
            if not has_value or not 0.0 <= probability <= 1.0 or at_text:
                raise bad("needs =P with 0 <= P <= 1 and no @N")
            setattr(faults, name, probability)
            continue
        ms: int | None = None
        if has_value:
            if not value.isdigit():
                raise bad("needs a whole number of milliseconds")
            ms = int(value)
        if name == "bounce":
            if at_text:
                raise bad("bounce applies to every lift/place and takes no @N")
            faults.bounce_ms = ms or 0
        elif name == "pause":
            faults.pauses[at] = ms
        elif name == "unplug":
            faults.unplugs[at] = 500 if ms is None else ms
        elif name in ("reset", "corrupt"):
            if has_value:
                raise bad(f"{name} takes no =value")
            (faults.resets if name == "reset" else faults.corrupt).add(at)
        elif name == "garbage":
            faults.garbage[at] = 16 if ms is None else ms
        elif name == "resend":
            faults.resends[at] = 20 if ms is None else ms
        elif name == "smash":
            faults.smashes[at] = ms or 8
        else:
            raise bad("unknown fault")
    return faults
