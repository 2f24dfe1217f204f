"""The service's configuration: a TOML file, every key listed in ``KEYS`` and documented in
``docs/configuration.md``. A bad value or an unknown key is a ``ConfigError`` (a ValueError)
whose one line names the file and the key: ``config.toml: gpio.confirm: expected a GPIO pin
(0-27, a gpiozero pin name, or false), got 99``.

The file is optional: without one every key has its default. The default location is
``platformdirs.user_config_dir("chessery")/config.toml``; ``chessery run --config PATH`` names
another, and command-line options override single keys.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, fields, replace
from pathlib import Path
from typing import Any, Literal

from engine.errors import ChesseryError
from firmware_bridge.board_link import BoardKind

from .inference import Timing


class ConfigError(ChesseryError, ValueError):
    """A configuration value that cannot be used."""


Pin = int | str | None
#: A key that is on, off, or decided from the board.
Switch = Literal["auto", "true", "false"]
DisplayMode = Literal["kiosk", "windowed", "headless"]
#: How chessery run prints accepted moves: the engine's move text (uci) or SAN.
Notation = Literal["uci", "san"]


@dataclass(frozen=True)
class GpioConfig:
    enabled: bool = True
    pin_factory: str = ""
    confirm: Pin = 17
    takeback: Pin = 27
    menu: Pin = 22
    led_ok: Pin = 5
    led_attention: Pin = 6
    buzzer: Pin = 13
    encoder_a: Pin = None
    encoder_b: Pin = None
    clock: Pin = None


#: The GpioConfig fields that are pins, in the order pin clashes are reported.
GPIO_PINS = ("confirm", "takeback", "menu", "led_ok", "led_attention", "buzzer", "encoder_a", "encoder_b", "clock")


@dataclass(frozen=True)
class EventConfig:
    """PGN tags of the event; the operator menu can set the players per game."""

    name: str = "Chessery game"
    site: str = "?"
    round: str = "?"
    white: str = "?"
    black: str = "?"


@dataclass(frozen=True)
class ClockConfig:
    pause_on_question: bool = True
    pause_on_fix: bool = False


@dataclass(frozen=True)
class DgtConfig:
    """DGT boards (docs/boards.md): "auto" leaves it to what the board and its port say."""

    revelation: str = "auto"
    bluetooth: str = "auto"

    def driver_options(self) -> dict[str, bool]:
        """The DGT driver's ``revelation`` / ``bluetooth`` options the settings force."""
        return {name: value == "true" for name, value in (("revelation", self.revelation),
                                                          ("bluetooth", self.bluetooth)) if value != "auto"}


@dataclass(frozen=True)
class Config:
    variant: str = "chess"
    port: tuple[str, ...] = ()
    board: BoardKind = "chessery"
    last_move_lights: Switch = "auto"
    layout: str = ""
    orientation: int = 0
    identity: Switch = "auto"
    db: str = ""
    display: DisplayMode = "windowed"
    size: tuple[int, int] = (800, 480)
    frame: str = ""
    link_log: str = ""
    notation: Notation = "uci"
    time_control: str = ""
    operator_pin: str = ""
    status_file: str = ""
    hall: str = ""
    hall_board: str = ""
    hall_user: str = ""
    hall_password: str = ""
    hall_tls_ca: str = ""
    hall_tls_cert: str = ""
    hall_tls_key: str = ""
    hall_listen: str = "127.0.0.1:8080"
    hall_alert_s: int = 10
    #: Who plays each side, as (side name, player description) pairs: ``[players]`` in the file
    #: (controller/players.py); a side not named is human.
    players: tuple[tuple[str, str], ...] = ()
    #: The UCI ``go`` command an engine side is given for each move (its time or depth).
    engine_go: str = "go movetime 1000"
    #: UCI engines the operator menu offers for a side, as ``uci:COMMAND`` player descriptions.
    engines: tuple[str, ...] = ()
    timing: Timing = field(default_factory=Timing)
    gpio: GpioConfig = field(default_factory=GpioConfig)
    event: EventConfig = field(default_factory=EventConfig)
    clock: ClockConfig = field(default_factory=ClockConfig)
    dgt: DgtConfig = field(default_factory=DgtConfig)
    source: str = ""  # the file read, for messages


# -- value parsers: each returns the value or raises ValueError with the reason ----------------------
def _str(v: Any) -> str:
    if not isinstance(v, str):
        raise ValueError(f"expected text, got {v!r}")
    return v


def _name(v: Any) -> str:
    if not isinstance(v, str) or not v.strip():
        raise ValueError(f"expected a name, got {v!r}")
    return v


def _ports(v: Any) -> tuple[str, ...]:
    if isinstance(v, str):
        return (v,) if v else ()
    if isinstance(v, list) and v and all(isinstance(x, str) and x for x in v):
        return tuple(v)
    raise ValueError(f"expected a serial URL or a list of them, got {v!r}")


def _orientation(v: Any) -> int:
    if v not in (0, 180) or isinstance(v, bool):
        raise ValueError(f"expected 0 or 180 (degrees the board is turned), got {v!r}")
    return int(v)


def _choice(*allowed: str) -> Callable[[Any], str]:
    def parse(v: Any) -> str:
        if v not in allowed:
            raise ValueError(f"expected one of {', '.join(allowed)}, got {v!r}")
        return v
    return parse


def _identity(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return _choice("auto", "true", "false")(v)


def _size(v: Any) -> tuple[int, int]:
    try:
        w, h = (int(x) for x in str(v).lower().split("x"))
    except ValueError:
        raise ValueError(f"expected WIDTHxHEIGHT like 800x480, got {v!r}") from None
    if not (160 <= w <= 8192 and 120 <= h <= 8192):
        raise ValueError(f"size {w}x{h} is out of range (160x120 to 8192x8192)")
    return w, h


def _bool(v: Any) -> bool:
    if not isinstance(v, bool):
        raise ValueError(f"expected true or false, got {v!r}")
    return v


def _ms(v: Any) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 60_000:
        raise ValueError(f"expected milliseconds, a whole number from 0 to 60000, got {v!r}")
    return v


def _pin(v: Any) -> Pin:
    if v is False:
        return None
    if isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 27:
        return v
    if isinstance(v, str) and v and v.replace("_", "").isalnum():
        return v
    raise ValueError(f"expected a GPIO pin (0-27, a gpiozero pin name, or false), got {v!r}")


def _time_control(v: Any) -> str:
    from .clock import parse_time_control

    if v in ("", "none"):
        return ""
    return parse_time_control(_str(v)).text


def _hall(v: Any) -> str:
    from .hall_wire import parse_broker

    return "" if v == "" else parse_broker(_str(v)).url


def _hall_board(v: Any) -> str:
    from .hall_wire import check_name

    return check_name(v)


def _listen(v: Any) -> str:
    host, _, port = _str(v).rpartition(":")
    if not host or not port.isdigit() or not 0 <= int(port) < 65536:  # 0: any free port
        raise ValueError(f"expected HOST:PORT like 127.0.0.1:8080, got {v!r}")
    return v


def _seconds(v: Any) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= 3600:
        raise ValueError(f"expected seconds, a whole number from 1 to 3600, got {v!r}")
    return v


def _player(v: Any) -> str:
    from .players import PlayerError, parse_player

    try:
        return parse_player(_str(v)).text()
    except PlayerError as exc:
        raise ValueError(str(exc)) from None


def _engines(v: Any) -> tuple[str, ...]:
    from .menu_players import ENGINES_SHOWN
    from .players import PlayerError, parse_player

    if not isinstance(v, list) or not all(isinstance(x, str) for x in v) or len(v) > ENGINES_SHOWN:
        raise ValueError(f"expected a list of at most {ENGINES_SHOWN} engine commands like [\"stockfish\"], got {v!r}")
    out = []
    for command in v:
        text = command if command.strip().lower().startswith("uci:") else f"uci:{command}"
        try:
            out.append(parse_player(text).text())
        except PlayerError as exc:
            raise ValueError(str(exc)) from None
    return tuple(dict.fromkeys(out))  # one button each


def _go(v: Any) -> str:
    words = _str(v).split()
    if words[:1] != ["go"] or not {"movetime", "depth", "nodes"} & set(words):
        raise ValueError(f"expected a UCI go command with movetime, depth or nodes, got {v!r}")
    return " ".join(words)


def _digits(v: Any) -> str:
    if isinstance(v, int) and not isinstance(v, bool):
        v = str(v)
    if not isinstance(v, str) or not (v == "" or (v.isdigit() and 3 <= len(v) <= 8)):
        raise ValueError(f"expected 3 to 8 digits in quotes (or empty for no PIN), got {v!r}")
    return v


#: Every key: (parser, description). Sections are dotted.
KEYS: dict[str, tuple[Callable[[Any], Any], str]] = {
    "variant": (_name, "variant name (chessery variants)"),
    "port": (_ports, "serial URL of the board, or a list (one per board of a multi-board set); "
                     "empty: the built-in simulated board plays a demo game"),
    "board": (_choice("chessery", "dgt", "millennium"), "chessery | dgt | millennium: the kind of board on the "
                                                        "port(s) (docs/boards.md)"),
    "last_move_lights": (_identity, "auto | true | false: light the last move's cells on a board with lights "
                                    "(auto: on DGT and Millennium boards)"),
    "layout": (_str, "layout name (hardware/layouts) or TOML file mapping sensors to cells"),
    "orientation": (_orientation, "0, or 180 when the board is turned round"),
    "identity": (_identity, "auto | true | false: whether the board reads which piece stands where"),
    "db": (_str, "games database file (default: in the user data folder)"),
    "display": (_choice("kiosk", "windowed", "headless"), "kiosk | windowed | headless"),
    "size": (_size, "window size WIDTHxHEIGHT (windowed and headless)"),
    "frame": (_str, "PNG file the headless display keeps the current frame in"),
    "link_log": (_str, "file for the serial link's log (empty: stderr, warnings only)"),
    "notation": (_choice("uci", "san"), "uci | san: how chessery run prints accepted moves on stdout"),
    "time_control": (_time_control, "chess clock: 5+3, 90+30, 40/90+30,30+30, 5d3, 5b3; empty: no clock"),
    "operator_pin": (_digits, "digits the operator menu asks before its settings (empty: no PIN)"),
    **{f"event.{name}": (_str, "PGN tag") for name in ("name", "site", "round", "white", "black")},
    "clock.pause_on_question": (_bool, "stop the clock while a question is open"),
    "clock.pause_on_fix": (_bool, "stop the clock while the board must be fixed"),
    "dgt.revelation": (_identity, "auto | true | false: the DGT board is a Revelation II (square lights); "
                                  "auto: recognised by its long serial number or its port's name"),
    "dgt.bluetooth": (_identity, "auto | true | false: the DGT board is on Bluetooth (it scans at half speed); "
                                 "auto: an rfcomm port is"),
    "status_file": (_str, "file the service keeps its status in, for chessery status (empty: the user runtime "
                          "folder)"),
    "hall": (_hall, "MQTT broker of the hall, mqtt://host:port or mqtts://host:port (TLS); empty: no hall"),
    "hall_board": (_hall_board, "this board's name in the hall (letters, digits, - and _; default: the host name)"),
    "hall_user": (_str, "user name at the broker (empty: none)"),
    "hall_password": (_str, "password at the broker"),
    "hall_tls_ca": (_str, "CA certificate file the broker's certificate is checked against (empty: the system's)"),
    "hall_tls_cert": (_str, "client certificate file (PEM), with hall_tls_key"),
    "hall_tls_key": (_str, "client key file (PEM), with hall_tls_cert"),
    "hall_listen": (_listen, "where chessery hall serves its pages, HOST:PORT (default 127.0.0.1:8080)"),
    "hall_alert_s": (_seconds, "seconds a board may not match its game before the hall's arbiter view says so"),
    **{f"players.{name}": (_player, "who plays this side: human, computer[:LEVEL 0-20], uci:COMMAND, "
                                    "remote:BOARD") for name in ("white", "black", "blue", "green", "red")},
    "engine_go": (_go, "UCI go command for an engine side's move, e.g. go movetime 1000 or go depth 3"),
    "engines": (_engines, "UCI engines the operator menu offers for a side: a list of commands, e.g. "
                          "[\"stockfish\"] (at most 3)"),
    # (A board's own drag wait is the board's word; an owner sets drag_ms, which then holds.)
    **{f"timing.{f.name}": (_ms, "ms") for f in fields(Timing) if f.name != "board_drag_ms"},
    "gpio.enabled": (_bool, "false: never touch GPIO"),
    "gpio.pin_factory": (_str, "gpiozero pin factory (empty: gpiozero's choice)"),
    **{f"gpio.{name}": (_pin, "pin") for name in GPIO_PINS},
}


def default_path() -> Path:
    import platformdirs

    return Path(platformdirs.user_config_dir("chessery")) / "config.toml"


def parse_config(data: dict[str, Any], source: str = "config") -> Config:
    """A Config from TOML data; ``ConfigError`` naming the first bad key."""
    flat: dict[str, Any] = {}
    for key, value in data.items():
        if isinstance(value, dict):
            for sub, subvalue in value.items():
                flat[f"{key}.{sub}"] = subvalue
        else:
            flat[key] = value
    values: dict[str, Any] = {}
    for key, value in flat.items():
        if key not in KEYS:
            raise ConfigError(f"{source}: unknown key {key!r} (see docs/configuration.md)")
        parser, _doc = KEYS[key]
        try:
            values[key] = parser(value)
        except ValueError as exc:
            raise ConfigError(f"{source}: {key}: {exc}") from None
    timing = replace(Timing(), **{k[7:]: v for k, v in values.items() if k.startswith("timing.")})
    gpio = replace(GpioConfig(), **{k[5:]: v for k, v in values.items() if k.startswith("gpio.")})
    event = replace(EventConfig(), **{k[6:]: v for k, v in values.items() if k.startswith("event.")})
    clock = replace(ClockConfig(), **{k[6:]: v for k, v in values.items() if k.startswith("clock.")})
    dgt = replace(DgtConfig(), **{k[4:]: v for k, v in values.items() if k.startswith("dgt.")})
    top = {k: v for k, v in values.items() if "." not in k}
    top["players"] = tuple((k[8:], v) for k, v in values.items() if k.startswith("players."))
    config = Config(**top, timing=timing, gpio=gpio, event=event, clock=clock, dgt=dgt, source=source)
    values = asdict(gpio)
    pins = [(name, values[name]) for name in GPIO_PINS]
    seen: dict[Pin, str] = {}
    for name, pin in pins:
        if pin is None:
            continue
        if pin in seen:
            raise ConfigError(f"{source}: gpio.{name}: pin {pin} is already gpio.{seen[pin]}")
        seen[pin] = name
    if bool(config.hall_tls_cert) != bool(config.hall_tls_key):
        raise ConfigError(f"{source}: hall_tls_key: a client certificate needs both hall_tls_cert and hall_tls_key")
    if config.hall_password and not config.hall_user:
        raise ConfigError(f"{source}: hall_password: a password needs hall_user")
    if (gpio.encoder_a is None) != (gpio.encoder_b is None):
        raise ConfigError(f"{source}: gpio.encoder_b: a rotary encoder needs both encoder_a and encoder_b")
    return config


def load_config(path: str | Path | None) -> Config:
    """Read ``path`` (or the default location if it exists; else defaults)."""
    if path is None:
        p = default_path()
        if not p.exists():
            return Config()
    else:
        p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"{p}: cannot read: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        line = p.read_bytes()[:exc.start].count(b"\n") + 1
        raise ConfigError(f"{p}: line {line}: not UTF-8 text (byte 0x{exc.object[exc.start]:02x}); "
                          f"save the file as UTF-8") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{p}: not valid TOML: {exc}") from None
    return parse_config(data, str(p))
