"""The 60 historical games of ``tests/data/pgn/historical-games.pgn`` (source in the file's
header), as move lists in the engine's notation, read with python-chess."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import chess.pgn

PGN = Path(__file__).parent / "data" / "pgn" / "historical-games.pgn"


@cache
def historical_games() -> tuple[tuple[str, ...], ...]:
    """Each game's moves as UCI texts (the engine's notation for chess: ``e1g1``, ``b7b8q``)."""
    games = []
    with PGN.open(encoding="utf-8") as f:
        while (game := chess.pgn.read_game(f)) is not None:
            games.append(tuple(move.uci() for move in game.mainline_moves()))
    return tuple(games)
