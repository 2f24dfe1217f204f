"""Royal Fury played whole on the simulated 10x10 board (the reference firmware's code behind a
real pty, contacts bouncing) into ``chessery run --headless --variant royal-fury`` through the
shipped 10x10 layout: charges, leaping chains and swaps go through the generic inference (every
victim lifted, in whatever order the hands take them; two men changing cells for a swap), the
store records exactly the demo game and its result, and the last frame shows both sides' men."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

import engine
from controller.cli import main
from controller.demo_games import DEMO_GAMES
from controller.event_scripts import Style
from controller.service import demo_script
from tests.demo_game_runs import play_demo_through_pty, run_demo_without_a_port, script_lines
from tests.frame_colours import frame_shows

RF = engine.find_variant("royal-fury")
LAYOUT = ("--layout", "square-10x10")


def test_the_demo_shows_every_kind_of_coded_capture_and_ends_with_both_furies_taken() -> None:
    pos = engine.start_position(RF)
    multi = swaps = chains = 0
    for text in DEMO_GAMES["royal-fury"]:
        move = pos.parse_move(text)
        multi += len(move.victims) > 1
        swaps += len(move.relocations) == 2
        chains += ":" in text
        pos.push(move)
    assert (multi, swaps, chains) == (6, 2, 4)
    outcome = pos.outcome()
    assert outcome is not None and (outcome.termination, outcome.winner) == ("furies_captured", 0)
    assert len(RF.rules.royal_cells(pos.board, 1)) == 0 and len(RF.rules.royal_cells(pos.board, 0)) == 2
    lines = demo_script(RF, None, watched=False)
    assert [line.split()[-1] for line in lines if line.startswith("# ")] == list(DEMO_GAMES["royal-fury"])


def test_chessery_play_gives_the_outcome_and_rejects_an_illegal_move(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "royal-fury", *DEMO_GAMES["royal-fury"]]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "1-0 furies_captured"
    assert main(["play", "royal-fury", "c2c8~"]) != 0  # the Ximaera faces only her own men
    err = capsys.readouterr().err
    assert err.startswith("chessery play: move 1 'c2c8~' is not legal in ") and err.count("\n") == 1


def test_whole_game_through_the_pty_into_chessery_run(tmp_path: Path) -> None:
    game = play_demo_through_pty(tmp_path, "royal-fury", seed=5, args=LAYOUT)
    assert (game.record.result, game.record.termination) == ("1-0", "furies_captured")
    image = pygame.image.load(str(game.frame))
    assert image.get_size() == (800, 480)
    assert frame_shows(image, "royal-fury")
    assert "Game over: 1-0 (furies captured)" in game.err


def test_an_identity_board_plays_it_with_its_victims_taken_off_first(tmp_path: Path) -> None:
    lines = script_lines("royal-fury", Style(identity=True, capture="victim", think_ms=40, hand_ms=30))
    game = play_demo_through_pty(tmp_path, "royal-fury", seed=7, lines=lines, identity=True, args=LAYOUT)
    assert (game.record.result, game.record.termination) == ("1-0", "furies_captured")


def test_chessery_run_without_a_port_plays_the_demo_to_its_end(tmp_path: Path) -> None:
    err, frame = run_demo_without_a_port(tmp_path, "royal-fury")
    assert "Game over: 1-0 (furies captured)" in err
    assert frame_shows(pygame.image.load(str(frame)), "royal-fury")
