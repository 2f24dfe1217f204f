"""``chessery run`` for a kiosk nobody watches: every error that stops the service is one line on
stderr (the journal), a ``STATUS=`` for systemd, and on a kiosk also a screen that says it for a
while; ``--kiosk`` without a configured board refuses to play the demo unless ``--demo`` asks.

Exit status: 2 for what the operator must fix (configuration, database, no board configured,
no display), 1 for anything else. ``CHESSERY_TRACEBACK=1`` adds the traceback of an unexpected
error (a bug) after its line.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys
import threading
import traceback

from engine.errors import ChesseryError


class NoBoardError(ChesseryError, ValueError):
    """A kiosk with no board configured."""


#: Seconds an error stays on the kiosk's screen before the process exits (systemd restarts it).
ERROR_HOLD_S = 10.0


def run_guarded(args: argparse.Namespace) -> int:
    from .service import configure, run_service

    kiosk = bool(args.kiosk)
    size = (800, 480)
    frame = args.frame
    try:
        config = configure(args)
        kiosk = config.display == "kiosk"
        size = config.size
        frame = config.frame or frame
        if kiosk and not config.port and not args.demo:
            where = config.source or "the configuration file"
            raise NoBoardError(f"no board configured: set port in {where} (docs/configuration.md), "
                               "or start with --demo to play the demo game")
        return run_service(args)
    except KeyboardInterrupt:
        return 130
    except Exception as exc:
        expected = isinstance(exc, ChesseryError | ValueError | OSError)
        line = str(exc) if expected else f"unexpected error: {type(exc).__name__}: {exc}"
        line = " ".join(line.split())  # one line, whatever the message held
        print(f"chessery run: {line}", file=sys.stderr, flush=True)
        if not expected and os.environ.get("CHESSERY_TRACEBACK") == "1":
            traceback.print_exc()
        from .notify import Notifier

        Notifier().status(f"stopped: {line}"[:400])
        if kiosk:
            _show(line, size, frame)
        return 2 if expected else 1


def _show(line: str, size: tuple[int, int], frame: str | None) -> None:
    hold = float(os.environ.get("CHESSERY_ERROR_HOLD_S", ERROR_HOLD_S))
    stop = threading.Event()
    previous = {}
    for sig in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(ValueError):  # not the main thread (tests calling it directly)
            previous[sig] = signal.signal(sig, lambda *_: stop.set())
    try:
        from display.error_screen import show_error

        show_error(line, "kiosk", size, hold, stop, snapshot=frame)
    except Exception as exc:  # the screen is a courtesy: the line above is what counts
        print(f"chessery run: the error could not be shown on the screen either: {exc}", file=sys.stderr)
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
