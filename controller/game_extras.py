"""What a tournament game has beyond its moves: its PGN tags set at the board (players' names,
event, round), its clock's state and, per ply, the time the mover had left (for the PGN's
``[%clk]`` comments).

They live in the games file's own tables (schema version 2, :mod:`controller.store_schema`) and
are written through the store's connection, so that a move and its clock time commit in one
transaction (``with store.transaction():``). ``GameExtras(store)`` uses a store that is open;
``GameExtras(path)`` opens the file itself (and closes it on :meth:`close`).
"""

from __future__ import annotations

from pathlib import Path

from .store import GameStore


class GameExtras:
    def __init__(self, store: GameStore | str | Path) -> None:
        self._own = not isinstance(store, GameStore)
        self.store = store if isinstance(store, GameStore) else GameStore(store)

    def close(self) -> None:
        if self._own:
            self.store.close()

    def __enter__(self) -> GameExtras:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def set_tag(self, game_id: int, name: str, value: str) -> None:
        self.store.set_tag(game_id, name, value)

    def tags(self, game_id: int) -> dict[str, str]:
        return self.store.tags(game_id)

    def save_clock(self, game_id: int, control: str, state: str, ply: int | None = None,
                   mover_ms: int | None = None) -> None:
        self.store.save_clock(game_id, control, state, ply, mover_ms)

    def clock(self, game_id: int) -> tuple[str, str] | None:
        return self.store.clock(game_id)

    def ply_clocks(self, game_id: int, plies: int) -> list[int | None]:
        return self.store.ply_clocks(game_id, plies)
