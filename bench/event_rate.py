"""How many board events a second the host keeps up with (docs/protocol.md, "Event rate").

    ./dev bench event_rate [--events N] [--rates 50,100,...]

A board written here (not the simulated one: it must send faster than a hand moves a piece)
sits behind a real pty, answers the host's PING and REQUEST_SNAPSHOT, and then sends EVENT
frames as fast as the pty takes them, or paced at a given rate. Measured:

1. the link alone (``firmware_bridge.Link``: framer, sequence numbers, the board model, the
   events queue): events per second from the first frame written to the last event taken off
   ``link.events``, for a stream of lifts and places of one cell;
2. the whole referee (link, controller thread, inference core, SQLite commit per move): a chess
   game's hand events (``script_for_moves``: captures, drags) sent at each rate, their board
   timestamps spaced as sent; per rate, whether every move was read, and the lag from the last
   event written to the last move committed. The host keeps up with a rate when the lag stays
   that of one move (it does not grow with the game).

A 115200-baud line carries at most 115200 / 10 / 15 = 768 EVENT frames a second (15 bytes on
the wire each); a USB CDC board is not bound by the baud rate, so the host's own ceiling is what
limits it.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import pty
import select
import sys
import tempfile
import threading
import time
import tty
from pathlib import Path

import engine
from controller.event_scripts import Style, random_game, script_for_moves
from controller.session import Phase
from firmware_bridge.codec import encode
from firmware_bridge.firmware import protocol as P
from firmware_bridge.framer import Framer
from firmware_bridge.messages import Event, Heartbeat, Hello, Message, Ping, RequestSnapshot, Snapshot

CHESS = engine.find_variant("chess")


class BlastBoard:
    """A board on a pty that answers the greeting and sends what it is given, never dropping."""

    def __init__(self, occupancy: bytes) -> None:
        self._master, self._slave = pty.openpty()
        tty.setraw(self._slave)  # binary frames
        os.set_blocking(self._master, False)
        self.path = os.ttyname(self._slave)
        self.states = bytearray(occupancy)
        self.seq = 0
        self.time_ms = 0
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._framer = Framer(accept=P.HOST_TYPES)
        self._thread = threading.Thread(target=self._answer, name="blast board", daemon=True)
        self._thread.start()

    def _send(self, message: Message) -> None:
        with self._lock:
            frame = encode(dataclasses.replace(message, seq=self.seq))  # type: ignore[type-var]
            self.seq = (self.seq + 1) & 0xFFFF
            fd = self._master
            view = memoryview(frame)
            while view:
                select.select([], [fd], [], 1.0)
                try:
                    view = view[os.write(fd, view):]
                except BlockingIOError:
                    continue

    def _answer(self) -> None:
        beat = time.monotonic()
        while not self._stop.is_set():
            if time.monotonic() - beat >= 0.25:  # a heartbeat, as a board sends one, so a quiet board stays in sync
                beat = time.monotonic()
                self._send(Heartbeat(self.time_ms, 0x1234))
            readable, _, _ = select.select([self._master], [], [], 0.05)
            if not readable:
                continue
            try:
                data = os.read(self._master, 4096)
            except (BlockingIOError, OSError):
                continue
            for message in self._framer.feed(data):
                if isinstance(message, Ping):
                    self._send(Hello(0x51B0A4D1, len(self.states), 0, (1, 0, 0), 0x1234, 1000, 2, 10,
                                     message.token))
                elif isinstance(message, RequestSnapshot):
                    self._send(Snapshot(self.time_ms, False, bytes(self.states)))

    def event(self, cell: int, action: int, time_ms: int) -> None:
        self.time_ms = time_ms
        self.states[cell] = 1 if action == P.ACTION_PLACE else 0
        self._send(Event(cell, action, 0, time_ms))

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(2)
        os.close(self._master)
        os.close(self._slave)


def start_occupancy() -> bytes:
    return bytes(1 if c else 0 for c in engine.start_position(CHESS).board)


def link_rate(n: int) -> float:
    from firmware_bridge import Link

    board = BlastBoard(start_occupancy())
    link = Link.open(board.path)
    try:
        if not link.wait_connected(10):
            raise SystemExit("event_rate: the link never connected")
        cell = 12  # e2: lifted, put back, lifted...
        t0 = time.perf_counter()
        def write() -> None:
            for i in range(n):
                board.event(cell, P.ACTION_LIFT if i % 2 == 0 else P.ACTION_PLACE, i)

        writer = threading.Thread(target=write)
        writer.start()
        for _ in range(n):
            link.events.get(timeout=30)
        elapsed = time.perf_counter() - t0
        writer.join()
        assert link.stats["gaps"] == 0 and link.stats["events"] == n, link.stats
        return n / elapsed
    finally:
        link.close()
        board.stop()


def game_events(plies: int) -> tuple[list[str], list[tuple[int, int]]]:
    moves = random_game(CHESS, plies, seed=7)
    lines = script_for_moves(CHESS, moves, Style(think_ms=0, hand_ms=0, capture="alternate", reaction_ms=0))
    names = CHESS.geometry.names
    events = []
    for line in lines:
        word, _, rest = line.partition(" ")
        if word in ("lift", "place"):
            events.append((names.index(rest.split()[0]), P.ACTION_LIFT if word == "lift" else P.ACTION_PLACE))
    return moves, events


def referee_at(rate: float, moves: list[str], events: list[tuple[int, int]]) -> tuple[bool, float, float, float]:
    """(every move read, lag of the last move in s, rate achieved, CPU ms per event of this
    process: board thread, link, controller) for events sent at ``rate``."""
    from controller.board_map import SensorMap
    from controller.config import Config, GpioConfig
    from controller.service import Service
    from controller.store import GameStore

    board = BlastBoard(start_occupancy())
    tmp = tempfile.TemporaryDirectory(prefix="chessery-rate-")
    store = GameStore(Path(tmp.name) / "rate.sqlite3")
    service = Service(Config(port=(board.path,), gpio=GpioConfig(enabled=False)), CHESS, store, SensorMap(CHESS),
                      print_moves=False)
    got: list[str] = []
    done = threading.Condition()

    def on_update(update) -> None:
        with done:
            got[len(got) - len(update.undone):] = list(update.accepted)
            done.notify_all()

    service.on_update = on_update
    try:
        service.start()
        if not service.links[0].wait_connected(10):
            raise SystemExit("event_rate: the service never connected")
        with done:
            done.wait_for(lambda: service.session.phase == Phase.PLAY, timeout=10)
        gap = 1.0 / rate
        cpu0 = time.process_time()
        t0 = time.perf_counter()
        for i, (cell, action) in enumerate(events):
            due = t0 + i * gap
            while (now := time.perf_counter()) < due:
                time.sleep(min(due - now, 0.002))
            board.event(cell, action, int(1000 * i * gap) + 1000)
        sent = time.perf_counter()
        with done:
            done.wait_for(lambda: len(got) >= len(moves), timeout=60)
            ok = got == moves
        lag = time.perf_counter() - sent
        return ok, lag, len(events) / (sent - t0), 1000 * (time.process_time() - cpu0) / len(events)
    finally:
        service.stop()
        board.stop()
        store.close()
        tmp.cleanup()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", type=int, default=20000, help="events for the link alone")
    parser.add_argument("--plies", type=int, default=60, help="plies of the game sent to the referee")
    parser.add_argument("--rates", default="20,50,100,200,400,800", help="events per second to try")
    args = parser.parse_args()
    print(f"link alone: {link_rate(args.events):.0f} events/s ({args.events} events through a pty)")
    moves, events = game_events(args.plies)
    print(f"referee: a {len(moves)}-ply game, {len(events)} hand events, sent at each rate:")
    for rate in (float(r) for r in args.rates.split(",")):
        ok, lag, achieved, cpu = referee_at(rate, moves, events)
        print(f"  {rate:6.0f} events/s (sent {achieved:6.0f}/s): {'every move read' if ok else 'MOVES WRONG'}, "
              f"last move committed {1000 * lag:7.1f} ms after the last event; CPU {cpu:.2f} ms per event",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
