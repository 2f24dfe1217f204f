"""The host link against the simulated board, through a real pseudo-terminal and pyserial.

The board runs the reference firmware's code on a virtual matrix; the link opens the pty's
stable symlink with ``serial.serial_for_url``. Every wait is on a queue or an event with a
timeout; nothing sleeps.
"""

from __future__ import annotations

import logging
import os
import queue
import socket
import threading
import time
from collections.abc import Callable

import pytest

import engine
from firmware_bridge import Link, LinkError, LinkState, LinkStatus, SensorEvent, SimBoard, parse_script, without_flicker
from firmware_bridge.firmware import protocol as P
from firmware_bridge.firmware.app import FirmwareApp
from firmware_bridge.firmware.matrix import VirtualPins
from firmware_bridge.framer import Framer
from firmware_bridge.messages import Event, Heartbeat, Hello, RequestSnapshot
from firmware_bridge.script import Lift, Place
from tests.counting_handler import CountingHandler
from tests.hand_board import WAIT, HandBoard

CHESS = engine.find_variant("chess")

GAME = """\
# an open game: 1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6
lift e2
place e4
lift e7
place e5
sleep 20
lift g1
place f3
lift b8
place c6
choose ignored-by-the-board
lift f1
place b5
lift a7
place a6
lift c6
lift b5
place c6
"""


def expected(script: str) -> list[tuple[int, str]]:
    return [(c.cell, type(c).__name__.lower()) for c in parse_script(script, CHESS)
            if isinstance(c, Lift | Place)]


def observed(events: list[SensorEvent]) -> list[tuple[int, str]]:
    return [(e.cell, e.action) for e in events]


class Model:
    """What the controller would track: the events applied to the link's first snapshot. It
    asserts the link's promise that every event fits (lift from an occupied cell, place on an
    empty one)."""

    def __init__(self, occupancy: tuple[bool, ...], offset: int = 0) -> None:
        self.occupied = list(occupancy)
        self.offset = offset
        self.events: list[SensorEvent] = []

    def apply(self, event: SensorEvent) -> None:
        cell = event.cell - self.offset
        assert self.occupied[cell] == event.lifted, f"{event} does not fit"
        self.occupied[cell] = event.placed
        self.events.append(event)


def collect(link: Link, model: Model, done: Callable[[Model], bool], timeout: float = WAIT) -> Model:
    deadline = time.monotonic() + timeout
    while not done(model):
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise AssertionError(f"timed out; events so far: {[str(e) for e in model.events]}; {link.stats}")
        try:
            model.apply(link.events.get(timeout=remaining))
        except queue.Empty:
            continue
    return model


def settle(link: Link, model: Model) -> Model:
    """Apply everything the link has to say about the board as it is now: a PING answered
    (every frame sent before the answer has been handled), then a snapshot sent after it (any
    held events are released and differences reported), then whatever is queued."""
    for _ in range(20):  # a garbling fault may eat the answer
        try:
            link.ping(timeout=0.5)
            break
        except LinkError:
            continue
    link.request_snapshot(timeout=WAIT)
    while not link.events.empty():
        model.apply(link.events.get_nowait())
    return model


def wait_state(link: Link, state: LinkState, timeout: float = WAIT) -> list[LinkStatus]:
    """States seen up to and including ``state``."""
    seen: list[LinkStatus] = []
    deadline = time.monotonic() + timeout
    while not seen or seen[-1].state is not state:
        remaining = deadline - time.monotonic()
        assert remaining > 0, f"never reached {state}: {seen}"
        try:
            seen.append(link.states.get(timeout=remaining))
        except queue.Empty:
            continue
    return seen


@pytest.fixture
def rig(request):
    """rig(**board_options) -> (board, link, model at connection)."""
    made: list = []

    def make(link_options: dict | None = None, **options):
        options.setdefault("heartbeat_ms", 100)
        board = SimBoard("chess", **options).start()
        made.append(board)
        link = Link.open(board.path, silence_timeout=0.4, retry_interval=0.2, backoff=(0.02, 0.2),
                         **(link_options or {}))
        made.append(link)
        assert link.wait_connected(WAIT), link.stats
        connected = wait_state(link, LinkState.CONNECTED)[-1]  # the tests look at changes after this
        assert connected.occupancy == link.occupancy() and connected.pieces == link.pieces()
        return board, link, Model(connected.occupancy, link.cell_offset)

    yield make
    for thing in reversed(made):
        thing.close() if isinstance(thing, Link) else thing.stop()


def play(board: SimBoard, script: str) -> tuple[bool, ...]:
    board.play(parse_script(script, CHESS), timeout=WAIT)
    return board.occupancy()


# -- the plain path --------------------------------------------------------------------------------


def test_connected_status_carries_the_baseline_the_queued_events_apply_to():
    """A consumer that is slow to look at the CONNECTED status must not count events twice:
    the status holds the model as it was when it was made, before any later event."""
    with SimBoard("chess", heartbeat_ms=100) as board:
        board.start_script("lift e2\nplace e4\n")  # plays as soon as the link has its snapshot
        with Link(board.path) as link:
            connected = wait_state(link, LinkState.CONNECTED)[-1]
            assert board.done.wait(WAIT)
            model = collect(link, Model(connected.occupancy), lambda m: len(m.events) == 2)
            assert observed(model.events) == [(12, "lift"), (28, "place")]
            assert tuple(model.occupied) == link.occupancy() == board.occupancy()
            assert connected.occupancy != link.occupancy()  # the live model had moved on
            assert connected.pieces == (None,) * 64  # an occupancy board names no pieces


def barrier(link: Link) -> None:
    """Return once every event the board sent so far is on ``link.events`` (or released from
    being held): a ping and then a snapshot have been answered and handled."""
    for _ in range(20):  # the link may be between sessions
        try:
            assert link.wait_connected(WAIT)
            link.ping(timeout=0.5)
            link.request_snapshot(timeout=WAIT)
            return
        except LinkError:
            continue
    raise AssertionError(f"no answer from the board: {link.stats}")


def drain(q: queue.Queue) -> list:
    items = []
    while not q.empty():
        items.append(q.get_nowait())
    return items


def test_states_in_events_puts_each_change_between_the_events_before_and_after_it():
    """With ``states_in_events`` a status is never ahead of an event delivered before it, nor
    behind one delivered after it: each status's model is the previous one with exactly the
    events between them applied. The consumer here reads only when everything has happened,
    as a busy controller would; the cable is pulled (the board's moves meanwhile come back as
    synthetic events from the snapshot) and the board goes silent (the link reopens the port)."""
    called: list[LinkStatus] = []
    with SimBoard("chess", heartbeat_ms=100, faults="unplug=300@3,pause=900@9") as board:
        board.start_script(GAME)  # plays as soon as the link has its first snapshot
        link = Link.open(board.path, silence_timeout=0.4, retry_interval=0.2, backoff=(0.02, 0.2),
                         states_in_events=True, on_state=called.append)
        try:
            assert board.done.wait(WAIT)
            barrier(link)
            truth = board.occupancy()
        finally:
            link.close()
        items = drain(link.events)
    statuses = [item for item in items if isinstance(item, LinkStatus)]
    assert [s.state for s in statuses[:2]] == [LinkState.CONNECTING, LinkState.CONNECTED]
    model: Model | None = None
    state = LinkState.IDLE
    for item in items:
        if isinstance(item, SensorEvent):
            assert model is not None, f"{item} before any status with a model"
            model.apply(item)  # every event fits the model as of the last status
            # What changed during an outage comes from the snapshot, before the link is back;
            # the board's own events come while connected, or, when the board sent them just
            # before the snapshot that resynchronises it (held back, then released in their
            # place among the snapshot's changes), just before the link is back.
            if item.synthetic:
                assert state is LinkState.CONNECTING, item
            else:
                assert state in (LinkState.CONNECTED, LinkState.CONNECTING), item
        else:
            state = item.state
            if item.occupancy is not None:
                if model is not None:
                    assert tuple(model.occupied) == item.occupancy, f"{item.state} out of order"
                model = Model(item.occupancy)
    assert model is not None and tuple(model.occupied) == truth
    assert statuses[-1].state is LinkState.CLOSED
    assert any(isinstance(item, SensorEvent) and item.synthetic for item in items)
    assert link.stats["silences"] >= 1 and board.port.plugs == 2
    # The older channels are unchanged: the same statuses, in the same order.
    assert drain(link.states) == statuses == called


def test_a_board_with_a_new_number_of_cells_gives_a_new_baseline():
    """A board that comes back from a reset with another size cannot be described by events on
    the old model: the link goes back to CONNECTING and the next CONNECTED status is the new
    baseline."""
    board = HandBoard()
    link = Link.open(board.port.link_path, retry_interval=5.0, states_in_events=True)
    try:
        board.expect(RequestSnapshot)
        board.send(Hello(1, 64, 0, (1, 0, 0), 0xAAAA, 250, 5, 20))
        board.send(board.snapshot())
        assert link.wait_connected(WAIT)
        board.seq = 0
        board.states = bytearray(32)
        board.states[3] = 1
        board.send(Hello(1, 32, 0, (1, 0, 0), 0xBBBB, 250, 5, 20))  # reset: a smaller board
        board.send(Event(9, P.ACTION_PLACE, 0, 10))  # before the host has its snapshot: part of it
        board.states[9] = 1
        board.expect(RequestSnapshot)
        board.send(board.snapshot())
        seen = wait_state(link, LinkState.CONNECTED)
        seen = wait_state(link, LinkState.CONNECTED)
        assert [s.state for s in seen] == [LinkState.CONNECTING, LinkState.CONNECTED]
        assert seen[0].occupancy is None and "32 cells" in seen[0].reason
        assert [c for c, on in enumerate(seen[1].occupancy) if on] == [3, 9]
        assert link.occupancy() == seen[1].occupancy
        items = drain(link.events)
        assert [i.state if isinstance(i, LinkStatus) else None for i in items] == [
            LinkState.CONNECTING, LinkState.CONNECTED] * 2
    finally:
        link.close()
        board.port.close()


def test_the_link_delivers_the_scripts_events_exactly_in_order(rig):
    board, link, model = rig()
    assert link.hello is not None and link.hello.cells == 64 and not link.hello.identity
    assert model.occupied == list(board.occupancy())
    started: list = []
    board.on_command = started.append
    board.play(GAME, timeout=WAIT)  # script text is parsed with the board's variant
    assert started == parse_script(GAME, CHESS)  # every command in order, the choose line too
    collect(link, model, lambda m: len(m.events) == len(expected(GAME)))
    assert observed(model.events) == expected(GAME)
    assert not any(e.synthetic for e in model.events)
    assert all(e.piece is None for e in model.events)
    times = [e.board_ms for e in model.events]
    assert times == sorted(times) and times[-1] - times[0] >= 20  # the script's sleep is on the board clock
    seqs = [e.seq for e in model.events]
    assert seqs == sorted(seqs)
    assert link.occupancy() == board.occupancy() == tuple(model.occupied)
    assert link.events.empty()
    assert link.stats["gaps"] == 0 and link.stats["bad_crc"] == 0


def test_identity_board_reports_which_piece_moved(rig):
    board, link, model = rig(identity=True)
    assert link.hello.identity
    assert link.pieces()[4] == "K" and link.pieces()[60] == "k"
    script = "lift e2\nplace e4\nlift d7\nplace d5\nlift d5\nlift e4\nplace d5\nlift d1\nplace d1 Q\n"
    play(board, script)
    collect(link, model, lambda m: len(m.events) == 9)
    assert [(e.action, e.cell, e.piece) for e in model.events] == [
        ("lift", 12, "P"), ("place", 28, "P"), ("lift", 51, "p"), ("place", 35, "p"),
        ("lift", 35, "p"), ("lift", 28, "P"), ("place", 35, "P"), ("lift", 3, "Q"), ("place", 3, "Q")]
    assert link.pieces() == board.pieces()
    assert link.pieces()[35] == "P"


def test_second_board_of_a_two_board_game_uses_a_cell_offset(rig):
    board, link, model = rig(link_options={"cell_offset": 64})
    play(board, "lift e2\nplace e4\n")
    collect(link, model, lambda m: len(m.events) == 2)
    assert observed(model.events) == [(64 + 12, "lift"), (64 + 28, "place")]
    link.set_leds([64 + 28, 3], "on")  # cell 3 is on the other board: ignored here
    link.ping(WAIT)
    assert board.leds()[28] == P.LED_ON and sum(board.leds()) == P.LED_ON


def test_lights_ping_and_parameters(rig):
    board, link, _ = rig()
    link.set_leds([12, 28], "blink")
    link.set_leds([20], "fast", replace=False)
    assert link.ping(WAIT) > 0  # answered after the lights: the board handles frames in order
    leds = board.leds()
    assert (leds[12], leds[28], leds[20], sum(leds)) == (P.LED_BLINK, P.LED_BLINK, P.LED_FAST,
                                                        2 * P.LED_BLINK + P.LED_FAST)
    hello = link.set_params(debounce_ms=5, heartbeat_ms=200)
    assert (hello.debounce_ms, hello.heartbeat_ms) == (5, 200)
    assert board.core.debounce_ms == 5 and board.core.debouncer.debounce_ms == 5
    with pytest.raises(ValueError, match="unknown light pattern"):
        link.set_leds([1], "disco")
    assert link.request_snapshot() == board.occupancy()


# -- faults ---------------------------------------------------------------------------------------------


def test_chatter_below_the_debounce_time_never_reaches_the_host(rig):
    board, link, model = rig(faults="bounce", seed=3)
    play(board, GAME)
    collect(link, model, lambda m: len(m.events) == len(expected(GAME)))
    assert observed(model.events) == expected(GAME)
    assert link.events.empty()


def test_flicker_longer_than_the_debounce_time_is_delivered_raw_and_paired_by_the_helper(rig):
    board, link, model = rig(faults="bounce=25", seed=1)
    opening = "lift e2\nplace e4\nlift e7\nplace e5\nlift g1\nplace f3\n"
    truth = play(board, opening)
    collect(link, model, lambda m: len(m.events) == 3 * len(expected(opening)))  # each change flickers once
    assert observed(model.events)[:3] == [(12, "lift"), (12, "place"), (12, "lift")]
    assert observed(without_flicker(model.events)) == expected(opening)
    assert link.occupancy() == truth == tuple(model.occupied)


# The knights go out and back six times: enough traffic that a few percent of garbled bytes
# surely hit something (the chance of no hit at all is below one in a million).
SHUFFLE = GAME + "lift g8\nplace f6\nlift f6\nplace g8\nlift f3\nplace g1\nlift g1\nplace f3\n" * 6


@pytest.mark.parametrize(("faults", "identity"), [("flip=0.02", False), ("drop=0.02", False),
                                                  ("flip=0.01,drop=0.01,bounce", True)])
def test_garbled_and_lost_bytes_are_recovered_by_snapshots(rig, faults, identity):
    board, link, model = rig(faults=faults, seed=7, identity=identity)
    truth = play(board, SHUFFLE)
    settle(link, model)
    assert tuple(model.occupied) == truth
    assert board.faulty.flipped + board.faulty.dropped > 0
    stats = link.stats
    assert stats["gaps"] + stats["bad_crc"] + stats["truncated"] > 0
    assert stats["snapshots"] > 1
    # Raw events are real changes in their real order (those whose frames survived); the rest of
    # the story comes from snapshots (a knight that went out and back while frames were lost
    # leaves no trace there, which is all a snapshot can know).
    raw = iter(expected(SHUFFLE))
    assert all(step in raw for step in observed([e for e in model.events if not e.synthetic]))
    assert link.pieces() == board.pieces()


def test_a_board_that_goes_silent_is_reconnected_and_loses_nothing(rig):
    board, link, model = rig(faults="pause=900@5")
    truth = play(board, GAME)
    collect(link, model, lambda m: tuple(m.occupied) == truth)
    seen = wait_state(link, LinkState.CONNECTED)
    assert [s.state for s in seen[:2]] == [LinkState.DISCONNECTED, LinkState.CONNECTING]
    assert "no frame from the board" in seen[0].reason
    assert link.stats["silences"] >= 1 and link.stats["sessions"] >= 2
    # Nothing was lost: every change arrived, raw (or, had the board spoken while the port was
    # being reopened, from the snapshot), and the model ends where the board is.
    raw = [e for e in model.events if not e.synthetic]
    assert observed(raw) == [x for x in expected(GAME) if x in observed(raw)]


def test_a_board_reset_mid_game_is_resynchronised_and_gets_its_lights_back(rig):
    board, link, model = rig(faults="reset@5")
    link.set_leds([0, 63], "on")
    truth = play(board, GAME)
    collect(link, model, lambda m: tuple(m.occupied) == truth)
    assert board.boots == 2 and link.stats["resets"] == 1
    link.ping(WAIT)
    assert board.leds()[0] == board.leds()[63] == P.LED_ON
    assert observed(model.events) == expected(GAME)


def test_unplug_mid_game_new_pty_reconnects_and_reports_what_changed(rig):
    board, link, model = rig(faults="unplug=300@3")
    start = tuple(model.occupied)
    truth = play(board, GAME.replace("place e4\n", "place e4\nsleep 100\n", 1))
    collect(link, model, lambda m: tuple(m.occupied) == truth)
    assert board.port.plugs == 2 and board.boots == 2  # a new pty, and the board powered up again
    seen = wait_state(link, LinkState.CONNECTED)
    assert seen[0].state is LinkState.DISCONNECTED and "lost" in seen[0].reason
    raw = [e for e in model.events if not e.synthetic]
    synthetic = [e for e in model.events if e.synthetic]
    # The moves before the unplug arrived as they happened (the sleep gives the host time to
    # read them before the cable goes); the rest happened while unplugged.
    assert observed(raw) == expected(GAME)[:len(raw)] and len(raw) <= 2
    before = list(start)
    for event in raw:
        before[event.cell] = event.placed
    lifts = [c for c in range(64) if before[c] and not truth[c]]
    places = [c for c in range(64) if truth[c] and not before[c]]
    assert observed(synthetic) == [(c, "lift") for c in lifts] + [(c, "place") for c in places]
    assert lifts == [5, 6, 48, 52, 57] and places == [21, 36, 40, 42]  # Bf1, Ng1, a7, e7, Nb8 gone
    assert all(e.board_ms is None and e.seq is None for e in synthetic)
    assert link.occupancy() == truth


# -- other transports and start-up --------------------------------------------------------------------


def test_spy_url_dumps_the_traffic_for_field_debugging(tmp_path):
    dump = tmp_path / "dump.txt"
    with SimBoard("chess") as board, Link(f"spy://{board.path}?file={dump}") as link:
        assert link.wait_connected(WAIT)
        link.ping(WAIT)
    text = dump.read_text()
    assert "TX   0000  00 03 01 83" in text  # the host's flushing zero, then its PING
    received = b"".join(bytes.fromhex(line[22:70]) for line in text.splitlines() if line[11:13] == "RX")
    hellos = [m for m in Framer().feed(received) if isinstance(m, Hello)]
    assert hellos and hellos[0].board_id == 0x51B0A4D1


def test_loop_url_hears_only_itself_and_never_syncs():
    link = Link.open("loop://", silence_timeout=0.3, backoff=(0.05, 0.05))
    try:
        seen = wait_state(link, LinkState.DISCONNECTED)
        assert "no frame from the board" in seen[-1].reason
        assert "unknown_type" in seen[-1].reason  # it heard its own PING, a host type
        assert link.stats["unknown_type"] >= 1 and link.stats["frames"] == 0
    finally:
        link.close()
    assert link.state is LinkState.CLOSED


class SocketBoard:
    """The firmware's loop body serving one TCP client: a board behind a serial-over-IP bridge."""

    def __init__(self) -> None:
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = self.server.getsockname()[1]
        self.stopping = threading.Event()
        self.pins = VirtualPins(8, 8)
        for cell in (0, 7, 56, 63):
            self.pins.readings[cell] = 1
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self) -> None:
        self.server.settimeout(WAIT)
        conn, _ = self.server.accept()
        conn.setblocking(False)

        class Port:
            def read(self):
                try:
                    return conn.recv(4096)
                except BlockingIOError:
                    return b""

            def write(self, data):
                conn.sendall(data)

        t0 = time.monotonic()
        try:
            app = FirmwareApp.boot(self.pins.matrix, Port(), 0, debounce_ms=5, heartbeat_ms=100)
            while not self.stopping.wait(0.002):
                app.step(int((time.monotonic() - t0) * 1000))
        except (BrokenPipeError, ConnectionResetError):
            pass  # the host hung up
        finally:
            conn.close()

    def close(self) -> None:
        self.stopping.set()
        self.thread.join(WAIT)
        self.server.close()


def test_socket_url_reaches_a_board_behind_a_tcp_bridge():
    board = SocketBoard()
    link = Link.open(f"socket://127.0.0.1:{board.port}")
    try:
        assert link.wait_connected(WAIT)
        assert link.hello.cells == 64
        assert [c for c, on in enumerate(link.occupancy()) if on] == [0, 7, 56, 63]
        board.pins.readings[7] = 0
        event = link.events.get(timeout=WAIT)
        assert (event.cell, event.action, event.synthetic) == (7, "lift", False)
    finally:
        link.close()
        board.close()


def test_absent_device_is_retried_quietly_until_it_appears(tmp_path):
    path = str(tmp_path / "chessery-board")
    handler = CountingHandler("cannot open", 4)
    logger = logging.getLogger("firmware_bridge.link")
    logger.addHandler(handler)
    old_level = logger.level
    logger.setLevel(logging.DEBUG)
    link = Link.open(path, backoff=(0.01, 0.05))
    try:
        first = link.states.get(timeout=WAIT)
        assert (first.previous, first.state) == (LinkState.IDLE, LinkState.DISCONNECTED)
        assert "cannot open" in first.reason
        assert handler.reached.wait(WAIT)  # at least four failed attempts
        warnings = [r for r in handler.records if r.levelno >= logging.WARNING]
        assert len(warnings) == 1 and "reconnecting with back-off" in warnings[0].getMessage()
        with SimBoard("chess", link_path=path) as board:
            assert link.wait_connected(WAIT)
            assert link.occupancy() == board.occupancy()
            assert any("back after" in r.getMessage() for r in handler.records)
    finally:
        link.close()
        logger.removeHandler(handler)
        logger.setLevel(old_level)


def test_bad_url_closes_the_link_with_a_reason():
    link = Link.open("nosuchscheme://x")
    seen = wait_state(link, LinkState.CLOSED)
    assert "bad port URL" in seen[-1].reason
    link.close()


# -- a hand-driven board: exact control of lost frames ------------------------------------------------------


def test_a_lost_event_is_reported_where_it_happened_before_the_events_after_it():
    board = HandBoard()
    link = Link.open(board.port.link_path, retry_interval=5.0)
    try:
        board.expect(RequestSnapshot)
        board.send(Hello(1, 64, 0, (1, 0, 0), 0xAAAA, 250, 5, 20))
        board.send(board.snapshot())
        assert link.wait_connected(WAIT)
        model = Model(link.occupancy())
        board.send(Event(12, P.ACTION_LIFT, 0, 100))  # lift e2
        board.states[12] = 0
        board.states[28] = 1  # place e4: this frame is lost
        board.send(Event(52, P.ACTION_LIFT, 0, 300), skip=1)  # lift e7: a sequence gap
        board.states[52] = 0
        board.send(Event(28, P.ACTION_LIFT, 0, 320))  # lift e4: does not fit the link's model (e4 empty)
        board.states[28] = 0
        board.expect(RequestSnapshot)
        board.send(Heartbeat(400, 0xAAAA))
        board.send(board.snapshot())
        collect(link, model, lambda m: len(m.events) == 4)
        # The lost place comes first, from the snapshot; then the held events in their order, so
        # the controller also learns that e4 was lifted again.
        assert [(e.cell, e.action, e.synthetic) for e in model.events] == [
            (12, "lift", False), (28, "place", True), (52, "lift", False), (28, "lift", False)]
        assert link.stats["gaps"] == 1 and link.stats["inconsistent"] == 0
        assert [c for c, on in enumerate(link.occupancy()) if on] == [6]

        # An event that does not fit, without a gap, is also taken as a sign of a lost frame
        # (here: a place e5 that never arrived); a repeated report that cannot be explained
        # even with the snapshot is dropped and counted.
        board.states[36] = 0
        board.send(Event(36, P.ACTION_LIFT, 0, 500))
        board.send(Event(36, P.ACTION_LIFT, 0, 501))
        board.expect(RequestSnapshot)
        board.send(board.snapshot())
        collect(link, model, lambda m: len(m.events) == 6)
        assert [(e.cell, e.action, e.synthetic) for e in model.events[4:]] == [(36, "place", True),
                                                                              (36, "lift", False)]
        assert link.stats["inconsistent"] == 1
        assert link.occupancy() == tuple(bool(s) for s in board.states)
    finally:
        link.close()
        board.port.close()


def test_unplugged_cable_raises_a_read_error_not_a_hang():
    board = HandBoard()
    link = Link.open(board.port.link_path, silence_timeout=30.0, backoff=(0.02, 0.05))
    try:
        board.expect(RequestSnapshot)
        board.send(Hello(1, 64, 0, (1, 0, 0), 0xAAAA, 250, 5, 20))
        board.send(board.snapshot())
        assert link.wait_connected(WAIT)
        board.port.unplug()
        seen = wait_state(link, LinkState.DISCONNECTED)
        assert "lost" in seen[-1].reason  # the read failed at once: no 30 s silence wait
        assert not os.path.lexists(board.port.link_path)
    finally:
        link.close()
        board.port.close()


def test_drained_marks_when_everything_read_so_far_is_queued(rig):
    """``drained`` (time, events.puts): every byte that reached the port before that time has
    been read and its events queued -- what the service waits for after a host stall."""
    board, link, model = rig()
    before = time.monotonic()
    board.play(GAME, timeout=WAIT)
    collect(link, model, lambda m: len(m.events) == len(expected(GAME)))
    deadline = time.monotonic() + WAIT
    while True:  # the reader marks it each time it finds nothing more waiting
        drained = link.drained
        if drained is not None and drained[0] > before and drained[1] == link.events.puts:
            break
        assert time.monotonic() < deadline, (drained, link.events.puts)
        link.ping(WAIT)  # (a reply wakes the reader: no sleeping here)
    assert link.events.puts >= len(expected(GAME))
