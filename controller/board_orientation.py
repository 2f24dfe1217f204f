"""A game resumed on a maker's board (DGT, Millennium) that stands turned round: the drivers
tell a turned board from its first report only when that shows the start position, so a game
resumed mid-way was read mirrored (a Millennium with its cable on the right sends h1 first). The
service tells each driver the resumed game's position before it connects; the driver reads its
first report whichever way round matches that better (``BoardDriver.expect_position``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .session import Session

SQUARES = 64


def expect_resumed_position(links: Sequence[object], offsets: Sequence[int], session: Session,
                            orientation: int = 0) -> int:
    """For a game under way (moves played), give each maker's board its 64 cells of the game's
    position; how many boards were told. Not with ``orientation = 180`` (the sensor map turns
    the board already) nor for a game that did not move yet (its start position tells)."""
    from firmware_bridge.boards.driver import BoardDriver

    pos = session.position
    if orientation != 0 or not pos.move_stack:
        return 0
    variant = pos.variant
    told = 0
    for link, offset in zip(links, offsets, strict=False):
        if not isinstance(link, BoardDriver) or offset + SQUARES > len(pos.board):
            continue
        cells = pos.board[offset:offset + SQUARES]
        link.expect_position([variant.symbol(code) if code else None for code in cells])
        told += 1
    return told
