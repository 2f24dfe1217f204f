"""A session's timing: the configuration's (``Timing``), with what the board says of itself.

A board's HELLO tells its full scan period and, for boards that report every change within one
scan (a Millennium board), the drag wait it asks for (``BoardHello.scan_ms``, ``drag_ms``). The
service hands them to the session (``Session.set_scan``, ``Session.set_board_drag``), which takes
its timing from these functions: the configured values stand where the owner set them.
"""

from __future__ import annotations

from dataclasses import replace

from .core_types import Timing


def with_board_scan(timing: Timing, configured: Timing, scan_ms: int) -> Timing:
    """``timing`` with the board's full scan period (see ``Timing.scan_ms``); the configured
    value stands when it is longer."""
    scan_ms = max(scan_ms, configured.scan_ms)
    return timing if scan_ms == timing.scan_ms else replace(timing, scan_ms=scan_ms)


def with_board_drag(timing: Timing, configured: Timing, drag_ms: int) -> Timing:
    """``timing`` with the drag wait the board asks for (see ``Timing.board_drag_ms``), unless
    the configuration file set ``drag_ms`` (then the owner's wait holds on every board)."""
    if configured.drag_ms != Timing.drag_ms:
        drag_ms = 0
    return timing if drag_ms == timing.board_drag_ms else replace(timing, board_drag_ms=drag_ms)
