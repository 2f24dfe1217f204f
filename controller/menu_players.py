"""The operator menu's "Who plays Black?" screen (``controller.menu``): people, our engine at a
few levels, the UCI engines the configuration names (``engines``), and -- where a hall is
configured -- the boards of the hall playing this variant, or any other board typed by name
(``Other board...``)."""

from __future__ import annotations

import shlex
from collections.abc import Callable, Sequence
from pathlib import PurePath

#: Who may play a side, as the menu offers it: (player, label). The configuration's UCI engines
#: follow (a kiosk has no keyboard to type a command, so the owner names them beforehand:
#: docs/configuration.md, ``engines``); boards of the hall come after those when a hall is
#: configured (docs/hall.md, "Remote games").
PLAYER_PRESETS = (("human", "Human"), ("computer:1", "Computer, beginner"), ("computer:8", "Computer, casual"),
                  ("computer:14", "Computer, club"), ("computer", "Computer, strongest"))
#: Boards of the hall and UCI engines offered by name, together (with the presets, Other board
#: and Back: six rows of two touch-sized buttons on the 800x480 screen); any other board is
#: typed after Other board.
REMOTES_SHOWN = 5
#: UCI engines offered, at most (the rest of the ``REMOTES_SHOWN`` buttons stay for boards).
ENGINES_SHOWN = 3

#: The boards of the hall that could play a side of this variant from elsewhere (their names).
RemoteList = Callable[[], Sequence[str]]


def player_screen(side: str, remotes: list[str] | None,
                  engines: Sequence[str] = ()) -> tuple[str, list[tuple[str, str]], int]:
    """``remotes``: the boards listed (None: no hall, no remote side); ``engines``: the UCI
    engines listed, as ``uci:COMMAND`` player descriptions."""
    players = [(f"p:{p}", label) for p, label in PLAYER_PRESETS]
    players += [(f"p:{e}", engine_label(e)) for e in engines]
    if remotes is None:
        return f"Who plays {side}?", [*players, ("back", "Back")], 2 if engines else 1
    players += [(f"p:remote:{name}", f"Board {name}") for name in remotes]
    return f"Who plays {side}?", [*players, ("remote", "Other board..."), ("back", "Back")], 2


def engine_label(player: str) -> str:
    """``uci:/opt/fsf/fairy-stockfish --x`` is ``Engine fairy-stockfish --x``: the program's own
    name, which is what its owner calls it, without the folder that would crowd the button."""
    words = shlex.split(player.removeprefix("uci:"))
    return "Engine " + shlex.join([PurePath(words[0]).name, *words[1:]])


def listed_engines(configured: Sequence[str], chosen: str) -> list[str]:
    """The UCI engines offered (``uci:COMMAND`` each); ``chosen``, the side's player in force,
    stays listed if it is one (say from ``--black uci:stockfish``), so the screen shows it."""
    return _with_chosen(configured, chosen if chosen.startswith("uci:") else None, ENGINES_SHOWN)


def listed_remotes(source: RemoteList, chosen: str, room: int = REMOTES_SHOWN) -> list[str]:
    """The boards offered (at most ``room``), taken once as the screen opens (a list changing
    under the finger would move the buttons); ``chosen``, the side's player in force, stays
    listed if remote."""
    return _with_chosen(source(), chosen.removeprefix("remote:") if chosen.startswith("remote:") else None, room)


def _with_chosen(offered: Sequence[str], chosen: str | None, room: int) -> list[str]:
    """The first ``room`` of ``offered``, with ``chosen`` (the one in force) first among them
    when it would be left out: the screen highlights the setting in force. Never more than
    ``room``, none for no room."""
    listed = list(offered)[:room]
    if room > 0 and chosen is not None and chosen not in listed:
        listed = [chosen, *listed[:room - 1]]
    return listed
