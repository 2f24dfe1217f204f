"""The Duffery games, Rettah and Double Rettah played whole on the simulated board (the reference
firmware's code behind a real pty, contacts bouncing) into ``chessery run --headless --variant
NAME`` in its own process: the service must record exactly the recorded demo game, end it with
the game's own result, and leave a frame showing the board with both sides' men."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pygame
import pytest

import engine
from controller.demo_games import DEMO_GAMES
from display import theme
from tests.child import REPO
from tests.demo_game_runs import play_demo_through_pty, played_demo

RESULTS = {
    "duffery-simpletons": ("0-1", "checkmate"),
    "duffery-advancing": ("0-1", "king_capture"),
    "duffery-capturing": ("0-1", "king_capture"),
    "rettah": ("0-1", "king_capture"),
    "double-rettah": ("1-0", "checkmate"),
}
NAMES = sorted(RESULTS)


@pytest.mark.parametrize("name", NAMES)
def test_recorded_demo_game_is_legal_and_ends_as_recorded(name: str) -> None:
    pos = played_demo(name)
    outcome = pos.outcome()
    assert outcome is not None
    winner = {0: "1-0", 1: "0-1", None: "1/2-1/2"}[outcome.winner]
    assert (winner, outcome.termination) == RESULTS[name]


def test_rettah_demo_shows_the_rule_of_check() -> None:
    pos = engine.start_position(engine.find_variant("rettah"))
    forced: list[tuple[str, set[str]]] = []
    for text in DEMO_GAMES["rettah"]:
        if pos.is_check():
            forced.append((text, {pos.move_text(m) for m in pos.legal_moves()}))
        pos.push_text(text)
    # Nb3+ leaves only the three captures of b3; Ra3+ only the two captures of a3
    assert forced == [("a2b3", {"a1b3", "a2b3", "c2b3"}), ("a1a3", {"a1a3", "b2a3"})]


@pytest.mark.parametrize("name", NAMES)
def test_whole_game_through_the_pty_into_chessery_run(tmp_path: Path, name: str) -> None:
    game = play_demo_through_pty(tmp_path, name, seed=7)
    result, termination = RESULTS[name]
    assert (game.record.result, game.record.termination) == (result, termination)
    image = pygame.image.load(str(game.frame))
    assert image.get_size() == (800, 480)
    w, h = image.get_size()
    colours = {image.get_at((x, y))[:3] for x in range(0, w // 2, 2) for y in range(0, h, 2)}
    # the 8x8 board's two square colours and both sides' piece fills are on the frame
    assert set(theme.SQUARES) <= colours
    assert {theme.SIDE_COLOURS["white"][0], theme.SIDE_COLOURS["black"][0]} <= colours
    assert f"Game over: {result} ({termination.replace('_', ' ')})" in game.err


def chessery(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "controller.cli", *args], capture_output=True, text=True,
                          cwd=REPO, timeout=60)


@pytest.mark.parametrize("name", NAMES)
def test_chessery_play_gives_each_demo_games_outcome(name: str) -> None:
    done = chessery("play", name, *DEMO_GAMES[name])
    assert done.returncode == 0, done.stderr
    result, termination = RESULTS[name]
    assert done.stdout.splitlines()[-1] == f"{result} {termination}"


def test_chessery_play_the_rettah_worked_lines_and_a_move_off_the_simpletons_menu() -> None:
    worked = ("--fen", "8/8/5q2/8/1k4NR/b7/7N/5K2 w - - 0 1", "rettah")
    assert chessery("play", *worked, "f1f6", "a3b2", "f6b2", "b4b2").stdout.splitlines()[-1] == "0-1 king_capture"
    assert chessery("play", *worked, "g4f6", "b4h4", "h2f3", "h4f3", "f1f3").stdout.splitlines()[-1] == \
        "1-0 king_capture"
    # the rule of check: after Nxf6 Black may not ignore the rook's check
    bad = chessery("play", *worked, "g4f6", "a3b2")
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.strip().splitlines() == [
        "chessery play: move 2 'a3b2' is not legal in 8/8/5N2/8/1k5R/b7/7N/5K2 b - - 0 1"]
    # Simpletons: 1.e4 d5 2.exd5 is a legal chess move but off the menu (Bb5+ is a check)
    bad = chessery("play", "duffery-simpletons", "e2e4", "d7d5", "e4d5")
    assert bad.returncode == 2 and "move 3 'e4d5' is not legal" in bad.stderr
    assert chessery("play", "duffery-simpletons", "e2e4", "d7d5", "f1b5").returncode == 0
