"""Hardware in the loop: the simulated board (the reference firmware's code behind a real pty)
plays whole games into ``chessery run --headless`` running as its own process; what the
service records must equal the game the hands played, whatever happens on the way: bouncing
contacts, pieces dragged across squares, captures in both orders, the service killed with
SIGKILL at random moments, the cable pulled while the players go on."""

from __future__ import annotations

import queue
import random
import signal
import subprocess
import threading
from pathlib import Path

import pygame

import engine
from controller.core_types import StatusKind
from controller.event_scripts import OPERA_GAME, Style, script_for_moves
from controller.store import GameStore
from firmware_bridge.script import parse_script
from firmware_bridge.simboard import SimBoard
from tests.child import REPO, chessery_args, chessery_env
from tests.pty_games import TIMEOUT, Player, Run, latest_game, play_game, replay_stream

CHESS = engine.find_variant("chess")


def start_board(lines: list[str], **options) -> tuple[SimBoard, list]:
    board = SimBoard(CHESS, **options).start()
    commands = parse_script("\n".join(lines), CHESS)
    return board, commands


def test_whole_game_with_bounce_slides_and_captures_both_ways(tmp_path: Path) -> None:
    moves = list(OPERA_GAME)
    style = Style(capture="alternate", castle="rook", slide=True, bounce=True, think_ms=60, hand_ms=30)
    board, commands = start_board(script_for_moves(CHESS, moves, style), faults="bounce", seed=3)
    game = play_game(tmp_path, board, commands, moves)
    assert (game.record.result, game.record.termination) == ("1-0", "checkmate")
    image = pygame.image.load(str(game.frame))
    assert image.get_size() == (800, 480)
    assert game.err.count("no GPIO") == 0  # --no-gpio: not even tried
    assert "Game over: 1-0 (checkmate)" in game.err


def test_kill_9_at_random_moments_loses_no_accepted_move(tmp_path: Path) -> None:
    """An identity board (pieces read by the sensors): what was played while the service was
    down is then unambiguous, so the test needs nobody to answer questions after a restart --
    as long as it is at most one move of each side: the players never get more than two plies
    ahead of the moves the service has printed. (Three hidden plies can be two moves of one
    side in either order, and the referee rightly asks; without the limit a busy machine,
    slow to restart the service, would let the script run that far ahead.)"""
    moves = list(OPERA_GAME[:20])
    style = Style(capture="alternate", think_ms=200, hand_ms=60, identity=True)
    board = SimBoard(CHESS, identity=True).start()
    player = Player(board, script_for_moves(CHESS, moves, style))
    db, frame = tmp_path / "games.sqlite3", tmp_path / "frame.png"
    rng = random.Random(11)
    kills = 0
    base: list[str] = []
    lines: list[str] = []

    def printed() -> int:
        count = len(replay_stream(lines, base))
        player.allow(count + 2)
        return count

    run = Run(board.path, db, frame)
    try:
        assert run.next_line().startswith("frame: ")
        printed()
        while kills < 3:
            # Let a random number of moves through, then kill at a random moment after it.
            target = printed() + rng.randint(1, 4)
            while printed() < min(target, len(moves) - 1):
                lines.append(run.next_line())
            line = run.line_within(rng.uniform(0.0, 0.4))  # a random moment, maybe mid-move
            if line is not None:
                lines.append(line)
            run.proc.send_signal(signal.SIGKILL)
            run.proc.wait(timeout=10)
            kills += 1
            lines += run.rest("what it printed before it died")
            run.end()
            with GameStore(db) as store:  # every move it reported is in the file
                stored = list(latest_game(store).moves)
            assert stored[:printed()] == replay_stream(lines, base)
            base, lines = stored, []
            run = Run(board.path, db, frame)
            assert run.next_line().startswith("frame: ")
        while printed() < len(moves):
            lines.append(run.next_line())
        assert replay_stream(lines, base) == moves
        assert player.finished.wait(TIMEOUT), player.error
        assert run.stop() == 0
    finally:
        player.stop()
        run.end()
        board.stop()
    with GameStore(db) as store:
        assert list(latest_game(store).moves) == moves
        assert len(store.game_ids()) == 1  # resumed each time, never a new game


def test_cable_pulled_while_the_players_go_on(tmp_path: Path) -> None:
    """The cable comes out as white lifts the f1 bishop (the 25th lift/place of the Opera game)
    and stays out 600 ms; the players go on (6. Bc4 Nf6, no captures, so an occupancy board
    shows it all), the link reconnects with back-off, its snapshot shows the moves made
    meanwhile, and the game goes on. (Two moves: with three or more, the order of one side's
    moves can be ambiguous and the referee asks.)"""
    moves = list(OPERA_GAME[:14])
    style = Style(capture="alternate", think_ms=500, hand_ms=60)
    board, commands = start_board(script_for_moves(CHESS, moves, style), faults="unplug=600@25")
    game = play_game(tmp_path, board, commands, moves)
    assert board.boots == 2  # it really was unplugged and came back
    assert "reconnecting" in game.err and "back after" in game.err


def test_demo_without_a_port_plays_to_the_end_by_itself(tmp_path: Path) -> None:
    """``chessery run`` with no port: the built-in simulated board (its own process, a real pty)
    plays the demo game; headless, the service prints the moves and ends when the game does.
    Without GPIO on this machine it says so once and carries on."""
    db, frame = tmp_path / "games.sqlite3", tmp_path / "frame.png"
    proc = subprocess.run(
        chessery_args("run", "--headless", "--db", str(db), "--frame", str(frame),
                      "--demo-moves", "f2f3 e7e5 g2g4 d8h4"),
        cwd=REPO, env=chessery_env(GPIOZERO_PIN_FACTORY=""), capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0] == f"frame: {frame}"
    assert replay_stream(lines[1:]) == ["f2f3", "e7e5", "g2g4", "d8h4"]
    if not Path("/proc/device-tree/model").exists():
        assert proc.stderr.count("no GPIO") == 1
    assert "Game over: 0-1 (checkmate)" in proc.stderr
    assert pygame.image.load(str(frame)).get_size() == (800, 480)


def test_wrong_board_lights_the_cells_on_the_board_and_the_panel(tmp_path: Path, mock_pins) -> None:
    """The service in this process (no screen) on a simulated board with lights, gpiozero on its
    MockFactory: an illegal move blinks the two wrong cells on the board and the attention
    light on the panel; putting it right turns them off and accepts the move."""
    from controller.board_map import SensorMap
    from controller.config import Config
    from controller.inference import Status
    from controller.service import Service
    from firmware_bridge.firmware import protocol as P

    board = SimBoard(CHESS).start()
    store = GameStore(tmp_path / "games.sqlite3")
    shown: queue.Queue[Status] = queue.Queue()
    service = Service(Config(port=(board.path,)), CHESS, store, SensorMap(CHESS), print_moves=False)
    service.on_show = shown.put
    g = CHESS.geometry

    def wait_for(kind: StatusKind) -> Status:
        while True:
            status = shown.get(timeout=TIMEOUT)
            if status.kind == kind:
                return status

    try:
        service.start()
        assert service.panel is not None
        board.play(parse_script("lift e2\nplace e5\n", CHESS), timeout=TIMEOUT)
        status = wait_for(StatusKind.FIX)
        assert status.message == "Board does not match the game: e2: white pawn, e5: empty"
        service.links[0].ping(TIMEOUT)  # the lights were sent before the fix was shown; the ping follows them
        leds = board.leds()
        assert {c for c in range(64) if leds[c] == P.LED_BLINK} == {g.index("e2"), g.index("e5")}
        assert mock_pins.pin(6).state and not mock_pins.pin(5).state  # attention on, ok off
        board.play(parse_script("lift e5\nplace e4\n", CHESS), timeout=TIMEOUT)
        status = wait_for(StatusKind.IDLE)
        assert status.message.startswith("White played e2e4")
        service.links[0].ping(TIMEOUT)
        assert not any(board.leds())
        assert mock_pins.pin(5).state
        assert latest_game(store).moves == ("e2e4",)
    finally:
        service.stop()
        board.stop()
        store.close()


def test_a_busy_controller_sees_the_board_in_order_and_finishes_after_the_last_move(tmp_path: Path) -> None:
    """The controller is held in a redraw while the board connects and e2e4 is played, so the
    link's model is ahead of it: it must sync with the board as it was at connection and then
    take the move once (syncing with the live board, which already shows e4 occupied, and
    applying the move again showed "Board does not match the game"). The pawn touches e3 on its
    way, for much less than the settle time, and the board then stays still for longer than
    that before the controller gets to the events: deciding by when they are handled rather
    than when they happened would take e2e3 and then correct it. And asked to finish once the
    board is done, it stops only after the move, not before it has even seen it."""
    from controller.board_map import SensorMap
    from controller.config import Config, GpioConfig
    from controller.inference import Status, Timing
    from controller.service import Service
    from controller.session import Update

    link_path = tmp_path / "board"
    store = GameStore(tmp_path / "games.sqlite3")
    # e3 is touched for about a debounce time (10 ms): far below the settle time, whatever the load.
    config = Config(port=(str(link_path),), gpio=GpioConfig(enabled=False), timing=Timing(settle_ms=100))
    service = Service(config, CHESS, store, SensorMap(CHESS), print_moves=False)
    busy, go = threading.Event(), threading.Event()
    shown: list[Status] = []
    accepted: list[str] = []
    undone: list[str] = []

    def on_show(status: Status) -> None:
        if threading.current_thread().name == "controller":
            busy.set()
            go.wait(TIMEOUT)
            shown.append(status)

    def on_update(update: Update) -> None:
        accepted.extend(update.accepted)
        undone.extend(update.undone)

    service.on_show = on_show
    service.on_update = on_update
    board = SimBoard(CHESS, link_path=str(link_path))  # not started: no port yet
    try:
        service.start()
        assert busy.wait(TIMEOUT)  # drawing after the link's first state change (no port)
        board.start()
        board.play(parse_script("lift e2\nplace e3\nlift e3\nplace e4\nsleep 300\n", CHESS), timeout=TIMEOUT)
        link = service.links[0]
        service.finish_when_at_rest()  # returns once every event the board sent is queued
        assert link.occupancy()[CHESS.geometry.index("e4")] and not accepted
        go.set()
        assert service.finished.wait(TIMEOUT), [s.message for s in shown[-3:]]
        assert service.error is None
        assert (accepted, undone) == (["e2e4"], [])
        assert latest_game(store).moves == ("e2e4",)
        assert [s.kind for s in shown if s.kind == StatusKind.FIX] == []
        assert shown[-1].message.startswith("White played e2e4")
    finally:
        go.set()
        service.stop()
        board.stop()
        store.close()


def test_alice_on_two_boards_on_two_ports(tmp_path: Path) -> None:
    """A set of two boards, each on its own serial port (two simulated boards, two ptys, two
    links): a move lifts a piece on one board and puts it down on the other."""
    from controller.board_map import SensorMap
    from controller.config import Config, GpioConfig
    from controller.service import Service
    from hardware.layout import load_layout
    from tests.unshipped_variants import ALICE

    alice = ALICE
    board_a = SimBoard(CHESS).start()              # the first board starts with the pieces
    board_b = SimBoard(CHESS, empty=True).start()  # the second is empty
    store = GameStore(tmp_path / "games.sqlite3")
    updates: queue.Queue = queue.Queue()
    service = Service(Config(port=(board_a.path, board_b.path), gpio=GpioConfig(enabled=False)), alice, store,
                      SensorMap(alice, load_layout("alice-2x8x8"), boards=2), print_moves=False)
    service.on_update = lambda u: updates.put(u) if u.accepted else None
    try:
        service.start()
        # 1. e4: the pawn leaves e2 on board A and lands on e4 of board B; 1... d5 likewise.
        for lift_board, lift, place_board, place in ((board_a, "e2", board_b, "e4"),
                                                     (board_a, "d7", board_b, "d5")):
            lift_board.play(parse_script(f"lift {lift}", CHESS), timeout=TIMEOUT)
            place_board.play(parse_script(f"place {place}", CHESS), timeout=TIMEOUT)
            assert updates.get(timeout=TIMEOUT).accepted == (f"{lift}{place}",)
        # 2. exd5 happens on board B; the capturing pawn crosses back to d5 on board A.
        board_b.play(parse_script("lift d5\nlift e4", CHESS), timeout=TIMEOUT)
        board_a.play(parse_script("place d5", CHESS), timeout=TIMEOUT)
        assert updates.get(timeout=TIMEOUT).accepted == ("e4'd5'",)
        assert latest_game(store).moves == ("e2e4", "d7d5", "e4'd5'")
    finally:
        service.stop()
        board_a.stop()
        board_b.stop()
        store.close()


def test_a_stop_requested_right_after_a_move_ends_on_the_frame_with_that_move(tmp_path: Path) -> None:
    """SIGTERM lands after the controller has stored and printed a move but before it has shown
    it (here the stop is requested from the move's own update, on the controller thread, as
    run_service's signal handler requests it): the window ends on the frame with the move,
    not on the one before it, and only once the controller has finished."""
    import io

    from controller.board_map import SensorMap
    from controller.config import Config, GpioConfig
    from controller.service import Service
    from display.render import render
    from display.window import Window

    board = SimBoard(CHESS).start()
    store = GameStore(tmp_path / "games.sqlite3")
    frame = tmp_path / "frame.png"
    out = io.StringIO()
    service = Service(Config(port=(board.path,), gpio=GpioConfig(enabled=False)), CHESS, store, SensorMap(CHESS),
                      out=out, err=io.StringIO())
    window = Window("headless", (640, 400), snapshot=frame)
    service.window = window

    def on_update(update) -> None:
        if update.accepted:
            service.request_stop(grace=TIMEOUT)

    service.on_update = on_update
    rescued = threading.Event()

    def rescue_stop() -> None:
        rescued.set()
        window.stop()

    rescue = threading.Timer(2 * TIMEOUT, rescue_stop)
    window.open()
    try:
        service.start()
        board.start_script(parse_script("lift e2\nplace e4\n", CHESS))  # once the service is connected
        rescue.start()
        window.run()  # the main thread's loop, as in chessery run; returns when the controller stops it
    finally:
        rescue.cancel()
        service.stop()
        board.stop()
        store.close()
    assert not rescued.is_set() and service.finished.is_set() and service.error is None
    assert out.getvalue() == "e2e4\n"
    view = window.view
    assert view is not None
    g = CHESS.geometry
    assert view.pieces[g.index("e2")] is None and view.pieces[g.index("e4")] is not None
    expected = pygame.Surface((640, 400))
    render(view, expected)
    assert pygame.image.tobytes(pygame.image.load(str(frame)), "RGB") == pygame.image.tobytes(expected, "RGB")
