"""Board drivers: one module per kind of board, each turning its maker's wire protocol into the
host link's events (see ``firmware_bridge.link`` for the interface the controller reads).

    link = open_board("dgt", "/dev/ttyUSB0", states_in_events=True)

``chessery``: our own firmware (:class:`~firmware_bridge.link.Link`); ``dgt``: DGT e-boards
(``dgt``, codec ``dgt_codec``); ``millennium``: Millennium ChessLink, Exclusive, eONE
(``millennium``, codec ``millennium_codec``). Board emulators for tests and demos, written from
the protocol descriptions and not from these drivers, are in ``emulators``.
"""

from __future__ import annotations

from typing import Any

from ..board_link import BoardKind, BoardLink

BOARD_KINDS: tuple[BoardKind, ...] = ("chessery", "dgt", "millennium")


def open_board(kind: str, url: str, **options: Any) -> BoardLink:
    """A link for one board of ``kind`` on ``url`` (not started); options as for ``Link`` (the
    drivers take the ones that apply to them)."""
    if kind == "chessery":
        from ..link import Link

        return Link(url, **options)
    if kind == "dgt":
        from .dgt import DgtDriver

        return DgtDriver(url, **options)
    if kind == "millennium":
        from .millennium import MillenniumDriver

        return MillenniumDriver(url, **options)
    raise ValueError(f"unknown board kind {kind!r} (expected one of {', '.join(BOARD_KINDS)})")
