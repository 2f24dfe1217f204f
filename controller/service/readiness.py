"""What systemd hears from the service (Type=notify units): READY once the screen shows its first
frame, then watchdog pings while both the controller and the window loops are alive."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from controller.notify import Notifier

if TYPE_CHECKING:
    from .service import Service


class Readiness:
    def __init__(self, service: Service) -> None:
        self.service = service
        #: systemd's notify socket.
        self.notifier = Notifier()
        self._ready_sent = False
        self._ping_at = 0

    def wait_s(self) -> float | None:
        """Seconds until the next watchdog ping is due (None: no watchdog)."""
        if self.notifier.ping_ms is None:
            return None
        return max(0.0, (self._ping_at - self.service.now()) / 1000)

    def notify(self) -> None:
        """READY=1 once the screen shows its first frame; WATCHDOG=1 every half watchdog period
        while the controller loop runs and the window's loop is alive too (a hung display must
        be restarted as much as a hung controller)."""
        if not self.notifier.enabled:
            return
        service = self.service
        window = service.window
        if not self._ready_sent and (window is None or window.renders > 0):
            self._ready_sent = self.notifier.ready(f"refereeing {service.variant.title}")
        ping = self.notifier.ping_ms
        now = service.now()
        if ping is not None and self._ready_sent and now >= self._ping_at:
            if window is None or time.monotonic() - window.alive_at < 2 * ping / 1000:
                self.notifier.watchdog()
            self._ping_at = now + ping
