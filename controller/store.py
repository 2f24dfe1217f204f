"""Games in SQLite: every accepted move is committed before the player sees it accepted.

One file (default ``platformdirs.user_data_dir("chessery")/games.sqlite3``) holds every game and
its moves. It is ours only if its header says so: ``PRAGMA application_id`` is
:data:`APPLICATION_ID` and ``user_version`` is a schema we know. Anything else -- a file that
is not SQLite, another program's database, a newer schema, a file that fails
``PRAGMA integrity_check`` or lacks our tables -- raises :class:`StoreError` with one line saying
what is wrong, and the file is never written to: it is inspected through a read-only connection
and opened for writing only after it passed. A missing file becomes a new store; an empty
(0-byte) one too, with a warning on the log that says so (it may be a store whose contents were
lost). Inspecting never leaves ``-wal``/``-shm`` files behind that were not there before.

Readers (``GameStore(path, readonly=True)``: ``chessery export``, ``chessery status``) never
create anything: a missing file, a missing folder or an empty file is a ``StoreError``, and the
database is opened read-only.

Durability: WAL journal with ``synchronous=FULL``, so a transaction that returned is on disk
and a process killed (or a power cut) at any instant leaves either the whole move or none.
"""

from __future__ import annotations

import contextlib
import logging
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from engine.errors import ChesseryError

log = logging.getLogger("chessery.store")

#: "CHSY" in ASCII: marks the file as a Chessery store.
APPLICATION_ID = 0x43485359
SCHEMA_VERSION = 1

SCHEMA = """
CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    variant TEXT NOT NULL,
    start_fen TEXT NOT NULL,
    started TEXT NOT NULL,
    finished TEXT,
    result TEXT NOT NULL DEFAULT '*',
    termination TEXT NOT NULL DEFAULT ''
);
CREATE TABLE moves (
    game_id INTEGER NOT NULL REFERENCES games(id),
    ply INTEGER NOT NULL,
    move TEXT NOT NULL,
    played TEXT NOT NULL,
    PRIMARY KEY (game_id, ply)
);
"""
_COLUMNS = {
    "games": ["id", "variant", "start_fen", "started", "finished", "result", "termination"],
    "moves": ["game_id", "ply", "move", "played"],
}


class StoreError(ChesseryError, ValueError):
    """A database file we must not use; the message names the file and the reason."""


@dataclass(frozen=True)
class GameRecord:
    id: int
    variant: str
    start_fen: str
    started: str
    finished: str | None
    result: str
    termination: str
    moves: tuple[str, ...]


def default_path() -> Path:
    import platformdirs

    return Path(platformdirs.user_data_dir("chessery")) / "games.sqlite3"


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


SIDECARS = ("-wal", "-shm", "-journal")


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


def _connect_ro(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, check_same_thread=False)


def check_file(path: Path) -> None:
    """Raise ``StoreError`` unless ``path`` is a sound Chessery store (read-only inspection,
    which leaves no files behind)."""
    with no_new_sidecars(path):
        _check_file(path)


def _check_file(path: Path) -> None:
    def fail(reason: str) -> StoreError:
        return StoreError(f"{path}: {reason}; the file was left untouched (move it away or pass another --db)")

    try:
        con = _connect_ro(path)
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
        for table, columns in _COLUMNS.items():
            got = [row[1] for row in con.execute(f"PRAGMA table_info({table})")]
            if got != columns:
                raise fail(f"table {table!r} has columns {got}, expected {columns}")
    finally:
        con.close()


class GameStore:
    """The games file. Methods that change it commit before returning."""

    def __init__(self, path: str | Path | None = None, readonly: bool = False) -> None:
        self.path = Path(path) if path else default_path()
        self.readonly = readonly
        self._sidecars: contextlib.ExitStack | None = None
        if readonly:
            self._open_readonly()
            return
        fresh = not self.path.exists() or self.path.stat().st_size == 0
        if not fresh:
            check_file(self.path)
        elif self.path.exists():
            log.warning("%s: the file is empty (0 bytes); starting a new games database in it", self.path)
        else:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise StoreError(f"{self.path}: cannot create its folder: {exc.strerror}") from None
        try:
            self._con = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self._con.execute("PRAGMA journal_mode=WAL")
            self._con.execute("PRAGMA synchronous=FULL")
            if fresh:
                self._con.executescript("BEGIN;" + SCHEMA + f"PRAGMA application_id={APPLICATION_ID};"
                                        f"PRAGMA user_version={SCHEMA_VERSION};COMMIT;")
        except sqlite3.Error as exc:
            raise StoreError(f"{self.path}: cannot use the database: {exc}") from None

    def _open_readonly(self) -> None:
        if not self.path.exists():
            raise StoreError(f"{self.path}: no such games database (nothing was created; check --db)")
        if self.path.is_dir():
            raise StoreError(f"{self.path}: a folder, not a games database")
        if self.path.stat().st_size == 0:
            raise StoreError(f"{self.path}: the file is empty (0 bytes), so there are no games in it")
        check_file(self.path)
        stack = contextlib.ExitStack()
        stack.enter_context(no_new_sidecars(self.path))
        try:
            self._con = _connect_ro(self.path)
        except sqlite3.Error as exc:
            stack.close()
            raise StoreError(f"{self.path}: cannot read the database: {exc}") from None
        self._sidecars = stack

    def close(self) -> None:
        self._con.close()
        if self._sidecars is not None:
            self._sidecars.close()
            self._sidecars = None

    def __enter__(self) -> GameStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _tx(self):
        return _Transaction(self._con)

    # -- writing -----------------------------------------------------------------------------------
    def new_game(self, variant: str, start_fen: str) -> int:
        with self._tx():
            cur = self._con.execute("INSERT INTO games (variant, start_fen, started) VALUES (?, ?, ?)",
                                    (variant, start_fen, _now()))
        assert cur.lastrowid is not None
        return cur.lastrowid

    def record(self, game_id: int, undone: int, moves: list[str] | tuple[str, ...]) -> int:
        """Take back the last ``undone`` plies and append ``moves``, in one transaction.
        Returns the number of plies stored afterwards."""
        with self._tx():
            n = self._plies(game_id)
            if undone > n:
                raise StoreError(f"{self.path}: game {game_id} has {n} plies, cannot take back {undone}")
            if undone:
                self._con.execute("DELETE FROM moves WHERE game_id = ? AND ply > ?", (game_id, n - undone))
            n -= undone
            at = _now()
            self._con.executemany("INSERT INTO moves (game_id, ply, move, played) VALUES (?, ?, ?, ?)",
                                  [(game_id, n + i + 1, m, at) for i, m in enumerate(moves)])
            if undone:
                self._con.execute("UPDATE games SET finished = NULL, result = '*', termination = '' WHERE id = ?",
                                  (game_id,))
        return n + len(moves)

    def finish(self, game_id: int, result: str, termination: str) -> None:
        with self._tx():
            self._con.execute("UPDATE games SET finished = ?, result = ?, termination = ? WHERE id = ?",
                              (_now(), result, termination, game_id))

    # -- reading -----------------------------------------------------------------------------------
    def _plies(self, game_id: int) -> int:
        return int(self._con.execute("SELECT COUNT(*) FROM moves WHERE game_id = ?", (game_id,)).fetchone()[0])

    def game(self, game_id: int) -> GameRecord:
        row = self._con.execute("SELECT id, variant, start_fen, started, finished, result, termination FROM games "
                                "WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise StoreError(f"{self.path}: no game {game_id}")
        moves = tuple(r[0] for r in self._con.execute("SELECT move FROM moves WHERE game_id = ? ORDER BY ply",
                                                       (game_id,)))
        return GameRecord(row[0], row[1], row[2], row[3], row[4], row[5], row[6], moves=moves)

    def unfinished(self, variant: str | None = None) -> GameRecord | None:
        """The latest game (of ``variant``) that has not ended: the one to resume after a restart."""
        if variant is None:
            row = self._con.execute("SELECT id FROM games WHERE finished IS NULL ORDER BY id DESC LIMIT 1").fetchone()
        else:
            row = self._con.execute("SELECT id FROM games WHERE finished IS NULL AND variant = ? ORDER BY id DESC "
                                    "LIMIT 1", (variant,)).fetchone()
        return self.game(row[0]) if row else None

    def latest(self) -> GameRecord | None:
        row = self._con.execute("SELECT id FROM games ORDER BY id DESC LIMIT 1").fetchone()
        return self.game(row[0]) if row else None

    def game_ids(self) -> list[int]:
        return [r[0] for r in self._con.execute("SELECT id FROM games ORDER BY id")]


class _Transaction:
    """``BEGIN IMMEDIATE`` ... ``COMMIT`` (or ``ROLLBACK`` on an exception)."""

    def __init__(self, con: sqlite3.Connection) -> None:
        self.con = con

    def __enter__(self) -> None:
        if not self.con.in_transaction:
            self.con.execute("BEGIN IMMEDIATE")

    def __exit__(self, exc_type, exc, tb) -> None:
        if not self.con.in_transaction:
            return
        if exc_type is None:
            self.con.execute("COMMIT")
        else:
            self.con.execute("ROLLBACK")
