"""The engine commands as scripts see them: a real subprocess, stdout lines, stderr, exit codes."""

from __future__ import annotations

import subprocess
import sys

import chess
import pytest


def chessery(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "controller.cli", *args], capture_output=True, text=True,
                          timeout=120)


def test_variants_one_name_per_line() -> None:
    out = chessery("variants")
    assert out.returncode == 0
    names = out.stdout.splitlines()
    assert "chess" in names and names == sorted(names) and all(n.strip() == n and n for n in names)


def test_moves_match_python_chess() -> None:
    fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
    out = chessery("moves", "chess", "--fen", fen)
    assert out.returncode == 0
    assert sorted(out.stdout.split()) == sorted(m.uci() for m in chess.Board(fen).legal_moves)


def test_perft_last_line_is_the_count_alone() -> None:
    out = chessery("perft", "chess", "3")
    assert out.returncode == 0 and out.stdout.splitlines()[-1] == "8902"
    div = chessery("perft", "chess", "2", "--divide")
    lines = div.stdout.splitlines()
    assert lines[-1] == "400" and len(lines) == 21 and "e2e4: 20" in lines


@pytest.mark.parametrize(("args", "fragment"), [
    (("perft", "nosuch", "2"), "unsupported variant: 'nosuch'"),
    (("perft", "chess", "-1"), "bad depth"),
    (("perft", "chess", "two"), "bad depth 'two'"),
    (("moves", "chess", "--fen", "rnbqkbnr/8 w - - 0 1"), "board has 2 rows"),
    (("moves", "nosuch"), "unsupported variant"),
])
def test_errors_are_one_line_with_status_2(args: tuple[str, ...], fragment: str) -> None:
    out = chessery(*args)
    assert out.returncode == 2
    assert fragment in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1
    assert out.stdout == ""
