"""Where the service's messages go: one logging handler on standard error, safe against a reader
that goes away.

Every thread (the controller, each link's reader, the GPIO callbacks) logs through ``logging``;
the one handler writes each record with a single ``write`` under its lock, so lines from two
threads never interleave mid-line. Records of the ``chessery`` logger (the service's own
messages: questions, prompts, notices) read ``chessery: TEXT`` as they always did; records of
other loggers name them: ``chessery: firmware_bridge.link: TEXT``.

A lost output pipe (journald restarted, ``chessery run | head``) must never stop refereeing:
:class:`PipeSafeHandler` and :func:`write_safely` turn a ``BrokenPipeError`` into a silent
stream (the descriptor is pointed at ``/dev/null``, so the interpreter's last flush at exit
cannot fail either) and carry on; the moves are in the database whatever happens to the pipes.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sys
from typing import TextIO

SERVICE_LOGGER = "chessery"


class _Format(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        text = record.getMessage()
        if record.exc_info:
            text = f"{text}\n{self.formatException(record.exc_info)}"
        own = record.name == SERVICE_LOGGER or record.name.startswith(SERVICE_LOGGER + ".")
        return f"chessery: {text}" if own else f"chessery: {record.name}: {text}"


def silence(stream: TextIO) -> None:
    """Point ``stream``'s descriptor at /dev/null (when it has one), so that later writes and
    the interpreter's final flush succeed without a reader."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        fd = stream.fileno()
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, fd)
        os.close(null)


class PipeSafeHandler(logging.StreamHandler):
    """A StreamHandler that goes quiet, instead of printing a traceback per record, once its
    reader has gone away."""

    def __init__(self, stream: TextIO | None = None) -> None:
        super().__init__(stream or sys.stderr)
        self.lost = False

    def emit(self, record: logging.LogRecord) -> None:
        if not self.lost:
            super().emit(record)

    def handleError(self, record: logging.LogRecord) -> None:
        exc = sys.exc_info()[1]
        if isinstance(exc, OSError | ValueError):  # EPIPE, or a stream closed under us
            self.lost = True
            silence(self.stream)
            return
        super().handleError(record)


def setup_logging(link_log: str = "") -> PipeSafeHandler:
    """The service's logging: one handler on stderr for everything (the service's messages at
    INFO and up, other loggers' warnings); with ``link_log`` the serial link's records also go
    to that file, at INFO and up."""
    root = logging.getLogger()
    for old in list(root.handlers):
        if isinstance(old, PipeSafeHandler):
            root.removeHandler(old)
    handler = PipeSafeHandler()
    handler.setFormatter(_Format())
    # The service's own INFO messages, everybody else's warnings (the link's INFO lines go to
    # link_log when there is one).
    handler.addFilter(lambda r: r.levelno >= logging.WARNING or r.name.split(".")[0] == SERVICE_LOGGER)
    root.addHandler(handler)
    root.setLevel(logging.WARNING)
    logging.getLogger(SERVICE_LOGGER).setLevel(logging.INFO)
    if link_log:
        file_handler = logging.FileHandler(link_log, encoding="utf-8")
        file_handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
        bridge = logging.getLogger("firmware_bridge")
        bridge.addHandler(file_handler)
        bridge.setLevel(logging.INFO)
    return handler


def write_safely(stream: TextIO, text: str) -> bool:
    """Write and flush ``text`` in one call; False (and the stream silenced) when its reader is
    gone."""
    try:
        stream.write(text)
        stream.flush()
        return True
    except (OSError, ValueError):
        silence(stream)
        return False
