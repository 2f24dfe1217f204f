"""PGN files other programs read (issue 28): every game ends with a blank line, so exported files
can be concatenated (``cat a.pgn b.pgn``) and python-chess still reads two games; variant games
say where they start (``SetUp``/``FEN``) when it is not chess's start, with their ``Variant``."""

from __future__ import annotations

import io
from pathlib import Path

import chess.pgn
import pytest

import engine
from controller.event_scripts import random_game
from controller.export import game_pgn
from controller.store import GameStore

CHESS_START = engine.find_variant("chess").start


def test_two_exported_files_concatenated_are_two_games(tmp_path: Path) -> None:
    with GameStore(tmp_path / "g.db") as store:
        first = store.new_game("chess", CHESS_START)
        store.record(first, 0, ["e2e4", "e7e5", "g1f3"])
        store.finish(first, "1-0", "resignation")
        second = store.new_game("chess", CHESS_START)
        store.record(second, 0, ["d2d4", "d7d5"])
        (tmp_path / "a.pgn").write_text(game_pgn(store, store.game(first)))
        (tmp_path / "b.pgn").write_text(game_pgn(store, store.game(second)))
    both = (tmp_path / "a.pgn").read_text() + (tmp_path / "b.pgn").read_text()  # cat a.pgn b.pgn
    assert (tmp_path / "a.pgn").read_text().endswith(" 1-0\n\n")
    stream = io.StringIO(both)
    games = [chess.pgn.read_game(stream), chess.pgn.read_game(stream)]
    assert chess.pgn.read_game(stream) is None
    assert [[m.uci() for m in g.mainline_moves()] for g in games if g is not None] == [
        ["e2e4", "e7e5", "g1f3"], ["d2d4", "d7d5"]]
    assert [g.headers["Result"] for g in games if g is not None] == ["1-0", "*"]
    assert all(not g.errors for g in games if g is not None)


@pytest.mark.parametrize("name", ["gryphon", "royal-fury", "mathematichess"])
def test_a_variant_that_does_not_start_as_chess_says_where_it_starts(tmp_path: Path, name: str) -> None:
    variant = engine.find_variant(name)
    with GameStore(tmp_path / "g.db") as store:
        gid = store.new_game(name, variant.start)
        store.record(gid, 0, random_game(variant, 2, seed=3))
        text = game_pgn(store, store.game(gid))
    headers = chess.pgn.read_headers(io.StringIO(text))
    assert headers is not None
    assert (headers["Variant"], headers["SetUp"], headers["FEN"]) == (name, "1", variant.start)
    assert text.endswith("\n\n") and not text.endswith("\n\n\n")


def test_a_chess_game_from_the_start_has_no_setup(tmp_path: Path) -> None:
    with GameStore(tmp_path / "g.db") as store:
        gid = store.new_game("chess", CHESS_START)
        text = game_pgn(store, store.game(gid))
    headers = chess.pgn.read_headers(io.StringIO(text))
    assert headers is not None and "SetUp" not in headers and "FEN" not in headers and "Variant" not in headers
