"""SQLite persistence on real files: moves survive reopening, a takeback is one transaction, and a
file that is not ours (garbage, another program's database, a corrupt or newer store) is refused
with one clear line and left byte-for-byte untouched."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from controller.store import APPLICATION_ID, SCHEMA_VERSION, GameStore, StoreError

FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def test_moves_survive_reopening(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    with GameStore(path) as store:
        game = store.new_game("chess", FEN)
        assert store.record(game, 0, ["e2e4", "e7e5"]) == 2
        assert store.record(game, 1, ["c7c5"]) == 2  # a correction: take back one, add one
    with GameStore(path) as store:
        record = store.unfinished("chess")
        assert record is not None and record.id == game
        assert record.moves == ("e2e4", "c7c5")
        assert record.result == "*" and record.finished is None
        assert store.unfinished("mathematichess") is None


def test_a_new_store_is_marked_as_ours(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "folder" / "games.sqlite3"
    GameStore(path).close()
    con = sqlite3.connect(path)
    assert con.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    assert con.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 2
    con.close()


def test_finish_and_reopen_by_takeback(tmp_path: Path) -> None:
    with GameStore(tmp_path / "g.db") as store:
        game = store.new_game("chess", FEN)
        store.record(game, 0, ["f2f3", "e7e5", "g2g4", "d8h4"])
        store.finish(game, "0-1", "checkmate")
        assert store.unfinished() is None
        assert store.game(game).result == "0-1"
        store.record(game, 1, [])  # the mate taken back: the game is open again
        reopened = store.unfinished()
        assert reopened is not None and reopened.moves == ("f2f3", "e7e5", "g2g4")


def test_taking_back_more_than_was_played_changes_nothing(tmp_path: Path) -> None:
    with GameStore(tmp_path / "g.db") as store:
        game = store.new_game("chess", FEN)
        store.record(game, 0, ["e2e4"])
        with pytest.raises(StoreError, match="cannot take back 2"):
            store.record(game, 2, ["d2d4"])
        assert store.game(game).moves == ("e2e4",)


def _refused(path: Path, match: str) -> None:
    before = path.read_bytes()
    with pytest.raises(StoreError, match=match) as info:
        GameStore(path)
    message = str(info.value)
    assert "\n" not in message and str(path) in message and "left untouched" in message
    assert path.read_bytes() == before
    wal = Path(f"{path}-wal")
    assert not wal.exists() or wal.stat().st_size == 0  # nothing waiting to be written into it either


def test_garbage_file_is_refused_and_untouched(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    path.write_bytes(b"my shopping list\n" * 300)
    _refused(path, "not a Chessery database")


def test_foreign_sqlite_database_is_refused_and_untouched(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY, name TEXT)")
    con.execute("INSERT INTO photos (name) VALUES ('cat')")
    con.commit()
    con.close()
    _refused(path, r"application_id 0x0")


def test_newer_schema_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    GameStore(path).close()
    con = sqlite3.connect(path)
    con.execute("PRAGMA user_version = 7")
    con.commit()
    con.close()
    _refused(path, "newer Chessery")


def test_corrupt_store_is_refused_and_untouched(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    with GameStore(path) as store:
        game = store.new_game("chess", FEN)
        store.record(game, 0, ["e2e4", "e7e5"] * 200)
    con = sqlite3.connect(path)
    con.execute("PRAGMA journal_mode=DELETE")  # fold the WAL into the file before damaging it
    con.close()
    data = bytearray(path.read_bytes())
    page = 4096
    assert len(data) > 4 * page
    for i in range(page * 3, page * 4):  # a page of the moves table's b-tree becomes noise
        data[i] = (i * 7919) % 251
    path.write_bytes(bytes(data))
    _refused(path, "corrupt")


def test_store_missing_our_tables_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    con = sqlite3.connect(path)
    con.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    con.execute("PRAGMA user_version = 1")
    con.execute("CREATE TABLE games (id INTEGER PRIMARY KEY)")
    con.commit()
    con.close()
    _refused(path, "table 'games' has columns")


def test_empty_file_becomes_a_store(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    path.write_bytes(b"")
    with GameStore(path) as store:
        assert store.new_game("chess", FEN) == 1


# -- reading never creates ----------------------------------------------------------------------------


def _sidecars(path: Path) -> list[str]:
    return [s for s in ("-wal", "-shm", "-journal") if Path(f"{path}{s}").exists()]


def test_a_corrupt_wal_store_is_refused_without_leaving_wal_or_shm_files(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    with GameStore(path) as store:
        game = store.new_game("chess", FEN)
        store.record(game, 0, ["e2e4", "e7e5"] * 200)
    assert _sidecars(path) == []  # a clean close folds the WAL back; the file stays in WAL mode
    data = bytearray(path.read_bytes())
    for i in range(4096 * 3, 4096 * 4):
        data[i] = (i * 7919) % 251
    path.write_bytes(bytes(data))
    _refused(path, "corrupt")
    assert _sidecars(path) == []
    with pytest.raises(StoreError, match="corrupt"):
        GameStore(path, readonly=True)
    assert _sidecars(path) == []


def test_a_reader_never_creates_a_database_or_its_folder(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="no such games database"):
        GameStore(tmp_path / "typo.db", readonly=True)
    assert list(tmp_path.iterdir()) == []
    with pytest.raises(StoreError, match="no such games database"):
        GameStore(tmp_path / "nonexistent" / "x.db", readonly=True)
    assert not (tmp_path / "nonexistent").exists()
    empty = tmp_path / "empty.db"
    empty.write_bytes(b"")
    with pytest.raises(StoreError, match="empty"):
        GameStore(empty, readonly=True)
    assert empty.read_bytes() == b""


def test_a_reader_reads_a_store_and_leaves_nothing_beside_it(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    with GameStore(path) as store:
        store.record(store.new_game("chess", FEN), 0, ["e2e4"])
    before = path.read_bytes()
    with GameStore(path, readonly=True) as store:
        latest = store.latest()
        assert latest is not None and latest.moves == ("e2e4",)
        with pytest.raises(sqlite3.OperationalError, match="readonly"):
            store.new_game("chess", FEN)
    assert path.read_bytes() == before and _sidecars(path) == []


def test_an_empty_file_is_initialised_with_a_warning(tmp_path: Path, caplog) -> None:
    path = tmp_path / "g.db"
    path.write_bytes(b"")
    with caplog.at_level("WARNING", logger="chessery.store"), GameStore(path) as store:
        assert store.new_game("chess", FEN) == 1
    assert [r.getMessage() for r in caplog.records] == [
        f"{path}: the file is empty (0 bytes); starting a new games database in it"]


def test_export_of_a_mistyped_database_creates_nothing(tmp_path: Path, capsys, monkeypatch) -> None:
    from controller.cli import main

    monkeypatch.chdir(tmp_path)
    assert main(["export", "--db", "typo.db"]) == 2
    assert main(["export", "--db", str(tmp_path / "nonexistent" / "x.db")]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err == ["chessery export: typo.db: no such games database (nothing was created; check --db)",
                   f"chessery export: {tmp_path}/nonexistent/x.db: no such games database (nothing was created; "
                   "check --db)"]
    assert list(tmp_path.iterdir()) == []
