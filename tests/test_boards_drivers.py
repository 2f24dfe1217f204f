"""The DGT and Millennium drivers against the board emulators on real pseudo-terminals: the link
interface the controller reads, lights only where a board has announced them, a board turned
round, and the dump that corrects what field updates got wrong."""

from __future__ import annotations

import math
import os
import queue
import random
from collections.abc import Iterator

import pytest

from controller.config import ConfigError, parse_config
from controller.core_types import StatusKind
from controller.status import link_status
from firmware_bridge.board_link import BoardLink
from firmware_bridge.boards import BOARD_KINDS, open_board
from firmware_bridge.boards.dgt import DgtDriver
from firmware_bridge.boards.dgt_scan import SPREAD_MS
from firmware_bridge.boards.driver import BoardDriver
from firmware_bridge.boards.emulators import DgtEmulator, MillenniumEmulator
from firmware_bridge.boards.millennium import MillenniumDriver
from firmware_bridge.events import LinkState, LinkStatus, SensorEvent
from firmware_bridge.link import Link

TIMEOUT = 10.0


def events_until(link: BoardDriver, count: int) -> list[SensorEvent]:
    out: list[SensorEvent] = []
    while len(out) < count:
        item = link.events.get(timeout=TIMEOUT)
        if isinstance(item, SensorEvent):
            out.append(item)
    return out


def drain(link: BoardDriver) -> list[SensorEvent]:
    out: list[SensorEvent] = []
    while True:
        try:
            item = link.events.get_nowait()
        except queue.Empty:
            return out
        if isinstance(item, SensorEvent):
            out.append(item)


def driver_for(kind: str, url: str, **options) -> BoardDriver:
    """``open_board``'s link for a DGT or Millennium board, as the driver it is."""
    link = open_board(kind, url, **options)
    assert isinstance(link, BoardDriver)
    return link


@pytest.fixture
def dgt() -> Iterator[tuple[DgtEmulator, BoardDriver]]:
    board = DgtEmulator("chess").start()
    link: BoardDriver = driver_for("dgt", board.path, states_in_events=True).start()
    assert link.wait_connected(TIMEOUT)
    yield board, link
    link.close()
    board.stop()


def test_open_board_picks_the_driver_and_rejects_unknown_kinds() -> None:
    assert isinstance(open_board("chessery", "loop://"), Link)
    assert isinstance(open_board("dgt", "loop://"), DgtDriver)
    # every kind implements the one declared interface, and nothing of it is left abstract
    assert all(isinstance(open_board(kind, "loop://"), BoardLink) for kind in BOARD_KINDS)
    assert BoardLink.__abstractmethods__ >= {"request_snapshot", "ping", "set_leds", "occupancy", "pieces"}
    with pytest.raises(ValueError, match="unknown board kind 'novag'"):
        open_board("novag", "loop://")


def test_config_key_board() -> None:
    assert parse_config({"board": "millennium"}).board == "millennium"
    assert parse_config({}).board == "chessery"
    with pytest.raises(ConfigError, match="board: expected one of chessery, dgt, millennium"):
        parse_config({"board": "novag"})


def test_dgt_connects_with_the_start_position_and_identity(dgt) -> None:
    _board, link = dgt
    status = next(s for s in iter(link.events.get, None) if isinstance(s, LinkStatus)
                  and s.state is LinkState.CONNECTED)
    assert status.pieces is not None and status.pieces[:8] == tuple("RNBQKBNR") and status.pieces[60] == "k"
    assert link.hello is not None and link.hello.identity and not link.hello.lights
    assert link.hello.board_id == 12345 and link.hello.firmware == "3.01"  # DGT writes 3 and 1 as 3.01
    # It declares its slow scan (the referee's timing follows it); `chessery status` can read it.
    assert link.hello.scan_ms == 250 and link_status(link)["state"] == "connected"
    assert link.ping(TIMEOUT) > 0  # the board answers its cheapest question


def test_chessery_status_reads_a_maker_board(dgt, tmp_path) -> None:
    """The status file's entry for a DGT board: its own firmware text, no boot id (these boards
    say nothing of their boots); it used to stop the status thread."""
    from controller.status import link_status

    _board, link = dgt
    entry = link_status(link)
    assert (entry["state"], entry["firmware"], entry["boot_id"], entry["board_id"]) == ("connected", "3.01", None,
                                                                                         f"{12345:08x}")
    # The line a person reads, from the file as written: the version the emulator replied (3, 1)
    # reads 3.01 as DGT writes it (it once read 3...1, the text joined letter by letter like our
    # firmware's numbers).
    from controller.status import format_status, read_status, write_status

    path = tmp_path / "status.json"
    write_status(path, {"pid": os.getpid(), "running": True, "updated": 0.0, "boards": [entry]})
    lines = format_status(read_status(path), now=0.0)
    assert any("firmware 3.01," in line for line in lines), lines


def test_dgt_field_updates_become_events_in_scan_order(dgt) -> None:
    board, link = dgt
    drain(link)
    board.play("lift e2\nplace e4\nsleep 400", timeout=TIMEOUT)
    events = events_until(link, 2)
    # one scan saw both changes; the scan reaches e4 (a8 side first) before e2
    assert [str(e) for e in events] == ["place 28 P", "lift 12"]
    assert link.pieces()[28] == "P" and link.pieces()[12] is None


def test_dgt_never_sends_lights_to_a_board_without_them(dgt) -> None:
    board, link = dgt
    link.set_leds([12, 28], "blink")
    link.ping(TIMEOUT)  # everything sent before the ping has been read by the board
    assert board.led_commands == 0


def test_dgt_revelation_ii_gets_its_lights() -> None:
    with DgtEmulator("chess", revelation=True) as board:
        link = driver_for("dgt", board.path).start()
        try:
            assert link.wait_connected(TIMEOUT)
            assert link.hello is not None and link.hello.lights
            link.set_leds([12, 28], "on")
            link.ping(TIMEOUT)
            assert board.lit == {52, 36}  # e2, e4 as wired
            link.set_leds([], "off")
            link.ping(TIMEOUT)
            assert board.lit == set()
        finally:
            link.close()


def test_millennium_lights_the_corners_of_a_square() -> None:
    with MillenniumEmulator("chess") as board:
        link = driver_for("millennium", board.path).start()
        assert isinstance(link, MillenniumDriver)
        try:
            assert link.wait_connected(TIMEOUT)
            assert link.hello is not None and link.hello.lights
            # Every change reported by the scan that sees it, 41 ms scans; the referee's drag
            # wait follows them: a quick drag's rest (150 ms), one scan and a margin.
            assert board.settings[0x02] == 3 and board.settings[0x01] == 20
            assert link.hello.drag_ms == 201
            link.set_leds([0], "blink")  # a1: wire square 56, corners at LEDs 8, 9, 17, 18 (1-based 9, 10, 18, 19)
            link.ping(TIMEOUT)
            # What the board had before (its defaults: every scan reported) was read first, and
            # answered before the ping (the board answers in order).
            assert link.found_settings == {0x01: 20, 0x02: 0}
            lit = [i for i, p in enumerate(board.led_patterns) if p]
            assert lit == [7, 8, 16, 17] and board.led_patterns[8] == 0xF0
            link.set_leds([], "off")
            link.ping(TIMEOUT)
            assert not any(board.led_patterns)
        finally:
            link.close()


@pytest.mark.parametrize("emulator", [DgtEmulator, MillenniumEmulator])
def test_a_board_turned_round_is_read_the_right_way(emulator) -> None:
    with emulator("chess", turned=True) as board:
        assert board.pieces()[0] == "R"  # as wired, the white rook stands on "a8"
        link = driver_for(emulator.protocol, board.path).start()
        try:
            assert link.wait_connected(TIMEOUT)
            assert link.flipped is True
            assert link.pieces()[:8] == tuple("RNBQKBNR") and link.pieces()[56:] == tuple("rnbqkbnr")
            board.play("lift g1\nplace f3", timeout=TIMEOUT)
            events = events_until(link, 2)
            assert sorted(str(e) for e in events) == ["lift 6", "place 21 N"]
        finally:
            link.close()


def test_dgt_a_damaged_field_update_is_corrected_by_the_dump() -> None:
    """The board's update for d2 is lost (cut short); the dump after the quiet period tells it."""
    with DgtEmulator("chess", faults="corrupt@1") as board:
        link = driver_for("dgt", board.path, states_in_events=True).start()
        try:
            assert link.wait_connected(TIMEOUT)
            drain(link)
            board.play("lift d2\nsleep 300", timeout=TIMEOUT)
            (event,) = events_until(link, 1)
            assert str(event) == "lift 11 (synthetic)"
            assert link.stats["cut"] == 1 and link.stats["corrections"] == 1
        finally:
            link.close()


def test_millennium_garbage_and_a_bad_check_cost_nothing() -> None:
    with MillenniumEmulator("chess", faults="garbage=30@1,corrupt@2") as board:
        link = driver_for("millennium", board.path).start()
        try:
            assert link.wait_connected(TIMEOUT)
            board.play("lift d2\nsleep 200\nplace d4\nsleep 300", timeout=TIMEOUT)
            events = events_until(link, 2)
            assert [e.cell for e in events] == [11, 27] and events[1].piece == "P"
            assert link.stats["bad_check"] >= 1
        finally:
            link.close()


def test_the_service_guides_with_the_millennium_lights(tmp_path) -> None:
    """The service in this process on an emulated Millennium board: after e2e4 the corners of e2
    and e4 light steadily (the last move); a wrong move blinks the cells to put right."""
    import engine
    from controller.board_map import SensorMap
    from controller.config import Config, GpioConfig
    from controller.inference import Status
    from controller.service import Service
    from controller.store import GameStore
    from firmware_bridge.boards import millennium_codec as M

    chess = engine.find_variant("chess")
    board = MillenniumEmulator("chess").start()
    store = GameStore(tmp_path / "games.sqlite3")
    config = Config(port=(board.path,), board="millennium", gpio=GpioConfig(enabled=False))
    service = Service(config, chess, store, SensorMap(chess), print_moves=False)
    shown: queue.Queue[Status] = queue.Queue()

    def on_show(status: object) -> None:
        assert isinstance(status, Status)
        shown.put(status)

    service.on_show = on_show

    def wait_for(kind: StatusKind, text: str = "") -> None:
        while True:
            status = shown.get(timeout=TIMEOUT)
            if status.kind == kind and text in status.message:
                return

    def lit() -> dict[int, int]:
        service.links[0].ping(TIMEOUT)  # the lights were sent before the status was shown
        return {i: p for i, p in enumerate(board.led_patterns) if p}

    def corners(*squares: int) -> set[int]:
        return {led for s in squares for led in M.corner_leds(s)}

    try:
        service.start()
        board.play("lift e2\nplace e4\nsleep 200", timeout=TIMEOUT)
        wait_for(StatusKind.IDLE, "White played e2e4")
        leds = lit()
        assert set(leds) == corners(52, 36) and set(leds.values()) == {0xFF}  # e2, e4 steady
        board.play("lift d7\nplace d4\nsleep 200", timeout=TIMEOUT)
        wait_for(StatusKind.FIX)
        leds = lit()
        assert set(leds) == corners(11, 35) and set(leds.values()) == {0xF0}  # d7, d4 blink
    finally:
        service.stop()
        board.stop()
        store.close()


def test_sim_board_protocol_command_line(tmp_path) -> None:
    """``chessery sim-board --protocol``: the path first, ``done`` at the end; a script that
    cannot be played is one line on stderr and status 2, before any path."""
    import subprocess
    import sys
    from pathlib import Path

    repo = Path(__file__).resolve().parent.parent
    script = tmp_path / "moves.txt"
    script.write_text("lift e2\nplace e4\n", encoding="utf-8")
    base = [sys.executable, "-m", "controller.cli", "sim-board", "--variant", "chess", "--script", str(script)]
    done = subprocess.run([*base, "--protocol", "dgt", "--no-wait", "--linger", "0"], cwd=repo,
                          capture_output=True, text=True, timeout=30)
    lines = done.stdout.splitlines()
    assert done.returncode == 0 and len(lines) == 2 and lines[0].endswith("/board") and lines[1] == "done"
    script.write_text("lift e4\n", encoding="utf-8")
    bad = subprocess.run([*base, "--protocol", "millennium"], cwd=repo, capture_output=True, text=True, timeout=30)
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.strip() == f"chessery sim-board: {script}:1: lift e4: the square is empty"


@pytest.mark.parametrize("emulator", [DgtEmulator, MillenniumEmulator])
def test_a_silent_board_is_reconnected_and_the_moves_made_meanwhile_arrive(emulator) -> None:
    """The board stops answering for 1.5 s just as e2 is lifted; the driver's liveness poll
    notices after its silence limit (1 s here), reconnects, and the full report then tells
    what happened meanwhile."""
    with emulator("chess", faults="pause=1500@1") as board:
        link = driver_for(emulator.protocol, board.path, states_in_events=True, silence_timeout=1.0).start()
        try:
            assert link.wait_connected(TIMEOUT)
            board.play("lift e2\nplace e4", timeout=TIMEOUT)
            states: list[LinkState] = []
            events: list[SensorEvent] = []
            # The report after the reconnect may be read before the board's answer that
            # completes the session, so "connected" can come just after the two events.
            while len(events) < 2 or not states or states[-1] is not LinkState.CONNECTED:
                item = link.events.get(timeout=TIMEOUT)
                if isinstance(item, LinkStatus):
                    states.append(item.state)
                elif isinstance(item, SensorEvent):
                    events.append(item)
            assert LinkState.DISCONNECTED in states and states[-1] is LinkState.CONNECTED
            # DGT: the board scans again after its pause and reports the changes itself
            assert sorted(f"{e.action} {e.cell} {e.piece}" for e in events) == ["lift 12 P", "place 28 P"]
            assert link.stats["silences"] == 1
        finally:
            link.close()


def test_run_rejects_an_unknown_board_kind_in_one_line(capsys) -> None:
    from controller.cli import main

    with pytest.raises(SystemExit) as stop:
        main(["run", "--board", "novag", "--port", "loop://"])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--board: invalid choice: 'novag'" in err


def test_scan_period_measures_from_pairs_of_field_updates() -> None:
    from firmware_bridge.boards.dgt_scan import ScanPeriod, _period

    assert _period(220, 0) == 220  # the same square on the next visit: one scan
    assert _period(330, 32) == 220  # half a scan on, then a whole one
    assert _period(660, 0) == 220  # three scans: 330 (two) and 165 (four) are out of range
    assert _period(110, 32) is None  # half a scan: a few ms of jitter would be a large error
    assert _period(885, 32) is None  # 3.5 scans of 253 or 4.5 of 197: no telling
    assert ScanPeriod().ms == 250  # nothing measured: the slowest DGT scan
    for period in (205, 221, 300, 450):
        scan = ScanPeriod()
        declared = []
        for t, square in board_updates(period, 60):
            scan.observe(square, t)
            declared.append(scan.ms)
        if period < 250:  # learnt within a few updates, a little above the board's own
            assert scan.measures >= 8 and period <= scan.ms <= period + 4 and period <= declared[10] <= period + 4
        else:  # a board slower than any DGT board is never taken for a faster one
            assert set(declared) == {250}


def board_updates(period: float, n: int) -> list[tuple[float, int]]:
    """When a board scanning every ``period`` ms reports changes the hands make at random
    moments on random squares (at the square's next visit, 5-8 ms on the line)."""
    rng = random.Random(period)
    t = 0.0
    out = []
    for _ in range(n):
        t += rng.uniform(30, 700)
        square = rng.randrange(64)
        visit = t - t % period + square / 64 * period
        out.append((visit + (period if visit < t else 0) + rng.uniform(5, 8), square))
    return sorted(out)


def test_dgt_declares_the_scan_its_field_updates_show() -> None:
    """A board scanning every 205 ms: the driver starts at the slowest DGT scan (250 ms) and
    declares what it measures from when the field updates arrive. How well a run of arrival
    times tells a board's period is ``test_scan_period_measures_from_pairs_of_field_updates``'s
    (times made up, no threads); here the times are real, and on a loaded machine arrivals come
    late by the scheduler's whim (the emulator's and the driver's threads wait for a core). The
    estimate then errs long, up to the slowest scan, never short: a piece is never trusted
    before the board has been round. So what must hold at any load: the hello declares the
    driver's estimate, measured from these updates, never shorter than the board's period; and
    an estimate the driver takes from its measures (below the slowest) is one their spread
    allows (``dgt_scan.SPREAD_MS``): within that of the board's own."""
    scan = 205
    with DgtEmulator("chess", scan_ms=scan) as board:
        link = driver_for("dgt", board.path).start()
        try:
            assert link.wait_connected(TIMEOUT)
            assert link.hello is not None and link.hello.scan_ms == 250
            moves = [("e2", "e4"), ("e7", "e5"), ("g1", "f3"), ("b8", "c6"), ("f1", "c4"), ("g8", "f6"),
                     ("d2", "d3"), ("f8", "c5")]
            board.play("".join(f"lift {a}\nplace {b}\nsleep 260\n" for a, b in moves), timeout=TIMEOUT)
            events_until(link, 2 * len(moves))
            assert link.stats["field_updates"] == 2 * len(moves)
            assert link.hello is not None and isinstance(link, DgtDriver)
            declared = link.hello.scan_ms
            assert declared == link.scan_ms and link.scan.measures > 0
            assert scan <= declared <= 250
            if declared < 250:
                assert declared <= scan + math.ceil(SPREAD_MS), declared
        finally:
            link.close()
