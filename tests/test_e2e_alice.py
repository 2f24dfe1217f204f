"""Alice Chess on two physical boards, end to end through ``chessery run``: the recorded demo
game (captures on both boards, a mate) played on one 128-cell board (one port, layout
``alice-128``), on two of our boards on two ports (``chessery sim-board --split``, layout
``alice-2x8x8``), and on two DGT or two Millennium boards (their emulators, one pty each). Every
move is a lift on one board and a place on the other; the stored game must be the game played,
and the last frame must show both boards with the pieces where the game left them."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from pathlib import Path

import pygame
import pytest

import engine
from controller.demo_games import DEMO_GAMES
from controller.event_scripts import Style, script_for_moves
from controller.store import GameStore
from display.render import render
from display.view import view_from_position
from firmware_bridge.board_set import BoardSet
from firmware_bridge.boards.emulators import EMULATORS
from tests.child import Child, chessery_env
from tests.demo_game_runs import MAKER_HANDS, play_demo_through_pty, run_demo_without_a_port
from tests.emulated_games import play_through_service
from tests.pty_games import REPO, TIMEOUT, Run, read_game, replay_stream

ALICE = engine.find_variant("alice")
MOVES = list(DEMO_GAMES["alice"])


def final_position() -> engine.Position:
    pos = engine.start_position(ALICE)
    for text in MOVES:
        pos.push_text(text)
    return pos


def assert_frame_shows_both_boards(frame: Path, pos: engine.Position) -> None:
    """Each of the 128 cells in the frame holds a drawn piece exactly where the position has one
    (a square with no piece is its own colour throughout), and board B's cells stand to the
    right of board A's."""
    image = pygame.image.load(str(frame))
    size = image.get_size()
    assert size == (800, 480)
    layout = render(view_from_position(pos), pygame.Surface(size))  # where each cell is drawn
    g = ALICE.geometry
    a1, a1b = layout.cells[g.index("a1")], layout.cells[g.index("a1'")]
    assert a1b.left > layout.cells[g.index("h1")].right and a1b.top == a1.top
    wrong = []
    for cell, rect in enumerate(layout.cells):
        inner = rect.inflate(-rect.width // 5, -rect.height // 5)
        pixels = [image.get_at((x, y))[:3] for x in range(inner.left, inner.right)
                  for y in range(inner.top, inner.bottom)]
        ground = Counter(pixels).most_common(1)[0][0]  # the square's own colour (tinted or not)
        drawn = sum(1 for p in pixels if sum(abs(a - b) for a, b in zip(p, ground, strict=True)) > 90)
        if (drawn > len(pixels) // 20) != bool(pos.board[cell]):
            wrong.append(f"{g.names[cell]}: {drawn} of {len(pixels)} pixels drawn over the square")
    assert not wrong, wrong


def check_record(db: Path) -> None:
    with GameStore(db) as store:
        record = store.latest()
    assert record is not None
    assert (record.variant, record.moves) == ("alice", tuple(MOVES))
    assert (record.result, record.termination) == ("0-1", "checkmate")


def test_the_demo_game_on_one_board_of_128_cells(tmp_path: Path) -> None:
    """One controller reads both boards (sensors 0-63 board A, 64-127 board B): one port. The
    frame is looked at once the service shows the game's end again: the script's last bounce may
    still be unread when the mate is printed, and the board then shows the new game's set-up."""
    game = play_demo_through_pty(tmp_path, "alice", seed=5, args=("--layout", "alice-128"), settled_end=True)
    assert (game.record.result, game.record.termination) == ("0-1", "checkmate")
    assert "Game over: 0-1 (checkmate)" in game.err
    assert_frame_shows_both_boards(game.frame, final_position())


def test_the_demo_plays_by_itself_without_a_port(tmp_path: Path) -> None:
    err, frame = run_demo_without_a_port(tmp_path, "alice")
    assert "Game over: 0-1 (checkmate)" in err
    assert_frame_shows_both_boards(frame, final_position())


def sim_board(*args: str) -> tuple[Child, list[str]]:
    """``chessery sim-board ARGS``: the process and the paths it printed before the script."""
    proc = Child.chessery("sim-board", *args, env=chessery_env())
    try:
        paths = [proc.line(f"the path of board {i + 1}", TIMEOUT) for i in range(2)]
    except BaseException:
        proc.end()
        raise
    return proc, paths


def test_the_demo_game_on_two_of_our_boards_on_two_ports(tmp_path: Path) -> None:
    """``chessery sim-board --split``: two boards of our own firmware, one pty each, the first
    starting with the pieces and the second empty; ``chessery run`` opens both."""
    script = tmp_path / "game.txt"
    style = Style(capture="alternate", think_ms=80, hand_ms=40)
    script.write_text("\n".join(script_for_moves(ALICE, MOVES, style)) + "\n", encoding="utf-8")
    board, paths = sim_board("--variant", "alice", "--split", "--faults", "bounce", "--script", str(script))
    with board:
        db, frame = tmp_path / "games.sqlite3", tmp_path / "frame.png"
        run = Run(paths[0], db, frame, "--port", paths[1], "--layout", "alice-2x8x8", "--variant", "alice")
        try:
            assert all(Path(p).exists() for p in paths) and paths[0] != paths[1]
            assert run.next_line() == f"frame: {frame}"
            printed: list[str] = []
            read_game(run, MOVES, printed)
            assert board.line("'done' after the script", TIMEOUT) == "done"
            assert run.stop() == 0
        finally:
            run.end()
    assert replay_stream(printed) == MOVES
    check_record(db)
    err = "".join(run.err)
    assert "Game over: 0-1 (checkmate)" in err and "Traceback" not in err
    assert_frame_shows_both_boards(frame, final_position())


@pytest.mark.parametrize("kind", ["dgt", "millennium"])
def test_the_demo_game_on_two_maker_boards(tmp_path: Path, kind: str) -> None:
    """Two DGT or two Millennium boards (their emulators, each with its own scan timing), one
    port each: each driver reports its own 64 squares, the referee reads them as one set. The
    hands stay at most two plies ahead of the referee. A piece the last move put down is taken
    250 ms after (a quick human), not 150: a DGT board scans its squares one by one every 220 ms,
    so it never sees a piece that stands less than that in about one phase in three (5... d7d5
    puts the pawn on d5', 6. c3'd5' takes it: the board never showed the pawn there, and d7 and
    c3' emptied with a knight on d5 is no move the referee can read)."""
    style = MAKER_HANDS
    boards = BoardSet(ALICE, lambda i, cells: EMULATORS[kind]("alice", cells=cells, seed=i)).start()
    try:
        _boards, run, _lines = play_through_service(
            tmp_path, kind, MOVES, style, board=boards, variant=ALICE,
            args=("--port", boards.paths[1], "--layout", "alice-2x8x8", "--variant", "alice"))
    finally:
        boards.stop()
    db, frame = tmp_path / "games.sqlite3", tmp_path / "frame.png"
    check_record(db)
    err = "".join(run.err)
    assert "Game over: 0-1 (checkmate)" in err and "Traceback" not in err
    # Each emulator holds its half: the end position's cells of board B stand on the second board.
    pos = final_position()
    for index, cells in enumerate(boards.cells):
        wire = boards.boards[index].pieces()
        for square, cell in enumerate(cells):
            code = pos.board[cell]
            want = ALICE.symbol(code) if code else None
            assert wire[8 * (7 - square // 8) + square % 8] == want, ALICE.geometry.names[cell]
    assert_frame_shows_both_boards(frame, pos)


def test_sim_board_prints_one_path_per_board_of_a_two_board_game(tmp_path: Path) -> None:
    """A maker's board has 64 squares: Alice on DGT boards is two boards, two ptys, two lines;
    faults counted by action (@N) cannot be, and say so before any path is printed."""
    script = tmp_path / "game.txt"
    script.write_text("lift e2\nplace e4'\n", encoding="utf-8")
    proc, paths = sim_board("--protocol", "dgt", "--variant", "alice", "--script", str(script), "--no-wait",
                            "--linger", "0")
    with proc:
        out = proc.rest("the script to be played")
        assert proc.wait() == 0, proc.said
    assert all(p.startswith("/") for p in paths) and paths[0] != paths[1]
    assert out == ["done"]
    bad = subprocess.run([sys.executable, "-m", "controller.cli", "sim-board", "--protocol", "millennium",
                          "--variant", "alice", "--script", str(script), "--faults", "unplug@2"],
                         cwd=REPO, capture_output=True, text=True, timeout=TIMEOUT)
    assert bad.returncode == 2 and bad.stdout == ""
    assert "counted per board" in bad.stderr and len(bad.stderr.strip().splitlines()) == 1
