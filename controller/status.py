"""The running service's state for ``chessery status``: a small JSON file the service rewrites.

How ``status`` reaches a running service: ``chessery run`` rewrites one file every
:data:`WRITE_EVERY` seconds (and once more when it stops), by writing a temporary file beside it
and renaming it over the old one, so a reader never sees half a file. ``chessery status`` reads
it; nothing else connects to the service, so a status query can never disturb refereeing, and a
service that hangs or died shows as *stale* (the file stops changing, or its pid is gone).

The default place is the process's runtime folder (``platformdirs.user_runtime_dir("chessery")``:
``/run/user/UID/chessery/status.json`` in a login session, ``/run/chessery-USER/chessery`` under
the deploy unit, whose ``RuntimeDirectory`` it is; gone at reboot); ``chessery status`` looks in
every place :func:`places` lists, so it finds the unit's service from a login shell. The
``status_file`` key of the configuration (or ``--status-file`` on both commands) names another.

Fields (version 1): ``pid``, ``started``/``updated`` (Unix time), ``running`` (false once it
stopped), ``variant``, ``game`` (``id``, ``phase``, ``message``), and per board ``name``, ``url``,
``state``, ``since`` (when it entered that state), ``problem``, ``board_id``, ``boot_id``,
``cells``, ``firmware``, ``identity``, ``last_snapshot`` (Unix time or null) and ``counters``
(the link's counters: frames, events, gaps, snapshots, resets, and one per error class:
bad_crc, truncated, wrong_version, oversized, unknown_type, bad_payload, reused_seq (a frame number the
board used twice for different frames), board_<error>; ``duplicates`` counts frames sent twice).
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
import time
import warnings
from collections import Counter
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.errors import ChesseryError

if TYPE_CHECKING:
    from firmware_bridge.board_link import BoardLink

VERSION = 1
#: Seconds between rewrites of the status file.
WRITE_EVERY = 2.0
#: A running service's file older than this is reported as stale (it hangs, or it was killed).
STALE_AFTER = 5 * WRITE_EVERY

#: Counters shown first (the error classes), in this order, then any other counter.
ERROR_CLASSES = ("bad_crc", "truncated", "wrong_version", "oversized", "unknown_type", "bad_payload", "gaps",
                 "inconsistent", "silences", "resets", "reused_seq")


class StatusError(ChesseryError, ValueError):
    """No usable status file: the service is not running, or the file is not ours."""


def places(run: Path = Path("/run")) -> list[Path]:
    """Where a service writes its status file and where ``chessery status`` looks for it, in
    order; the service writes to the first. One list for both, so that they cannot disagree:

    1. the runtime folder of this process (``platformdirs.user_runtime_dir``: ``XDG_RUNTIME_DIR``
       plus ``chessery``). Under the systemd unit that is its ``RuntimeDirectory``,
       ``/run/chessery-USER/chessery``; in a login shell ``/run/user/UID/chessery``;
    2. the unit's runtime folder for this user, ``/run/chessery-USER/chessery`` (``status`` run
       from a login shell, whose ``XDG_RUNTIME_DIR`` is another);
    3. the login session's folder, ``/run/user/UID/chessery`` (``status`` run under the unit's
       environment while the service was started by hand);
    4. any unit instance's folder, ``/run/chessery-*/chessery`` (``sudo chessery status``).

    ``run`` stands for ``/run`` (tests point it elsewhere)."""
    import getpass

    import platformdirs

    with warnings.catch_warnings():  # no XDG_RUNTIME_DIR: platformdirs falls back to /tmp and says so
        warnings.simplefilter("ignore")
        found = [Path(platformdirs.user_runtime_dir("chessery")) / "status.json"]
    found += [run / f"chessery-{getpass.getuser()}" / "chessery" / "status.json",
              run / "user" / str(os.getuid()) / "chessery" / "status.json"]
    found += sorted(run.glob("chessery-*/chessery/status.json"))
    return list(dict.fromkeys(found))


def default_path() -> Path:
    """Where this process's service writes its status file."""
    return places()[0]


def find_path(run: Path = Path("/run")) -> Path:
    """The status file ``chessery status`` reads: of :func:`places` that exist, the one rewritten
    last (a running service's); none: the first place (the message then names it)."""
    candidates = places(run)
    existing = []
    for path in candidates:
        with contextlib.suppress(OSError):
            existing.append((path.stat().st_mtime, path))
    return max(existing, key=lambda t: t[0])[1] if existing else candidates[0]


def link_status(link: BoardLink) -> dict[str, Any]:
    """The status of one board link (thread-safe: the link's stats and
    attributes are read under its lock or are single references)."""
    hello = link.hello
    return {
        "name": link.name,
        "url": link.url,
        "state": link.state.value,
        "since": link.state_since,
        "problem": link.problem,
        "board_id": None if hello is None else f"{hello.board_id:08x}",
        "boot_id": None if hello is None or hello.boot_id is None else f"{hello.boot_id:04x}",
        "cells": None if hello is None else hello.cells,
        "firmware": None if hello is None else hello.firmware,
        "identity": None if hello is None else hello.identity,
        "last_snapshot": link.last_snapshot_at,
        "counters": dict(sorted(link.stats.items())),
    }


def error_growth(before: Counter[str] | dict[str, int], after: Counter[str] | dict[str, int]) -> str:
    """The error counters that grew from ``before`` to ``after``, as ``3 bad_crc, 1 gaps``
    ("" when none did): the periodic log line of a service whose link has trouble."""
    grown = [(k, after.get(k, 0) - before.get(k, 0)) for k in (*ERROR_CLASSES, *sorted(after))
             if (k in ERROR_CLASSES or k.startswith("board_"))]
    seen: set[str] = set()
    parts = []
    for key, n in grown:
        if n > 0 and key not in seen:
            seen.add(key)
            parts.append(f"{n} {key}")
    return ", ".join(parts)


def write_status(path: Path, data: dict[str, Any]) -> None:
    """Replace ``path`` with ``data`` in one step (a reader sees the old file or the new one)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".status-", suffix=".json", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump({"version": VERSION, **data}, f, indent=1)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def read_status(path: Path) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise StatusError(f"{path}: no status file: the service is not running (or uses another "
                          f"--status-file)") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise StatusError(f"{path}: cannot read: {exc}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise StatusError(f"{path}: not a status file ({exc})") from None
    if not isinstance(data, dict) or data.get("version") != VERSION:
        raise StatusError(f"{path}: not a status file of this Chessery (version {data.get('version')!r})"
                          if isinstance(data, dict) else f"{path}: not a status file")
    return data


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # somebody else's process, but it exists
    return True


class ServiceState(StrEnum):
    """What the status file says of the service that writes it; the word is what ``chessery
    status`` prints."""

    RUNNING = "running"
    STOPPED = "stopped"
    STALE = "stale"  # the file stopped changing, or its process is gone


def service_state(data: dict[str, Any], now: float | None = None) -> ServiceState:
    now = time.time() if now is None else now
    if not data.get("running"):
        return ServiceState.STOPPED
    if not _alive(int(data.get("pid", 0))) or now - float(data.get("updated", 0)) > STALE_AFTER:
        return ServiceState.STALE
    return ServiceState.RUNNING


def _ago(t: float | None, now: float) -> str:
    if t is None:
        return "never"
    seconds = max(0.0, now - t)
    if seconds < 120:
        return f"{seconds:.1f} s ago"
    if seconds < 7200:
        return f"{seconds / 60:.0f} min ago"
    return f"{seconds / 3600:.1f} h ago"


def format_status(data: dict[str, Any], now: float | None = None) -> list[str]:
    """The status as lines for a person (``chessery status``)."""
    now = time.time() if now is None else now
    state = service_state(data, now)
    lines = [f"service: {state} (pid {data.get('pid')}), updated {_ago(data.get('updated'), now)}"]
    game = data.get("game") or {}
    message = f": {game['message']}" if game.get("message") else ""
    lines.append(f"variant: {data.get('variant')}; game {game.get('id') or '-'}, {game.get('phase')}{message}")
    for board in data.get("boards", []):
        lines.append(f"board {board['name']}: {board['state']} since {_ago(board.get('since'), now)}"
                     + (f"; problem: {board['problem']}" if board.get("problem") else ""))
        if board.get("board_id"):
            lines.append(f"  board id {board['board_id']}, boot id {board['boot_id']}, {board['cells']} cells, "
                         f"firmware {board['firmware']}{', identifies pieces' if board.get('identity') else ''}")
        lines.append(f"  last snapshot: {_ago(board.get('last_snapshot'), now)}")
        counters = board.get("counters", {})
        errors = [f"{k} {counters.get(k, 0)}" for k in ERROR_CLASSES]
        errors += [f"{k} {v}" for k, v in counters.items() if k.startswith("board_")]
        lines.append("  errors: " + ", ".join(errors))
        others = [f"{k} {v}" for k, v in counters.items() if k not in ERROR_CLASSES and not k.startswith("board_")]
        if others:
            lines.append("  counters: " + ", ".join(others))
    return lines
