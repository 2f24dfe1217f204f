"""The operator menu's "Who plays Black?" screen (``controller.menu``): people, our engine at a
few levels, and -- where a hall is configured -- the boards of the hall playing this variant,
or any other board typed by name (``Other board...``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

#: Who may play a side, as the menu offers it: (player, label). Other engines are chosen on the
#: command line or in the configuration (docs/search.md, "Players"); boards of the hall are
#: offered after these when a hall is configured (docs/hall.md, "Remote games").
PLAYER_PRESETS = (("human", "Human"), ("computer:1", "Computer, beginner"), ("computer:8", "Computer, casual"),
                  ("computer:14", "Computer, club"), ("computer", "Computer, strongest"))
#: Boards of the hall offered by name (with the presets, Other board and Back: six rows of
#: two); any other is typed after Other board.
REMOTES_SHOWN = 5

#: The boards of the hall that could play a side of this variant from elsewhere (their names).
RemoteList = Callable[[], Sequence[str]]


def player_screen(side: str, remotes: list[str] | None) -> tuple[str, list[tuple[str, str]], int]:
    """``remotes``: the boards listed (None: no hall, no remote side)."""
    players = [(f"p:{p}", label) for p, label in PLAYER_PRESETS]
    if remotes is None:
        return f"Who plays {side}?", [*players, ("back", "Back")], 1
    players += [(f"p:remote:{name}", f"Board {name}") for name in remotes]
    return f"Who plays {side}?", [*players, ("remote", "Other board..."), ("back", "Back")], 2


def listed_remotes(source: RemoteList, chosen: str) -> list[str]:
    """The boards offered, taken once as the screen opens (a list changing under the finger
    would move the buttons); ``chosen``, the side's player in force, stays listed if remote."""
    listed = list(source())[:REMOTES_SHOWN]
    name = chosen.removeprefix("remote:")
    if chosen.startswith("remote:") and name not in listed:
        listed = [name, *listed[:REMOTES_SHOWN - 1]]
    return listed
