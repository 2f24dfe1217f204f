"""Processes a test starts (``chessery run``, ``chessery sim-board``, a MicroPython board): every
read of their output waits a bounded time and, when it gives up, says what it waited for and what
the process said on stderr; every such process is ended by the test that started it, with the
processes it started itself (it leads a process group of its own: ``chessery run`` with no port
starts a ``sim-board``). A test that goes wrong under load then fails with a reason instead of
hanging the suite, and leaves nothing running.

    with Child.chessery("sim-board", "--variant", "chess", ...) as board:
        path = board.line("the board's pty path")
        ...
        assert board.stop() == 0

Tests that must close a pipe under the process (a reader that goes away) use ``ended(proc)`` and
``read_line(stream, ...)`` on a plain ``subprocess.Popen`` started with ``new_session=True``.
"""

from __future__ import annotations

import contextlib
import os
import queue
import select
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import IO, Any, Self

REPO = Path(__file__).resolve().parent.parent
#: How long one read or one exit is waited for, unless the caller says otherwise: long enough for
#: a loaded machine (another full suite beside this one), short enough to fail rather than hang.
TIMEOUT = 60.0


def chessery_env(**extra: str) -> dict[str, str]:
    """The environment for a ``chessery`` child: this checkout on the path, SDL's dummy drivers,
    no desktop to open a window on."""
    env = dict(os.environ, PYTHONPATH=str(REPO), SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", **extra)
    env.pop("DISPLAY", None)
    return env


def chessery_args(*args: str) -> list[str]:
    return [sys.executable, "-m", "controller.cli", *args]


def end_group(proc: subprocess.Popen[Any], timeout: float = TIMEOUT) -> None:
    """Kill ``proc`` and every process of its group (started with ``start_new_session=True``) and
    reap it. A group whose leader has already exited may still hold its children: killed too."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)
    with contextlib.suppress(ProcessLookupError):
        proc.kill()
    try:
        proc.wait(timeout)
    except subprocess.TimeoutExpired:  # pragma: no cover - SIGKILL not delivered: say so, do not hang
        raise AssertionError(f"pid {proc.pid} survived SIGKILL for {timeout:g} s") from None


@contextlib.contextmanager
def ended(proc: subprocess.Popen[Any]) -> Iterator[subprocess.Popen[Any]]:
    """``with ended(Popen(..., start_new_session=True)) as proc:`` ends the process and its group
    when the block is left, however it is left."""
    try:
        yield proc
    finally:
        end_group(proc)
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()


def read_line(stream: IO[Any], waiting_for: str, timeout: float = TIMEOUT) -> str:
    """One line from a child's pipe, read byte by byte from its file descriptor (so nothing is
    left in a Python buffer), waiting at most ``timeout`` in all. ``AssertionError`` naming
    ``waiting_for`` when the time runs out or the pipe ends first."""
    fd = stream.fileno()
    deadline = time.monotonic() + timeout
    got = bytearray()
    while not got.endswith(b"\n"):
        remaining = deadline - time.monotonic()
        if remaining <= 0 or not select.select([fd], [], [], remaining)[0]:
            raise AssertionError(f"waited {timeout:g} s for {waiting_for}; got {bytes(got)!r} so far")
        byte = os.read(fd, 1)
        if not byte:
            raise AssertionError(f"the output ended before {waiting_for}; got {bytes(got)!r}")
        got += byte
    return got.decode("utf-8", "replace").rstrip("\n")


class Child:
    """A process with its stdout lines and stderr text read by threads as they come."""

    def __init__(self, args: Sequence[str], *, env: dict[str, str] | None = None, cwd: Path = REPO,
                 stdin: int | None = subprocess.DEVNULL) -> None:
        self.args = list(args)
        self.proc = subprocess.Popen(self.args, cwd=cwd, env=env, stdin=stdin, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True, start_new_session=True)
        self._lines: queue.Queue[str | None] = queue.Queue()
        self.err: list[str] = []
        self._err_changed = threading.Condition()
        self._readers = [threading.Thread(target=self._read_out, daemon=True),
                         threading.Thread(target=self._read_err, daemon=True)]
        for reader in self._readers:
            reader.start()

    @classmethod
    def chessery(cls, *args: str, env: dict[str, str] | None = None) -> Child:
        """``chessery ARGS`` from this checkout (``python -m controller.cli``)."""
        return cls(chessery_args(*args), env=env or chessery_env())

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.end()

    # -- reading --------------------------------------------------------------------------------
    def _read_out(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self._lines.put(line.rstrip("\n"))
        self._lines.put(None)

    def _read_err(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            with self._err_changed:
                self.err.append(line)
                self._err_changed.notify_all()

    @property
    def said(self) -> str:
        """Everything the process wrote to stderr so far."""
        with self._err_changed:
            return "".join(self.err)

    def _tail(self) -> str:
        text = self.said.strip()
        return f"; it said on stderr: {text[-2000:]}" if text else "; nothing on stderr"

    def line(self, waiting_for: str, timeout: float = TIMEOUT) -> str:
        """The next line of stdout. ``AssertionError`` naming ``waiting_for`` when none comes in
        ``timeout`` s or the output ends first."""
        try:
            line = self._lines.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"waited {timeout:g} s for {waiting_for} from {self._name()}{self._tail()}") \
                from None
        if line is None:
            self._lines.put(None)  # still ended for the next reader
            raise AssertionError(f"{self._name()} ended (status {self._status_soon()}) before {waiting_for}"
                                 f"{self._tail()}")
        return line

    def line_within(self, timeout: float) -> str | None:
        """The next line of stdout if one comes within ``timeout`` s, else None (the output
        ending is an ``AssertionError``, as for :meth:`line`)."""
        try:
            line = self._lines.get(timeout=timeout)
        except queue.Empty:
            return None
        if line is None:
            self._lines.put(None)
            raise AssertionError(f"{self._name()} ended (status {self._status_soon()}){self._tail()}")
        return line

    def _status_soon(self) -> int | None:
        """Its exit status once its stdout has closed (None if it lives on a while): also lets the
        stderr reader catch up, so the message holds the last words."""
        try:
            status = self.proc.wait(5)
        except subprocess.TimeoutExpired:
            return None
        self._readers[1].join(5)
        return status

    def rest(self, waiting_for: str, timeout: float = TIMEOUT) -> list[str]:
        """Every further stdout line up to the end of the output (the process closed it)."""
        deadline = time.monotonic() + timeout
        lines: list[str] = []
        while True:
            try:
                line = self._lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise AssertionError(f"waited {timeout:g} s for {waiting_for} (the end of the output) from "
                                     f"{self._name()}; got {lines[-5:]}{self._tail()}") from None
            if line is None:
                self._lines.put(None)
                return lines
            lines.append(line)

    def wait_err(self, check: Callable[[str], bool], waiting_for: str, timeout: float = TIMEOUT) -> str:
        """Wait until what the process said on stderr satisfies ``check``; returns it."""
        with self._err_changed:
            if not self._err_changed.wait_for(lambda: check("".join(self.err)), timeout):
                raise AssertionError(f"waited {timeout:g} s for {waiting_for} on the stderr of {self._name()}"
                                     f"{self._tail()}")
            return "".join(self.err)

    # -- ending ---------------------------------------------------------------------------------
    def wait(self, waiting_for: str = "it to exit", timeout: float = TIMEOUT) -> int:
        """The exit status, once the process has exited by itself."""
        try:
            status = self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"waited {timeout:g} s for {waiting_for}: {self._name()} still runs"
                                 f"{self._tail()}") from None
        for reader in self._readers:  # everything it wrote is read
            reader.join(timeout)
        return status

    def stop(self, timeout: float = TIMEOUT) -> int:
        """SIGTERM, and the exit status once it has stopped."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        return self.wait("it to stop after SIGTERM", timeout)

    def end(self) -> None:
        """Kill it and its group if anything still runs; reap it. Safe to call twice."""
        end_group(self.proc)
        for reader in self._readers:
            reader.join(TIMEOUT)

    def _name(self) -> str:
        name = f"chessery {self.args[3]}" if self.args[1:3] == ["-m", "controller.cli"] else self.args[0]
        return f"{name} (pid {self.proc.pid})"
