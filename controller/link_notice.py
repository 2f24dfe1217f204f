"""What the screen says about a board that has never answered: a device that does not exist is
not "disconnected", and playing on makes no sense before the game has seen the board."""

from __future__ import annotations

import os


def never_connected(name: str, url: str) -> str:
    if "://" not in url and not os.path.exists(url):
        return f"No board: {url} does not exist. Check the cable and the port setting"
    return f"Waiting for the board at {name}: check that it is plugged in and switched on"
