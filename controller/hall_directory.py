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
from typing import TYPE_CHECKING, Any

from .hall_publish import make_client
from .hall_wire import PREFIX, WireError, check_online, check_state, parse_broker, split_topic

if TYPE_CHECKING:
    from .config import Config

log = logging.getLogger("chessery.hall")


class HallDirectory:
    """Boards known to be online in the hall, with the variant each plays; ``own`` (this
    board's name) is never offered."""

    def __init__(self, config: Config, own: str) -> None:
        self.own = own
        self.broker = parse_broker(config.hall)
        #: Notified when a board's word arrived.
        self.changed = threading.Condition()
        self._variants: dict[str, str] = {}
        self._online: dict[str, bool] = {}
        #: Set once the broker acknowledged the subscription (the retained messages follow it).
        self.subscribed = threading.Event()
        self.client = make_client(f"chessery-directory-{own}", config, self.broker)
        self.client.on_connect = self._on_connect
        self.client.on_message = self._on_message
        self.client.on_subscribe = lambda *_args: self.subscribed.set()

    def start(self) -> HallDirectory:
        self.client.connect_async(self.broker.host, self.broker.port, 15)
        self.client.loop_start()
        return self

    def stop(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()

    def boards(self, variant: str) -> list[str]:
        """Names of the boards online that play ``variant``, sorted."""
        with self.changed:
            return sorted(name for name, v in self._variants.items()
                          if v == variant and name != self.own and self._online.get(name, False))

    def _on_connect(self, client: Any, _u: Any, _f: Any, reason: Any, _p: Any) -> None:
        if reason.is_failure:
            log.error("hall: the broker at %s refused the board list: %s", self.broker.url, reason)
            return
        client.subscribe([(PREFIX + "+/online", 0), (PREFIX + "+/state", 0)])

    def _on_message(self, _client: Any, _u: Any, msg: Any) -> None:
        try:
            name, kind = split_topic(msg.topic)
            payload = bytes(msg.payload)
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
            log.warning("hall: dropped a message on %.80r: %s", msg.topic, str(exc)[:160])
