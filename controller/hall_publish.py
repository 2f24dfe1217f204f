"""A board's side of the hall: publish its game to the hall's MQTT broker (paho-mqtt).

The service calls :meth:`HallPublisher.follow` on its controller thread after each committed
update; the publisher works out the state and the events since the last one
(controller.hall_state) and hands them to paho, whose own network thread sends them. Only
final moves are ever published: the state is the session's committed position.

A broker that is away loses nothing: the events wait in the outbox (controller.hall_outbox, a
small SQLite file beside the games file, so they survive a restart of the board too) and are
sent in order once the broker is back, one in flight at a time, so that a resend cannot
overtake a later message. A message whose acknowledgement was lost may arrive
twice; each event carries (``run``, ``seq``) -- ``run`` is when this publisher started, ``seq``
counts its events, both kept with the outbox across restarts -- and readers apply each number
once. On every (re)connection the board
publishes its whole state again (retained): a broker that lost its retained messages, or a
hall that missed events while the board was away, learns the game from it. The last will,
``{"online": false}`` on the board's ``online`` topic, tells the hall when the board vanishes.
"""

from __future__ import annotations

import logging
import socket
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .core_types import StatusKind
from .hall_client import KEEPALIVE_S, make_client
from .hall_outbox import Outbox
from .hall_state import StateBuilder, events_of
from .hall_wire import dumps, parse_broker, topic

if TYPE_CHECKING:
    import paho.mqtt.client as mqtt

    from .config import Config
    from .service import Service

log = logging.getLogger("chessery.hall")


def board_name(config: Config) -> str:
    """The configured name, else the host name cut to what a topic allows."""
    if config.hall_board:
        return config.hall_board
    name = "".join(c if c.isalnum() or c in "-_" else "-" for c in socket.gethostname())[:32]
    return name or "board"


class HallPublisher:
    """``outbox``: the file the events wait in (None: in memory only)."""

    def __init__(self, config: Config, name: str | None = None, outbox: Path | None = None) -> None:
        self.config = config
        self.broker = parse_broker(config.hall)
        self.name = name or board_name(config)
        #: Events not yet acknowledged by the broker, oldest first, and their numbering.
        self._outbox = Outbox(outbox, self.name)
        self.run = self._outbox.run
        self.seq = self._outbox.seq
        self.connected = threading.Event()
        #: Set at the broker's first answer (CONNACK), welcome or refusal.
        self.answered = threading.Event()
        #: Set when a connection attempt got no answer (broker down, TLS refused).
        self.unreachable = threading.Event()
        #: The broker's reason when it refused this board (wrong password...), else "".
        self.refused = ""
        self._stopping = False
        self._builder = StateBuilder()
        self._state: dict[str, Any] | None = None
        self._followed: tuple[Any, ...] = ()
        self._state_due = False  # the state to publish after the events
        self._acked: set[int] = set()
        self._wake = threading.Condition()
        self.client = make_client(f"chessery-board-{self.name}", config, self.broker)
        self.client.will_set(topic(self.name, "online"), dumps({"online": False}), qos=1, retain=True)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_connect_fail = self._on_connect_fail
        self.client.on_publish = self._on_publish
        self._sender = threading.Thread(target=self._send, name=f"hall {self.name}", daemon=True)

    # -- the service's side ------------------------------------------------------------------------
    def start(self, service: Service | None = None) -> HallPublisher:
        log.info("hall: publishing board %s to %s", self.name, self.broker.url)
        if service is not None:
            state = self._builder.state(service)
            with self._wake:
                # the moves made since the game last numbered (a restart: those committed in
                # the instant before it) are events too; a new outbox starts from this state
                if self._outbox.game is not None:
                    self._number(self._outbox.game, state)
                self._state = self._numbered(state)
                self._state_due = True
        self.client.connect_async(self.broker.host, self.broker.port, KEEPALIVE_S)
        self.client.loop_start()
        self._sender.start()
        return self

    def follow(self, service: Service) -> None:
        """After an update was committed (controller thread): publish what changed. Most
        updates (each sensor event of a move under way) change nothing the hall shows: those
        are told apart by a cheap key before the state is built (which reads the store)."""
        session = service.session
        stack = session.position.move_stack
        kind = session.status.kind
        key = (session.game_id, session.phase, StatusKind.IDLE if kind == StatusKind.MOVING else kind, len(stack),
               id(stack[-1]) if stack else 0, tuple(sorted(service.players.items())))
        if key == self._followed:
            return
        self._followed = key
        self.publish_state(self._builder.state(service))

    def publish_state(self, state: dict[str, Any]) -> None:
        """Publish ``state`` (hall_state's dict) and the events since the last one: nothing
        when only the time stamp or the clocks moved (the clocks go with the next change).
        Never blocks: the sender thread does the sending."""
        with self._wake:
            before = self._state
            if before is not None and _same(before, state):
                return
            self._number(before if before is not None else self._outbox.game, state)
            self._state = self._numbered(state)
            self._state_due = True
            self._wake.notify_all()

    def _number(self, before: dict[str, Any] | None, state: dict[str, Any]) -> None:
        """Number the events from ``before`` to ``state`` and keep them in the outbox."""
        payloads = []
        for event in events_of(before, state):
            self.seq += 1
            payloads.append(dumps({**event, "run": self.run, "seq": self.seq}))
        if payloads:
            self._outbox.add(payloads, self.seq, state)

    @property
    def pending(self) -> int:
        """Events the broker has not acknowledged yet."""
        with self._wake:
            return len(self._outbox)

    def stop(self, timeout: float = 3.0) -> None:
        """Say goodbye (``online: false``, the will is then not sent) and disconnect; events
        the broker has not taken by then wait in the outbox for the next start."""
        with self._wake:
            self._stopping = True
            self._wake.notify_all()
        if self._sender.is_alive():
            self._sender.join(timeout)
        if self.connected.is_set():
            mid = self.client.publish(topic(self.name, "online"), dumps({"online": False}), qos=1, retain=True).mid
            with self._wake:
                self._wake.wait_for(lambda: mid in self._acked or not self.connected.is_set(), timeout)
        self.client.disconnect()
        self.client.loop_stop()
        with self._wake:
            self._outbox.close()

    # -- the sender thread: one message in flight at a time, events in order, then the state ------------
    def _send(self) -> None:
        while True:
            with self._wake:
                self._wake.wait_for(lambda: self._stopping or (self.connected.is_set()
                                                               and (bool(self._outbox) or self._state_due)))
                if self._stopping:
                    return
                first = self._outbox.first()
                if first is not None:
                    what, payload, retain = "event", first, False
                else:
                    assert self._state is not None
                    what, payload, retain = "state", dumps(self._state), True
                    self._state_due = False
            # Handed to paho once: should the connection drop before the broker's acknowledgement,
            # paho sends it again (marked as a repeat) when it is back, before anything newer.
            # (Acknowledgements are told by message id: paho's MQTTMessageInfo of a message
            # handed over while the connection was down stays "failed" even once it is sent.)
            # (Not under our lock: paho's thread takes it in on_publish while holding its own.)
            mid = self.client.publish(topic(self.name, what), payload, qos=1, retain=retain).mid
            with self._wake:
                self._wake.wait_for(self._acknowledged(mid))
                if mid in self._acked and what == "event":
                    self._outbox.sent()
                self._acked.discard(mid)

    def _acknowledged(self, mid: int) -> Callable[[], bool]:
        return lambda: self._stopping or mid in self._acked

    # -- paho's thread -------------------------------------------------------------------------------
    def _numbered(self, state: dict[str, Any]) -> dict[str, Any]:
        return {**state, "run": self.run, "seq": self.seq}

    def _on_publish(self, _client: mqtt.Client, _userdata: Any, mid: int, *_rest: Any) -> None:
        with self._wake:
            self._acked.add(mid)
            self._wake.notify_all()

    def _on_connect(self, client: mqtt.Client, _userdata: Any, _flags: Any, reason: Any, _props: Any) -> None:
        if reason.is_failure:
            if str(reason) != self.refused:
                self.refused = str(reason)
                log.error("hall: the broker at %s refused board %s: %s", self.broker.url, self.name, reason)
            self.answered.set()
            return
        self.answered.set()
        self.refused = ""
        log.info("hall: connected to %s", self.broker.url)
        client.publish(topic(self.name, "online"), dumps({"online": True}), qos=1, retain=True)
        with self._wake:
            # the whole state again, after the events still due: the broker may have lost it
            self._state_due = self._state is not None
            self.connected.set()
            self._wake.notify_all()

    def _on_connect_fail(self, _client: mqtt.Client, _userdata: Any) -> None:
        # no answer at all: the broker is down or unreachable, or the TLS handshake failed
        # (a certificate one side does not trust; with TLS 1.3 the broker's refusal of the
        # client's certificate arrives as the connection closing before any answer, see
        # _on_disconnect); said once until the next success
        if not self.refused:
            self.refused = "no connection"
            log.error("hall: cannot connect to the broker at %s (down, unreachable, or TLS refused); "
                      "moves are kept, trying again", self.broker.url)
        self.unreachable.set()

    def _on_disconnect(self, _client: mqtt.Client, _userdata: Any, _flags: Any, reason: Any, _props: Any) -> None:
        if self.connected.is_set() and not self._stopping:
            log.warning("hall: lost the broker at %s (%s); moves are kept until it is back", self.broker.url, reason)
        elif not self.connected.is_set() and not self._stopping and not self.refused:
            self._on_connect_fail(_client, _userdata)
        with self._wake:
            self.connected.clear()
            self._wake.notify_all()


def _same(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Nothing the hall shows changed. A hand over the board (``moving``) is not news: it comes
    and goes several times a move, and the hall learns the move itself when it is final."""
    def shown(status: str) -> str:
        return "idle" if status == "moving" else status

    return shown(a["status"]) == shown(b["status"]) and all(
        a[k] == b[k] for k in ("game", "moves", "result", "players", "event", "round", "variant"))


def hall_publisher(config: Config, games: Path | None = None) -> HallPublisher | None:
    """The service's publisher, or None without a hall configured; its outbox beside the
    ``games`` file (None: in memory)."""
    from .hall_outbox import outbox_path

    if not config.hall:
        return None
    return HallPublisher(config, outbox=outbox_path(games) if games is not None else None)
