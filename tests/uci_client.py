"""A small UCI client of ours for the variants python-chess cannot express: a real ``chessery
engine`` process, lines read by a thread into a queue, every wait bounded."""

from __future__ import annotations

import contextlib
import os
import queue
import subprocess
import sys
import threading
from pathlib import Path

WAIT = 60.0
ROOT = Path(__file__).resolve().parents[1]


class UciClient:
    def __init__(self, *args: str) -> None:
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        self.proc = subprocess.Popen([sys.executable, "-m", "controller.cli", "engine", *args], cwd=ROOT, env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True, bufsize=1)
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.closed = False
        self.err = ""
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def until(self, prefix: str, timeout: float = WAIT) -> list[str]:
        """Lines read up to and including the first that starts with ``prefix``."""
        got: list[str] = []
        while True:
            line = self.lines.get(timeout=timeout)
            if line is None:
                raise AssertionError(f"engine ended before {prefix!r}; read {got}; stderr {self.stderr()}")
            got.append(line)
            if line.startswith(prefix):
                return got

    def ask(self, line: str, prefix: str) -> list[str]:
        self.send(line)
        return self.until(prefix)

    def bestmove(self, go: str = "go depth 1") -> str:
        return self.ask(go, "bestmove")[-1].split()[1]

    def stderr(self) -> str:
        """What the engine wrote on stderr (after ``close``)."""
        return self.err

    def close(self) -> int:
        if self.closed:
            return self.proc.returncode
        self.closed = True
        if self.proc.poll() is None:
            with contextlib.suppress(BrokenPipeError):
                self.send("quit")
        try:
            return self.proc.wait(timeout=WAIT)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait(timeout=WAIT)
            if self.proc.stderr is not None:
                self.err = self.proc.stderr.read()
            for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
                if stream is not None:
                    stream.close()
