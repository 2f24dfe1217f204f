"""Where the system's Stockfish is (None: not installed), for the tests that drive it as the
third-party UCI engine a user would install (``./dev test`` installs Debian's package)."""

from __future__ import annotations

import shutil

#: Debian installs it in /usr/games, which a test runner's PATH may lack.
STOCKFISH = shutil.which("stockfish") or shutil.which("stockfish", path="/usr/games")
