"""What the operator menu asks the service to do (``controller.menu`` and its screens)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

ActionKind = Literal[
    "new_game", "resign", "draw", "claim", "takeback", "hint", "flip", "export", "agreement", "variant",
    "time_control", "name", "player", "tag", "clock_pause", "clock_adjust", "arbiter", "power", "close",
]


@dataclass(frozen=True)
class Action:
    """What the operator chose: ``kind`` is new_game, resign, draw, claim, takeback, hint, flip, export,
    agreement, variant, time_control, name, player, tag, clock_pause, clock_adjust, arbiter, power or
    close; ``side``, ``value`` and ``tag`` (a PGN tag's name) as the kind needs."""

    kind: ActionKind
    side: int = -1
    value: str = ""
    tag: str = ""
