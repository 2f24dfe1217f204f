"""The ``chessery`` command as README.md writes it: each documented form, options where the README
puts them; a reader that leaves the pipe early; finished positions and positions missing a royal
(docs/notation.md, "Finished positions")."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

import engine
from controller.cli import build_parser
from engine import parse_fen, parse_game_fen
from engine.perft import divide, perft

ROOT = Path(__file__).resolve().parent.parent
#: The issue's example: Black has a bare king, so White has won; Black's king still has steps.
BARE = "4k3/8/8/8/8/8/4Q3/~N3K3 b - - 0 1"
#: Royal Fury after one chain; the README's order puts --fen between the variant and the moves.
RF_FEN = "7aff/7aaa/10/10/10/10/2A7/1a1a1A4/2a4AAA/2D1J2AFF w - - 0 1"


def chessery(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "controller.cli", *args], capture_output=True, text=True,
                          timeout=120, cwd=ROOT)


def test_play_takes_the_fen_between_the_variant_and_the_moves_as_the_readme_writes_it() -> None:
    out = chessery("play", "chess", "--fen", "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", "e1c1", "e8e7")
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == ["8/4k3/8/8/8/8/8/2KR4 w - - 2 2", "*"]
    out = chessery("play", "royal-fury", "--fen", RF_FEN, "c1a3:c3:e3")
    assert out.returncode == 0 and out.stdout.splitlines()[1] == "*", out.stderr
    # The other orders still work: options first, moves before the options.
    assert chessery("play", "--fen", RF_FEN, "royal-fury", "c1a3:c3:e3").stdout == out.stdout
    assert chessery("play", "royal-fury", "c1a3:c3:e3", "--fen", RF_FEN).stdout == out.stdout


def readme_forms() -> list[str]:
    """The command column of README.md's table, one form a row (``chessery NAME ...``)."""
    text = (ROOT / "README.md").read_text()
    return re.findall(r"^\| `chessery ([a-z-]+)[^`]*` \|", text, flags=re.MULTILINE)


#: Each README form, written in the README's order with its placeholders filled in.
FORMS = {
    "variants": ["variants"],
    "moves": ["moves", "chess", "--fen", "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1"],
    "perft": ["perft", "chess", "2", "--fen", "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", "--divide"],
    "play": ["play", "chess", "--fen", "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", "e1c1", "e8e7"],
    "render": ["render", "chess", "--fen", "4k3/8/8/8/8/8/8/4K3 w - - 0 1", "--size", "320x240", "--out", "f.png"],
    "run": ["run", "--variant", "chess", "--port", "/dev/null", "--board", "dgt", "--layout", "x", "--headless",
            "--db", "g.db"],
    "replay": ["replay", "chess", "script.txt"],
    "export": ["export", "--game", "3", "--out", "g.pgn"],
    "layouts": ["layouts"],
    "status": ["status", "--status-file", "s.json", "--json"],
    "sim-board": ["sim-board", "--variant", "chess", "--script", "s.txt", "--identity", "--protocol", "dgt",
                  "--revelation", "--dgt-clock", "--split"],
    "engine": ["engine", "--variant", "chess", "--seed", "1"],
    "hall": ["hall", "--config", "hall.toml", "--broker", "mqtt://127.0.0.1:1883", "--listen", "127.0.0.1:8080",
             "--demo"],
    "score": ["score", "mathematichess", "--fen",
              "13/13/13/13/13/13/13/13/13/13/13/13/13[9K9Q9T9R9B9N9G9P9F9k9q9t9r9b9n9g9p9f] w - - 0 1"],
}


def test_every_form_of_the_readme_parses_as_written() -> None:
    documented = readme_forms()
    assert set(documented) <= set(FORMS), set(documented) - set(FORMS)
    parser = build_parser()
    for name in documented:
        args = parser.parse_args(FORMS[name])
        assert args.command == name
    play = parser.parse_args(FORMS["play"])
    assert play.moves == ["e1c1", "e8e7"] and play.fen.startswith("4k3")
    perft_args = parser.parse_args(FORMS["perft"])
    assert perft_args.depth == 2 and perft_args.divide and perft_args.fen.startswith("4k3")


@pytest.mark.parametrize("name", ["variants", "moves", "perft", "play", "layouts", "score"])
def test_each_cheap_form_runs_as_written(name: str) -> None:
    out = chessery(*FORMS[name])
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() and not out.stderr


def test_render_runs_as_written(tmp_path: Path) -> None:
    out_file = tmp_path / "frame.png"
    out = chessery("render", "chess", "--fen", "4k3/8/8/8/8/8/8/4K3 w - - 0 1", "--size", "320x240", "--out",
                   str(out_file))
    assert out.returncode == 0, out.stderr
    assert out_file.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("args", [
    ("perft", "chess", "3", "--divide"),
    ("layouts",),
    ("variants",),
    ("moves", "chess"),
])
def test_a_reader_that_leaves_the_pipe_early_is_no_error(args: tuple[str, ...]) -> None:
    # The read end is closed before the command writes: its first flush meets a broken pipe,
    # the same as `chessery perft chess 3 --divide | head -1` after head has read its line.
    proc = subprocess.Popen([sys.executable, "-m", "controller.cli", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, cwd=ROOT)
    try:
        assert proc.stdout is not None and proc.stderr is not None
        proc.stdout.close()
        err = proc.stderr.read()
        assert proc.wait(timeout=120) == 0
        assert err == b""
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=30)


def test_head_in_a_real_shell_pipeline_is_quiet() -> None:
    cmd = f"{sys.executable} -m controller.cli perft chess 3 --divide | head -1"
    out = subprocess.run(["bash", "-o", "pipefail", "-c", cmd], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert out.returncode == 0 and out.stderr == "" and out.stdout.count("\n") == 1


# -- finished positions ------------------------------------------------------------------------------

def test_a_finished_position_has_no_moves_for_the_api_and_perft() -> None:
    v = engine.find_variant("illusionary")
    pos = parse_fen(v, BARE)
    over = pos.outcome()
    assert over is not None and (over.termination, over.winner) == ("bare_king", 0)
    assert pos.legal_moves()  # what the men can do: the king still has steps
    assert v.rules.playable_moves(pos) == []
    assert perft(pos, 0) == 1 and perft(pos, 1) == 0 and perft(pos, 3) == 0
    assert divide(pos, 2) == []


def test_a_finished_position_through_moves_perft_and_play() -> None:
    out = chessery("moves", "illusionary", "--fen", BARE)
    assert out.returncode == 0 and out.stdout == ""
    assert out.stderr.strip() == "chessery moves: the game is over: 1-0 bare_king"
    out = chessery("perft", "illusionary", "2", "--fen", BARE, "--divide")
    assert out.returncode == 0 and out.stdout.splitlines() == ["0"]
    out = chessery("play", "illusionary", "--fen", BARE, "e8d8")
    assert out.returncode == 2 and "the game is already over (1-0 bare_king)" in out.stderr
    out = chessery("play", "illusionary", "--fen", BARE)
    assert out.returncode == 0 and out.stdout.splitlines()[1] == "1-0 bare_king"


def test_perft_stops_below_a_position_that_ends_the_game() -> None:
    # Advancing Duffery: White's pawn takes the king forward; below that capture nothing counts.
    v = engine.find_variant("duffery-advancing")
    pos = parse_fen(v, "8/8/8/8/8/3k4/4P3/4K3 w - - 0 1")
    moves = {pos.move_text(m): m for m in v.rules.playable_moves(pos)}
    assert "e2d3" in moves
    pos.push(moves["e2d3"])
    assert pos.outcome() is not None and perft(pos, 2) == 0


# -- positions missing a royal -------------------------------------------------------------------

@pytest.mark.parametrize(("variant", "fen", "missing"), [
    ("chess", "8/8/8/8/8/8/8/4K3 w - - 0 1", "black has no king"),
    ("duffery-advancing", "4k3/8/8/8/8/8/4P3/8 w - - 0 1", "white has no king"),
    ("royal-fury", "10/10/10/10/10/10/10/10/10/3F6 w - - 0 1", "black has no fury"),
])
def test_a_position_missing_a_royal_is_refused_in_one_line(variant: str, fen: str, missing: str) -> None:
    for command in ("moves", "play", "perft"):
        args = [command, variant, "--fen", fen] + (["1"] if command == "perft" else [])
        out = chessery(*args)
        assert out.returncode == 2 and out.stdout == ""
        assert missing in out.stderr and len(out.stderr.splitlines()) == 1
    with pytest.raises(engine.PositionError, match=missing):
        parse_game_fen(engine.find_variant(variant), fen)


def test_royal_fury_with_one_fury_a_side_left_is_read() -> None:
    pos = parse_game_fen(engine.find_variant("royal-fury"), "9f/10/10/10/10/10/10/10/10/F9 w - - 0 1")
    assert pos.outcome() is not None  # each side lost one: drawn, but a position all the same


def test_gryphon_starts_without_kings_and_keeps_working() -> None:
    fen = "8/pppppppp/8/8/8/8/PPPPPPPP/8 w - - 0 1"
    out = chessery("moves", "gryphon", "--fen", fen)
    assert out.returncode == 0 and len(out.stdout.split()) == 16 and not out.stderr
    assert perft(parse_game_fen(engine.find_variant("gryphon"), fen), 2) == 256
