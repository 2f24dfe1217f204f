"""The operator menu: a small state machine of screens, each a title and buttons, driven by the
keys of the buttons touched (or chosen with the GPIO buttons). Pure: it knows nothing of the
service; :meth:`OperatorMenu.tap` returns an :class:`Action` for the service to carry out.

Screens::

    main        New game | Resign | Offer draw | Claim draw | Take back | Hint | Flip board | Export to USB
                | [End by agreement] | Clocks | Arbiter's result | Restart or shut down | Settings | Close
    resign      White resigns | Black resigns | Cancel         (one button per side)
    draw        <the opponent> accepts | Declined; against the computer: Offer a draw | Cancel (it
                answers: controller/service/offers.py)
    confirm_new Start a new game | Cancel
    pin         a keypad; the settings open with the right digits (no PIN configured: at once)
    settings    Variant | Time control | White's name | Black's name | White plays | Black plays | Event
                | Round | Board | Back (each with its current value)
    player      Human | Computer, beginner | ... casual | ... club | ... strongest | [Board B ... (boards of
                the hall playing this variant) | Other board...] | Back
    variant     one button per variant, VARIANTS_PER_PAGE a page | [More] | Back
    time        No clock | 5+3 | 15+10 | 25+10 | 90+30 | 40/90+30,30+30 | Other... | Back
    entry       a touch keyboard for a name, the event, round, board, a time control
                (``controller.menu_entry``)
    clocks, arbiter, export, games, power, confirm_power   (``controller.menu_arbiter``)
    message     a line to read (export done, no draw to claim) | OK

The current setting is the highlighted (selected) button where a screen has one: the variant
played, the time control of the next games.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from display.view import Choice, Prompt

from . import menu_arbiter as arb
from .menu_entry import Entry
from .menu_players import PLAYER_PRESETS, REMOTES_SHOWN, RemoteList, listed_engines, listed_remotes, player_screen
from .menu_types import Action, ActionKind

__all__ = ["PLAYER_PRESETS", "Action", "OperatorMenu"]

TIME_PRESETS = ("none", "5+3", "15+10", "25+10", "90+30", "40/90+30,30+30")
#: Variant buttons on one page of the variant screen: with More and Back, six rows of two
#: touch-sized buttons whose labels keep their full size on the 800x480 screen.
VARIANTS_PER_PAGE = 10
#: The event's PGN tags the settings set, by the entry's purpose.
TAGS = {"event": "Event", "round": "Round", "board": "Board"}

#: The variants the menu offers, as (name, title), worked out when the variant screen first opens
#: (loading every variant takes a second or two: not at start-up).
VariantList = Callable[[], Sequence[tuple[str, str]]]
#: The stored games the export list offers, newest first: (id, label).
GameList = Callable[[], Sequence[tuple[int, str]]]


class OperatorMenu:
    """``variants``: names (shown capitalised) or a function giving (name, title) pairs, e.g.
    only the variants that fit the connected board (``controller.operator.make_menu``);
    ``games``: the stored games for the export list; ``remotes``: the boards of the hall that
    could play a side (None: no hall, so no remote side is offered); ``engines``: the UCI
    engines offered for a side (``uci:COMMAND`` each, from the configuration). ``current``
    holds the settings in force (keys ``variant``, ``time``, ``name0``, ``name1``, ``event``,
    ``round``, ``board``) and ``clocks_paused`` the arbiter's pause: the service keeps them up
    to date."""

    def __init__(self, variants: Sequence[str] | VariantList, sides: tuple[str, ...] = ("white", "black"),
                 pin: str = "", games: GameList | None = None, remotes: RemoteList | None = None,
                 engines: Sequence[str] = ()) -> None:
        self._variant_source = variants
        self._variants: list[tuple[str, str]] | None = None
        self._games_source = games or (lambda: [])
        self._games: Sequence[tuple[int, str]] = []
        self._remotes_source = remotes
        self._remotes: list[str] = []  # the boards listed when the player screen opened
        self._engines_configured = tuple(engines)
        self._engines: list[str] = []  # the engines listed when the player screen opened
        self.sides = sides
        self.pin = pin
        self.screen = ""  # "": closed
        self.selected = 0
        self.message = ""
        self.agreement = False  # the variant ends by agreement (Mathematichess)
        self.computer_answers = False  # the computer answers offers, not a person at the board
        self.current: dict[str, str] = {}
        self.clocks_paused = False
        self.entry: Entry | None = None
        self._typed = ""  # the PIN
        self._unlocked = False
        self._drawing_side = 0
        self._player_side = 0  # the side the player screen chooses for
        self._page = 0  # the variant or game list's page
        self._power = ""

    @property
    def is_open(self) -> bool:
        return bool(self.screen)

    def open(self, side_to_move: int = 0, agreement: bool = False, computer_answers: bool = False) -> None:
        self.screen = "main"
        self.selected = 0
        self.agreement = agreement
        self.computer_answers = computer_answers
        self._drawing_side = side_to_move
        self._unlocked = not self.pin

    def close(self) -> None:
        self.screen = ""
        self._typed = ""
        self.entry = None

    def show(self, text: str) -> None:
        """Open the menu on a message (the outcome of an action)."""
        self.screen = "message"
        self.message = text
        self.selected = 0

    # -- what to draw -----------------------------------------------------------------------------
    def prompt(self) -> Prompt | None:
        if not self.screen:
            return None
        title, choices, columns = self._screen()
        return Prompt(title, tuple(Choice(label, key) for key, label in choices),
                      min(self.selected, len(choices) - 1), columns)

    def _screen(self) -> tuple[str, list[tuple[str, str]], int]:
        sides = [s.capitalize() for s in self.sides]
        screen = self.screen
        if screen == "main":
            items = [("new", "New game"), ("resign", "Resign"), ("draw", "Offer draw"), ("claim", "Claim draw"),
                     ("takeback", "Take back"), ("hint", "Hint"), ("flip", "Flip board"), ("export", "Export to USB")]
            if self.agreement:
                items.append(("agreement", "End by agreement"))
            items += [("clocks", "Clocks"), ("arbiter", "Arbiter's result"), ("power", "Restart or shut down"),
                      ("settings", "Settings"), ("close", "Close")]
            return "Operator menu", items, 3
        if screen == "resign":
            return "Who resigns?", [(f"side{i}", f"{name} resigns") for i, name in enumerate(sides)] + [
                ("back", "Cancel")], 1
        if screen == "draw" and self.computer_answers:
            return "Offer the computer a draw?", [("accept", "Offer a draw"), ("back", "Cancel")], 1
        if screen == "draw":
            other = sides[(self._drawing_side + 1) % len(sides)]
            return f"{sides[self._drawing_side]} offers a draw. {other}?", [
                ("accept", f"{other} accepts"), ("back", "Declined")], 1
        if screen == "confirm_new":
            return "Abandon this game and start a new one?", [("yes", "Start a new game"), ("back", "Cancel")], 1
        if screen == "pin":
            digits = [(d, d) for d in "123456789"] + [("del", "Delete"), ("0", "0"), ("back", "Cancel")]
            return f"Operator PIN: {'•' * len(self._typed) or '_'}", digits, 3
        if screen == "settings":
            return "Settings", [(key, f"{label}: {value}" if value else label)
                                for key, label, value in self._settings()] + [("back", "Back")], 2
        if screen == "variant":
            pages = self.variant_pages
            first = self._page * VARIANTS_PER_PAGE
            shown = [(f"v:{name}", title) for name, title in self.variants[first:first + VARIANTS_PER_PAGE]]
            more = [("more", "More")] if self._page + 1 < pages else []
            page = f" {self._page + 1}/{pages}" if pages > 1 else ""
            return f"Variant{page} (a new game starts)", shown + more + [("back", "Back")], 2
        if screen == "time":
            current = self.current.get("time", "none")
            presets = list(TIME_PRESETS) + ([current] if current not in TIME_PRESETS else [])
            return "Time control (from the next game)", [
                (f"t:{t}", "No clock" if t == "none" else t) for t in presets] + [
                ("t:other", "Other..."), ("back", "Back")], 2
        if screen == "player":
            return player_screen(sides[self._player_side], None if self._remotes_source is None else self._remotes,
                                 self._engines)
        if screen == "entry":
            assert self.entry is not None
            return self.entry.screen()
        if screen == "clocks":
            return arb.clocks_screen(sides, self.clocks_paused)
        if screen == "arbiter":
            return arb.arbiter_screen(sides)
        if screen == "export":
            return arb.export_screen()
        if screen == "games":
            return arb.games_screen(self._games, self._page)
        if screen == "power":
            return arb.power_screen()
        if screen == "confirm_power":
            return arb.confirm_power_screen(self._power)
        if screen == "message":
            return self.message, [("close", "OK")], 1
        raise AssertionError(screen)

    def _settings(self) -> list[tuple[str, str, str]]:
        """(key, label, current value) of each setting."""
        variant = self.current.get("variant_title", self.current.get("variant", ""))
        time = self.current.get("time", "")
        out = [("variant", "Variant", variant),
               ("time", "Time control", "No clock" if time in ("", "none") else time)]
        out += [(f"name{i}", f"{side.capitalize()}'s name", self.current.get(f"name{i}", ""))
                for i, side in enumerate(self.sides)]
        out += [(f"player{i}", f"{side.capitalize()} plays", self.current.get(f"player{i}", "human"))
                for i, side in enumerate(self.sides)]
        out += [(purpose, label, self.current.get(purpose, "")) for purpose, label in
                (("event", "Event"), ("round", "Round"), ("board", "Board"))]
        return out

    def _current_index(self, keys: list[str]) -> int:
        """The button of the setting in force on the screen just opened (0 when none is)."""
        want = {"variant": f"v:{self.current.get('variant', '')}",
                "time": f"t:{self.current.get('time') or 'none'}",
                "player": f"p:{self.current.get(f'player{self._player_side}', 'human')}"}.get(self.screen)
        return keys.index(want) if want in keys else 0

    @property
    def variants(self) -> list[tuple[str, str]]:
        """(name, title) of each variant offered."""
        if self._variants is None:
            source = self._variant_source
            self._variants = list(source()) if callable(source) else [(n, n.capitalize()) for n in source]
        return self._variants

    @property
    def variant_pages(self) -> int:
        return max(1, -(-len(self.variants) // VARIANTS_PER_PAGE))

    # -- input ----------------------------------------------------------------------------------------
    def move(self, step: int) -> None:
        """The GPIO buttons (or encoder) move through the screen's buttons."""
        prompt = self.prompt()
        if prompt is not None:
            self.selected = (self.selected + step) % len(prompt.choices)

    def confirm(self) -> Action | None:
        prompt = self.prompt()
        if prompt is None:
            return None
        return self.tap(prompt.choices[min(self.selected, len(prompt.choices) - 1)].key)

    def _go(self, screen: str) -> None:
        self.screen = screen
        prompt = self.prompt()
        keys = [c.key for c in prompt.choices] if prompt is not None else []
        self.selected = self._current_index(keys)

    def tap(self, key: str) -> Action | None:
        """A button's key; raises ``ValueError`` for a key the screen does not have."""
        prompt = self.prompt()
        if prompt is None or all(c.key != key for c in prompt.choices):
            raise ValueError(f"{key!r} is not a button of the menu screen {self.screen or 'closed'}")
        self.selected = 0
        screen = self.screen
        if key == "close":
            self.close()
            return Action("close")
        if screen == "main":
            return self._tap_main(key)
        if key in ("more", "back") and screen in ("variant", "games"):
            pages = self.variant_pages if screen == "variant" else arb.games_pages(self._games)
            if key == "more" and self._page + 1 < pages:
                self._page += 1
                return None
            if key == "back" and self._page:
                self._page -= 1  # Back leafs back through the pages, then leaves
                return None
        if key == "back":
            if screen == "entry":  # a time control typed goes back among the presets, a board's name to the players
                purpose = self.entry.purpose if self.entry is not None else ""
                target = {"time": "time", "remote": "player"}.get(purpose.rstrip("0123456789"), "settings")
            else:
                target = {"variant": "settings", "time": "settings", "player": "settings",
                          "games": "export"}.get(screen, "main")
            self.entry = None
            self._go(target)
            return None
        if screen == "resign":
            self.close()
            return Action("resign", side=int(key[4:]))
        if screen == "draw":
            self.close()
            return Action("draw")
        if screen == "confirm_new":
            self.close()
            return Action("new_game")
        if screen == "pin":
            self._tap_pin(key)
            return None
        if screen == "settings":
            if key in ("variant", "time"):
                self._page = 0
                self._go(key)
            elif key.startswith("player"):
                self._player_side = int(key[6:])
                chosen = self.current.get(key, "")
                self._engines = listed_engines(self._engines_configured, chosen)
                if self._remotes_source is not None:
                    self._remotes = listed_remotes(self._remotes_source, chosen, REMOTES_SHOWN - len(self._engines))
                self._go("player")
            else:
                self._start_entry(key)
            return None
        if screen == "variant":
            self.close()
            return Action("variant", value=key[2:])
        if screen == "player":
            if key == "remote":  # a board of the hall not listed: its name is typed
                self._start_entry(f"remote{self._player_side}")
                return None
            self._go("settings")
            return Action("player", side=self._player_side, value=key[2:])
        if screen == "time":
            if key == "t:other":
                self._start_entry("time")
                return None
            self._go("settings")
            return Action("time_control", value=key[2:])
        if screen == "entry":
            return self._tap_entry(key)
        return self._tap_arbiter(screen, key)

    def _tap_main(self, key: str) -> Action | None:
        simple: dict[str, ActionKind] = {
            "claim": "claim", "takeback": "takeback", "hint": "hint", "flip": "flip", "agreement": "agreement"}
        if key in simple:
            self.close()
            return Action(simple[key])
        if key == "settings":
            self._typed = ""
            self._go("settings" if self._unlocked else "pin")
        else:
            self._go({"new": "confirm_new", "resign": "resign", "draw": "draw", "export": "export",
                      "clocks": "clocks", "arbiter": "arbiter", "power": "power"}[key])
        return None

    def _tap_pin(self, key: str) -> None:
        self._typed = self._typed[:-1] if key == "del" else self._typed + key
        if self._typed == self.pin:
            self._unlocked = True
            self._typed = ""
            self._go("settings")
        elif len(self._typed) >= len(self.pin):
            self._typed = ""

    def _start_entry(self, purpose: str) -> None:
        label = ""
        if purpose.startswith("name"):
            label = f"{self.sides[int(purpose[4:])].capitalize()}'s name"
        # The setting in force is there to read and to correct (a time control is typed afresh).
        typed = "" if purpose == "time" else self.current.get(purpose, "")
        if purpose.startswith("remote"):
            label = f"The board playing {self.sides[int(purpose[6:])].capitalize()}"
            player = self.current.get(f"player{purpose[6:]}", "")
            typed = player.removeprefix("remote:") if player.startswith("remote:") else ""
        self.entry = Entry.start(purpose, label, typed)
        self.screen = "entry"

    def _tap_entry(self, key: str) -> Action | None:
        entry = self.entry
        assert entry is not None
        if key != "ok":
            self.entry = entry.tap(key)
            return None
        self.entry = None
        value = entry.value
        if entry.purpose == "time":
            self._go("time")
            return Action("time_control", value=value) if value else None
        self._go("settings")
        if entry.purpose.startswith("remote"):
            return Action("player", side=int(entry.purpose[6:]), value=f"remote:{value}") if value else None
        if entry.purpose.startswith("name"):
            return Action("name", side=int(entry.purpose[4:]), value=value)
        return Action("tag", tag=TAGS[entry.purpose], value=value)

    def _tap_arbiter(self, screen: str, key: str) -> Action | None:
        if screen == "clocks":
            return arb.clocks_tap(key)  # the screen stays: several corrections in a row
        if screen == "arbiter":
            self.close()
            return arb.arbiter_tap(key)
        if screen == "export":
            action = arb.export_tap(key)
            if action is not None:
                self.close()
                return action
            self._games = list(self._games_source())
            self._page = 0
            self._go("games")
            return None
        if screen == "games":
            self.close()
            return Action("export", value=key[2:])
        if screen == "power":
            self._power = key
            self._go("confirm_power")
            return None
        if screen == "confirm_power":
            self.close()
            return Action("power", value=self._power)
        raise AssertionError(screen)
