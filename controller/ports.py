"""Telling a mistyped port from a board that is not plugged in yet, before the service starts.

A URL that pyserial can never open (``bogus://x``, an empty name) is a permanent error: the
service refuses to start with one line. A device path that does not exist (yet) is not: USB
boards appear when plugged in, and ``/dev/serial/by-id/...`` names only exist while the board
is there. So the service starts and waits for it, but says once what it waits for and, when an
existing serial port has a name close to the one given, which one was probably meant.
"""

from __future__ import annotations

import difflib
import glob
import os

import serial

from engine.errors import ChesseryError


class PortError(ChesseryError, ValueError):
    """A port URL that can never work."""


def serial_ports() -> list[str]:
    """Serial devices present now: what pyserial lists, plus the stable names udev makes."""
    from serial.tools import list_ports

    found = {port.device for port in list_ports.comports()}
    found.update(glob.glob("/dev/serial/by-id/*"))
    found.update(glob.glob("/dev/chessery*"))
    return sorted(found)


def check_port(url: str) -> str | None:
    """Raise :class:`PortError` for a URL that can never be opened; return a one-line warning
    for a device path that is not there (yet); None when the port looks usable."""
    if not url.strip():
        raise PortError("empty port name: give a device path like /dev/ttyACM0 or a URL like socket://host:7000")
    try:
        serial.serial_for_url(url, do_not_open=True)
    except ValueError as exc:  # pyserial: an unknown scheme or malformed URL, before any I/O
        raise PortError(f"{url}: not a port ({exc}); give a device path like /dev/ttyACM0 or a URL like "
                        f"socket://host:7000") from None
    if "://" in url or os.path.exists(url):
        return None
    guess = difflib.get_close_matches(url, serial_ports(), n=1, cutoff=0.75)
    hint = f"did you mean {guess[0]}? " if guess else ""
    return f"{url} does not exist (yet): {hint}waiting for a board to be plugged in there"
