"""Exporting games: a stored game as PGN with its tags and clock comments, a whole event (every
game in the store), and writing to a USB stick (the first mounted removable drive).

The USB stick is found the way a desktop would: the mounts in ``/proc/mounts`` whose block
device is marked removable in ``/sys/block/<disk>/removable``. ``root`` prefixes both (and the
mount point) so that tests, and a container with the host's ``/proc`` elsewhere, can point at
another tree.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

from engine.errors import ChesseryError

from .config import Config
from .pgn import export_pgn
from .store import GameRecord, GameStore


class ExportError(ChesseryError, OSError):
    """No place to export to, or it cannot be written."""


def game_pgn(store: GameStore, game: GameRecord, config: Config | None = None) -> str:
    """The game's PGN: the event's tags from the configuration, the game's own tags over them,
    its time control and clock comments when it was timed."""
    config = config or Config()
    ev = config.event
    tags = store.tags(game.id)
    clock = store.clock(game.id)
    clocks = store.ply_clocks(game.id, len(game.moves)) if clock else []
    time_control = ""
    if clock is not None:
        from .clock import parse_time_control

        time_control = parse_time_control(clock[0]).pgn
    return export_pgn(game, event=ev.name, site=ev.site, round=ev.round, white=ev.white, black=ev.black, tags=tags,
                      time_control=time_control, clocks=clocks)


def event_pgn(store: GameStore, config: Config | None = None, *, variant: str | None = None,
              demo: bool | None = False) -> str:
    """Every stored game (of ``variant``; without the demo's games unless ``demo`` is None (with)
    or True (only)), oldest first; each game ends with a blank line."""
    return "".join(game_pgn(store, store.game(i), config) for i in store.game_ids(variant, demo))


_PARTITION = re.compile(r"^(.*?\d+)p\d+$|^(.*?[a-z])\d+$")


def _disk_of(device: str) -> str:
    """``/dev/sda1`` -> ``sda``, ``/dev/mmcblk0p1`` -> ``mmcblk0``, ``/dev/nvme0n1p2`` -> ``nvme0n1``."""
    name = device.rsplit("/", 1)[-1]
    m = _PARTITION.match(name)
    if m is None:
        return name
    return m.group(1) or m.group(2)


def _unescape(field: str) -> str:
    """``/proc/mounts`` writes a space as ``\\040`` (and tab, newline, backslash likewise)."""
    return re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), field)


def removable_mounts(root: str | Path = "/") -> list[Path]:
    """Mount points of removable drives, in ``/proc/mounts`` order (paths under ``root``)."""
    root = Path(root)
    try:
        lines = (root / "proc" / "mounts").read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError as exc:
        raise ExportError(f"cannot read the mounts ({exc.strerror})") from None
    found: list[Path] = []
    for line in lines:
        parts = line.split()
        if len(parts) < 2 or not parts[0].startswith("/dev/"):
            continue
        flag = root / "sys" / "block" / _disk_of(parts[0]) / "removable"
        try:
            removable = flag.read_text(encoding="ascii").strip() == "1"
        except OSError:
            continue
        if removable:
            found.append(root / _unescape(parts[1]).lstrip("/"))
    return found


def export_to_usb(text: str, name: str, root: str | Path = "/") -> Path:
    """Write ``text`` as ``name`` on the first mounted removable drive; returns the file."""
    mounts = removable_mounts(root)
    if not mounts:
        raise ExportError("no USB stick: plug one in (it must be mounted) and try again")
    target = mounts[0] / name
    try:
        target.write_text(text, encoding="utf-8")
        with target.open("rb") as f:  # on a stick that is pulled right after: make it durable
            import os

            os.fsync(f.fileno())
    except OSError as exc:
        raise ExportError(f"cannot write {target}: {exc.strerror}") from None
    return target


def export_name(game: GameRecord | None = None) -> str:
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    return f"chessery-game{game.id}-{stamp}.pgn" if game is not None else f"chessery-event-{stamp}.pgn"
