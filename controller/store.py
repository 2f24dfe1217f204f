"""Games in SQLite: every accepted move is committed before the player sees it accepted.

One file (default ``platformdirs.user_data_dir("chessery")/games.sqlite3``) holds every game, its
moves and its extras (tags set at the board, the clock's state, the time each mover had left),
through one connection. The file's layout and checks are in :mod:`controller.store_schema`: a
file that is not ours (not SQLite, another program's database, a newer schema, a corrupt file,
one that lacks our tables) raises :class:`StoreError` with one line saying what is wrong, and is
never written to: it is inspected through a read-only connection and opened for writing only
after it passed. A version-1 file is migrated to version 2 when it is opened for writing. A
missing file becomes a new store; an empty (0-byte) one too, with a warning on the log that says
so (it may be a store whose contents were lost). A folder is named as one.

Readers (``GameStore(path, readonly=True)``: ``chessery export``, ``chessery status``) never
create or change anything: a missing file, a missing folder or an empty file is a
``StoreError``, the database is opened ``mode=ro``, and a version-1 file is read as it is.

Transactions: every write method commits before it returns, unless it runs inside
``with store.transaction():``, whose writes (a move and the clock time its mover had left) commit
together when the block ends or at :meth:`commit`.

Durability: WAL journal with ``synchronous=FULL``, so a transaction that returned is on disk
and a process killed (or a power cut) at any instant leaves either the whole move or none.

A full disk (``SQLITE_FULL``): the writes that did not fit are kept, in order, in memory and
tried again at every write and at :meth:`retry` (the service's loop calls it); :attr:`problem`
says so for the screen, the log says it once, and once space is freed they are written in one
transaction and the log says that too. Nothing committed before is touched, and play goes on.
"""

from __future__ import annotations

import contextlib
import logging
import sqlite3
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from .store_schema import (
    APPLICATION_ID,
    SCHEMA_VERSION,
    StoreError,
    check_file,
    connect_ro,
    create,
    folder_error,
    migrate,
    no_new_sidecars,
    tables,
)

__all__ = ["APPLICATION_ID", "SCHEMA_VERSION", "GameRecord", "GameStore", "StoreError", "default_path"]

log = logging.getLogger("chessery.store")

#: Seconds between retries of writes that did not fit on a full disk (any new write retries too).
RETRY_S = 1.0

_Op = tuple[str, tuple[object, ...]]


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
    demo: bool = False


def default_path() -> Path:
    import platformdirs

    return Path(platformdirs.user_data_dir("chessery")) / "games.sqlite3"


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def _full(exc: sqlite3.Error) -> bool:
    return exc.sqlite_errorcode == sqlite3.SQLITE_FULL


class GameStore:
    """The games file. ``demo``: the games this store starts are the built-in demo's (marked
    so, and left out of ``export --all``)."""

    def __init__(self, path: str | Path | None = None, readonly: bool = False, demo: bool = False) -> None:
        self.path = Path(path) if path else default_path()
        self.readonly = readonly
        self.demo = demo
        #: What the screen should say about the store ("" when all is well): a full disk.
        self.problem = ""
        self._sidecars: contextlib.ExitStack | None = None
        self._ops: list[_Op] = []  # writes not committed yet: inside a transaction, or a full disk
        self._moves_waiting = 0  # of them, moves
        self._plies: dict[int, int] = {}  # ply counts as the waiting writes leave them
        self._last_id = 0
        self._depth = 0
        self._tried_at = 0.0
        if (folder := folder_error(self.path)) is not None:
            raise folder
        if readonly:
            self._open_readonly()
            return
        fresh = not self.path.exists() or self.path.stat().st_size == 0
        version = SCHEMA_VERSION
        if not fresh:
            version = check_file(self.path)
        elif self.path.exists():
            log.warning("%s: the file is empty (0 bytes); starting a new games database in it", self.path)
        else:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise StoreError(f"{self.path}: cannot create its folder: {exc.strerror}") from None
        try:
            self._con = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=5.0)
            self._con.execute("PRAGMA journal_mode=WAL")
            self._con.execute("PRAGMA synchronous=FULL")
            if fresh:
                create(self._con)
            elif version < SCHEMA_VERSION:
                migrate(self._con, version)
                log.info("%s: games database brought from schema %d to %d", self.path, version, SCHEMA_VERSION)
        except sqlite3.Error as exc:
            raise StoreError(f"{self.path}: cannot use the database: {exc}") from None
        self.version = SCHEMA_VERSION
        self._tables = tables(self._con)

    def _open_readonly(self) -> None:
        if not self.path.exists():
            raise StoreError(f"{self.path}: no such games database (nothing was created; check --db)")
        if self.path.stat().st_size == 0:
            raise StoreError(f"{self.path}: the file is empty (0 bytes), so there are no games in it")
        self.version = check_file(self.path)
        stack = contextlib.ExitStack()
        stack.enter_context(no_new_sidecars(self.path))
        try:
            self._con = connect_ro(self.path)
            self._tables = tables(self._con)
        except sqlite3.Error as exc:
            stack.close()
            raise StoreError(f"{self.path}: cannot read the database: {exc}") from None
        self._sidecars = stack

    def close(self) -> None:
        if self._ops and not self.readonly:
            self._flush()
            if self._ops:
                log.error("%s: the disk is still full: %d moves were never written", self.path, self._moves_waiting)
        self._con.close()
        if self._sidecars is not None:
            self._sidecars.close()
            self._sidecars = None

    def __enter__(self) -> GameStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- transactions and the writes waiting for one ----------------------------------------------
    @contextlib.contextmanager
    def transaction(self) -> Iterator[None]:
        """The writes in the block commit together, when it ends (or at :meth:`commit`)."""
        self._depth += 1
        try:
            yield
        finally:
            self._depth -= 1
            if self._depth == 0:
                self._flush()

    def commit(self) -> None:
        """Commit the writes so far, inside a transaction block too (before telling anyone)."""
        self._flush()

    def retry(self) -> None:
        """Try again the writes a full disk refused (at most every ``RETRY_S``)."""
        if self._ops and self._depth == 0 and time.monotonic() - self._tried_at >= RETRY_S:
            self._flush()

    @property
    def waiting(self) -> int:
        """Moves accepted but not on disk yet (a full disk)."""
        return self._moves_waiting

    def _write(self, ops: list[_Op], moves: int = 0) -> None:
        self._ops += ops
        self._moves_waiting += moves
        if self._depth == 0:
            self._flush()

    def _flush(self) -> None:
        if not self._ops:
            return
        self._tried_at = time.monotonic()
        con = self._con
        try:
            con.execute("BEGIN IMMEDIATE")
            for sql, params in self._ops:
                con.execute(sql, params)
            con.execute("COMMIT")
        except sqlite3.Error as exc:
            if con.in_transaction:
                with contextlib.suppress(sqlite3.Error):
                    con.execute("ROLLBACK")
            if not _full(exc):
                self._ops.clear()
                self._plies.clear()
                self._moves_waiting = 0
                raise
            if not self.problem:
                log.error("%s: the disk is full: %d moves not written yet; they are kept and written as soon "
                          "as space is freed (free space on %s)", self.path, self._moves_waiting, self.path.parent)
            self.problem = (f"Disk full: {self._moves_waiting} moves not saved yet. Free space on "
                            f"{self.path.parent}: they are saved as soon as there is room")
            return
        if self.problem:
            log.warning("%s: space again: %d waiting moves written", self.path, self._moves_waiting)
            self.problem = ""
        self._ops.clear()
        self._plies.clear()
        self._moves_waiting = 0

    # -- writing -----------------------------------------------------------------------------------
    def new_game(self, variant: str, start_fen: str) -> int:
        row = (variant, start_fen, _now(), int(self.demo))
        if not self._ops and self._depth == 0:
            try:
                cur = self._con.execute("INSERT INTO games (variant, start_fen, started, demo) VALUES (?, ?, ?, ?)",
                                        row)
            except sqlite3.Error as exc:
                if not _full(exc):
                    raise
            else:
                assert cur.lastrowid is not None
                self._last_id = cur.lastrowid
                return cur.lastrowid
        # Writes are waiting (a transaction block, a full disk): the number is ours to give.
        top = self._con.execute("SELECT MAX(id) FROM games").fetchone()[0]
        self._last_id = max(self._last_id, int(top or 0)) + 1
        self._plies[self._last_id] = 0
        self._write([("INSERT INTO games (id, variant, start_fen, started, demo) VALUES (?, ?, ?, ?, ?)",
                      (self._last_id, *row))])
        return self._last_id

    def record(self, game_id: int, undone: int, moves: list[str] | tuple[str, ...]) -> int:
        """Take back the last ``undone`` plies and append ``moves``, in one transaction.
        Returns the number of plies stored afterwards."""
        n = self._plies[game_id] if game_id in self._plies else self._count(game_id)
        if undone > n:
            raise StoreError(f"{self.path}: game {game_id} has {n} plies, cannot take back {undone}")
        ops: list[_Op] = []
        if undone:
            ops.append(("DELETE FROM moves WHERE game_id = ? AND ply > ?", (game_id, n - undone)))
            ops.append(("UPDATE games SET finished = NULL, result = '*', termination = '' WHERE id = ?", (game_id,)))
        n -= undone
        at = _now()
        ops += [("INSERT INTO moves (game_id, ply, move, played) VALUES (?, ?, ?, ?)", (game_id, n + i + 1, m, at))
                for i, m in enumerate(moves)]
        self._plies[game_id] = n + len(moves)
        self._write(ops, moves=len(moves))
        return n + len(moves)

    def finish(self, game_id: int, result: str, termination: str) -> None:
        self._write([("UPDATE games SET finished = ?, result = ?, termination = ? WHERE id = ?",
                      (_now(), result, termination, game_id))])

    def set_tag(self, game_id: int, name: str, value: str) -> None:
        self._write([("INSERT OR REPLACE INTO game_tags VALUES (?, ?, ?)", (game_id, name, value))])

    def save_clock(self, game_id: int, control: str, state: str, ply: int | None = None,
                   mover_ms: int | None = None) -> None:
        """The clock's state; with ``ply``, also the time the mover of that ply had left (and
        the plies after it are dropped: they were taken back)."""
        ops: list[_Op] = [("INSERT OR REPLACE INTO game_clocks VALUES (?, ?, ?)", (game_id, control, state))]
        if ply is not None:
            ops.append(("DELETE FROM ply_clocks WHERE game_id = ? AND ply >= ?", (game_id, ply)))
            if mover_ms is not None:
                ops.append(("INSERT INTO ply_clocks VALUES (?, ?, ?)", (game_id, ply, mover_ms)))
        self._write(ops)

    # -- reading -----------------------------------------------------------------------------------
    def _count(self, game_id: int) -> int:
        return int(self._con.execute("SELECT COUNT(*) FROM moves WHERE game_id = ?", (game_id,)).fetchone()[0])

    def game(self, game_id: int) -> GameRecord:
        demo = "demo" if self.version >= 2 else "0"
        row = self._con.execute(f"SELECT id, variant, start_fen, started, finished, result, termination, {demo} "
                                "FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise StoreError(f"{self.path}: no game {game_id}")
        moves = tuple(r[0] for r in self._con.execute("SELECT move FROM moves WHERE game_id = ? ORDER BY ply",
                                                       (game_id,)))
        return GameRecord(row[0], row[1], row[2], row[3], row[4], row[5], row[6], moves=moves, demo=bool(row[7]))

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

    def game_ids(self, variant: str | None = None, demo: bool | None = None) -> list[int]:
        """Every game's number, oldest first; only of ``variant``, or only demo (or real) games."""
        where: list[str] = []
        params: list[object] = []
        if variant is not None:
            where.append("variant = ?")
            params.append(variant)
        if demo is not None and self.version >= 2:
            where.append("demo = ?")
            params.append(int(demo))
        elif demo:
            return []  # a version-1 file has no demo games marked
        sql = "SELECT id FROM games" + (" WHERE " + " AND ".join(where) if where else "") + " ORDER BY id"
        return [r[0] for r in self._con.execute(sql, params)]

    def tags(self, game_id: int) -> dict[str, str]:
        if "game_tags" not in self._tables:
            return {}
        return dict(self._con.execute("SELECT name, value FROM game_tags WHERE game_id = ? ORDER BY name",
                                      (game_id,)).fetchall())

    def clock(self, game_id: int) -> tuple[str, str] | None:
        if "game_clocks" not in self._tables:
            return None
        row = self._con.execute("SELECT control, state FROM game_clocks WHERE game_id = ?", (game_id,)).fetchone()
        return (row[0], row[1]) if row else None

    def ply_clocks(self, game_id: int, plies: int) -> list[int | None]:
        if "ply_clocks" not in self._tables:
            return [None] * plies
        got = dict(self._con.execute("SELECT ply, ms FROM ply_clocks WHERE game_id = ?", (game_id,)).fetchall())
        return [got.get(p) for p in range(1, plies + 1)]

    # -- for tests ---------------------------------------------------------------------------------
    def cap_pages(self, pages: int) -> None:
        """Let the file grow to ``pages`` pages at most (``PRAGMA max_page_count``): beyond, SQLite
        answers ``SQLITE_FULL`` as on a full disk. How tests fill a disk without root."""
        self._con.execute(f"PRAGMA max_page_count = {int(pages)}")
