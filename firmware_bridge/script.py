"""Event scripts: what a simulated board plays and ``chessery replay`` feeds the controller.

The format is a contract (other tools write it). One command a line::

    # a comment (blank lines are ignored too, and so is text after a '#')
    lift CELL
    place CELL [PIECE]
    sleep MS
    choose ANSWER

CELL is a cell name of the variant (``e4``, ``e4'``), PIECE a piece letter for identity boards
(FEN letters, upper case for the first side; the variant's own symbols such as ``gN`` for games
of more sides), MS a whole number of milliseconds, ANSWER the player's answer to the prompt on
screen (``choose q`` for a promotion): the board ignores it, the controller's replay uses it.

``parse_script(text, variant)`` returns typed commands with their line numbers, or raises
:class:`ScriptError` (a ValueError) whose message names the line: ``moves.txt:3: no cell 'z9'
on chess``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import engine
from engine import Variant
from engine.errors import ChesseryError

COMMAND_WORDS = ("lift", "place", "sleep", "choose")


class ScriptError(ChesseryError, ValueError):
    """A script line that cannot be played; ``line`` is its number (0: the whole script)."""

    def __init__(self, message: str, line: int = 0, source: str = "script") -> None:
        super().__init__(f"{source}:{line}: {message}" if line else f"{source}: {message}")
        self.line = line
        self.source = source


@dataclass(frozen=True)
class Lift:
    line: int
    cell: int
    name: str

    def text(self) -> str:
        return f"lift {self.name}"


@dataclass(frozen=True)
class Place:
    line: int
    cell: int
    name: str
    piece: str | None = None  # the symbol as written (FEN letter); None when not given

    def text(self) -> str:
        return f"place {self.name} {self.piece}" if self.piece else f"place {self.name}"


@dataclass(frozen=True)
class Sleep:
    line: int
    ms: int

    def text(self) -> str:
        return f"sleep {self.ms}"


@dataclass(frozen=True)
class Choose:
    line: int
    answer: str

    def text(self) -> str:
        return f"choose {self.answer}"


Command = Lift | Place | Sleep | Choose


def _variant(variant: Variant | str) -> Variant:
    return engine.find_variant(variant) if isinstance(variant, str) else variant


def parse_line(text: str, line: int, variant: Variant, source: str = "script") -> Command | None:
    """One line: a command, or None for a blank or comment line."""
    words = text.split("#", 1)[0].split()
    if not words:
        return None
    word, args = words[0], words[1:]

    def fail(message: str) -> ScriptError:
        return ScriptError(message, line, source)

    geometry = variant.geometry
    if word in ("lift", "place"):
        usage = "lift CELL" if word == "lift" else "place CELL [PIECE]"
        if not 1 <= len(args) <= (1 if word == "lift" else 2):
            raise fail(f"expected '{usage}', got {text.strip()!r}")
        name = args[0]
        if not geometry.has_cell(name):
            raise fail(f"no cell {name!r} on {variant.name}")
        cell = geometry.index(name)
        if word == "lift":
            return Lift(line, cell, name)
        piece = args[1] if len(args) == 2 else None
        if piece is not None:
            try:
                variant.parse_symbol(piece)
            except ValueError:
                letters = " ".join(k.letter for k in variant.kinds)
                raise fail(f"no piece {piece!r} in {variant.name} (letters: {letters})") from None
        return Place(line, cell, name, piece)
    if word == "sleep":
        if len(args) != 1 or not args[0].isdigit():
            raise fail(f"expected 'sleep MS' with a whole number of milliseconds, got {text.strip()!r}")
        return Sleep(line, int(args[0]))
    if word == "choose":
        if len(args) != 1:
            raise fail(f"expected 'choose ANSWER', got {text.strip()!r}")
        return Choose(line, args[0])
    raise fail(f"unknown command {word!r} (expected one of: {', '.join(COMMAND_WORDS)})")


def parse_script(text: str, variant: Variant | str, source: str = "script") -> list[Command]:
    """Every command of a script, in order; raises ScriptError at the first bad line."""
    v = _variant(variant)
    commands: list[Command] = []
    for number, line in enumerate(text.splitlines(), start=1):
        command = parse_line(line, number, v, source)
        if command is not None:
            commands.append(command)
    return commands


def load_script(path: str | Path, variant: Variant | str) -> list[Command]:
    """Read and parse a script file; an unreadable file is a ScriptError too."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise ScriptError(f"cannot read script: {reason}", source=str(p)) from None
    return parse_script(text, variant, source=str(p))


def format_script(commands: list[Command]) -> str:
    """Script text of commands (one a line), the inverse of parse_script for its commands."""
    return "".join(c.text() + "\n" for c in commands)
