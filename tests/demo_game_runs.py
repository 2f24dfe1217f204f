"""Playing a variant's recorded demo game end to end, shared by the per-game tests: through a real
pty into ``chessery run`` (a simulated board playing the game's event script), or with no port at
all (the built-in simulated board plays the demo by itself). Each helper asserts what every such
game must show; the tests add what their own game shows (result, frame, messages)."""

from __future__ import annotations

import subprocess
from collections.abc import Sequence
from pathlib import Path

import engine
from controller.demo_games import DEMO_GAMES
from controller.event_scripts import Style, script_for_moves
from firmware_bridge.script import parse_script
from firmware_bridge.simboard import SimBoard
from tests.child import REPO, chessery_args, chessery_env
from tests.pty_games import PlayedGame, play_game, replay_stream

#: How long a demo without a port may take to play itself to the end (the longest, Mathematichess's
#: 164 placements, takes about 90 s on an idle machine).
DEMO_TIMEOUT = 300

#: Hands that capture both ways, slide, bounce and reply fast.
HANDS = Style(capture="alternate", slide=True, bounce=True, think_ms=60, hand_ms=30)
#: The hands on two makers' boards (DGT, Millennium) playing the Alice demo
#: (tests/test_e2e_alice.py): a piece just put down is taken no sooner than one DGT scan after.
MAKER_HANDS = Style(capture="alternate", identity=True, think_ms=150, reaction_ms=250, hand_ms=80)


def script_lines(name: str, style: Style = HANDS) -> list[str]:
    """The event script of the demo game of ``name``, played by hands of ``style``."""
    return script_for_moves(engine.find_variant(name), list(DEMO_GAMES[name]), style)


def played_demo(name: str) -> engine.Position:
    """The position after the demo game of ``name``, each move legal and played while the game
    was still on; and ``chessery run --variant NAME`` with no port plays exactly this game."""
    from controller.service import demo_script

    variant = engine.find_variant(name)
    pos = engine.start_position(variant)
    for text in DEMO_GAMES[name]:
        assert pos.outcome() is None, text
        pos.push_text(text)
    lines = demo_script(variant, None, watched=False)
    assert [line.split()[-1] for line in lines if line.startswith("# ")] == list(DEMO_GAMES[name])
    return pos


def play_demo_through_pty(tmp_path: Path, name: str, *, seed: int, lines: list[str] | None = None,
                          answers: bool = False, faults: str | None = "bounce", identity: bool = False,
                          args: tuple[str, ...] = (), settled_end: bool = False) -> PlayedGame:
    """The demo game of ``name`` on a simulated board on a real pty into ``chessery run``: every
    move printed and stored as played. ``answers``: questions are answered from the script's
    ``choose`` lines (``--answers``); ``settled_end``: the game ends with the board showing its
    end, and the run is stopped only once the service says so."""
    variant = engine.find_variant(name)
    moves = list(DEMO_GAMES[name])
    if lines is None:
        lines = script_lines(name)
    board = SimBoard(variant, faults=faults, identity=identity, seed=seed).start()
    commands = parse_script("\n".join(lines), variant)
    board.check_script(commands)
    if answers:
        script = tmp_path / "game.txt"
        script.write_text("\n".join(lines) + "\n", encoding="utf-8")
        args = (*args, "--answers", str(script))
    # The script is played, but a loaded host may not have read its last events (a bounce on the
    # last piece, after the game ended): when the last frame is looked at, stop once the service
    # shows the game's end again.
    settled = _settled if settled_end else None
    game = play_game(tmp_path, board, commands, moves, "--variant", name, *args, settled=settled)
    assert game.record.variant == name
    return game


def _settled(err: str) -> bool:
    """The service's latest "Game over" status line asks for a new game's pieces."""
    over = [line.strip() for line in err.splitlines() if line.startswith("chessery: Game over")]
    return bool(over) and over[-1].endswith("Set up the pieces for a new game")


def run_demo_without_a_port(tmp_path: Path, name: str, board: str = "chessery",
                            moves: Sequence[str] | None = None) -> tuple[str, Path]:
    """``chessery run --variant NAME`` with no port, to the end of its demo by itself: the moves
    printed are the demo's (``moves``, default the variant's recorded demo game); ``board``: the
    ``--board`` asked for. Returns what it said on stderr and its last frame."""
    db, frame = tmp_path / "games.sqlite3", tmp_path / "frame.png"
    try:
        proc = subprocess.run(
            chessery_args("run", "--variant", name, "--headless", "--no-gpio", "--exit-when-done", "--db", str(db),
                          "--frame", str(frame), "--board", board),
            cwd=REPO, env=chessery_env(), capture_output=True, text=True, timeout=DEMO_TIMEOUT, start_new_session=True)
    except subprocess.TimeoutExpired as exc:  # a derailed demo: killed (its board ends with it), and said so
        said = exc.stderr.decode(errors="replace") if isinstance(exc.stderr, bytes) else exc.stderr or ""
        raise AssertionError(f"waited {DEMO_TIMEOUT} s for the {name} demo to end by itself; "
                             f"it said: {said[-2000:]}") from None
    assert proc.returncode == 0, proc.stderr[-2000:]
    lines = proc.stdout.splitlines()
    assert lines[0] == f"frame: {frame}"
    assert replay_stream(lines[1:]) == list(DEMO_GAMES[name] if moves is None else moves)
    return proc.stderr, frame
