"""Configuration: every key documented, the documented example valid, and every bad value a
one-line error naming the key."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from controller.cli import main
from controller.config import KEYS, ConfigError, load_config, parse_config
from controller.inference import Timing

DOC = Path(__file__).resolve().parent.parent / "docs" / "configuration.md"


def test_every_key_is_documented() -> None:
    text = DOC.read_text(encoding="utf-8")
    documented = set(re.findall(r"^\| `([a-z_.]+)` \|", text, re.MULTILINE))
    assert documented == set(KEYS)


def test_documented_example_is_valid() -> None:
    example = re.search(r"```toml\n(.*?)```", DOC.read_text(encoding="utf-8"), re.DOTALL)
    assert example is not None
    config = parse_config(tomllib.loads(example.group(1)), "example")
    assert config.port == ("/dev/ttyACM0",) and config.layout == "chess-8x8"
    assert config.gpio.encoder_a is None and config.gpio.confirm == 17
    assert config.timing == Timing()


def test_defaults_without_a_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    config = load_config(None)
    assert config.variant == "chess" and config.port == () and config.display == "windowed"


@pytest.mark.parametrize(("toml", "message"), [
    ('orientation = 90', "config: orientation: expected 0 or 180 (degrees the board is turned), got 90"),
    ('port = 5', "config: port: expected a serial URL or a list of them, got 5"),
    ('display = "tv"', "config: display: expected one of kiosk, windowed, headless, got 'tv'"),
    ('size = "big"', "config: size: expected WIDTHxHEIGHT like 800x480, got 'big'"),
    ('size = "10x10"', "config: size: size 10x10 is out of range (160x120 to 8192x8192)"),
    ('identity = "maybe"', "config: identity: expected one of auto, true, false, got 'maybe'"),
    ('[timing]\nsettle_ms = -5', "config: timing.settle_ms: expected milliseconds, a whole number from 0 to 60000, "
                                 "got -5"),
    ('[timing]\nguide_ms = "soon"', "config: timing.guide_ms: expected milliseconds, a whole number from 0 to "
                                    "60000, got 'soon'"),
    ('[gpio]\nconfirm = 99', "config: gpio.confirm: expected a GPIO pin (0-27, a gpiozero pin name, or false), "
                             "got 99"),
    ('[gpio]\nenabled = "yes"', "config: gpio.enabled: expected true or false, got 'yes'"),
    ('[gpio]\nmenu = 17', "config: gpio.menu: pin 17 is already gpio.confirm"),
    ('[gpio]\nclock = 22', "config: gpio.clock: pin 22 is already gpio.menu"),
    ('[gpio]\nencoder_a = 20', "config: gpio.encoder_b: a rotary encoder needs both encoder_a and encoder_b"),
    ('variant = "chess"\nprot = "/dev/ttyACM0"', "config: unknown key 'prot' (see docs/configuration.md)"),
    ('[timing]\nsetle_ms = 5', "config: unknown key 'timing.setle_ms' (see docs/configuration.md)"),
])
def test_bad_values_name_the_key(toml: str, message: str) -> None:
    with pytest.raises(ConfigError) as info:
        parse_config(tomllib.loads(toml))
    assert str(info.value) == message


def test_file_errors_name_the_file(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("variant = \n", encoding="utf-8")
    with pytest.raises(ConfigError, match=rf"^{re.escape(str(path))}: not valid TOML: "):
        load_config(path)
    with pytest.raises(ConfigError, match="cannot read"):
        load_config(tmp_path / "missing.toml")


def test_run_with_a_bad_config_exits_2_with_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "config.toml"
    path.write_text("[gpio]\nbuzzer = true\n", encoding="utf-8")
    assert main(["run", "--config", str(path), "--headless"]) == 2
    err = capsys.readouterr().err
    assert err == (f"chessery run: {path}: gpio.buzzer: expected a GPIO pin (0-27, a gpiozero pin name, or false), "
                   f"got True\n")


def test_run_with_an_unknown_variant_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "--variant", "checkers", "--headless", "--no-gpio"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("chessery run: unsupported variant: ") and "checkers" in err and err.count("\n") == 1
