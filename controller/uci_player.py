"""A side played by a UCI engine in its own process: Chessery's own (``computer[:LEVEL]``, that is
``chessery engine``) or any other (``uci:COMMAND``, e.g. Stockfish for chess).

The engine thinks in its process, at a lower priority (niceness 10), while the referee goes on;
``ask`` returns at once with a ``Request`` whose ``done`` event is set when the best move (or an
error) is in. A variant other
than chess is set through ``UCI_Variant``; an engine that does not list it is refused with a
one-line error, as is a command that does not start or does not speak UCI.
"""

from __future__ import annotations

import contextlib
import os
import queue
import subprocess
import threading
from dataclasses import dataclass, field
from pathlib import Path

from engine import Move, Position, format_fen
from engine.errors import ChesseryError

from .players import Player, PlayerError, PlayerKind

#: Seconds an engine has to answer ``uci`` and ``isready``.
HANDSHAKE = 30.0
#: The engine process's niceness (higher: lower priority than the referee).
ENGINE_NICENESS = 10
ROOT = Path(__file__).resolve().parent.parent


class EngineFailure(ChesseryError, RuntimeError):
    """The engine process ended or answered something that is not a legal move."""


@dataclass
class Request:
    """One ``go``: ``done`` is set when ``move`` (or ``error``) is known."""

    done: threading.Event = field(default_factory=threading.Event)
    move: Move | None = None
    error: str = ""
    info: list[str] = field(default_factory=list)


class EnginePlayer:
    def __init__(self, player: Player, position: Position) -> None:
        if not player.is_engine:
            raise PlayerError(f"{player.text()} is not an engine")
        self.player = player
        self.variant = position.variant
        command = player.engine_command()
        try:
            self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.DEVNULL, text=True, bufsize=1,
                                         cwd=ROOT if player.kind == PlayerKind.COMPUTER else None)
        except OSError as exc:
            raise PlayerError(f"{player.text()}: cannot start {command[0]!r}: {exc.strerror or exc}") from None
        # The referee must win the processor whenever both want it: the engine runs niced.
        with contextlib.suppress(OSError):
            os.setpriority(os.PRIO_PROCESS, self.proc.pid, ENGINE_NICENESS)
        self.lines: queue.Queue[str | None] = queue.Queue()
        self._lock = threading.Lock()
        self._pending: Request | None = None
        threading.Thread(target=self._read, name="uci-player-read", daemon=True).start()
        try:
            self._handshake()
        except BaseException:
            self.close()
            raise

    # -- process I/O ---------------------------------------------------------------------------
    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def _send(self, line: str) -> None:
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, ValueError):
            raise EngineFailure(f"{self.player.text()}: the engine has ended") from None

    def _until(self, word: str, timeout: float) -> list[str]:
        got: list[str] = []
        while True:
            try:
                line = self.lines.get(timeout=timeout)
            except queue.Empty:
                raise PlayerError(f"{self.player.text()}: no '{word}' within {timeout:g} s") from None
            if line is None:
                raise PlayerError(f"{self.player.text()}: the engine ended before '{word}'")
            got.append(line)
            if line.split()[:1] == [word]:
                return got

    def _handshake(self) -> None:
        self._send("uci")
        lines = self._until("uciok", HANDSHAKE)
        v = self.variant
        if v.name != "chess":
            option = next((line for line in lines if line.startswith("option name UCI_Variant ")), "")
            if f" var {v.name}" not in f"{option} ":
                raise PlayerError(f"{self.player.text()}: this engine does not play {v.name} "
                                  "(no such UCI_Variant)")
            self._send(f"setoption name UCI_Variant value {v.name}")
        if self.player.kind == PlayerKind.COMPUTER:
            self._send(f"setoption name Skill Level value {self.player.level}")
        self._send("ucinewgame")
        self._send("isready")
        self._until("readyok", HANDSHAKE)

    # -- playing -------------------------------------------------------------------------------
    def ask(self, position: Position, go: str = "go movetime 1000") -> Request:
        """Start thinking on ``position`` (its start and moves are sent, so repetitions are
        seen); the answer arrives on the returned request."""
        pos = position.copy()
        moves = list(pos.move_stack)
        start = pos.copy()
        while start.move_stack:
            start.pop()
        texts = " ".join(pos.move_text(m) for m in moves)
        request = Request()
        with self._lock:
            if self._pending is not None and not self._pending.done.is_set():
                raise PlayerError(f"{self.player.text()}: still thinking about the last position")
            self._pending = request
        self._send(f"position fen {format_fen(start)}" + (f" moves {texts}" if texts else ""))
        self._send(go)
        threading.Thread(target=self._answer, args=(pos, request), name="uci-player-answer", daemon=True).start()
        return request

    @property
    def busy(self) -> bool:
        """Whether the engine is still thinking about the last position it was given."""
        pending = self._pending
        return pending is not None and not pending.done.is_set()

    def _answer(self, pos: Position, request: Request) -> None:
        try:
            while True:
                line = self.lines.get()
                if line is None:
                    raise EngineFailure(f"{self.player.text()}: the engine ended while thinking")
                if line.startswith("info"):
                    request.info.append(line)
                    continue
                if line.startswith("bestmove"):
                    text = line.split()[1] if len(line.split()) > 1 else "(none)"
                    legal = {pos.move_text(m): m for m in pos.legal_moves()}
                    if text not in legal:
                        raise EngineFailure(f"{self.player.text()}: answered {text!r}, not a legal move")
                    request.move = legal[text]
                    return
        except EngineFailure as exc:
            request.error = str(exc)
        finally:
            request.done.set()

    def stop(self) -> None:
        """Ask for the best move now (``stop``)."""
        self._send("stop")

    def close(self) -> None:
        """Quit the engine and end its process (killed when it does not quit in time)."""
        if self.proc.poll() is None:
            with contextlib.suppress(EngineFailure):
                self._send("quit")
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=5)
        for stream in (self.proc.stdin, self.proc.stdout):
            if stream is not None:
                stream.close()
