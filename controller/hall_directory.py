"""The boards of the hall a board could play a remote game with, for the operator menu's
"Who plays Black?" screen: learnt from the broker's retained messages (each board's ``online``
and ``state``), so nothing but the broker needs to know who is in the hall.

It listens only while the operator menu is open (``controller.service.opponents``): the menu
takes a few taps to reach that screen, by which time the broker has handed over every retained
message; a board at play does not parse the whole hall's traffic the rest of the time. Every
message passes controller.hall_wire's checks first; a bad one is logged and dropped.
"""

from __future__ import annotations

import logging
import threading
from typing import TYPE_CHECKING

from .hall_client import HallSubscriber
from .hall_wire import PREFIX, WireError, check_online, check_state, split_topic

if TYPE_CHECKING:
    from .config import Config

log = logging.getLogger("chessery.hall")


class HallDirectory(HallSubscriber):
    """Boards known to be online in the hall, with the variant each plays; ``own`` (this
    board's name) is never offered."""

    def __init__(self, config: Config, own: str) -> None:
        super().__init__(config, f"chessery-directory-{own}", [(PREFIX + "+/online", 0), (PREFIX + "+/state", 0)])
        self.own = own
        #: Notified when a board's word arrived.
        self.changed = threading.Condition()
        self._variants: dict[str, str] = {}
        self._online: dict[str, bool] = {}

    def boards(self, variant: str) -> list[str]:
        """Names of the boards online that play ``variant``, sorted."""
        with self.changed:
            return sorted(name for name, v in self._variants.items()
                          if v == variant and name != self.own and self._online.get(name, False))

    def on_refused(self, reason: str) -> None:
        log.error("hall: the broker at %s refused the board list: %s", self.broker.url, reason)

    def on_message(self, topic_name: str, payload: bytes) -> None:
        try:
            name, kind = split_topic(topic_name)
            if kind == "online":
                online = check_online(payload)
                with self.changed:
                    self._online[name] = online
                    self.changed.notify_all()
            elif kind == "state":
                variant = check_state(payload)["variant"]
                with self.changed:
                    self._variants[name] = variant
                    self.changed.notify_all()
        except WireError as exc:
            log.warning("hall: dropped a message on %.80r: %s", topic_name, str(exc)[:160])
