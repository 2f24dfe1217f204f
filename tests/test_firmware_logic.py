"""The firmware's portable logic under CPython, against a virtual sensor matrix: scanning
through the multiplexer pin layer, debouncing, the board core's frames and answers, lights."""

from __future__ import annotations

import pytest

from firmware_bridge.codec import encode
from firmware_bridge.firmware import protocol as P
from firmware_bridge.firmware.app import FirmwareApp
from firmware_bridge.firmware.core import BoardCore
from firmware_bridge.firmware.debounce import Debouncer
from firmware_bridge.firmware.leds import Leds
from firmware_bridge.firmware.matrix import Matrix, MatrixError, VirtualPins
from firmware_bridge.framer import Framer
from firmware_bridge.messages import (
    Error,
    Event,
    Heartbeat,
    Hello,
    Ping,
    RequestSnapshot,
    SetLeds,
    SetParams,
    Snapshot,
)

# -- matrix ----------------------------------------------------------------------------------------


class RecordingPins:
    """Pins that remember the multiplexer selections, to check the scan order."""

    def __init__(self, readings: dict[tuple[int, int, int], int]) -> None:
        self.readings = readings
        self.calls: list[tuple] = []
        self.current = (0, 0)

    def row(self, board, row):
        self.calls.append(("row", board, row))
        self.current = (board, row)

    def col(self, board, col):
        self.calls.append(("col", board, col))
        return self.readings.get((board, self.current[1], col), 0)


def test_a_13x13_matrix_scans_169_cells_row_by_row():
    pins = RecordingPins({(0, 0, 0): 1, (0, 12, 12): 1, (0, 6, 3): 1})
    matrix = Matrix(pins, 13, 13)
    readings = matrix.scan()
    assert matrix.cells == 169 and len(readings) == 169
    assert [c for c in range(169) if readings[c]] == [0, 6 * 13 + 3, 168]
    assert pins.calls[:3] == [("row", 0, 0), ("col", 0, 0), ("col", 0, 1)]
    assert sum(1 for c in pins.calls if c[0] == "row") == 13


def test_two_8x8_matrices_with_a_cell_map():
    # Board B's positions come first in the numbering, to prove the map is followed.
    cell_map = list(range(64, 128)) + list(range(64))
    pins = RecordingPins({(0, 0, 0): 1, (1, 7, 7): 1})
    matrix = Matrix(pins, 8, 8, boards=2, cell_map=cell_map)
    readings = matrix.scan()
    assert matrix.cells == 128
    assert [c for c in range(128) if readings[c]] == [63, 64]
    assert ("row", 1, 7) in pins.calls


@pytest.mark.parametrize(("args", "message"), [
    ((17, 8), "rows and cols 1..16"),
    ((8, 8, 3), "boards 1..2"),
    ((8, 8, 1, [0] * 64), "once each"),
    ((8, 8, 1, [0, 1]), "2 entries for 64 positions"),
    ((16, 16, 2), "n <= 256"),
])
def test_bad_matrix_configurations_are_refused(args, message):
    with pytest.raises(MatrixError, match=message):
        Matrix(RecordingPins({}), *args)


def test_holes_in_a_matrix_are_skipped():
    pins = VirtualPins(7, 7, cells=47)  # Dream Chess 47 on a 7 x 7 matrix with two unused positions
    assert pins.matrix.cells == 47
    pins.readings[46] = 1
    assert pins.matrix.scan()[46] == 1


# -- debouncing ----------------------------------------------------------------------------------------


def test_chatter_shorter_than_the_debounce_time_is_never_reported():
    d = Debouncer(bytes([1, 0]), debounce_ms=20)
    for now, reading in [(0, 0), (5, 1), (10, 0), (15, 1), (22, 1), (30, 0), (39, 1)]:
        assert d.update(bytes([reading, 0]), now) == []
    assert d.state == bytearray([1, 0])


def test_a_stable_change_is_reported_once_with_the_time_it_was_first_seen():
    d = Debouncer(bytes([1, 0]), debounce_ms=20)
    assert d.update(bytes([0, 0]), 100) == []
    assert d.update(bytes([0, 0]), 110) == []
    assert d.update(bytes([0, 0]), 120) == [(0, 1, 0, 100)]
    assert d.update(bytes([0, 0]), 130) == []
    # Two cells settling in one scan come out in cell order.
    d.update(bytes([1, 1]), 200)
    assert d.update(bytes([1, 1]), 220) == [(0, 0, 1, 200), (1, 0, 1, 200)]


def test_a_piece_swapped_for_another_is_one_change_of_value():
    d = Debouncer(bytes([0x50]), debounce_ms=0)
    assert d.update(bytes([0x4E]), 5) == [(0, 0x50, 0x4E, 5)]


# -- lights --------------------------------------------------------------------------------------------


def test_light_patterns_follow_the_board_clock():
    leds = Leds(4)
    leds.set([0], P.LED_ON, True)
    leds.set([1], P.LED_BLINK, False)
    leds.set([2], P.LED_FAST, False)
    assert list(leds.levels(0)) == [1, 1, 1, 0]
    assert list(leds.levels(130)) == [1, 1, 0, 0]
    assert list(leds.levels(600)) == [1, 0, 1, 0]
    leds.set([3], P.LED_ON, True)  # replace: everything else off
    assert list(leds.levels(0)) == [0, 0, 0, 1]


# -- the board core ---------------------------------------------------------------------------------------------


class Host:
    """The host's view of a core: feeds host messages in, decodes what comes out."""

    def __init__(self, core: BoardCore) -> None:
        self.core = core
        self.framer = Framer()
        self.seq = 100

    def send(self, message, now: int = 0) -> list:
        self.core.receive(encode(message), now)
        return self.take()

    def take(self) -> list:
        return self.framer.feed(self.core.take_output())


def make_core(**options) -> tuple[BoardCore, Host]:
    readings = bytearray(64)
    readings[12] = readings[52] = 1
    core = BoardCore(64, initial=readings, boot_id=0xBEEF, board_id=7, debounce_ms=20, heartbeat_ms=250, **options)
    return core, Host(core)


def test_boot_sends_a_flushing_zero_then_hello_with_seq_0():
    core, host = make_core()
    core.boot(0)
    raw = bytes(core.out)
    assert raw[0] == 0
    (hello,) = host.take()
    assert hello == Hello(7, 64, P.CAP_LEDS, (1, 0, 0), 0xBEEF, 250, 5, 20, token=0, seq=0)


def test_events_carry_consecutive_seq_and_snapshot_matches_what_was_reported():
    core, host = make_core()
    core.boot(0)
    host.take()
    readings = bytearray(core.debouncer.state)
    readings[12] = 0  # lift e2
    core.scan(readings, 100)
    readings[28] = 1  # place e4, not yet stable at the snapshot
    core.scan(readings, 120)
    (lift,) = host.take()
    assert lift == Event(12, P.ACTION_LIFT, 0, 100, seq=1)
    (snap,) = host.send(RequestSnapshot(), 125)
    assert snap.seq == 2 and not snap.identity
    assert [c for c in range(64) if snap.states[c]] == [52]  # e4 not reported yet: not in the snapshot
    core.scan(readings, 140)
    assert host.take() == [Event(28, P.ACTION_PLACE, 0, 120, seq=3)]


def test_identity_board_reports_pieces_and_a_swap_as_lift_then_place():
    readings = bytearray(64)
    readings[12] = ord("P")
    core = BoardCore(64, initial=readings, identity=True, debounce_ms=0)
    host = Host(core)
    readings[12] = ord("Q")
    core.scan(readings, 10)
    assert host.take() == [Event(12, P.ACTION_LIFT, ord("P"), 10, seq=0),
                           Event(12, P.ACTION_PLACE, ord("Q"), 10, seq=1)]
    (snap,) = host.send(RequestSnapshot(), 11)
    assert snap.identity and snap.states[12] == ord("Q")


def test_heartbeat_only_after_a_quiet_heartbeat_interval():
    core, host = make_core()
    core.boot(0)
    host.take()
    core.tick(249)
    assert host.take() == []
    core.tick(250)
    assert host.take() == [Heartbeat(250, 0xBEEF, seq=1)]
    core.tick(499)
    assert host.take() == []


def test_ping_is_answered_by_hello_with_the_token():
    _core, host = make_core()
    (hello,) = host.send(Ping(0x4242))
    assert isinstance(hello, Hello) and hello.token == 0x4242


def test_set_leds_and_its_refusal():
    core, host = make_core()
    assert host.send(SetLeds(P.LED_BLINK, (12, 28), True, seq=5)) == []
    assert core.leds.patterns[12] == core.leds.patterns[28] == P.LED_BLINK
    assert host.send(SetLeds(P.LED_ON, (64,), True, seq=6)) == [Error(P.ERR_BAD_PAYLOAD, 6, seq=0)]
    assert host.send(SetLeds(9, (1,), True, seq=7)) == [Error(P.ERR_BAD_PAYLOAD, 7, seq=1)]
    assert core.leds.patterns[12] == P.LED_BLINK  # a refused command changes nothing


def test_set_params_applies_all_or_nothing_and_answers_with_hello():
    core, host = make_core()
    (hello,) = host.send(SetParams(P.KEEP, 0, 1000))
    assert (hello.scan_ms, hello.debounce_ms, hello.heartbeat_ms) == (5, 0, 1000)
    assert core.debouncer.debounce_ms == 0
    assert host.send(SetParams(7, 50, 10, seq=9)) == [Error(P.ERR_BAD_PAYLOAD, 9, seq=1)]
    assert (core.scan_ms, core.debounce_ms, core.heartbeat_ms) == (5, 0, 1000)


def test_bad_host_frames_are_answered_with_their_error_class():
    core, host = make_core()
    good = encode(Ping(1, seq=3))
    corrupt = P.cobs_encode(P.cobs_decode(good[:-1])[:-1] + b"\x00") + b"\x00"
    wrong_version = P.encode_frame(P.PING, 4, b"\x00\x01", version=9)
    board_type = P.encode_frame(P.EVENT, 5, bytes(7))
    core.receive(corrupt + wrong_version + board_type, 0)
    assert host.take() == [Error(P.ERR_BAD_CRC, P.NO_SEQ, seq=0), Error(P.ERR_WRONG_VERSION, 4, seq=1),
                           Error(P.ERR_UNKNOWN_TYPE, 5, seq=2)]


def test_output_overflow_drops_events_then_reports_overflow():
    core, host = make_core(max_output=40)
    readings = bytearray(core.debouncer.state)
    for cell in range(20, 30):
        readings[cell] = 1
    core.debouncer.debounce_ms = 0
    events = core.scan(readings, 10)
    assert len(events) == 10
    sent = host.take()
    assert 0 < len(sent) < 10  # the rest did not fit
    core.scan(readings, 20)
    assert host.take() == [Error(P.ERR_OVERFLOW, P.NO_SEQ, seq=len(sent))]


# -- the loop body ------------------------------------------------------------------------------------------


class ListPort:
    def __init__(self) -> None:
        self.inbox = bytearray()
        self.sent = bytearray()

    def read(self):
        data, self.inbox = bytes(self.inbox), bytearray()
        return data

    def write(self, data):
        self.sent.extend(data)


class Lights:
    def __init__(self) -> None:
        self.shown: list[bytes] = []

    def show(self, levels):
        self.shown.append(bytes(levels))


def test_app_boots_from_the_matrix_scans_on_its_period_and_drives_lights() -> None:
    pins = VirtualPins(8, 8)
    pins.readings[0] = 1
    port, lights = ListPort(), Lights()
    app = FirmwareApp.boot(pins.matrix, port, 0, lights, debounce_ms=10, scan_ms=5)
    host = Framer()
    (hello,) = host.feed(bytes(port.sent))
    assert isinstance(hello, Hello) and hello.cells == 64 and hello.scan_ms == 5
    port.sent.clear()
    pins.readings[0] = 0
    port.inbox += encode(SetLeds(P.LED_ON, (3,)))
    for now in range(0, 20):
        app.step(now)
    assert host.feed(bytes(port.sent)) == [Event(0, P.ACTION_LIFT, 0, 0, seq=1)]
    assert lights.shown[-1][3] == 1 and sum(lights.shown[-1]) == 1
    port.inbox += encode(RequestSnapshot())
    port.sent.clear()
    app.step(21)
    (snap,) = host.feed(bytes(port.sent))
    assert isinstance(snap, Snapshot) and not any(snap.states)


# -- the points docs/protocol.md makes normative ------------------------------------------------------------


def test_ping_with_token_0_is_answered_by_a_hello_with_token_0():
    _core, host = make_core()
    (hello,) = host.send(Ping(0))
    assert isinstance(hello, Hello) and hello.token == 0


def test_set_leds_with_a_reserved_flag_bit_is_refused_whole():
    core, host = make_core()
    body = P.pack_set_leds((12,), P.LED_ON, P.LEDS_REPLACE | 0x04)
    core.receive(P.encode_frame(P.SET_LEDS, 8, body), 0)
    assert host.take() == [Error(P.ERR_BAD_PAYLOAD, 8, seq=0)]
    assert core.leds.patterns[12] == P.LED_OFF


def test_a_board_without_lights_accepts_valid_set_leds_and_checks_them_the_same():
    _core, host = make_core(leds=False)
    assert host.send(SetLeds(P.LED_BLINK, (12,), True, seq=5)) == []
    assert host.send(SetLeds(P.LED_ON, (64,), True, seq=6)) == [Error(P.ERR_BAD_PAYLOAD, 6, seq=0)]
    (hello,) = host.send(Ping(1))
    assert not hello.leds


class ClosedPort(ListPort):
    """A port nobody holds: it takes no byte until ``open``."""

    def __init__(self) -> None:
        super().__init__()
        self.open = False

    def write(self, data):
        if not self.open:
            return 0
        self.sent.extend(data)
        return len(data)


def test_while_no_host_reads_the_board_keeps_scanning_with_a_bounded_queue():
    pins = VirtualPins(8, 8)
    port = ClosedPort()
    app = FirmwareApp.boot(pins.matrix, port, 0, debounce_ms=0, scan_ms=1, heartbeat_ms=50, max_output=200)
    now = 0
    for cell in range(64):  # a whole board set up while no host listens, over an hour of heartbeats
        pins.readings[cell] = 1
        for _ in range(100):
            now += 1
            app.step(now)
    now += 3_600_000
    app.step(now)
    assert len(app.core.out) <= 200 + 20  # bounded: events dropped, no heartbeat piles up
    port.open = True
    for _ in range(3):
        now += 1
        app.step(now)
    messages = Framer().feed(bytes(port.sent))
    seqs = [m.seq for m in messages]
    assert seqs == list(range(seqs[0], seqs[0] + len(seqs)))  # no gap: dropped events used no number
    assert isinstance(messages[0], Hello)  # what waited went out first, in order
    assert any(isinstance(m, Error) and m.code == P.ERR_OVERFLOW for m in messages)
    port.inbox += encode(RequestSnapshot())
    now += 1
    app.step(now)
    (snap,) = [m for m in Framer().feed(bytes(port.sent)) if isinstance(m, Snapshot)]
    assert all(snap.states)  # the snapshot has every piece, dropped events or not
