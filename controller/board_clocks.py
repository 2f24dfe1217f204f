"""A chess clock plugged into the board itself (a DGT 3000 or XL on a DGT board's line, docs/boards.md):
after every move the referee's clock is shown on it, both times counting on the clock and the
last move on a DGT 3000's display; the clock's lever reaches the service as the clock button
(the driver's ``on_button``). White's time is on the left. Every board is told
(``BoardLink.show_clock``); one without such a clock ignores it. A game without a clock or with
more than two sides tells none."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from engine import move_text

if TYPE_CHECKING:
    from firmware_bridge.board_link import BoardLink, ClockSide

    from .game_clock import GameClock
    from .session import Session


def show_on_board_clocks(links: Iterable[BoardLink], game_clock: GameClock | None, session: Session,
                         now: int) -> None:
    """Show the game's clock on each board's own clock."""
    clock = game_clock.clock if game_clock is not None else None
    if clock is None or clock.nsides != 2:
        return
    running: ClockSide | None = ("left" if clock.turn == 0 else "right") if clock.running else None
    stack = session.position.move_stack
    last = move_text(session.position.variant, stack[-1]) if stack else ""
    for link in links:
        link.show_clock(clock.left(0, now), clock.left(1, now), running, last)
