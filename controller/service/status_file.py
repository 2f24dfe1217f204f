"""The status file that ``chessery status`` reads (``controller.status``), rewritten every few
seconds by its own thread while the service runs, and the journal's periodic word on link
errors."""

from __future__ import annotations

import logging
import os
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING

from controller.status import error_growth, link_status, write_status

if TYPE_CHECKING:
    from .service import Service

log = logging.getLogger("chessery")


class StatusFile:
    def __init__(self, service: Service, path: Path | None) -> None:
        self.service = service
        #: The file (None: none is kept).
        self.path = path
        #: Seconds between rewrites of the file.
        self.every = 2.0
        #: Seconds between log lines naming the link errors that grew meanwhile (if any did).
        self.counter_log_every = 600.0
        #: Set after each rewrite.
        self.written = threading.Event()

    def run(self) -> None:
        """Rewrite the file every few seconds until the service stops (then once more, saying
        so). A status file that cannot be written is reported once; refereeing goes on."""
        assert self.path is not None
        service = self.service
        links = service.boards.links
        started = time.time()
        failed = False
        counted = [link.stats for link in links]
        counted_at = time.monotonic()
        while True:
            running = not service.stopping.is_set()
            if time.monotonic() - counted_at >= self.counter_log_every:
                # The journal's periodic word on link errors, only when there were any.
                for i, link in enumerate(links):
                    now_counts = link.stats
                    grown = error_growth(counted[i], now_counts)
                    if grown:
                        log.warning("%s: in the last %.0f min: %s", link.name,
                                    (time.monotonic() - counted_at) / 60, grown)
                    counted[i] = now_counts
                counted_at = time.monotonic()
            data = {"pid": os.getpid(), "started": started, "updated": time.time(), "running": running,
                    "variant": service.variant.name, "game": service.outputs.summary,
                    "boards": [link_status(link) for link in links]}
            try:
                write_status(self.path, data)
                self.written.set()
            except OSError as exc:
                if not failed:
                    failed = True
                    log.warning("cannot write the status file %s: %s", self.path, exc)
            if not running or service.stopping.wait(self.every):
                if running:
                    continue  # once more, saying it stopped
                return
