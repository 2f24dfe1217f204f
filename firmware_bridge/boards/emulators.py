"""Board emulators: a DGT e-board (``dgt_emulator``) and a Millennium ChessLink
(``millennium_emulator``) on a real pseudo-terminal, playing event scripts with each board's own
timing, for tests and demos; what they share is ``board_emulator``'s. They are written from the
makers' protocol descriptions (docs/boards.md), deliberately *not* from the drivers' codecs."""

from __future__ import annotations

from .board_emulator import BoardEmulator
from .dgt_emulator import DgtEmulator
from .millennium_emulator import MillenniumEmulator

__all__ = ["EMULATORS", "BoardEmulator", "DgtEmulator", "MillenniumEmulator"]

EMULATORS = {"dgt": DgtEmulator, "millennium": MillenniumEmulator}
