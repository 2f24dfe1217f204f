"""What a tournament game has beyond its moves, in the same SQLite file as the games: its PGN tags
set at the board (players' names, event, round), its clock's state and, per ply, the time the
mover had left (for the PGN's ``[%clk]`` comments).

Kept in tables of their own (created when first needed) so that the games schema and its checks
in ``controller.store`` stay as they are: a store without these tables is simply a store of
untimed games without tags. Writes commit at once (WAL, ``synchronous=FULL``, like the store).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

SCHEMA = """
CREATE TABLE IF NOT EXISTS game_tags (
    game_id INTEGER NOT NULL, name TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (game_id, name));
CREATE TABLE IF NOT EXISTS game_clocks (
    game_id INTEGER PRIMARY KEY, control TEXT NOT NULL, state TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS ply_clocks (
    game_id INTEGER NOT NULL, ply INTEGER NOT NULL, ms INTEGER NOT NULL, PRIMARY KEY (game_id, ply));
"""


class GameExtras:
    def __init__(self, path: str | Path) -> None:
        self._con = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False, timeout=5.0)
        self._con.execute("PRAGMA synchronous=FULL")
        self._con.executescript(SCHEMA)

    def close(self) -> None:
        self._con.close()

    def __enter__(self) -> GameExtras:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- tags ---------------------------------------------------------------------------------------
    def set_tag(self, game_id: int, name: str, value: str) -> None:
        self._con.execute("INSERT OR REPLACE INTO game_tags VALUES (?, ?, ?)", (game_id, name, value))

    def tags(self, game_id: int) -> dict[str, str]:
        return dict(self._con.execute("SELECT name, value FROM game_tags WHERE game_id = ? ORDER BY name",
                                      (game_id,)).fetchall())

    # -- clocks -------------------------------------------------------------------------------------
    def save_clock(self, game_id: int, control: str, state: str, ply: int | None = None,
                   mover_ms: int | None = None) -> None:
        """The clock's state; with ``ply``, also the time the mover of that ply had left (and
        the plies after it are dropped: they were taken back)."""
        self._con.execute("BEGIN IMMEDIATE")
        try:
            self._con.execute("INSERT OR REPLACE INTO game_clocks VALUES (?, ?, ?)", (game_id, control, state))
            if ply is not None:
                self._con.execute("DELETE FROM ply_clocks WHERE game_id = ? AND ply >= ?", (game_id, ply))
                if mover_ms is not None:
                    self._con.execute("INSERT INTO ply_clocks VALUES (?, ?, ?)", (game_id, ply, mover_ms))
            self._con.execute("COMMIT")
        except BaseException:
            self._con.execute("ROLLBACK")
            raise

    def clock(self, game_id: int) -> tuple[str, str] | None:
        row = self._con.execute("SELECT control, state FROM game_clocks WHERE game_id = ?", (game_id,)).fetchone()
        return (row[0], row[1]) if row else None

    def ply_clocks(self, game_id: int, plies: int) -> list[int | None]:
        got = dict(self._con.execute("SELECT ply, ms FROM ply_clocks WHERE game_id = ?", (game_id,)).fetchall())
        return [got.get(p) for p in range(1, plies + 1)]
