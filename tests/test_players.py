"""Who plays a side (controller/players.py) and an engine side in its own process
(controller/uci_player.py): real ``chessery engine`` processes, and Stockfish when installed."""

from __future__ import annotations

import argparse
import sys

import pytest

from controller.players import (
    HUMAN,
    Player,
    PlayerError,
    PlayerKind,
    add_player_options,
    chosen_players,
    parse_player,
    players_for,
)
from controller.uci_player import EnginePlayer
from engine import find_variant, start_position
from tests.system_stockfish import STOCKFISH

WAIT = 60.0


@pytest.mark.parametrize(("text", "expected"), [
    ("human", HUMAN),
    ("computer", Player(PlayerKind.COMPUTER, level=20)),
    ("computer:0", Player(PlayerKind.COMPUTER, level=0)),
    ("Computer:7", Player(PlayerKind.COMPUTER, level=7)),
    ("uci:stockfish", Player(PlayerKind.UCI, command=("stockfish",))),
    ("uci:/opt/engines/fsf --threads 2", Player(PlayerKind.UCI, command=("/opt/engines/fsf", "--threads", "2"))),
    ("remote:board-2", Player(PlayerKind.REMOTE, board="board-2")),
])
def test_player_descriptions_parse(text: str, expected: Player) -> None:
    assert parse_player(text) == expected
    assert parse_player(expected.text()) == expected  # text() round-trips


@pytest.mark.parametrize(("text", "why"), [
    ("robot", "expected human, computer"),
    ("computer:21", "0-20"),
    ("computer:hard", "whole number"),
    ("uci:", "needs the engine's command"),
    ("human:1", "takes nothing"),
    ("uci:'unclosed", "No closing quotation"),
])
def test_bad_player_descriptions_say_why(text: str, why: str) -> None:
    with pytest.raises(PlayerError, match=why):
        parse_player(text)


def test_side_options_map_onto_the_variants_sides() -> None:
    p = argparse.ArgumentParser()
    add_player_options(p)
    args = p.parse_args(["--black", "computer:3", "--red", "uci:stockfish"])
    chosen = chosen_players(args)
    assert chosen == {"black": Player(PlayerKind.COMPUTER, level=3),
                      "red": Player(PlayerKind.UCI, command=("stockfish",))}
    with pytest.raises(PlayerError, match="no side 'red'"):
        players_for(find_variant("chess"), chosen)
    tri = players_for(find_variant("triscacia"), {"red": "computer:1", "green": "computer"})
    assert tri == {0: HUMAN, 1: Player(PlayerKind.COMPUTER), 2: Player(PlayerKind.COMPUTER, level=1)}
    with pytest.raises(SystemExit):
        p.parse_args(["--white", "robot"])


@pytest.mark.parametrize("name", ["chess", "triscacia", "alice"])
def test_our_engine_plays_a_side_in_its_own_process(name: str) -> None:
    pos = start_position(find_variant(name))
    player = EnginePlayer(parse_player("computer:5"), pos)
    try:
        for _ in range(2):
            request = player.ask(pos, "go nodes 120")
            assert request.done.wait(WAIT), "no answer"
            assert request.error == "" and request.move is not None
            assert request.move in pos.legal_moves()
            pos.push(request.move)
        # stop: an infinite search answers at once when told
        request = player.ask(pos, "go infinite")
        player.stop()
        assert request.done.wait(WAIT) and request.move in pos.legal_moves()
    finally:
        player.close()
    assert player.proc.poll() is not None


def test_an_engine_that_does_not_start_is_a_clear_error() -> None:
    with pytest.raises(PlayerError, match="cannot start"):
        EnginePlayer(parse_player("uci:/nonexistent/engine"), start_position(find_variant("chess")))


def test_a_program_that_is_not_a_uci_engine_is_refused() -> None:
    # a real process that reads and ends without 'uciok'
    player = Player(PlayerKind.UCI, command=(sys.executable, "-c", "import sys; sys.stdin.readline()"))
    with pytest.raises(PlayerError, match="ended before 'uciok'"):
        EnginePlayer(player, start_position(find_variant("chess")))


@pytest.mark.skipif(STOCKFISH is None, reason="the system's stockfish is not installed")
def test_stockfish_plays_chess_and_is_refused_for_alice() -> None:
    pos = start_position(find_variant("chess"))
    player = EnginePlayer(parse_player(f"uci:{STOCKFISH}"), pos)
    try:
        request = player.ask(pos, "go depth 3")
        assert request.done.wait(WAIT) and request.move in pos.legal_moves()
    finally:
        player.close()
    with pytest.raises(PlayerError, match="does not play alice"):
        EnginePlayer(parse_player(f"uci:{STOCKFISH}"), start_position(find_variant("alice")))
