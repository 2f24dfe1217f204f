"""The operator menu: a small state machine of screens, each a title and buttons, driven by the
keys of the buttons touched (or chosen with the GPIO buttons). Pure: it knows nothing of the
service; :meth:`OperatorMenu.tap` returns an :class:`Action` for the service to carry out.

Screens::

    main        New game | Resign | Offer draw | Claim draw | Take back | Flip board | Export to USB
                | [End by agreement] | Settings | Close
    resign      White resigns | Black resigns | Cancel         (one button per side)
    draw        <the opponent> accepts | Declined
    confirm_new Start a new game | Cancel
    pin         a keypad; the settings open with the right digits (no PIN configured: at once)
    settings    Variant | Time control | White's name | Black's name | Back
    variant     one button per variant, VARIANTS_PER_PAGE a page | [More] | Back
    time        No clock | 5+3 | 15+10 | 25+10 | 90+30 | 40/90+30,30+30
    name        an on-screen keyboard; OK sets the name
    message     a line to read (export done, no draw to claim) | OK
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from display.view import Choice, Prompt

TIME_PRESETS = ("none", "5+3", "15+10", "25+10", "90+30", "40/90+30,30+30")
KEYBOARD = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
#: Variant buttons on one page of the variant screen: with More and Back, six rows of two
#: touch-sized buttons whose labels keep their full size on the 800x480 screen.
VARIANTS_PER_PAGE = 10


@dataclass(frozen=True)
class Action:
    """What the operator chose: ``kind`` is new_game, resign, draw, claim, takeback, flip, export,
    agreement, variant, time_control, name or close; ``side`` and ``value`` as the kind needs."""

    kind: str
    side: int = -1
    value: str = ""


#: The variants the menu offers, as (name, title), worked out when the variant screen first opens
#: (loading every variant takes a second or two: not at start-up).
VariantList = Callable[[], Sequence[tuple[str, str]]]


class OperatorMenu:
    """``variants``: names (shown capitalised) or a function giving (name, title) pairs, e.g.
    only the variants that fit the connected board (``controller.operator.make_menu``)."""

    def __init__(self, variants: Sequence[str] | VariantList, sides: tuple[str, ...] = ("white", "black"),
                 pin: str = "") -> None:
        self._variant_source = variants
        self._variants: list[tuple[str, str]] | None = None
        self.sides = sides
        self.pin = pin
        self.screen = ""  # "": closed
        self.selected = 0
        self.message = ""
        self.agreement = False  # the variant ends by agreement (Mathematichess)
        self._typed = ""
        self._name_side = 0
        self._unlocked = False
        self._drawing_side = 0
        self._page = 0  # the variant screen's page

    @property
    def is_open(self) -> bool:
        return bool(self.screen)

    def open(self, side_to_move: int = 0, agreement: bool = False) -> None:
        self.screen = "main"
        self.selected = 0
        self.agreement = agreement
        self._drawing_side = side_to_move
        self._unlocked = not self.pin

    def close(self) -> None:
        self.screen = ""
        self._typed = ""

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
        if self.screen == "main":
            items = [("new", "New game"), ("resign", "Resign"), ("draw", "Offer draw"), ("claim", "Claim draw"),
                     ("takeback", "Take back"), ("flip", "Flip board"), ("export", "Export to USB")]
            if self.agreement:
                items.append(("agreement", "End by agreement"))
            items += [("settings", "Settings"), ("close", "Close")]
            return "Operator menu", items, 2
        if self.screen == "resign":
            return "Who resigns?", [(f"side{i}", f"{name} resigns") for i, name in enumerate(sides)] + [
                ("back", "Cancel")], 1
        if self.screen == "draw":
            other = sides[(self._drawing_side + 1) % len(sides)]
            return f"{sides[self._drawing_side]} offers a draw. {other}?", [
                ("accept", f"{other} accepts"), ("back", "Declined")], 1
        if self.screen == "confirm_new":
            return "Abandon this game and start a new one?", [("yes", "Start a new game"), ("back", "Cancel")], 1
        if self.screen == "pin":
            digits = [(d, d) for d in "123456789"] + [("del", "Delete"), ("0", "0"), ("back", "Cancel")]
            return f"Operator PIN: {'•' * len(self._typed) or '_'}", digits, 3
        if self.screen == "settings":
            return "Settings", [("variant", "Variant"), ("time", "Time control"),
                                *[(f"name{i}", f"{name}'s name") for i, name in enumerate(sides)],
                                ("back", "Back")], 2
        if self.screen == "variant":
            pages = self.variant_pages
            first = self._page * VARIANTS_PER_PAGE
            shown = [(f"v:{name}", title) for name, title in self.variants[first:first + VARIANTS_PER_PAGE]]
            more = [("more", "More")] if self._page + 1 < pages else []
            page = f" {self._page + 1}/{pages}" if pages > 1 else ""
            return f"Variant{page} (a new game starts)", shown + more + [("back", "Back")], 2
        if self.screen == "time":
            return "Time control (from the next game)", [
                (f"t:{t}", "No clock" if t == "none" else t) for t in TIME_PRESETS] + [("back", "Back")], 2
        if self.screen == "name":
            keys = [(c, c) for c in KEYBOARD] + [("space", "Space"), ("del", "Del"), ("ok", "OK"),
                                                 ("back", "Cancel")]
            return f"{sides[self._name_side]}: {self._typed}_", keys, 8
        if self.screen == "message":
            return self.message, [("close", "OK")], 1
        raise AssertionError(self.screen)

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
            simple = {"claim": "claim", "takeback": "takeback", "flip": "flip", "export": "export",
                      "agreement": "agreement"}
            if key in simple:
                self.close()
                return Action(simple[key])
            if key == "new":
                self.screen = "confirm_new"
            elif key == "resign":
                self.screen = "resign"
            elif key == "draw":
                self.screen = "draw"
            elif key == "settings":
                self.screen = "settings" if self._unlocked else "pin"
                self._typed = ""
            return None
        if screen == "variant" and key == "more":
            self._page += 1
            return None
        if screen == "variant" and key == "back" and self._page:
            self._page -= 1  # Back leafs back through the pages, then leaves
            return None
        if key == "back":
            self.screen = "settings" if screen in ("variant", "time", "name") else "main"
            self._typed = ""
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
            self._typed = self._typed[:-1] if key == "del" else self._typed + key
            if self._typed == self.pin:
                self._unlocked = True
                self._typed = ""
                self.screen = "settings"
            elif len(self._typed) >= len(self.pin):
                self._typed = ""
            return None
        if screen == "settings":
            if key.startswith("name"):
                self._name_side = int(key[4:])
                self._typed = ""
                self.screen = "name"
            else:
                self.screen = key
                self._page = 0
            return None
        if screen == "variant":
            self.close()
            return Action("variant", value=key[2:])
        if screen == "time":
            self.screen = "settings"
            return Action("time_control", value=key[2:])
        if screen == "name":
            if key == "ok":
                name, self._typed = self._typed.strip(), ""
                self.screen = "settings"
                return Action("name", side=self._name_side, value=name)
            if key == "del":
                self._typed = self._typed[:-1]
            elif key == "space":
                self._typed += " "
            elif len(self._typed) < 40:
                self._typed += key if not self._typed or self._typed[-1] == " " else key.lower()
            return None
        raise AssertionError(screen)
