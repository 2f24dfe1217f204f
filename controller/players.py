"""Who plays a side: a person at the board, Chessery's own engine at a level, any UCI engine, or
a remote board. Parsed from ``--white``/``--black`` (and ``--blue``, ``--green``, ``--red``
for three sides) or the configuration: ``human``, ``computer``, ``computer:LEVEL`` (0-20, 20 the
strongest), ``uci:COMMAND`` (e.g. ``uci:stockfish``; the command line as a shell would split it),
``remote:BOARD``.

A player that is not human runs in its own process (``controller.uci_player``): the referee's
decisions never wait for its thinking.
"""

from __future__ import annotations

import argparse
import shlex
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any

from engine.errors import ChesseryError
from engine.search import MAX_SKILL
from engine.variant import Variant

#: Side names any shipped variant uses: each is a ``--NAME`` option of ``chessery run``.
SIDE_OPTIONS = ("white", "black", "blue", "green", "red")


class PlayerError(ChesseryError, ValueError):
    """A player description that names no kind of player, or a side the variant does not have."""


class PlayerKind(Enum):
    HUMAN = "human"
    COMPUTER = "computer"
    UCI = "uci"
    REMOTE = "remote"


@dataclass(frozen=True)
class Player:
    kind: PlayerKind
    #: ``computer``: the skill level (0-20).
    level: int = MAX_SKILL
    #: ``uci``: the engine's command line; ``remote``: the board's name.
    command: tuple[str, ...] = ()
    board: str = ""

    @property
    def is_engine(self) -> bool:
        """Whether an engine process chooses this side's moves."""
        return self.kind in (PlayerKind.COMPUTER, PlayerKind.UCI)

    def engine_command(self) -> list[str]:
        """The process to start for this player: our own ``chessery engine`` or the given one."""
        if self.kind == PlayerKind.COMPUTER:
            return [sys.executable, "-m", "controller.cli", "engine"]
        if self.kind == PlayerKind.UCI:
            return list(self.command)
        raise PlayerError(f"{self.text()} is not an engine")

    def text(self) -> str:
        """The description this player was parsed from (normalised)."""
        if self.kind == PlayerKind.COMPUTER:
            return "computer" if self.level == MAX_SKILL else f"computer:{self.level}"
        if self.kind == PlayerKind.UCI:
            return "uci:" + shlex.join(self.command)
        if self.kind == PlayerKind.REMOTE:
            return f"remote:{self.board}"
        return "human"


HUMAN = Player(PlayerKind.HUMAN)


def parse_player(text: str) -> Player:
    """``human``, ``computer[:LEVEL]``, ``uci:COMMAND`` or ``remote:BOARD``; else ``PlayerError``."""
    kind_text, sep, rest = text.strip().partition(":")
    try:
        kind = PlayerKind(kind_text.lower())
    except ValueError:
        raise PlayerError(f"bad player {text!r}: expected human, computer[:LEVEL], uci:COMMAND or "
                          "remote:BOARD") from None
    if kind == PlayerKind.HUMAN:
        if sep:
            raise PlayerError(f"bad player {text!r}: 'human' takes nothing after it")
        return HUMAN
    if kind == PlayerKind.COMPUTER:
        if not sep:
            return Player(kind)
        try:
            level = int(rest)
        except ValueError:
            raise PlayerError(f"bad player {text!r}: the level must be a whole number 0-{MAX_SKILL}") from None
        if not 0 <= level <= MAX_SKILL:
            raise PlayerError(f"bad player {text!r}: the level must be 0-{MAX_SKILL}")
        return Player(kind, level=level)
    if not rest.strip():
        raise PlayerError(f"bad player {text!r}: {kind.value}: needs " +
                          ("the engine's command" if kind == PlayerKind.UCI else "the board's name"))
    if kind == PlayerKind.UCI:
        try:
            command = tuple(shlex.split(rest))
        except ValueError as exc:
            raise PlayerError(f"bad player {text!r}: {exc}") from None
        return Player(kind, command=command)
    return Player(kind, board=rest.strip())


def player_arg(text: str) -> Player:
    """argparse ``type=``: a bad description is a usage error with its one-line reason."""
    try:
        return parse_player(text)
    except PlayerError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_player_options(p: argparse.ArgumentParser) -> None:
    for name in SIDE_OPTIONS:
        p.add_argument(f"--{name}", type=player_arg, metavar="PLAYER",
                       help=f"who plays {name}: human (default), computer[:LEVEL 0-20], uci:COMMAND, remote:BOARD")


def players_for(variant: Variant, chosen: Mapping[str, Player | str]) -> dict[int, Player]:
    """Per side index of ``variant``: its player (human unless chosen). ``chosen`` maps side names
    to players or their descriptions (from options or the configuration); a side the variant does
    not have is an error, so a typo never leaves a computer side silently human."""
    out = {side: HUMAN for side in range(variant.nsides)}
    for name, player in chosen.items():
        if name not in variant.sides:
            raise PlayerError(f"{variant.name} has no side {name!r} (its sides: {', '.join(variant.sides)})")
        out[variant.sides.index(name)] = parse_player(player) if isinstance(player, str) else player
    return out


def chosen_players(args: argparse.Namespace) -> dict[str, Player]:
    """The ``--white``/``--black``... options given on the command line."""
    found: dict[str, Any] = vars(args)
    return {name: found[name] for name in SIDE_OPTIONS if found.get(name) is not None}
