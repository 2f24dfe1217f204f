"""The games file's layout and its checks: which files are ours, which schema they have, and how a
file of an older schema is brought up to date.

A file is ours only if its header says so: ``PRAGMA application_id`` is :data:`APPLICATION_ID`
and ``user_version`` is a schema we know. The version describes the whole file: every table in
it is listed in :data:`SCHEMA` (version 2) or in the migration that produced it.

Version 1 (Chessery up to November 2026): ``games`` and ``moves``; beside them, created on
first use by a second connection, the extras ``game_tags``, ``game_clocks`` and ``ply_clocks``
that ``user_version`` did not mention. Version 2: the extras are part of the schema, and a game
is marked ``demo`` when the built-in demo played it. :func:`migrate` takes a version-1 file to
version 2 in one transaction (a failure leaves it at version 1); readers read both without
writing anything.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator
from pathlib import Path

from engine.errors import ChesseryError

#: "CHSY" in ASCII: marks the file as a Chessery store.
APPLICATION_ID = 0x43485359
SCHEMA_VERSION = 2

_EXTRAS = """
CREATE TABLE IF NOT EXISTS game_tags (
    game_id INTEGER NOT NULL, name TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (game_id, name));
CREATE TABLE IF NOT EXISTS game_clocks (
    game_id INTEGER PRIMARY KEY, control TEXT NOT NULL, state TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS ply_clocks (
    game_id INTEGER NOT NULL, ply INTEGER NOT NULL, ms INTEGER NOT NULL, PRIMARY KEY (game_id, ply));
"""

SCHEMA = """
CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    variant TEXT NOT NULL,
    start_fen TEXT NOT NULL,
    started TEXT NOT NULL,
    finished TEXT,
    result TEXT NOT NULL DEFAULT '*',
    termination TEXT NOT NULL DEFAULT '',
    demo INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE moves (
    game_id INTEGER NOT NULL REFERENCES games(id),
    ply INTEGER NOT NULL,
    move TEXT NOT NULL,
    played TEXT NOT NULL,
    PRIMARY KEY (game_id, ply)
);
""" + _EXTRAS

#: Per version: the statements that take a file of the version before to this one.
MIGRATIONS = {
    2: "ALTER TABLE games ADD COLUMN demo INTEGER NOT NULL DEFAULT 0;" + _EXTRAS,
}

_V1_GAMES = ["id", "variant", "start_fen", "started", "finished", "result", "termination"]
_EXTRA_COLUMNS = {
    "game_tags": ["game_id", "name", "value"],
    "game_clocks": ["game_id", "control", "state"],
    "ply_clocks": ["game_id", "ply", "ms"],
}
#: Per version: the tables that must be there, with their columns.
REQUIRED = {
    1: {"games": _V1_GAMES, "moves": ["game_id", "ply", "move", "played"]},
    2: {"games": [*_V1_GAMES, "demo"], "moves": ["game_id", "ply", "move", "played"], **_EXTRA_COLUMNS},
}
#: Per version: tables that may be there, and then must have these columns.
OPTIONAL = {1: _EXTRA_COLUMNS, 2: {}}

SIDECARS = ("-wal", "-shm", "-journal")


class StoreError(ChesseryError, ValueError):
    """A database file we must not use; the message names the file and the reason."""


def folder_error(path: Path) -> StoreError | None:
    """The one message for a ``--db`` that names a folder (``run`` and ``export`` alike)."""
    if path.is_dir():
        return StoreError(f"{path}: a folder, not a games database (give the path of a file, e.g. "
                          f"{path / 'games.sqlite3'})")
    return None


@contextlib.contextmanager
def no_new_sidecars(path: Path, keep: bool = False) -> Iterator[None]:
    """Remove the ``-wal``/``-shm``/``-journal`` files that SQLite created beside ``path`` while
    the block ran (a read-only connection to a WAL database creates them), when the block fails
    or unless ``keep``. Files that were there before are somebody else's and stay."""
    there = {suffix for suffix in SIDECARS if Path(f"{path}{suffix}").exists()}
    ok = False
    try:
        yield
        ok = True
    finally:
        if not (ok and keep):
            for suffix in SIDECARS:
                if suffix not in there:
                    with contextlib.suppress(FileNotFoundError):
                        Path(f"{path}{suffix}").unlink()


def connect_ro(path: Path) -> sqlite3.Connection:
    """A connection that cannot write (``mode=ro``): readers never change the file."""
    return sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, check_same_thread=False)


def tables(con: sqlite3.Connection) -> set[str]:
    return {row[0] for row in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def check_file(path: Path) -> int:
    """Raise ``StoreError`` unless ``path`` is a sound Chessery store (read-only inspection,
    which leaves no files behind); returns its schema version."""
    with no_new_sidecars(path):
        return _check_file(path)


def _check_file(path: Path) -> int:
    def fail(reason: str) -> StoreError:
        return StoreError(f"{path}: {reason}; the file was left untouched (move it away or pass another --db)")

    try:
        con = connect_ro(path)
    except sqlite3.Error as exc:
        raise fail(f"cannot open: {exc}") from None
    try:
        try:
            app_id = con.execute("PRAGMA application_id").fetchone()[0]
            version = con.execute("PRAGMA user_version").fetchone()[0]
        except sqlite3.DatabaseError as exc:
            raise fail(f"not a Chessery database ({exc})") from None
        if app_id != APPLICATION_ID:
            raise fail(f"not a Chessery database (application_id {app_id:#x}, expected {APPLICATION_ID:#x})")
        if version > SCHEMA_VERSION:
            raise fail(f"written by a newer Chessery (schema {version}, this one knows {SCHEMA_VERSION})")
        if version < 1:
            raise fail(f"unknown schema version {version}")
        try:
            problems = [row[0] for row in con.execute("PRAGMA integrity_check")]
        except sqlite3.DatabaseError as exc:
            raise fail(f"corrupt ({exc})") from None
        if problems != ["ok"]:
            raise fail(f"corrupt ({problems[0]})")
        present = tables(con)
        for table, columns in {**REQUIRED[version], **OPTIONAL[version]}.items():
            if table not in REQUIRED[version] and table not in present:
                continue
            got = [row[1] for row in con.execute(f"PRAGMA table_info({table})")]
            if got != columns:
                raise fail(f"table {table!r} has columns {got}, expected {columns}")
        return int(version)
    finally:
        con.close()


def create(con: sqlite3.Connection) -> None:
    """Make a new, empty store of the current version (one transaction)."""
    try:
        con.executescript("BEGIN;" + SCHEMA + f"PRAGMA application_id={APPLICATION_ID};"
                          f"PRAGMA user_version={SCHEMA_VERSION};COMMIT;")
    except sqlite3.Error:
        if con.in_transaction:
            con.execute("ROLLBACK")
        raise


def migrate(con: sqlite3.Connection, version: int) -> None:
    """Bring a checked store of ``version`` to the current one, all steps in one transaction."""
    if version >= SCHEMA_VERSION:
        return
    script = "".join(MIGRATIONS[v] for v in range(version + 1, SCHEMA_VERSION + 1))
    try:
        con.executescript("BEGIN IMMEDIATE;" + script + f"PRAGMA user_version={SCHEMA_VERSION};COMMIT;")
    except sqlite3.Error:
        if con.in_transaction:
            con.execute("ROLLBACK")
        raise
