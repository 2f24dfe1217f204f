"""A game resumed on a maker's board (DGT, Millennium) that stands turned round: the drivers
tell a turned board from its first report only when that shows the start position, so a game
resumed mid-way was read mirrored (a Millennium with its cable on the right sends h1 first). The
service tells each board the resumed game's position before it connects; a maker's board reads
its first report whichever way round matches that better, and a board that knows its own
orientation ignores it (``BoardLink.expect_position``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from firmware_bridge.board_link import BoardLink

    from .session import Session

#: The cells of a maker's board (8x8), the only boards that use the position.
SQUARES = 64


def expect_resumed_position(links: Sequence[BoardLink], offsets: Sequence[int], session: Session,
                            orientation: int = 0) -> None:
    """For a game under way (moves played), give each board the game's position on its 64 cells.
    Not with ``orientation = 180`` (the sensor map turns the board already) nor for a game that
    did not move yet (its start position tells)."""
    pos = session.position
    if orientation != 0 or not pos.move_stack:
        return
    variant = pos.variant
    for link, offset in zip(links, offsets, strict=False):
        if offset + SQUARES > len(pos.board):
            continue
        cells = pos.board[offset:offset + SQUARES]
        link.expect_position([variant.symbol(code) if code else None for code in cells])
