"""``chessery hall``: a read-only web server showing every board of the hall.

It subscribes to the hall's topics at the broker (paho-mqtt, the same credentials and TLS keys
as a board) and serves, from the standard library's ``ThreadingHTTPServer`` (a handful of
read-only routes and one event stream need no framework, and the stdlib is kept up by Python
itself):

* ``/`` the hall: every board, drawn from its variant's geometry, live (Server-Sent Events);
* ``/board/NAME`` one board with its moves and clocks, live;
* ``/round/R.pgn`` every chess game of round R in one PGN (``[%clk]`` comments), the file
  lichess broadcasts poll; ``/round/R/variants.pgn`` the other variants' games;
* ``/arbiter`` alerts: boards offline, flags fallen, boards not matching their game, results;
* ``/events`` the stream the pages listen to; ``/hall.json`` the boards' states.

Only GET and HEAD are answered. It listens on 127.0.0.1 unless ``hall_listen`` says otherwise.
"""

from __future__ import annotations

import json
import logging
import re
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Self
from urllib.parse import parse_qs, urlsplit

from .config import Config
from .hall_client import HallSubscriber
from .hall_model import BoardView, HallModel
from .hall_pages import arbiter_page, board_body, board_page, board_pgn, card, hall_page, round_pgn
from .hall_wire import NAME, PREFIX

log = logging.getLogger("chessery.hall")

#: Seconds between keep-alive comments on an idle event stream (a proxy closes a silent one).
KEEPALIVE_S = 15.0
ROUND = re.compile(r"/round/([A-Za-z0-9_.-]{1,20})(\.pgn|/variants\.pgn)")


class HallServer(HallSubscriber):
    def __init__(self, config: Config, listen: str | None = None) -> None:
        self.config = config
        self.model = HallModel(config.hall_alert_s)
        host, _, port = (listen or config.hall_listen).rpartition(":")
        self.stopping = threading.Event()
        self.httpd = ThreadingHTTPServer((host, int(port)), _Handler)
        self.httpd.daemon_threads = True
        self.httpd.hall = self  # type: ignore[attr-defined]
        super().__init__(config, f"chessery-hall-{self.port}", [(PREFIX + "+/+", 1)])
        self._refusal = ""  # the broker's last reason, said once until it changes
        self._thread = threading.Thread(target=self.httpd.serve_forever, name="hall http", daemon=True)
        # Each board's card as last drawn, by the state it shows: every page watching gets the
        # same card for a change, drawn once (a hall with many spectators draws a move once).
        self._cards: dict[str, tuple[tuple[float, bool], str]] = {}
        self._cards_lock = threading.Lock()

    def card(self, board: BoardView) -> str:
        key = (board.received, board.online)
        with self._cards_lock:
            known = self._cards.get(board.name)
        if known is not None and known[0] == key:
            return known[1]
        html = card(board)
        with self._cards_lock:
            self._cards[board.name] = (key, html)
        return html

    @property
    def port(self) -> int:
        return int(self.httpd.server_address[1])

    @property
    def url(self) -> str:
        host = self.httpd.server_address[0]
        return f"http://{host if isinstance(host, str) else host.decode()}:{self.port}"

    def start(self) -> Self:
        super().start()
        self._thread.start()
        log.info("hall: serving %s from the broker at %s", self.url, self.broker.url)
        return self

    def stop(self) -> None:
        self.stopping.set()
        with self.model.changed:
            self.model.changed.notify_all()  # the event streams end
        self.httpd.shutdown()
        self.httpd.server_close()
        super().stop()

    # -- paho's thread -------------------------------------------------------------------------------
    def on_refused(self, reason: str) -> None:
        if reason != self._refusal:
            self._refusal = reason
            log.error("hall: the broker at %s refused the hall: %s", self.broker.url, reason)

    def on_message(self, topic_name: str, payload: bytes) -> None:
        try:
            self.model.feed(topic_name, payload)
        except Exception:  # a bug of ours on a message must not stop the hall's subscription
            log.exception("hall: a message on %.80r could not be handled", topic_name)


class _Handler(BaseHTTPRequestHandler):
    server_version = "ChesseryHall"

    @property
    def hall(self) -> HallServer:
        return self.server.hall  # type: ignore[attr-defined,no-any-return]

    def log_message(self, format: str, *args: Any) -> None:
        log.debug("hall http: " + format, *args)

    def do_HEAD(self) -> None:
        self.do_GET()

    def do_POST(self) -> None:
        self._send(HTTPStatus.METHOD_NOT_ALLOWED, "read-only\n", "text/plain")

    do_PUT = do_DELETE = do_PATCH = do_POST

    def _send(self, status: HTTPStatus, body: str, kind: str) -> None:
        data = body.encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", f"{kind}; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-cache")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Content-Security-Policy", "default-src 'self'; script-src 'unsafe-inline'; "
                                                    "style-src 'unsafe-inline'")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    def do_GET(self) -> None:
        url = urlsplit(self.path)
        path = url.path
        model = self.hall.model
        if path == "/":
            return self._send(HTTPStatus.OK, hall_page(model), "text/html")
        if path == "/arbiter":
            return self._send(HTTPStatus.OK, arbiter_page(model), "text/html")
        if path == "/events":
            return self._events(parse_qs(url.query).get("board", [""])[0])
        if path == "/hall.json":
            boards = {n: b.state for n in model.names() if (b := model.snapshot(n)) is not None}
            return self._send(HTTPStatus.OK, json.dumps({"version": model.version, "boards": boards}),
                              "application/json")
        if path.startswith("/board/"):
            name = path[len("/board/"):].removesuffix(".pgn")
            board = model.snapshot(name) if NAME.fullmatch(name) else None
            if board is None or board.state is None:
                return self._send(HTTPStatus.NOT_FOUND, "no such board\n", "text/plain")
            if path.endswith(".pgn"):
                return self._send(HTTPStatus.OK, board_pgn(board), "application/x-chess-pgn")
            return self._send(HTTPStatus.OK, board_page(board), "text/html")
        match = ROUND.fullmatch(path)
        if match:
            text = round_pgn(model, match.group(1), variants=match.group(2) != ".pgn")
            return self._send(HTTPStatus.OK, text, "application/x-chess-pgn")
        return self._send(HTTPStatus.NOT_FOUND, "not found\n", "text/plain")

    def _events(self, only: str) -> None:
        """The live stream: one event per change, with the changed boards' cards (or, for one
        board's page, its body)."""
        if only and not NAME.fullmatch(only):
            return self._send(HTTPStatus.NOT_FOUND, "no such board\n", "text/plain")
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.end_headers()
        model = self.hall.model
        version = model.version
        try:
            while not self.hall.stopping.is_set():
                now = model.wait(version, KEEPALIVE_S)
                if self.hall.stopping.is_set():
                    return
                if now == version:
                    self.wfile.write(b": keep-alive\n\n")
                    self.wfile.flush()
                    continue
                names = [n for n in model.changed_since(version) if not only or n == only]
                version = now
                data: dict[str, Any] = {"version": now}
                boards = [b for n in names if (b := model.snapshot(n)) is not None and b.state is not None]
                if only:
                    if not boards:
                        continue
                    data["page"] = board_body(boards[0])
                else:
                    data["cards"] = {b.name: self.hall.card(b) for b in boards}
                self.wfile.write(b"data: " + json.dumps(data).encode() + b"\n\n")
                self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            return  # the page was closed


def add_commands(sub: Any) -> None:
    p = sub.add_parser("hall", help="serve the live pages and PGN feeds of a hall of boards (MQTT)",
                       description="A read-only web server for every board publishing to the hall's "
                                   "MQTT broker (docs/hall.md).")
    p.add_argument("--config", help="configuration file (the hall, hall_listen, credentials)")
    p.add_argument("--broker", metavar="URL", help="the broker, mqtt://host:port (overrides hall)")
    p.add_argument("--listen", metavar="HOST:PORT", help="where to serve (default 127.0.0.1:8080)")
    p.add_argument("--demo", action="store_true",
                   help="a demo hall on this machine: simulated boards playing (and, without a broker "
                        "configured, a Mosquitto started for it)")
    p.set_defaults(handler=run_hall)


def run_hall(args: Any) -> int:
    from dataclasses import replace

    from .config import ConfigError, load_config, parse_config
    from .logs import setup_logging

    config = load_config(args.config)
    over: dict[str, Any] = {}
    if args.broker:
        over["hall"] = args.broker
    if args.listen:
        over["hall_listen"] = args.listen
    if over:
        given = parse_config(over, "command line")  # the same one-line errors as the file's
        config = replace(config, hall=given.hall if args.broker else config.hall,
                         hall_listen=given.hall_listen if args.listen else config.hall_listen)
    setup_logging("")
    if args.demo:
        from .hall_demo import run_demo_hall

        return run_demo_hall(config)
    if not config.hall:
        raise ConfigError("no broker: give --broker mqtt://host:port or set hall in the configuration")
    server = HallServer(config).start()
    print(f"hall: {server.url}", flush=True)
    stop = threading.Event()
    import signal

    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    stop.wait()
    server.stop()
    return 0
