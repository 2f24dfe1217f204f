"""The board's end of a pseudo-terminal, found by the host through a stable symlink.

A real board appears as ``/dev/ttyACM0`` (or a udev symlink such as ``/dev/chessery-board``)
and, when its cable is pulled and plugged back, comes back as a *new* device. ``PtyPort`` does
the same with ``pty.openpty()``: :meth:`plug` opens a new pty and points ``link_path`` at its
slave, :meth:`unplug` closes it and removes the link (as udev removes its symlink), so a host
that reopens ``link_path`` with back-off finds the new device.
"""

from __future__ import annotations

import contextlib
import os
import pty
import shutil
import tempfile
import tty


class PtyPort:
    def __init__(self, link_path: str | None = None) -> None:
        self._tmpdir = None
        if link_path is None:
            self._tmpdir = tempfile.mkdtemp(prefix="chessery-board-")
            link_path = os.path.join(self._tmpdir, "board")
        self.link_path = link_path
        self.pty_path: str | None = None
        self._master: int | None = None
        self._slave: int | None = None
        self.dropped = 0  # bytes lost because the host did not read them
        self.plugs = 0  # how many ptys have been opened

    @property
    def plugged(self) -> bool:
        return self._master is not None

    def plug(self) -> str:
        """Open a new pty and point ``link_path`` at it; returns the pty's own path."""
        self.unplug()
        master, slave = pty.openpty()
        tty.setraw(slave)  # binary frames: no echo, no CR/LF translation, no ^C
        os.set_blocking(master, False)
        self._master, self._slave = master, slave
        self.plugs += 1
        self.pty_path = os.ttyname(slave)
        temp = f"{self.link_path}.{os.getpid()}.new"
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp)
        os.symlink(self.pty_path, temp)
        os.replace(temp, self.link_path)  # atomic: the host never sees a half-made link
        return self.pty_path

    def unplug(self) -> None:
        """Close the pty (the host's reads fail) and remove the link."""
        if self._master is None:
            return
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.link_path)
        # The slave end is kept open while plugged so that the master never reads EIO between
        # two host sessions; closing both is what makes the host's next read fail.
        for fd in (self._master, self._slave):
            with contextlib.suppress(OSError):
                os.close(fd)  # type: ignore[arg-type]
        self._master = self._slave = None

    def read(self) -> bytes:
        if self._master is None:
            return b""
        try:
            return os.read(self._master, 4096)
        except (BlockingIOError, OSError):
            return b""

    def write(self, data: bytes) -> None:
        if self._master is None:
            return
        view = memoryview(data)
        while view:
            try:
                written = os.write(self._master, view)
            except (BlockingIOError, OSError):
                self.dropped += len(view)  # a full buffer: lost, as on a real USB link
                return
            view = view[written:]

    def close(self) -> None:
        self.unplug()
        if self._tmpdir is not None:
            shutil.rmtree(self._tmpdir, ignore_errors=True)
            self._tmpdir = None
