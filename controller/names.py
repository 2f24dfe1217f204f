"""The players' names as the screen shows them: the names set at the board through the operator
menu over the configuration's ``[event]`` white and black, exactly as the PGN export takes them
(the menu's names are the game's own tags, over the event's), so screen and PGN never disagree."""

from __future__ import annotations

from collections.abc import Mapping

from .config import EventConfig


def player_names(event: EventConfig, players: Mapping[int, str]) -> tuple[str, str]:
    """White's and Black's names ("?" where nobody has named them: PGN's unknown)."""
    configured = (event.white, event.black)
    return (players.get(0) or configured[0] or "?", players.get(1) or configured[1] or "?")


def players_line(event: EventConfig, players: Mapping[int, str], nsides: int) -> str:
    """``"Tal - Bob Player"`` for the panel, under the variant's title; "" when nobody is named
    or the game has other sides than White and Black (PGN names only those two)."""
    if nsides != 2:
        return ""
    names = player_names(event, players)
    return "" if names == ("?", "?") else " - ".join(names)
