"""Typing on the operator menu's touch keyboards (pure, like ``controller.menu``): a player's
name, the event, the round, the board number, a time control. Each purpose has the keys it
needs and no others: names and the event get letters, digits, the hyphen, the apostrophe, the
comma and the full stop ("Jean-Paul O'Neill", "Club Open 2026, Rapid"); the round and the board
get digits and the full stop ("3.1"); a time control gets digits and ``+ / , d b .``
("40/90+30,30+30", "5d3"); a remote board's name gets letters (small unless Aa), digits, - and _
("board-12"). A name is capitalised as it is typed: the first letter, and each after
a space, a hyphen or an apostrophe; the Aa key types the next letter the other way."""

from __future__ import annotations

from dataclasses import dataclass, replace

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
DIGITS = "1234567890"
#: The keys of each kind of keyboard, in their order on the screen (before Space/Del/OK/Cancel).
KEYS = {
    "text": (*LETTERS, *DIGITS, "-", "'", ",", "."),
    "number": (*DIGITS, "."),
    "time": (*DIGITS, "+", "/", ",", "d", "b", "."),
    "board": (*LETTERS, *DIGITS, "-", "_"),
}
#: Columns of each keyboard on the screen: touch-sized keys on the 800x480 screen.
COLUMNS = {"text": 10, "number": 4, "time": 6, "board": 10}
#: The longest text each purpose takes (a PGN tag may be long, a screen line may not).
MAX_LENGTH = {"text": 40, "number": 8, "time": 40, "board": 32}
#: What is typed, by purpose: (label on the screen, keyboard).
PURPOSES = {
    "event": ("Event", "text"),
    "site": ("Site", "text"),
    "round": ("Round", "number"),
    "board": ("Board number", "number"),
    "time": ("Time control (e.g. 3+2, 10, 5d3, 5b3, 40/90+30,30+30)", "time"),
}


@dataclass(frozen=True)
class Entry:
    """A text being typed: ``purpose`` is a key of ``PURPOSES``, ``name<side>`` (``label``
    then names the side: "White's name") or ``remote<side>`` (the hall's board playing it)."""

    purpose: str
    label: str
    kind: str
    typed: str = ""
    flip_case: bool = False  # the Aa key: the next letter goes the other way

    @classmethod
    def start(cls, purpose: str, label: str = "", typed: str = "") -> Entry:
        if purpose.startswith("name"):
            return cls(purpose, label, "text", typed)
        if purpose.startswith("remote"):
            return cls(purpose, label, "board", typed)
        title, kind = PURPOSES[purpose]
        return cls(purpose, label or title, kind, typed)

    def screen(self) -> tuple[str, list[tuple[str, str]], int]:
        keys = [(k, k) for k in KEYS[self.kind]]
        if self.kind == "text":
            keys += [("shift", "Aa"), ("space", "Space")]
        elif self.kind == "board":
            keys += [("shift", "Aa")]
        keys += [("del", "Del"), ("ok", "OK"), ("back", "Back")]
        return f"{self.label}: {self.typed}_", keys, COLUMNS[self.kind]

    def tap(self, key: str) -> Entry:
        """The entry after ``key`` (not OK or Cancel: the menu handles those)."""
        if key == "del":
            return replace(self, typed=self.typed[:-1], flip_case=False)
        if key == "shift":
            return replace(self, flip_case=not self.flip_case)
        if len(self.typed) >= MAX_LENGTH[self.kind]:
            return self
        if key == "space":
            return replace(self, typed=self.typed + " ", flip_case=False)
        if key in LETTERS and self.kind == "text":
            upper = not self.typed or self.typed[-1] in " -'"
            letter = key if upper != self.flip_case else key.lower()
            return replace(self, typed=self.typed + letter, flip_case=False)
        if key in LETTERS and self.kind == "board":  # names in topics are mostly small letters
            return replace(self, typed=self.typed + (key if self.flip_case else key.lower()), flip_case=False)
        return replace(self, typed=self.typed + key, flip_case=False)

    @property
    def value(self) -> str:
        return " ".join(self.typed.split())
