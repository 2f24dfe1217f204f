"""A maker board's driver on its emulator's pty, for the driver tests: open the driver on a
started emulator and close it however the test ends (:func:`driver_on`), and wait for what the
two threads change with no event to wait on (:func:`until`, :func:`eventually`).

    with DgtEmulator("chess", revelation=True) as board, driver_on(board, DgtDriver) as link:
        link.set_leds([12], "on")
        assert until(link, lambda: board.lit == {52})
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from firmware_bridge.boards.board_emulator import BoardEmulator
from firmware_bridge.boards.driver import BoardDriver

#: How long a connection, a round trip or a state is waited for.
TIMEOUT = 10.0

Driver = TypeVar("Driver", bound=BoardDriver)


@contextlib.contextmanager
def driver_on(board: BoardEmulator, driver: Callable[..., Driver], **options: Any) -> Iterator[Driver]:
    """``driver(board.path, **options)`` started and connected to ``board``; closed on leaving."""
    link = driver(board.path, **options).start()
    try:
        assert link.wait_connected(TIMEOUT), f"{link.name}: not connected within {TIMEOUT:g} s"
        yield link
    finally:
        link.close()


def until(link: BoardDriver, test: Callable[[], bool]) -> bool:
    """Round trips to the board (each a ping it answers) until ``test`` holds or TIMEOUT."""
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        if test():
            return True
        link.ping(TIMEOUT)
    return test()


def eventually(test: Callable[[], bool], timeout: float = TIMEOUT) -> bool:
    """``test`` holds within ``timeout`` s: for states the emulator's and the driver's own threads
    change with nothing to wait on but the state itself."""
    pause = threading.Event()
    deadline = time.monotonic() + timeout
    while not test() and time.monotonic() < deadline:
        pause.wait(0.01)
    return test()
