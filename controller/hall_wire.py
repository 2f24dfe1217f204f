"""The hall's wire format: broker URLs, board names, topics, and the checks every payload
passes before anyone acts on it.

Topics (``BOARD`` is the board's name from the configuration, ``[A-Za-z0-9_-]{1,32}``):

* ``chessery/hall/BOARD/state`` -- retained JSON: the whole game as it stands (see
  :func:`check_state`). A hall that comes late, or a broker that lost everything, learns the
  game from it alone.
* ``chessery/hall/BOARD/event`` -- JSON, QoS 1, not retained: each final move (and a takeback the
  players asked for, and the end of a game) as it happens, numbered (``run``, ``seq``) so a
  reader applies each exactly once and in order.
* ``chessery/hall/BOARD/online`` -- retained ``{"online": true|false}``; the broker publishes
  the board's last will (``false``) when the board vanishes without saying goodbye.

Everything that arrives from the broker is data from the network: a payload that is not what
these checks expect raises :class:`WireError`, which the reader logs in one line and drops.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from engine.errors import ChesseryError

PREFIX = "chessery/hall/"
KINDS = ("state", "event", "online")
#: A board's name: safe in a topic (no ``/``, ``+``, ``#``), a URL path and an HTML id.
NAME = re.compile(r"[A-Za-z0-9_-]{1,32}")
#: The largest payload read (bytes): a 13x13 game of 400 plies in SAN is well under 64 KiB.
MAX_PAYLOAD = 256 * 1024
MAX_PLIES = 2000
EVENT_KINDS = ("move", "undo", "end", "start")
STATUS_KINDS = ("idle", "moving", "ask", "fix", "setup", "over", "offline")


class WireError(ChesseryError, ValueError):
    """A topic or payload that is not the hall's: logged and dropped."""


@dataclass(frozen=True)
class Broker:
    host: str
    port: int
    tls: bool

    @property
    def url(self) -> str:
        return f"{'mqtts' if self.tls else 'mqtt'}://{self.host}:{self.port}"


def parse_broker(text: str) -> Broker:
    """``mqtt://host:port`` (port 1883 by default) or ``mqtts://host:port`` (TLS, 8883)."""
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError:
        raise ValueError(f"expected mqtt://host:port or mqtts://host:port, got {text!r}") from None
    if parts.scheme not in ("mqtt", "mqtts") or not parts.hostname or parts.path not in ("", "/") \
            or parts.query or parts.username or parts.password:
        raise ValueError(f"expected mqtt://host:port or mqtts://host:port (credentials go in hall_user and "
                         f"hall_password), got {text!r}")
    tls = parts.scheme == "mqtts"
    return Broker(parts.hostname, port or (8883 if tls else 1883), tls)


def check_name(text: Any) -> str:
    if not isinstance(text, str) or not NAME.fullmatch(text):
        raise ValueError(f"expected a board name of 1 to 32 letters, digits, - or _, got {text!r}")
    return text


def topic(board: str, kind: str) -> str:
    return f"{PREFIX}{board}/{kind}"


def split_topic(name: str) -> tuple[str, str]:
    """(board, kind) of a hall topic; WireError for anything else."""
    parts = name.split("/")
    if len(parts) != 4 or f"{parts[0]}/{parts[1]}/" != PREFIX or parts[3] not in KINDS \
            or not NAME.fullmatch(parts[2]):
        raise WireError(f"not a hall topic: {name[:80]!r}")
    return parts[2], parts[3]


def _load(payload: bytes) -> dict[str, Any]:
    if len(payload) > MAX_PAYLOAD:
        raise WireError(f"payload of {len(payload)} bytes is over {MAX_PAYLOAD}")
    try:
        data = json.loads(payload.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise WireError(f"not JSON: {str(exc)[:80]}") from None
    if not isinstance(data, dict):
        raise WireError("not a JSON object")
    return data


def _field(data: dict[str, Any], key: str, kind: type | tuple[type, ...], *, limit: int = 200) -> Any:
    value = data.get(key)
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise WireError(f"field {key!r}: unexpected {type(value).__name__}")
    if isinstance(value, str) and len(value) > limit:
        raise WireError(f"field {key!r}: longer than {limit} characters")
    return value


def _texts(data: dict[str, Any], key: str, limit: int) -> list[str]:
    values = _field(data, key, list)
    if len(values) > limit or not all(isinstance(v, str) and len(v) <= 40 for v in values):
        raise WireError(f"field {key!r}: not a list of at most {limit} short texts")
    return values


def check_online(payload: bytes) -> bool:
    return bool(_field(_load(payload), "online", bool))


def check_state(payload: bytes) -> dict[str, Any]:
    """A board's retained state; WireError unless every field is there and of its type. The
    variant name is checked against the engine's variants, the position by the engine's own
    FEN parser, by the hall (controller.hall_model), which has the engine at hand."""
    data = _load(payload)
    for key in ("variant", "fen", "start_fen", "status", "result", "event", "round", "site", "termination", "date"):
        _field(data, key, str)
    for key in ("run", "seq", "game", "updated"):
        if not isinstance(data.get(key), int) or isinstance(data.get(key), bool) or data[key] < 0:
            raise WireError(f"field {key!r}: expected a whole number >= 0")
    if data["status"] not in STATUS_KINDS:
        raise WireError(f"field 'status': unknown {data['status'][:20]!r}")
    moves = _texts(data, "moves", MAX_PLIES)
    san = _texts(data, "san", MAX_PLIES)
    if len(moves) != len(san):
        raise WireError("fields 'moves' and 'san' differ in length")
    players = _texts(data, "players", 8)
    clocks = data.get("clocks")
    if clocks is not None and (not isinstance(clocks, list) or len(clocks) != len(players)
                               or not all(isinstance(c, int | float) and not isinstance(c, bool) for c in clocks)):
        raise WireError("field 'clocks': expected null or one number per player")
    ply_clocks = _field(data, "ply_clocks", list)
    if len(ply_clocks) > MAX_PLIES or not all(c is None or (isinstance(c, int) and not isinstance(c, bool))
                                              for c in ply_clocks):
        raise WireError("field 'ply_clocks': expected whole numbers or nulls")
    _field(data, "time_control", str)
    _field(data, "message", str, limit=400)
    return data


def check_event(payload: bytes) -> dict[str, Any]:
    data = _load(payload)
    for key in ("run", "seq", "game", "ply"):
        if not isinstance(data.get(key), int) or isinstance(data.get(key), bool) or data[key] < 0:
            raise WireError(f"field {key!r}: expected a whole number >= 0")
    if data.get("kind") not in EVENT_KINDS:
        raise WireError(f"field 'kind': unknown {str(data.get('kind'))[:20]!r}")
    _field(data, "move", str, limit=40)
    _field(data, "san", str, limit=40)
    return data


def dumps(data: dict[str, Any]) -> bytes:
    return json.dumps(data, separators=(",", ":")).encode()
