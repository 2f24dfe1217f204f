"""What the screen says about a board that has never answered: a device that does not exist is
not "disconnected", and playing on makes no sense before the game has seen the board."""

from __future__ import annotations

import os


def never_connected(name: str, url: str) -> str:
    if "://" not in url and not os.path.exists(url):
        return f"No board: {url} does not exist. Check the cable and the port setting"
    # The port opens (or is a URL), but nothing on it has said it is a board: a serial port
    # with no board behind it (/dev/ttyS0), or a board that is off. Nothing about the board is
    # known yet, so nothing else is said about it.
    return (f"Waiting for a board that answers at {name}: no board has answered on this port yet. Check "
            "that the board is plugged in and switched on, and that this is its port")
