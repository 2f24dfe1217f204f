"""Move latency on DGT and Millennium boards, next to each board's own scan period.

    ./dev bench boards [--moves N] [--board KIND] [--game "e2e4 e7e5 ..."]
        [--slide-rest MS]

A board emulator (real pty, the board's own scan timing) plays a seeded random chess game with
captures both ways and pieces dragged across squares into the service (driver -> controller
thread -> session with its SQLite commit). For each move: the time from the board's last
message reporting a change before the move was committed (a DGT field update, a Millennium
status report) to the commit. The board's scan time is not in it (the board had not reported
the move before); a driver that waits for quiet, or a dump, shows in it.

Goals: DGT within one full scan + 50 ms; Millennium within two scans + 50 ms (common DGT
software waits 250-500 ms of quiet and then asks for a dump). Reported against the board's scan
period, and against our own board (the simulated board running the firmware's code, scanning
every 2 ms, its events' arrival at the host as the report) measured in the same run, the
reference for what the controller, the commit and this machine's load add.
"""

from __future__ import annotations

import argparse
import bisect
import queue
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import engine
from bench.latency import extendable
from controller.core_types import Timing
from controller.event_scripts import Style, random_game, script_for_moves
from firmware_bridge.board_link import BoardKind
from firmware_bridge.boards import BOARD_KINDS
from firmware_bridge.script import parse_script

if TYPE_CHECKING:
    from controller.service import Input, Service
    from controller.session import Update


def pct(values: list[float], p: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, round(p / 100 * (len(s) - 1)))]


def first_half(pos, move) -> bool:
    """Whether ``move`` could be the first half of a bigger legal move (a rook put on its
    castling square with the castling still legal): the referee waits ``prefix_ms`` for the
    rest, on every board, so no board's scan decides that wait."""
    from controller.signatures import MoveIndex, Shape

    index = MoveIndex(pos, True)
    shape = Shape(move, True)
    return bool((shape.sig and index.extension_cells(shape.sig, shape.cells))
                or index.continuation_cells(move, shape.cells))


def scan_and_goal(kind: BoardKind, board: Any) -> tuple[float, float]:
    """The board's own scan period (ms) and the goal for a move's latency on it (see above)."""
    scan = 2.0 if kind == "chessery" else board.scan_ms if kind == "dgt" else board.settings[1] * 2.048
    return scan, 2 * scan + 50 if kind == "millennium" else scan + 50


@contextmanager
def refereed(kind: BoardKind, variant: engine.Variant, timing: Timing | None = None,
             on_update: Callable[[Update], None] | None = None,
             on_input: Callable[[Input], None] | None = None) -> Iterator[tuple[Any, Service]]:
    """A board of ``kind`` (an emulator on a real pty, or our simulated board for ``chessery``,
    reading identities) refereed by the service (driver -> controller thread -> session with its
    SQLite commit in a file of its own), started with the hooks given; stopped on the way out.
    ``timing``: the referee's waits (the service still sets the board's scan)."""
    from controller.board_map import SensorMap
    from controller.config import Config, GpioConfig
    from controller.service import Service
    from controller.store import GameStore
    from firmware_bridge.boards.emulators import EMULATORS
    from firmware_bridge.simboard import SimBoard

    board: Any = SimBoard(variant, identity=True, scan_ms=2) if kind == "chessery" else EMULATORS[kind](variant.name)
    board.start()
    tmp = tempfile.TemporaryDirectory()
    store = GameStore(Path(tmp.name) / "bench.sqlite3")
    config = Config(port=(board.path,), board=kind, gpio=GpioConfig(enabled=False), timing=timing or Timing())
    service = Service(config, variant, store, SensorMap(variant), print_moves=False)
    service.on_update = on_update
    service.on_input = on_input
    service.start()
    try:
        yield board, service
    finally:
        service.stop()
        board.stop()
        store.close()
        tmp.cleanup()


def bench(kind: BoardKind, n_moves: int, given: list[str] | None = None, slide_rest_ms: int = 5) -> tuple[float, float]:
    from controller.service import Sensor

    variant = engine.find_variant("chess")
    moves = given or random_game(variant, n_moves, seed=3)
    style = Style(think_ms=400, hand_ms=120, capture="alternate", slide=True, slide_rest_ms=slide_rest_ms,
                  identity=True)
    commands = parse_script("\n".join(script_for_moves(variant, moves, style)), variant)
    accepted: queue.Queue[tuple[float, int, str]] = queue.Queue()  # when, moves added (an amend: none), text

    scans: list[int] = []  # the referee's scan period when each move was committed
    ran: list[Service] = []

    def on_update(update: Update) -> None:
        if update.accepted:
            scans.append(ran[0].session.timing.scan_ms)
            accepted.put((time.monotonic(), len(update.accepted) - len(update.undone), " ".join(update.accepted)))

    received: list[float] = []  # host time of each sensor event the controller handled (our own board)
    def spy(item: Input) -> None:
        if isinstance(item, Sensor) and not item.event.synthetic:
            received.append(item.event.host_time)

    with refereed(kind, variant, on_update=on_update, on_input=spy) as (board, service):
        ran.append(service)
        board.start_script(commands)
        return _measure(kind, board, service, moves, n_moves, accepted, scans, received)


def _measure(kind: BoardKind, board: Any, service: Service, moves: list[str], n_moves: int,
             accepted: queue.Queue[tuple[float, int, str]], scans: list[int],
             received: list[float]) -> tuple[float, float]:
    variant = engine.find_variant("chess")
    latencies: list[float] = []
    texts: list[str] = []
    could_go_on: list[bool] = []  # per latency: the move could still have been extended
    halves: list[bool] = []  # ... as the first half of a bigger move
    pos = engine.start_position(variant)
    amended = 0
    deadline = time.monotonic() + 60 + n_moves * 2
    game = 0
    while game < len(moves) and time.monotonic() < deadline:
        try:
            at, added, text = accepted.get(timeout=30)
        except queue.Empty:
            raise SystemExit(f"{kind}: no move for 30 s after {game} moves; the referee says: "
                             f"{service.session.status.message}") from None
        game += added
        amended += added == 0
        extended = half = False
        for move_text in text.split():
            move = pos.parse_move(move_text)
            extended = extendable(pos, move, True)
            half = first_half(pos, move)
            pos.push(move)
        reports = received if kind == "chessery" else board.change_reports
        i = bisect.bisect_right(reports, at)
        if i:
            latencies.append((at - reports[i - 1]) * 1000)
            texts.append(text)
            could_go_on.append(extended)
            halves.append(half)
    declared = [link.hello.scan_ms for link in service.links if link.hello is not None]
    scan, goal = scan_and_goal(kind, board)
    p99 = pct(latencies, 99)
    replay = engine.start_position(variant)
    recorded = []
    for m in pos.move_stack:
        recorded.append(replay.move_text(m))
        replay.push(m)
    same = "move for move" if recorded == moves[:len(recorded)] else "NOT the game played"
    if recorded != moves[:len(recorded)]:
        ply = next(i for i, (a, b) in enumerate(zip(recorded, moves, strict=False)) if a != b)
        same += f" (ply {ply + 1}: {recorded[ply]} recorded, {moves[ply]} played)"
    print(f"{kind}: {len(latencies)} moves committed ({amended} amended), {same}; scan period {scan:.0f} ms")
    print(f"  last change report -> move committed: p50 {pct(latencies, 50):.1f} ms  p99 {p99:.1f} ms  "
          f"max {max(latencies):.1f} ms   (goal {goal:.0f} ms: {'met' if p99 <= goal else 'NOT met'} at p99; "
          f"p50/scan {pct(latencies, 50) / scan:.2f}, p99/scan {p99 / scan:.2f})")
    plain = [ms for ms, ext in zip(latencies, could_go_on, strict=True) if not ext]
    longer = [ms for ms, ext, half in zip(latencies, could_go_on, halves, strict=True) if ext and not half]
    first = [ms for ms, half in zip(latencies, halves, strict=True) if half]
    if plain:
        print(f"  cannot be extended: {len(plain)} moves, p50 {pct(plain, 50):.1f} ms  p99 {pct(plain, 99):.1f} ms  "
              f"max {max(plain):.1f} ms   (goal {goal:.0f} ms: {'met' if pct(plain, 99) <= goal else 'NOT met'})")
    if longer:
        print(f"  could slide on (a slider or pawn short of a further legal cell on its line): {len(longer)} moves, "
              f"p50 {pct(longer, 50):.1f} ms  p99 {pct(longer, 99):.1f} ms  max {max(longer):.1f} ms   "
              f"(goal {goal:.0f} ms: {'met' if pct(longer, 99) <= goal else 'NOT met'})")
    if first:
        print(f"  could be a bigger move's first half (a rook on its castling square, castling still legal; "
              f"waits prefix_ms on every board): {len(first)} moves, p50 {pct(first, 50):.1f} ms  "
              f"max {max(first):.1f} ms")
    if kind == "dgt":
        print(f"  the referee's scan period at each commit: {' '.join(map(str, scans))} ms; the driver's at the "
              f"end: {', '.join(f'{ms} ms' for ms in declared)} (the board's: {scan:.0f} ms; 250 until measured)")
    slowest = sorted(zip(latencies, texts, strict=True), reverse=True)[:3]
    print("  slowest: " + ", ".join(f"{text} {ms:.0f} ms" for ms, text in slowest))
    return pct(latencies, 50), p99


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--board", choices=BOARD_KINDS, action="append")
    parser.add_argument("--game", help="play these moves (text, space-separated) instead of a random game")
    parser.add_argument("--slide-rest", type=int, default=5, metavar="MS",
                        help="how long a dragged piece rests on each square it crosses (default 5)")
    args = parser.parse_args()
    game = args.game.split() if args.game else None
    kinds: list[BoardKind] = args.board or list(BOARD_KINDS)
    results = {kind: bench(kind, args.moves, game, args.slide_rest) for kind in kinds}
    ref = results.get("chessery")
    if ref is not None:
        for kind, (p50, p99) in results.items():
            if kind != "chessery":
                print(f"{kind} against our own board in this run: p50 x{p50 / ref[0]:.2f}, p99 x{p99 / ref[1]:.2f}")


if __name__ == "__main__":
    main()
