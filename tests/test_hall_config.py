"""The hall's configuration keys: good values kept, bad ones a one-line error naming the key."""

from __future__ import annotations

import tomllib

import pytest

from controller.config import ConfigError, parse_config
from controller.hall_wire import WireError, parse_broker, split_topic


def test_hall_keys_are_read() -> None:
    config = parse_config(tomllib.loads(
        'hall = "mqtt://hall.local:1884"\nhall_board = "board-12"\nhall_user = "b12"\nhall_password = "pw"\n'
        'hall_tls_ca = "/etc/ca.pem"\nhall_listen = "0.0.0.0:8000"\nhall_alert_s = 30\n'))
    assert config.hall == "mqtt://hall.local:1884" and config.hall_board == "board-12"
    assert config.hall_listen == "0.0.0.0:8000" and config.hall_alert_s == 30
    assert parse_config({"hall": "mqtts://broker"}).hall == "mqtts://broker:8883"
    assert parse_broker("mqtt://10.0.0.2").port == 1883


@pytest.mark.parametrize(("toml", "message"), [
    ('hall = "http://x:1"', "config: hall: expected mqtt://host:port or mqtts://host:port (credentials go in "
                            "hall_user and hall_password), got 'http://x:1'"),
    ('hall = "mqtt://u:p@x:1"', "config: hall: expected mqtt://host:port or mqtts://host:port (credentials go in "
                                "hall_user and hall_password), got 'mqtt://u:p@x:1'"),
    ('hall = "mqtt://x:99999"', "config: hall: expected mqtt://host:port or mqtts://host:port, got 'mqtt://x:99999'"),
    ('hall_board = "a/b"', "config: hall_board: expected a board name of 1 to 32 letters, digits, - or _, "
                           "got 'a/b'"),
    ('hall_board = "#"', "config: hall_board: expected a board name of 1 to 32 letters, digits, - or _, got '#'"),
    ('hall_listen = "8080"', "config: hall_listen: expected HOST:PORT like 127.0.0.1:8080, got '8080'"),
    ("hall_alert_s = 0", "config: hall_alert_s: expected seconds, a whole number from 1 to 3600, got 0"),
    ('hall_tls_cert = "c.pem"', "config: hall_tls_key: a client certificate needs both hall_tls_cert and "
                                "hall_tls_key"),
    ('hall_password = "pw"', "config: hall_password: a password needs hall_user"),
])
def test_bad_hall_values_name_the_key(toml: str, message: str) -> None:
    with pytest.raises(ConfigError) as info:
        parse_config(tomllib.loads(toml))
    assert str(info.value) == message


@pytest.mark.parametrize("name", ["chessery/hall/b1", "chessery/hall/b1/state/x", "chessery/hall/../state",
                                  "chessery/hall/b+/state", "chessery/hall/b1/secret", "other/hall/b1/state", ""])
def test_topics_outside_the_hall_are_refused(name: str) -> None:
    with pytest.raises(WireError):
        split_topic(name)
