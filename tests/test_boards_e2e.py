"""DGT and Millennium boards end to end: a board emulator (written from the protocol
descriptions, not from the drivers) plays real historical games on a real pty into ``chessery run
--headless --board KIND`` in its own process, with each board's own scan timing: field updates in
scan order, pieces dragged across squares, captures lifting either piece first, replies right
after the last move. What the service records must be the game the hands played, whatever the
line does meanwhile (a cable pulled, garbage bytes, a damaged message, a silent board)."""

from __future__ import annotations

from pathlib import Path

import chess.pgn
import pytest

import engine
from controller.event_scripts import OPERA_GAME, Style, script_for_moves
from tests.demo_game_runs import run_demo_without_a_port
from tests.emulated_games import play_through_service
from tests.pty_games import replay_stream

REPO = Path(__file__).resolve().parent.parent
CHESS = engine.find_variant("chess")
PGN = REPO / "tests" / "data" / "pgn" / "historical-games.pgn"


def historical_game(index: int) -> list[str]:
    """The moves of the index-th game of the test collection, in the engine's notation."""
    with PGN.open(encoding="utf-8") as f:
        for _ in range(index):
            chess.pgn.skip_game(f)
        game = chess.pgn.read_game(f)
    assert game is not None
    return [move.uci() for move in game.mainline_moves()]


@pytest.mark.parametrize("kind", ["dgt", "millennium"])
def test_a_whole_historical_game_with_slides_and_captures_both_ways(tmp_path: Path, kind: str) -> None:
    moves = historical_game(0)  # Anderssen-Slous, London 1851: 55 plies, 13 captures
    style = Style(capture="alternate", castle="alternate", slide=True, slide_rest_ms=5, identity=True,
                  think_ms=150, hand_ms=80)
    _board, _run, lines = play_through_service(tmp_path, kind, moves, style)
    assert replay_stream(lines) == moves
    # Final moves only: nothing printed is ever taken back, on either board.
    assert not [line for line in lines if line.startswith("undo ")], lines


@pytest.mark.parametrize("kind", ["dgt", "millennium"])
def test_fast_replies_on_a_board_turned_round(tmp_path: Path, kind: str) -> None:
    """The reply starts right after the move (no thinking time, the hands two plies ahead of the
    referee), on a board standing the wrong way round: the driver sees it from the start
    position. A recapture waits 250 ms after the capturing piece was put down (a quick human):
    a piece that stands on a square for less than one DGT scan is never seen by that board, and
    one standing less than the Millennium's drag wait (201 ms) may be read as a slide."""
    moves = historical_game(5)[:30]
    style = Style(capture="victim", castle="king", identity=True, think_ms=0, reaction_ms=250, hand_ms=60)
    _board, _run, lines = play_through_service(tmp_path, kind, moves, style, ahead=2, turned=True)
    assert replay_stream(lines) == moves


@pytest.mark.parametrize("kind", ["dgt", "millennium"])
def test_cable_pull_garbage_and_a_damaged_message_lose_nothing(tmp_path: Path, kind: str) -> None:
    """Around the cable pull the hands stay at most one ply ahead of the referee, so at most one
    move is made while the cable is out: more could leave the order of the moves made meanwhile
    open (the referee then asks, which no one answers here). Elsewhere they stay two plies
    ahead, as players do: the next move's first touch makes a move that could still go on (a
    pawn's single step, a slide) final, where one ply ahead it waits the referee's whole quiet
    for a hand that hesitates (``timing.hesitate_ms``, 3 s) -- ten times in this game."""
    moves = historical_game(2)[:40]
    style = Style(capture="attacker", identity=True, think_ms=250, hand_ms=80)
    unplug = 31
    faults = f"garbage=40@7,corrupt@15,unplug=700@{unplug},garbage=9@45"
    pulled = ply_of_action(script_for_moves(CHESS, moves, style), unplug)
    # The ply the cable is pulled in starts once the ply before it is printed, the next one once
    # the pulled one is (the cable back in).
    close = range(pulled, pulled + 2)
    board, run, lines = play_through_service(tmp_path, kind, moves, style, close=close, faults=faults, seed=4)
    assert replay_stream(lines) == moves
    assert board.boots == 2  # it really was unplugged
    err = "".join(run.err)
    assert "reconnecting" in err and "back after" in err


def ply_of_action(lines: list[str], action: int) -> int:
    """The index of the ply (a ``# N. move`` comment starts each) in which the script's
    ``action``-th lift or place (from 1, as the faults count them) is made."""
    ply, count = -1, 0
    for line in lines:
        if line.startswith("# "):
            ply += 1
        elif line.split()[:1] in (["lift"], ["place"]):
            count += 1
            if count == action:
                return ply
    raise ValueError(f"the script has fewer than {action} lifts and placements")


@pytest.mark.parametrize("kind", ["dgt", "millennium"])
def test_run_with_a_maker_board_and_no_port_plays_the_demo_on_an_emulated_one(tmp_path: Path, kind: str) -> None:
    """``chessery run --board KIND`` with nothing plugged in: the demo game plays on an emulated
    board of that make (its driver, its timing), not on our own simulated board."""
    err, _frame = run_demo_without_a_port(tmp_path, "chess", board=kind, moves=OPERA_GAME)
    assert f"demo game on a simulated {kind} board at " in err


def test_run_with_a_maker_board_and_a_game_too_big_for_it_plays_the_demo_on_our_own(tmp_path: Path) -> None:
    err, _frame = run_demo_without_a_port(tmp_path, "alice", board="dgt")
    assert "a dgt board has 64 squares and alice has 128 cells: the demo plays on our own simulated board" in err
    assert "demo game on a simulated board at " in err


def test_the_emulators_share_no_code_with_the_drivers() -> None:
    for name in ("emulators.py", "board_emulator.py", "dgt_emulator.py", "millennium_emulator.py"):
        source = (REPO / "firmware_bridge" / "boards" / name).read_text(encoding="utf-8")
        assert "dgt_codec" not in source and "millennium_codec" not in source and "import driver" not in source, name
