"""systemd's notification protocol (``sd_notify``): ``READY=1``, ``WATCHDOG=1``, ``STATUS=...``
as datagrams to the unix socket named by ``NOTIFY_SOCKET`` (a path, or ``@name`` for the
abstract namespace). A dozen lines with the standard library instead of a dependency: the
protocol is one ``sendto``. Without ``NOTIFY_SOCKET`` (not started by systemd) nothing is sent.
"""

from __future__ import annotations

import os
import socket


class Notifier:
    def __init__(self, environ: dict[str, str] | None = None) -> None:
        env = os.environ if environ is None else environ
        address = env.get("NOTIFY_SOCKET", "")
        self.address = "\0" + address[1:] if address.startswith("@") else address
        usec = env.get("WATCHDOG_USEC", "")
        #: How often to ping (ms): half the watchdog's timeout; None when there is no watchdog.
        self.ping_ms: int | None = int(usec) // 2000 if usec.isdigit() and int(usec) > 0 else None
        self._sock: socket.socket | None = None

    @property
    def enabled(self) -> bool:
        return bool(self.address)

    def send(self, *fields: str) -> bool:
        """Send ``KEY=value`` fields in one datagram; False if it could not be sent."""
        if not self.address:
            return False
        try:
            if self._sock is None:
                self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)
            self._sock.sendto("\n".join(fields).encode("utf-8", "replace"), self.address)
        except OSError:
            return False
        return True

    def ready(self, status: str = "") -> bool:
        return self.send("READY=1", *([f"STATUS={status}"] if status else []))

    def watchdog(self) -> bool:
        return self.send("WATCHDOG=1")

    def status(self, text: str) -> bool:
        return self.send(f"STATUS={text}")

    def close(self) -> None:
        if self._sock is not None:
            self._sock.close()
            self._sock = None
