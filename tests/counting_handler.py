"""A logging handler for the tests: notes every record, and says when a text has come up
often enough (a test waits on ``reached`` instead of sleeping)."""

from __future__ import annotations

import logging
import threading


class CountingHandler(logging.Handler):
    def __init__(self, needle: str, count: int) -> None:
        super().__init__(logging.DEBUG)
        self.needle = needle
        self.count = count
        self.records: list[logging.LogRecord] = []
        self.reached = threading.Event()

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)
        if sum(self.needle in r.getMessage() for r in self.records) >= self.count:
            self.reached.set()
