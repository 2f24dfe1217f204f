"""The ``export`` and ``layouts`` commands: their output, and one-line errors that leave the
database untouched."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.cli import main
from controller.store import GameStore

FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def test_export_latest_and_by_number(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "games.sqlite3"
    with GameStore(db) as store:
        first = store.new_game("chess", FEN)
        store.record(first, 0, ["e2e4", "e7e5"])
        second = store.new_game("chess", FEN)
        store.record(second, 0, ["d2d4"])
    assert main(["export", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert out.startswith('[Event "Chessery game"]\n') and out.endswith("\n1. d4 *\n\n")
    pgn = tmp_path / "first.pgn"
    assert main(["export", "--db", str(db), "--game", str(first), "--out", str(pgn)]) == 0
    assert pgn.read_text(encoding="utf-8").endswith("\n1. e4 e5 *\n\n")


def test_export_errors_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    empty = tmp_path / "empty.sqlite3"
    GameStore(empty).close()  # a store without games (a missing file is not created: test_session_store)
    assert main(["export", "--db", str(empty)]) == 2
    assert capsys.readouterr().err == f"chessery export: {empty}: no games yet\n"
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"\x00\x01not sqlite" * 100)
    before = junk.read_bytes()
    assert main(["export", "--db", str(junk)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not a Chessery database" in err
    assert junk.read_bytes() == before


def test_layouts_lists_the_shipped_layouts(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["layouts"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "chess-8x8\t64 sensors on 1 board(s)\t8x8 board, sensor 0 at a1, rank by rank" in lines
    assert any(line.startswith("alice-2x8x8\t128 sensors on 2 board(s)") for line in lines)
