"""The arbiter's screens of the operator menu (pure, like ``controller.menu``): the clocks (pause
both, add or take time after a decision), a result the arbiter records (a forfeit, a draw, an
adjourned game), which stored games go to the USB stick, and shutting the kiosk down or
restarting it (each asked again before it is done).

Each screen is a title, its buttons (key, label) and its columns; ``tap`` returns the
:class:`~controller.menu.Action` to carry out (or None) and the screen to go to next."""

from __future__ import annotations

from collections.abc import Sequence

from .menu_types import Action

#: Clock corrections offered per side, in seconds.
CLOCK_STEPS = (60, 10, -10, -60)
#: Stored games on one page of the export list (with More and Back: five rows of two).
GAMES_PER_PAGE = 8
POWER = {"restart": ("Restart Chessery", "Restart Chessery now? The game under way is kept"),
         "shutdown": ("Shut down the kiosk", "Shut the kiosk down now? Switch it on again to play")}


def _step_label(seconds: int) -> str:
    sign = "+" if seconds > 0 else "−"
    amount = abs(seconds)
    return f"{sign}{amount // 60} min" if amount >= 60 else f"{sign}{amount} s"


def clocks_screen(sides: Sequence[str], paused: bool) -> tuple[str, list[tuple[str, str]], int]:
    keys = [("pause", "Run both clocks" if paused else "Pause both clocks")]
    for i, side in enumerate(sides):
        keys += [(f"adj{i}:{step}", f"{side} {_step_label(step)}") for step in CLOCK_STEPS]
    keys.append(("back", "Back"))
    title = "Clocks: paused by the arbiter" if paused else "Clocks (the menu stops them while it is open)"
    return title, keys, len(CLOCK_STEPS)


def clocks_tap(key: str) -> Action:
    if key == "pause":
        return Action("clock_pause")
    side, step = key[3:].split(":")
    return Action("clock_adjust", side=int(side), value=step)


def arbiter_screen(sides: Sequence[str]) -> tuple[str, list[tuple[str, str]], int]:
    keys = [(f"forfeit{i}", f"{side} wins by forfeit") for i, side in enumerate(sides)]
    keys += [("draw", "Draw by the arbiter"), ("adjourned", "Adjourned"), ("back", "Cancel")]
    return "The arbiter's result (ends the game)", keys, 2


def arbiter_tap(key: str) -> Action:
    if key.startswith("forfeit"):
        return Action("arbiter", side=int(key[7:]), value="forfeit")
    return Action("arbiter", value=key)


def export_screen() -> tuple[str, list[tuple[str, str]], int]:
    return "Export to USB", [("this", "This game"), ("choose", "Choose a game"), ("event", "The whole event"),
                             ("back", "Back")], 2


def export_tap(key: str) -> Action | None:
    if key == "this":
        return Action("export")
    if key == "event":
        return Action("export", value="event")
    return None  # "choose": the list


def games_screen(games: Sequence[tuple[int, str]], page: int) -> tuple[str, list[tuple[str, str]], int]:
    pages = max(1, -(-len(games) // GAMES_PER_PAGE))
    first = page * GAMES_PER_PAGE
    keys = [(f"g:{gid}", label) for gid, label in games[first:first + GAMES_PER_PAGE]]
    if page + 1 < pages:
        keys.append(("more", "More"))
    keys.append(("back", "Back"))
    title = "Which game? (newest first)" if games else "No game stored yet"
    return title + (f" {page + 1}/{pages}" if pages > 1 else ""), keys, 2


def games_pages(games: Sequence[tuple[int, str]]) -> int:
    return max(1, -(-len(games) // GAMES_PER_PAGE))


def power_screen() -> tuple[str, list[tuple[str, str]], int]:
    return "Restart or shut down", [(key, label) for key, (label, _q) in POWER.items()] + [("back", "Cancel")], 1


def confirm_power_screen(what: str) -> tuple[str, list[tuple[str, str]], int]:
    return POWER[what][1], [("yes", POWER[what][0]), ("back", "Cancel")], 1
