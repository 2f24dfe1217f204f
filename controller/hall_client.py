"""Clients of the hall's MQTT broker (paho-mqtt): how every one of ours connects, and the
subscriber that the hall's readers share.

A board's publisher (controller.hall_publish) and the hall's readers -- the board list of the
operator menu (controller.hall_directory), the other board of a remote game
(controller.hall_remote) and ``chessery hall`` (controller.hall_server) -- all log in with the
configured credentials and TLS keys and try again at the same pace when the broker is away.
"""

from __future__ import annotations

import threading
from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Any, Self

from .hall_wire import Broker, parse_broker

if TYPE_CHECKING:
    import paho.mqtt.client as mqtt

    from .config import Config

#: Seconds between reconnection attempts: from the first to the longest.
RECONNECT_S = (1, 4)
#: Seconds of silence after which paho pings the broker (and the broker gives up on us after 1.5 times that).
KEEPALIVE_S = 15


def make_client(client_id: str, config: Config, broker: Broker) -> mqtt.Client:
    """A paho client with the configured credentials and TLS (MQTT 3.1.1)."""
    import paho.mqtt.client as mqtt

    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id, protocol=mqtt.MQTTv311)
    if config.hall_user:
        client.username_pw_set(config.hall_user, config.hall_password or None)
    if broker.tls or config.hall_tls_ca or config.hall_tls_cert:
        client.tls_set(ca_certs=config.hall_tls_ca or None, certfile=config.hall_tls_cert or None,
                       keyfile=config.hall_tls_key or None)
    client.reconnect_delay_set(*RECONNECT_S)
    return client


class HallSubscriber(ABC):
    """A reader of the hall: subscribes to ``topics`` (filter, QoS) on every connection -- the
    session is clean, so a reconnection must subscribe again -- and hands each message to
    :meth:`on_message` on paho's network thread. Subclasses say what a message means and what a
    refusal by the broker is to be called."""

    def __init__(self, config: Config, client_id: str, topics: list[tuple[str, int]]) -> None:
        self.broker = parse_broker(config.hall)
        self.topics = topics
        #: Set once the broker acknowledged the subscription (SUBACK), not when it was asked
        #: for: a message published between the two would be lost to us. The retained messages
        #: follow the acknowledgement.
        self.subscribed = threading.Event()
        self.client = make_client(client_id, config, self.broker)
        self.client.on_connect = self._on_connect
        self.client.on_subscribe = lambda *_args: self.subscribed.set()
        self.client.on_message = lambda _client, _u, msg: self.on_message(msg.topic, bytes(msg.payload))

    def start(self) -> Self:
        """Connect in the background (paho's thread); it keeps trying while the broker is away."""
        self.client.connect_async(self.broker.host, self.broker.port, KEEPALIVE_S)
        self.client.loop_start()
        return self

    def stop(self) -> None:
        """Disconnect and end paho's thread. No timeout of ours is needed: the thread ends
        within paho's own bounds (a connection attempt under way gives up after 5 s, a wait
        before the next one checks every second)."""
        self.client.disconnect()
        self.client.loop_stop()

    @abstractmethod
    def on_message(self, topic_name: str, payload: bytes) -> None:
        """A message on one of the topics (paho's thread)."""

    @abstractmethod
    def on_refused(self, reason: str) -> None:
        """The broker refused the connection (paho's thread); paho tries again."""

    def _on_connect(self, client: Any, _u: Any, _f: Any, reason: Any, _p: Any) -> None:
        if reason.is_failure:
            self.on_refused(str(reason))
            return
        client.subscribe(self.topics)
