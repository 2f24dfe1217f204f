"""The link against boards that answer wrongly: another protocol version, a line that garbles
every answer, events for cells the board does not have, a board of the wrong size. Each runs
through a real pseudo-terminal and pyserial; the test plays the board by hand."""

from __future__ import annotations

import logging
import queue
import select
import threading
import time

import pytest

from firmware_bridge import Link, LinkError, LinkState, LinkStatus
from firmware_bridge.firmware import protocol as P
from firmware_bridge.framer import Framer
from firmware_bridge.messages import Event, Heartbeat, Hello, Ping, RequestSnapshot, SetParams
from firmware_bridge.virtual_port import PtyPort
from tests.counting_handler import CountingHandler
from tests.hand_board import WAIT, HandBoard

HELLO_64 = Hello(1, 64, 0, (1, 0, 0), 0xAAAA, 250, 5, 20)


def raw_frame(version: int, mtype: int, seq: int, payload: bytes, crc_ok: bool = True) -> bytes:
    body = bytes([version, mtype, seq >> 8, seq & 0xFF]) + payload
    crc = P.crc16(body) ^ (0 if crc_ok else 0x5A5A)
    return P.cobs_encode(body + bytes([crc >> 8, crc & 0xFF])) + b"\x00"


class AnsweringBoard:
    """Answers every frame the host sends with ``answer(seq)`` bytes, as fast as it can, and
    counts the host's frames by type."""

    def __init__(self, answer) -> None:
        self.port = PtyPort()
        self.port.plug()
        self.answer = answer
        self.framer = Framer(P.HOST_TYPES)
        self.received: list[tuple[float, type]] = []
        self.seq = 0
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self) -> None:
        while not self.stopping.is_set():
            try:
                master = self.port._master
                assert master is not None
                ready, _, _ = select.select([master], [], [], 0.05)
                if not ready:
                    continue
                messages = self.framer.feed(self.port.read())
            except OSError:
                continue  # the host closed the pty meanwhile
            for message in messages:
                self.received.append((time.monotonic(), type(message)))
                self.port.write(self.answer(self.seq))
                self.seq += 1

    def count(self, kind: type, since: float) -> int:
        return sum(1 for t, k in list(self.received) if k is kind and t >= since)

    def close(self) -> None:
        self.stopping.set()
        self.thread.join(WAIT)
        self.port.close()


@pytest.fixture
def link_log():
    handler = CountingHandler("protocol 2", 1)
    logger = logging.getLogger("firmware_bridge.link")
    logger.addHandler(handler)
    yield handler
    logger.removeHandler(handler)


def test_a_board_of_another_protocol_version_is_named_once_and_asked_with_back_off(link_log):
    hello_v2 = P.pack_hello(1, 64, 0, (2, 0, 0), 0xAAAA, 250, 5, 20)

    board = AnsweringBoard(lambda seq: raw_frame(2, P.HELLO, seq, hello_v2))
    link = Link.open(board.port.link_path, silence_timeout=0.8, backoff=(0.02, 0.05))
    try:
        start = time.monotonic()
        named = [s for s in wait_until_problem(link) if s.problem]
        assert "this board speaks protocol 2" in named[0].problem
        assert named[0].state is named[0].previous  # a status that only names the problem
        # Each answer used to bring a PING and a REQUEST_SNAPSHOT at once: thousands a second.
        # Now the asks back off; the link also reconnects (silence) a few times meanwhile.
        deadline = start + 2.5
        while time.monotonic() < deadline:
            link.stopping.wait(deadline - time.monotonic())
        pings, snapshots = board.count(Ping, start), board.count(RequestSnapshot, start)
        assert pings <= 40 and snapshots <= 40, (pings, snapshots)
        assert link.stats["wrong_version"] >= 8 and link.stats["sessions"] >= 2
        errors = [r for r in link_log.records if r.levelno >= logging.ERROR and "protocol 2" in r.getMessage()]
        assert len(errors) == 1  # once, not once per reconnect
        assert link.state is not LinkState.CONNECTED
    finally:
        link.close()
        board.close()


def test_a_line_that_garbles_every_answer_is_named_and_asked_with_back_off():
    snapshot = P.pack_snapshot(0, bytes(64), False)
    board = AnsweringBoard(lambda seq: raw_frame(1, P.SNAPSHOT, seq, snapshot, crc_ok=False))
    link = Link.open(board.port.link_path, silence_timeout=30.0)
    try:
        start = time.monotonic()
        named = [s for s in wait_until_problem(link) if s.problem]
        assert "nothing the board sends can be read" in named[0].problem and "bad_crc" in named[0].problem
        deadline = start + 2.0
        while time.monotonic() < deadline:
            link.stopping.wait(deadline - time.monotonic())
        pings, snapshots = board.count(Ping, start), board.count(RequestSnapshot, start)
        assert pings <= 20 and snapshots <= 20, (pings, snapshots)
        stats = link.stats
        assert stats["frames"] == 0 and stats["bad_crc"] >= 6  # every answer came garbled
    finally:
        link.close()
        board.close()


def wait_until_problem(link: Link) -> list:
    seen: list[LinkStatus] = []
    deadline = time.monotonic() + WAIT
    while not any(s.problem for s in seen):
        remaining = deadline - time.monotonic()
        assert remaining > 0, f"no problem named: {seen}"
        try:
            seen.append(link.states.get(timeout=remaining))
        except Exception:
            continue
    return seen


def connect(board: HandBoard, hello: Hello = HELLO_64, **options) -> Link:
    link = Link.open(board.port.link_path, retry_interval=5.0, **options)
    board.expect(RequestSnapshot)
    board.send(hello)
    board.states = bytearray(hello.cells)
    board.states[3] = 1
    board.send(board.snapshot())
    return link


def test_an_event_for_a_cell_the_board_does_not_have_is_a_bad_payload():
    board = HandBoard()
    link = connect(board)
    try:
        assert link.wait_connected(WAIT)
        board.send(Event(70, P.ACTION_PLACE, 0, 100))  # 64 cells: there is no cell 70
        board.send(Event(5, P.ACTION_PLACE, 0, 110))
        board.states[5] = 1
        board.expect(RequestSnapshot)  # the next frame shows a gap: something was lost
        board.send(board.snapshot())
        delivered = link.events.get(timeout=WAIT)
        assert (delivered.cell, delivered.action, delivered.synthetic) == (5, "place", False)
        with pytest.raises(queue.Empty):  # nothing else: no synthetic event, no cell 70
            link.events.get(timeout=0.3)
        stats = link.stats
        assert stats["bad_payload"] == 1 and stats["gaps"] == 1 and stats["inconsistent"] == 0
        assert stats["events"] == 1  # the bad one was never an event
    finally:
        link.close()
        board.port.close()


def test_a_board_of_the_wrong_size_is_named_and_never_reaches_sync():
    board = HandBoard()
    link = connect(board, Hello(1, 100, 0, (1, 0, 0), 0xAAAA, 250, 5, 20), expected_cells=64)
    try:
        seen = wait_until_problem(link)
        problem = next(s for s in seen if s.problem).problem
        assert "100 cells" in problem and "64" in problem
        board.send(Event(90, P.ACTION_PLACE, 0, 100))
        board.send(Heartbeat(200, 0xAAAA))
        assert not link.wait_connected(0.3)
        assert link.events.empty() and link.stats["events"] == 0
        # The right board is plugged in (a reset with 64 cells): the link syncs with it.
        board.seq = 0
        board.send(Hello(1, 64, 0, (1, 0, 0), 0xBBBB, 250, 5, 20))
        board.states = bytearray(64)
        board.expect(RequestSnapshot)
        board.send(board.snapshot())
        assert link.wait_connected(WAIT)
        assert link.problem == ""
    finally:
        link.close()
        board.port.close()


def test_a_snapshot_of_another_size_than_the_hello_is_a_bad_payload():
    framer = Framer()
    frames = b"".join(P.encode_frame(t, i, p) for i, (t, p) in enumerate([
        (P.HELLO, P.pack_hello(1, 64, 0, (1, 0, 0), 1, 250, 5, 20)),
        (P.SNAPSHOT, P.pack_snapshot(0, bytes(32), False)),
        (P.EVENT, P.pack_event(64, P.ACTION_PLACE, 0, 5)),
        (P.EVENT, P.pack_event(63, P.ACTION_PLACE, 0, 6)),
    ]))
    messages = framer.feed(frames)
    assert [type(m) for m in messages] == [Hello, Event]
    assert framer.errors["bad_payload"] == 2
    assert "EVENT for cell 64 of a board of 64 cells" in framer.last_error


def test_a_board_without_lights_is_sent_no_set_leds():
    board = HandBoard()
    link = connect(board)  # HELLO caps 0: no lights
    try:
        assert link.wait_connected(WAIT)
        link.set_leds([12, 28], "blink")
        with pytest.raises(LinkError):
            link.set_params(heartbeat_ms=500, timeout=0.2)  # a frame that is sent: it comes next
        assert isinstance(board.expect(object), SetParams)
    finally:
        link.close()
        board.port.close()
