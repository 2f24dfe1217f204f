"""The store's schema version 2 on real files (issues 24 and 28): version-1 files made by the
Chessery of before (checked-in fixtures) are migrated when opened for writing and read as they are
when only read; the extras live in the same file and connection, described by ``user_version``;
a move and its clock time commit together; a full disk loses no move."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

import engine
from controller.cli import main
from controller.export import event_pgn, game_pgn
from controller.game_extras import GameExtras
from controller.store import SCHEMA_VERSION, GameStore, StoreError

DATA = Path(__file__).parent / "data"
#: Made by the version-1 code (commit 1af3df7): chess game 1 (e2e4 e7e5 g1f3, 1-0, resignation,
#: White "Bob Player", a 5+3 clock with the time left after plies 1 and 2), chess game 2 (d2d4,
#: unfinished); the extras tables were created beside the store by GameExtras.
V1 = DATA / "store_v1.sqlite3"
#: Made by the version-1 code: one Gryphon game, no moves, no extras tables.
V1_PLAIN = DATA / "store_v1_plain.sqlite3"
FEN = engine.find_variant("chess").start


def _pragma(path: Path, name: str) -> int:
    con = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        return int(con.execute(f"PRAGMA {name}").fetchone()[0])
    finally:
        con.close()


def _tables(path: Path) -> set[str]:
    con = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        return {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    finally:
        con.close()


def test_a_version_1_file_is_migrated_with_its_games_and_extras(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    shutil.copy(V1, path)
    assert _pragma(path, "user_version") == 1
    with GameStore(path) as store:
        game = store.game(1)
        assert game.moves == ("e2e4", "e7e5", "g1f3") and game.result == "1-0" and not game.demo
        unfinished = store.unfinished("chess")
        assert unfinished is not None and unfinished.moves == ("d2d4",)
        assert store.tags(1) == {"White": "Bob Player"}
        assert store.clock(1) == ("5+3", '{"x": 2}')
        assert store.ply_clocks(1, 3) == [299000, 298000, None]
        assert store.new_game("chess", FEN) == 3
    assert _pragma(path, "user_version") == SCHEMA_VERSION == 2
    with GameStore(path, readonly=True) as store:
        assert [store.game(i).moves for i in store.game_ids()] == [("e2e4", "e7e5", "g1f3"), ("d2d4",), ()]


def test_a_version_1_file_without_extras_gets_them_in_the_migration(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    shutil.copy(V1_PLAIN, path)
    assert _tables(path) == {"games", "moves"}
    with GameStore(path) as store:
        store.set_tag(1, "Event", "Club night")
        store.save_clock(1, "3+2", "{}", 1, 180000)
    assert _tables(path) == {"games", "moves", "game_tags", "game_clocks", "ply_clocks"}
    with GameStore(path, readonly=True) as store:
        assert store.tags(1) == {"Event": "Club night"} and store.ply_clocks(1, 1) == [180000]


def test_a_version_1_file_is_read_and_exported_without_a_write(tmp_path: Path, capsys) -> None:
    for source in (V1, V1_PLAIN):
        path = tmp_path / source.name
        shutil.copy(source, path)
        before = path.read_bytes()
        with GameStore(path, readonly=True) as store:
            assert store.version == 1
            text = event_pgn(store, demo=None)
            assert store.game_ids(demo=True) == []  # version 1 marked no demo game
        assert path.read_bytes() == before
        assert not [p for p in tmp_path.iterdir() if p.name.endswith(("-wal", "-shm", "-journal"))]
        assert text.count("[Event ") == (2 if source is V1 else 1)
    assert main(["export", "--db", str(tmp_path / V1.name), "--game", "1"]) == 0
    out = capsys.readouterr().out
    assert '[White "Bob Player"]' in out and "{[%clk 0:04:59]}" in out


def test_the_extras_share_the_stores_connection_and_its_version(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    with GameStore(path) as store, GameExtras(store) as extras:
        assert extras.store is store
        gid = store.new_game("chess", FEN)
        extras.set_tag(gid, "Round", "3")
        assert store.tags(gid) == {"Round": "3"}
    assert _tables(path) == {"games", "moves", "game_tags", "game_clocks", "ply_clocks"}  # all in version 2
    with GameStore(path) as again:  # a version-2 file passes its own checks
        assert again.version == 2 and again.game_ids() == [1]


def test_a_move_and_its_clock_time_commit_in_one_transaction(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    with GameStore(path) as store, GameStore(path, readonly=True) as reader:
        gid = store.new_game("chess", FEN)
        with store.transaction():
            store.record(gid, 0, ["e2e4"])
            assert reader.game(gid).moves == ()  # nothing of it yet
            store.save_clock(gid, "5+0", "{}", 1, 299000)
            assert reader.ply_clocks(gid, 1) == [None]
        assert reader.game(gid).moves == ("e2e4",) and reader.ply_clocks(gid, 1) == [299000]
        with store.transaction():
            gid2 = store.new_game("chess", FEN)  # a number given inside a transaction
            store.record(gid2, 0, ["d2d4", "d7d5"])
            store.commit()  # what the service does before it shows the move
            assert reader.game(gid2).moves == ("d2d4", "d7d5")
            store.record(gid2, 1, ["g8f6"])
        assert reader.game(gid2).moves == ("d2d4", "g8f6")


def test_a_full_file_keeps_every_move_and_writes_them_once_there_is_room(tmp_path: Path, caplog) -> None:
    """``max_page_count`` makes SQLite answer SQLITE_FULL on a real file, without root."""
    path = tmp_path / "g.db"
    moves = ["g1f3", "g8f6", "f3g1", "f6g8"]
    with GameStore(path) as store, GameStore(path, readonly=True) as reader:
        gid = store.new_game("chess", FEN)
        store.cap_pages(_pragma(path, "page_count"))
        plies = 0
        with caplog.at_level("WARNING", logger="chessery.store"):
            while not store.problem and plies < 5000:  # until the last page is full
                plies = store.record(gid, 0, [moves[plies % 4]])
            assert store.problem.startswith("Disk full: 1 moves not saved yet")
            on_disk = len(reader.game(gid).moves)
            assert on_disk == plies - 1  # everything before the one that did not fit
            for _ in range(3):  # play goes on; the moves wait, in order
                plies = store.record(gid, 0, [moves[plies % 4]])
            store.save_clock(gid, "5+0", "{}", plies, 1000)
            assert store.waiting == 4 and len(reader.game(gid).moves) == on_disk
            assert "4 moves not saved yet" in store.problem
            store.cap_pages(1_000_000)  # space freed
            store.commit()
        assert store.problem == "" and store.waiting == 0
        assert reader.game(gid).moves == tuple(moves[i % 4] for i in range(plies))
        assert reader.ply_clocks(gid, plies)[-1] == 1000
    logged = [r.getMessage() for r in caplog.records]
    assert sum("the disk is full" in m for m in logged) == 1 and any("4 waiting moves written" in m for m in logged)


def test_a_folder_is_named_as_one_by_run_and_export(tmp_path: Path, capsys) -> None:
    for readonly in (False, True):
        with pytest.raises(StoreError) as info:
            GameStore(tmp_path, readonly=readonly)
        assert str(info.value) == (f"{tmp_path}: a folder, not a games database (give the path of a file, e.g. "
                                   f"{tmp_path / 'games.sqlite3'})")
    assert main(["export", "--db", str(tmp_path)]) == 2
    assert main(["run", "--db", str(tmp_path), "--headless"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert [line.split(": ", 1)[1] for line in err if "a folder" in line] == [
        f"{tmp_path}: a folder, not a games database (give the path of a file, e.g. {tmp_path / 'games.sqlite3'})"
    ] * 2


def test_demo_games_are_marked_and_left_out_of_export_all(tmp_path: Path, capsys) -> None:
    path = tmp_path / "g.db"
    with GameStore(path) as real:
        real.record(real.new_game("chess", FEN), 0, ["e2e4"])
    with GameStore(path, demo=True) as demo:
        demo.record(demo.new_game("chess", FEN), 0, ["d2d4"])
        gry = engine.find_variant("gryphon")
        demo.new_game("gryphon", gry.start)
    with GameStore(path, readonly=True) as store:
        assert [store.game(i).demo for i in store.game_ids()] == [False, True, True]
        assert store.game_ids(demo=False) == [1] and store.game_ids(demo=True) == [2, 3]
        assert game_pgn(store, store.game(1)).endswith("1. e4 *\n\n")
    assert main(["export", "--db", str(path), "--all"]) == 0
    assert capsys.readouterr().out.count("[Event ") == 1
    assert main(["export", "--db", str(path), "--all", "--demo", "with"]) == 0
    assert capsys.readouterr().out.count("[Event ") == 3
    assert main(["export", "--db", str(path), "--all", "--demo", "only", "--variant", "gryphon"]) == 0
    out = capsys.readouterr().out
    assert out.count("[Event ") == 1 and '[Variant "gryphon"]' in out
    assert main(["export", "--db", str(path), "--all", "--variant", "gryphon"]) == 2
    assert "no games of gryphon yet (demo games are left out: --demo with)" in capsys.readouterr().err
