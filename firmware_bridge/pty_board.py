"""What every simulated board on a pseudo-terminal shares, whatever it speaks: the pty it plugs
(:class:`~firmware_bridge.virtual_port.PtyPort`), the board thread that ticks every millisecond
and plugs the cable back in after a simulated unplug, the life cycle, and playing a script to
its end. :class:`~firmware_bridge.simboard.SimBoard` (our firmware) and the DGT and Millennium
emulators (``firmware_bridge.boards.emulators``) are its kinds; each keeps its own clock type
(whole milliseconds for the firmware, fractions for the emulators' line timing).

A subclass sets ``port``, implements ``_now``, ``_boot`` (the board starts: at ``start`` and
after each replug), ``_tick`` (one tick, lock held) and ``start_script``, and sets
``_replug_at`` when it pulls its cable.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from typing import Generic, Self, TypeVar

from .script import Command
from .virtual_port import PtyPort

log = logging.getLogger(__name__)

TICK_S = 0.001

#: The board clock's type: int ms (the firmware's) or float ms.
T = TypeVar("T", int, float)


class PtyBoard(Generic[T]):
    def __init__(self, link_path: str | None) -> None:
        self.port = PtyPort(link_path)
        self.stopping = threading.Event()
        #: Set when the script has been played to the end (and the board is plugged in again).
        self.done = threading.Event()
        self.error: Exception | None = None
        self._lock = threading.RLock()
        self._thread: threading.Thread | None = None
        self._replug_at: T | None = None

    # -- life cycle ---------------------------------------------------------------------------------
    @property
    def path(self) -> str:
        """The stable path the host opens (a symlink to the current pty)."""
        return self.port.link_path

    def start(self) -> Self:
        """Open the pty, boot the board, start the board thread."""
        with self._lock:
            self.port.plug()
            self._boot(self._now())
        self._thread = threading.Thread(target=self._run, name=self._thread_name(), daemon=True)
        self._thread.start()
        return self

    def stop(self, timeout: float = 2.0) -> None:
        self.stopping.set()
        if self._thread is not None:
            self._thread.join(timeout)
        self.port.close()

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- the script -----------------------------------------------------------------------------------
    def start_script(self, script: str | Sequence[Command], wait_for_host: bool = True) -> None:
        raise NotImplementedError

    def play(self, script: str | Sequence[Command], timeout: float | None = None, wait_for_host: bool = True) -> None:
        """Play a whole script and return when it is done; raises TimeoutError."""
        self.start_script(script, wait_for_host)
        if not self.done.wait(timeout):
            raise TimeoutError(f"script not finished within {timeout} s")
        if self.error is not None:
            raise self.error

    # -- the board thread ---------------------------------------------------------------------------------
    def _thread_name(self) -> str:
        return f"board {self.path}"

    def _now(self) -> T:
        raise NotImplementedError

    def _boot(self, now: T) -> None:
        raise NotImplementedError

    def _tick(self, now: T) -> None:
        raise NotImplementedError

    def _run(self) -> None:
        try:
            while not self.stopping.is_set():
                with self._lock:
                    now = self._now()
                    if self._replug_at is not None and now >= self._replug_at:
                        self._replug_at = None
                        self.port.plug()
                        self._boot(now)
                    self._tick(now)
                self.stopping.wait(TICK_S)
        except Exception as exc:  # a crash must not leave play() waiting forever
            log.exception("%s crashed", self._thread_name())
            self.error = exc
            self.done.set()
