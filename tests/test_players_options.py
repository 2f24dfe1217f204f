"""Who plays each side, from ``chessery run``'s options and the configuration file: the options
over the file, a bad player or go command a one-line error naming the key, and a side the
variant does not have refused."""

from __future__ import annotations

import pytest

import engine
from controller.cli import build_parser
from controller.config import ConfigError, parse_config
from controller.players import PlayerError, PlayerKind, players_for
from controller.service.run import configure


def test_the_players_table_and_the_command_line_on_top(tmp_path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('engine_go = "go  depth 3"\n[players]\nblack = "computer:4"\nwhite = "uci:stockfish -q"\n',
                    encoding="utf-8")
    args = build_parser().parse_args(["run", "--config", str(path), "--white", "human"])
    config = configure(args)
    assert dict(config.players) == {"black": "computer:4", "white": "human"}
    assert config.engine_go == "go depth 3"
    players = players_for(engine.find_variant("chess"), dict(config.players))
    assert players[0].kind is PlayerKind.HUMAN
    assert players[1].kind is PlayerKind.COMPUTER and players[1].level == 4


@pytest.mark.parametrize(("text", "says"), [
    ('[players]\nblack = "robot"\n', "players.black: bad player 'robot'"),
    ('[players]\nblack = "computer:99"\n', "players.black: bad player 'computer:99': the level must be 0-20"),
    ('engine_go = "movetime 100"\n', "engine_go: expected a UCI go command"),
])
def test_a_bad_player_in_the_file_names_its_key(text: str, says: str) -> None:
    import tomllib

    with pytest.raises(ConfigError, match="config: " + says.replace("(", r"\(")):
        parse_config(tomllib.loads(text))


def test_a_bad_player_option_is_a_usage_error(capsys) -> None:
    with pytest.raises(SystemExit) as exc:
        build_parser().parse_args(["run", "--black", "computer:x"])
    assert exc.value.code == 2
    assert "the level must be a whole number 0-20" in capsys.readouterr().err


def test_a_side_the_variant_does_not_have_is_refused() -> None:
    with pytest.raises(PlayerError, match="chess has no side 'red'"):
        players_for(engine.find_variant("chess"), {"red": "computer"})
