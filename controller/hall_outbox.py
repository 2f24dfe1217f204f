"""The hall publisher's outbox (controller.hall_publish): the events the broker has not
acknowledged yet, oldest first, and the numbering of the board's events, kept in a small SQLite
file beside the games file, so a board restarted while the broker is away still publishes every
event of the gap, in order and none twice.

Why a file of its own and not a table in the games file: the games file's schema is a contract
(controller.store_schema: an older Chessery refuses a newer schema), and a hall-only table would
make every board's games file a new version; the games file is written by the controller's one
connection, while the outbox is also emptied from the publisher's sender thread; and losing the
outbox loses nothing of the game (the retained state holds every move), so it need not share the
games file's transaction. It is written in the same durable way (WAL, ``synchronous=FULL``).

What is kept: each event's payload in a row, deleted once the broker acknowledged it; the board
name, the numbering's ``run`` and last ``seq``; and the game as last numbered (game id, moves,
status, result), so the events between it and the game found at the next start -- moves
committed in the instant between the games file and this one -- are numbered then. A file of
another board name, or one that cannot be read, is set aside with a warning (the board starts a
new numbering; the retained state still carries the whole game).
"""

from __future__ import annotations

import contextlib
import json
import logging
import sqlite3
import time
from pathlib import Path
from typing import Any

log = logging.getLogger("chessery.hall")

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (
    id INTEGER PRIMARY KEY CHECK (id = 1), board TEXT NOT NULL, run INTEGER NOT NULL, seq INTEGER NOT NULL,
    game TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS events (id INTEGER PRIMARY KEY, payload BLOB NOT NULL);
"""
#: The fields of a state that the events between two states depend on (hall_state.events_of).
GAME_FIELDS = ("game", "moves", "san", "status", "result")


def outbox_path(games: Path) -> Path:
    """The outbox beside the games file: ``games.sqlite3`` -> ``games.sqlite3.hall-outbox``."""
    return Path(f"{games}.hall-outbox")


class Outbox:
    """Not thread-safe by itself: the publisher calls it under its own lock. ``path`` None: in
    memory only (the events survive a broker restart, not a board restart)."""

    def __init__(self, path: Path | None, board: str) -> None:
        self.path = path
        self.board = board
        self.run = int(time.time() * 1000)
        self.seq = 0
        #: The game as last numbered (GAME_FIELDS of a state), None before the first.
        self.game: dict[str, Any] | None = None
        self._pending: list[tuple[int, bytes]] = []  # (row id, payload), oldest first
        self._next_id = 1
        self._con: sqlite3.Connection | None = None
        if path is not None:
            self._open(path)

    def _open(self, path: Path) -> None:
        try:
            con = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
            con.execute("PRAGMA journal_mode=WAL")
            con.execute("PRAGMA synchronous=FULL")
            con.executescript(SCHEMA)
            row = con.execute("SELECT board, run, seq, game FROM meta").fetchone()
            if row is not None and row[0] != self.board:
                log.warning("hall: %s was board %s's outbox, not %s's: its events are dropped", path, row[0],
                            self.board)
                con.executescript("BEGIN; DELETE FROM events; DELETE FROM meta; COMMIT;")
                row = None
            if row is not None:
                self.run, self.seq, self.game = int(row[1]), int(row[2]), json.loads(row[3])
                rows = con.execute("SELECT id, payload FROM events ORDER BY id")
                self._pending = [(int(i), bytes(p)) for i, p in rows]
                self._next_id = self._pending[-1][0] + 1 if self._pending else 1
                if self._pending:
                    log.info("hall: %d events from before the restart wait for the broker", len(self._pending))
        except (sqlite3.Error, ValueError, TypeError) as exc:
            log.warning("hall: the outbox %s cannot be used (%s); events wait in memory only", path, exc)
            with contextlib.suppress(sqlite3.Error, UnboundLocalError):
                con.close()
            self._pending, self._next_id, self.game = [], 1, None
            return
        self._con = con

    def __len__(self) -> int:
        return len(self._pending)

    def first(self) -> bytes | None:
        return self._pending[0][1] if self._pending else None

    def add(self, payloads: list[bytes], seq: int, state: dict[str, Any]) -> None:
        """Events numbered up to ``seq`` after the game went to ``state``: kept, in one
        transaction with the new numbering, before anyone sends them."""
        rows = [(self._next_id + n, payload) for n, payload in enumerate(payloads)]
        game = {k: state[k] for k in GAME_FIELDS}
        self._write(lambda con: (
            con.executemany("INSERT INTO events (id, payload) VALUES (?, ?)", rows),
            con.execute("INSERT OR REPLACE INTO meta (id, board, run, seq, game) VALUES (1, ?, ?, ?, ?)",
                        (self.board, self.run, seq, json.dumps(game)))))
        self._pending += rows
        self._next_id += len(rows)
        self.seq, self.game = seq, game

    def sent(self) -> None:
        """The broker acknowledged the first event."""
        row_id, _payload = self._pending.pop(0)
        self._write(lambda con: con.execute("DELETE FROM events WHERE id = ?", (row_id,)))

    def _write(self, change: Any) -> None:
        con = self._con
        if con is None:
            return
        try:
            con.execute("BEGIN IMMEDIATE")
            change(con)
            con.execute("COMMIT")
        except sqlite3.Error as exc:  # a full disk: the events go on in memory; the state holds the game
            with contextlib.suppress(sqlite3.Error):
                con.execute("ROLLBACK")
            log.warning("hall: the outbox %s could not be written (%s); events wait in memory only", self.path, exc)
            self._con = None
            con.close()
            # A file left behind would number the next start's events from an old count, and
            # readers would take them for repeats: it goes (the next start numbers afresh).
            for suffix in ("", "-wal", "-shm", "-journal"):
                with contextlib.suppress(OSError):
                    Path(f"{self.path}{suffix}").unlink()

    def close(self) -> None:
        if self._con is not None:
            self._con.close()
            self._con = None
