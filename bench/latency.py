"""Move-acceptance latency: final moves on real games, the decision core alone, and the whole pipeline.

    ./dev bench latency [--games N] [--plies N] [--pipeline-moves N] [--no-pipeline]
        [--cpu] [--variants all|chess,mathematichess,...] [--real-games N] [--no-core]

0. Real games: the 60 historical games of ``tests/data/pgn/historical-games.pgn`` played by the
   hand model of ``tests/hand_model.py`` (the seeds of ``tests/test_inference_historical.py``;
   ``--seeds`` adds others), with ``--hesitant`` of the moves made hesitantly (pauses on crossed
   cells, between a castling's pieces, next to a victim), on an occupancy and an identity board,
   through the core on the script's clock; ``--press`` of the moves' movers press the clock
   button 300-1500 ms after their last event. Reported: games recorded move for move and wrong
   final moves (goal: 0); the time from the last event of each move to its *final* acceptance,
   p50/p95/p99/max, for moves that cannot be extended (goal: p99 under one scan period plus
   50 ms), for moves that could (a castling's rook, a slider short of further legal cells on its
   line) split by what made them final (the clock button, the next player's action, the quiet
   of ``hesitate_ms``), and for moves asked about (promotions on an occupancy board); and the
   number of provisional readings shown that were later amended (the board went on to another
   reading: shown on the display only, never recorded). ``--hesitate-ms`` sets the referee's.

    ./dev bench latency --no-core --real-games 60 [--hesitant 0.5]
        [--press 0.3] [--seeds 0,1,2] [--hesitate-ms 3000]
        [--boards dgt,millennium|none] [--board-games 2]

   The same table on the emulated maker boards (``bench/board_games.py``): the first
   ``--board-games`` historical games per seed played in real time on an emulated DGT and
   Millennium board through the whole service (the board's scan, protocol and link included),
   the clock button pressed as the panel's; goal for moves that cannot be extended: the board's
   own (``bench/boards.py``: one DGT scan + 50 ms, two Millennium scans + 50 ms).

1. Core: long games (seeded random legal games, plus the Opera game) turned into event scripts
   with mixed hand styles (captures both ways, castling both ways, drags, bounces, quick
   replies), replayed through the core; every ``event``/``tick``/``answer`` call is timed.
   Reported: p50, p99, max per call, and the ratio against one ``Position.legal_moves()`` in the
   same positions (the engine's own cost of listing the moves, measured in this run).
   Goal: p99 under 1 ms.
2. Pipeline: the simulated board (firmware code, real pty) -> pyserial -> host link -> service
   controller thread -> session (with its SQLite commit). Reported: the time from the scan in
   which the board saw the last change of a move (the event's board timestamp; the hand left the
   piece at most one scan before) to the moment the move was committed, split into the board's
   debounce plus the pty (-> received by the link) and the decision (received -> committed).
   Goal: one scan period plus 50 ms.
"""

from __future__ import annotations

import argparse
import queue
import random
import statistics
import tempfile
import threading
import time
from collections.abc import Sequence
from pathlib import Path

import engine
from controller.demo_games import DEMO_GAMES
from controller.event_scripts import OPERA_GAME, Style, random_game, script_for_moves
from controller.replay import Replayer
from firmware_bridge.script import Lift, Place, Sleep, parse_script

#: The core's clock: wall time by default; ``--cpu`` times the thread's own CPU time instead, which
#: leaves out the time other processes take from it on a shared, loaded machine.
CLOCK = time.perf_counter_ns


def pct(values: Sequence[float], p: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, round(p / 100 * (len(s) - 1)))]


class TimedCore:
    """Forwards to the core, timing the decision calls."""

    def __init__(self, core, samples: list[float], prepared: list[float]) -> None:
        self._core = core
        self._samples = samples
        self._prepared = prepared

    def __getattr__(self, name):
        return getattr(self._core, name)

    def _timed(self, fn, *args):
        t = CLOCK()
        out = fn(*args)
        self._samples.append((CLOCK() - t) / 1e6)
        return out

    def event(self, ev):
        return self._timed(self._core.event, ev)

    def tick(self, now):
        return self._timed(self._core.tick, now)

    def answer(self, key, now):
        return self._timed(self._core.answer, key, now)

    def prepare(self):
        t = CLOCK()
        self._core.prepare()
        self._prepared.append((CLOCK() - t) / 1e6)


def styles(rng: random.Random) -> Style:
    return Style(capture=rng.choice(["victim", "attacker", "alternate"]), castle=rng.choice(["king", "rook"]),
                 slide=rng.random() < 0.5, bounce=rng.random() < 0.3, think_ms=rng.choice([0, 60, 400]),
                 hand_ms=rng.choice([20, 150]))


def core_bench(variant_name: str, games: int, plies: int, identity: bool = False) -> None:
    variant = engine.find_variant(variant_name)
    rng = random.Random(7)
    games_moves = [random_game(variant, plies, seed) for seed in range(games)]
    if variant_name == "chess":
        games_moves.append(list(OPERA_GAME))
    if variant_name in DEMO_GAMES:
        games_moves.append(list(DEMO_GAMES[variant_name]))
    samples: list[float] = []
    prepared: list[float] = []
    events = moves = 0
    legal: list[float] = []
    for moves_list in games_moves:
        style = styles(rng)
        if identity:
            style = Style(**{**style.__dict__, "identity": True})
        lines = script_for_moves(variant, moves_list, style)
        commands = parse_script("\n".join(lines), variant)
        replayer = Replayer(engine.start_position(variant), identity=identity)
        replayer.core = TimedCore(replayer.core, samples, prepared)  # type: ignore[assignment]
        got = replayer.run(commands)
        assert got == moves_list, "replay disagrees with the script's moves"
        events += sum(1 for c in commands if type(c).__name__ in ("Lift", "Place"))
        moves += len(moves_list)
        pos = engine.start_position(variant)
        for text in moves_list:
            t = CLOCK()
            pos.legal_moves()
            legal.append((CLOCK() - t) / 1e6)
            pos.push_text(text)
    ref = statistics.median(legal)
    p50, p99, worst = pct(samples, 50), pct(samples, 99), max(samples)
    print(f"core, {variant_name}{' (identity board)' if identity else ''}: {len(games_moves)} games, {moves} moves, "
          f"{events} events, {len(samples)} decisions")
    print(f"  per decision: p50 {p50:.3f} ms  p99 {p99:.3f} ms  max {worst:.3f} ms   (goal: p99 < 1 ms: "
          f"{'met' if p99 < 1 else 'NOT met'})")
    print(f"  reference, one legal_moves() in the same positions: median {ref:.3f} ms; "
          f"ratios p50/ref {p50 / ref:.2f}, p99/ref {p99 / ref:.2f}")
    work = [x for x in prepared if x > 0.002]
    if work:
        print(f"  indexing a new position (prepare(), run while waiting for the next event): "
              f"p50 {pct(work, 50):.3f} ms  max {max(work):.3f} ms")


def extendable(pos, move, identity: bool) -> bool:
    """Whether ``move`` could still be going on when the board shows it (see the docstring)."""
    from controller.signatures import MoveIndex, Shape

    index = MoveIndex(pos, identity)
    shape = Shape(move, identity)
    return bool(index.drag_cells(move) or (shape.sig and index.extension_cells(shape.sig, shape.cells))
                or index.continuation_cells(move, shape.cells))


def real_games_bench(n_games: int, scan_ms: int = 2, hesitant: float = 0.5, hesitate_ms: int | None = None,
                     press: float = 0.3, seeds: Sequence[int] = (0,)) -> None:
    """The historical games by the hand model (``hesitant``: the share of moves made with
    pauses), on both board kinds. ``press``: the share of extendable moves whose mover presses
    the clock button 300-1500 ms after the move's last event (if the move is still provisional
    then). ``seeds``: offsets of the hand model's seeds (0: the tests' seeds)."""
    from controller.inference import Timing
    from tests.hand_model import Hands, game_script_with_plies
    from tests.historical_games import historical_games

    variant = engine.find_variant("chess")
    goal = scan_ms + 50
    timing = Timing() if hesitate_ms is None else Timing(hesitate_ms=hesitate_ms)
    print(f"real games: hand model with hesitant={hesitant}, hesitate_ms={timing.hesitate_ms}, "
          f"clock pressed on {press:.0%} of extendable moves, seed offsets {list(seeds)}")
    for identity in (False, True):
        plain: list[float] = []
        by_cause: dict[str, list[float]] = {"clock": [], "opponent": [], "quiet": []}
        asked: list[float] = []
        amended = shown = ok = total = wrong = 0
        for offset in seeds:
            for n, moves in enumerate(historical_games()[:n_games]):
                seed = n + 1000 * offset
                lines, plies = game_script_with_plies(engine.start_position(variant), moves,
                                                      Hands(identity=identity, hesitant=hesitant), seed=seed)
                commands = parse_script("\n".join(lines), variant)
                press_rng = random.Random(seed)
                last_event: dict[int, int] = {}
                first_event: dict[int, int] = {}
                finals: list[int] = []
                pressed: set[int] = set()
                asked_plies: set[int] = set()
                reading: list = [None]

                def on_decision(t: int, d, finals=finals, asked_plies=asked_plies, reading=reading) -> None:
                    nonlocal amended, shown
                    finals.extend(t for _m in d.accepted)
                    if d.status.prompt is not None:
                        asked_plies.add(len(finals))
                    now = d.provisional[0] if d.provisional else None
                    if now is not reading[0]:
                        if reading[0] is not None and reading[0] not in d.accepted:
                            amended += 1
                        if now is not None:
                            shown += 1
                        reading[0] = now

                r = Replayer(engine.start_position(variant), identity=identity, timing=timing, on_decision=on_decision)
                # Clock presses: a share of the plies, 300-1500 ms after the ply's last event; a
                # press counts when the board then shows the move as provisional.
                last_line: dict[int, int] = {}
                for i, command in enumerate(commands):
                    if isinstance(command, Lift | Place) and command.line - 1 < len(plies):
                        last_line[plies[command.line - 1]] = i
                presses: list[tuple[int, int]] = []
                for i, command in enumerate(commands):
                    # (Presses fall due within a sleep; one due within a lift's or a place's step
                    # waits for the next line, so the script's own clock is kept.)
                    target = r.t + command.ms if isinstance(command, Sleep) else r.t
                    while presses and presses[0][0] <= target:
                        at, p = presses.pop(0)
                        r.advance(at)
                        # (Only before the next player's hand is at work: a player presses the
                        # clock for the move just made, not over the opponent's.)
                        if r.core.status.provisional and len(finals) == p and p + 1 not in first_event:
                            d = r.core.tick(max(at, r.core.deadline or at))
                            r.log.decisions.append((at, d))
                            on_decision(at, d)
                            pressed.add(p)
                    if isinstance(command, Sleep):
                        r.advance(target)
                    else:
                        r.feed(command)
                    r.core.prepare()
                    ply = plies[command.line - 1] if command.line - 1 < len(plies) else -1
                    if ply >= 0:
                        last_event[ply] = r.t
                        first_event.setdefault(ply, r.t)
                        if last_line.get(ply) == i and press_rng.random() < press:
                            presses.append((r.t + press_rng.randint(300, 1500), ply))
                            presses.sort()
                r.settle()
                total += 1
                got = r.texts()
                ok += got == list(moves)
                wrong += sum(1 for a, b in zip(got, moves, strict=False) if a != b)
                pos = engine.start_position(variant)
                for ply, text in enumerate(got[:len(finals)]):
                    move = pos.parse_move(text)
                    if ply in last_event and ply < len(finals):
                        latency = finals[ply] - last_event[ply]
                        if ply in asked_plies:
                            asked.append(latency)
                        elif extendable(pos, move, identity):
                            cause = ("clock" if ply in pressed else "opponent" if any(
                                p > ply and t <= finals[ply] for p, t in first_event.items()) else "quiet")
                            by_cause[cause].append(latency)
                        else:
                            plain.append(latency)
                    pos.push(move)
        board = "identity" if identity else "occupancy"
        report(f"real games, {board} board", ok, total, wrong, plain, by_cause, asked, goal)
        print(f"  provisional readings shown {shown}, later amended {amended} (display only, never recorded)")


def report(label: str, ok: int, total: int, wrong: int, plain: Sequence[float], by_cause: dict[str, list[float]],
           asked: Sequence[float], goal: float | None, since: str = "last event") -> None:
    """The table of final latencies by cause for one board kind (``goal``: the p99 bound for
    moves that cannot be extended, if it is judged on this table; ``since``: what the times
    count from)."""
    print(f"{label}: {ok}/{total} games recorded move for move, wrong final moves: {wrong} "
          f"({len(plain) + sum(map(len, by_cause.values())) + len(asked)} moves timed)")

    def row(name: str, xs: Sequence[float], goal_ms: float | None = None) -> None:
        if not xs:
            print(f"  {name}: none")
            return
        verdict = ""
        if goal_ms is not None:
            verdict = f"   (goal p99 < {goal_ms:.0f} ms: {'met' if pct(xs, 99) < goal_ms else 'NOT met'})"
        print(f"  {name}: {len(xs)} moves, {since} -> final: p50 {pct(xs, 50):.0f} ms  p95 {pct(xs, 95):.0f} ms  "
              f"p99 {pct(xs, 99):.0f} ms  max {max(xs):.0f} ms{verdict}")

    row("cannot be extended", plain, goal)
    row("could be extended, final at the clock button", by_cause["clock"])
    row("could be extended, final at the next player's action", by_cause["opponent"])
    row("could be extended, final after the quiet (hesitate_ms)", by_cause["quiet"])
    row("asked (promotion on an occupancy board; answer time included)", asked)


def pipeline_bench(n_moves: int) -> None:
    from controller.board_map import SensorMap
    from controller.config import Config, GpioConfig
    from controller.service import Input, Sensor, Service
    from controller.store import GameStore
    from firmware_bridge.simboard import SimBoard

    variant = engine.find_variant("chess")
    moves_list = random_game(variant, n_moves, seed=3)
    lines = script_for_moves(variant, moves_list, Style(think_ms=250, hand_ms=100, capture="alternate"))
    commands = parse_script("\n".join(lines), variant)
    scan_ms = 2
    board = SimBoard(variant, scan_ms=scan_ms).start()
    tmp = tempfile.TemporaryDirectory()
    store = GameStore(Path(tmp.name) / "bench.sqlite3")
    config = Config(port=(board.path,), gpio=GpioConfig(enabled=False))
    service = Service(config, variant, store, SensorMap(variant), print_moves=False)
    received: list[tuple[int | None, float]] = []  # (board_ms, host_time) of each sensor event handled
    accepted: queue.Queue[tuple[float, tuple[int | None, float]]] = queue.Queue()
    def spy(item: Input) -> None:
        if isinstance(item, Sensor):
            received.append((item.event.board_ms, item.event.host_time))

    service.on_input = spy
    service.on_update = lambda u: accepted.put((time.monotonic(), received[-1])) if u.accepted and received else None
    service.start()
    done = threading.Event()
    board.start_script(commands)
    total: list[float] = []
    transit: list[float] = []
    decide: list[float] = []
    try:
        for _ in moves_list:
            at, (board_ms, host_time) = accepted.get(timeout=30)
            emitted = board._t0 + (board._boot_at + (board_ms or 0)) / 1000  # the board's own clock
            total.append((at - emitted) * 1000)
            transit.append((host_time - emitted) * 1000)
            decide.append((at - host_time) * 1000)
        done.set()
    finally:
        service.stop()
        board.stop()
        store.close()
        tmp.cleanup()
    goal = scan_ms + 50
    print(f"pipeline, chess: {len(total)} moves (simulated board, scan {scan_ms} ms, debounce 10 ms, real pty, link, "
          f"service thread, SQLite commit)")
    print(f"  board saw the last change -> move committed: p50 {pct(total, 50):.1f} ms  p99 {pct(total, 99):.1f} ms  "
          f"max {max(total):.1f} ms   (goal: {goal} ms: {'met' if pct(total, 99) <= goal else 'NOT met'} at p99)")
    print(f"    of which the board's debounce and the pty to the link: p50 {pct(transit, 50):.2f} ms  "
          f"max {max(transit):.2f} ms")
    print(f"    of which received -> committed (settle {Config().timing.settle_ms} ms + decision + commit): "
          f"p50 {pct(decide, 50):.1f} ms  max {max(decide):.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--plies", type=int, default=300)
    parser.add_argument("--pipeline-moves", type=int, default=40)
    parser.add_argument("--no-pipeline", action="store_true")
    parser.add_argument("--cpu", action="store_true", help="time the core by its thread's CPU time, not wall time")
    parser.add_argument("--variants", default="all",
                        help="comma-separated variants for the core part, or all (chess first: it is the reference)")
    parser.add_argument("--real-games", type=int, default=60)
    parser.add_argument("--hesitant", type=float, default=0.5, help="share of moves the hand model makes hesitantly")
    parser.add_argument("--hesitate-ms", type=int, default=None, help="the referee's hesitate_ms (default: its own)")
    parser.add_argument("--press", type=float, default=0.3,
                        help="share of extendable moves whose mover presses the clock button")
    parser.add_argument("--seeds", default="0", help="comma-separated offsets of the hand model's seeds")
    parser.add_argument("--boards", default="dgt,millennium",
                        help="comma-separated emulated maker boards to play the real games on too, or none")
    parser.add_argument("--board-games", type=int, default=2,
                        help="real games per seed offset on each emulated board (played in real time)")
    parser.add_argument("--answer-ms", type=float, default=None,
                        help="on the emulated boards, a player at the screen answers each question this long "
                             "after it came, with the moves played (default: no one answers)")
    parser.add_argument("--no-core", action="store_true")
    parser.add_argument("--dump", default=None,
                        help="folder for the sensor events of each game on an emulated board (bench/replay_events.py)")
    args = parser.parse_args()
    global CLOCK
    if args.cpu:
        CLOCK = time.thread_time_ns
        print("core timed by thread CPU time (--cpu)")
    real_games_bench(args.real_games, hesitant=args.hesitant, hesitate_ms=args.hesitate_ms, press=args.press,
                     seeds=[int(x) for x in args.seeds.split(",")])
    if args.boards != "none":
        from bench.board_games import board_games_bench

        for kind in args.boards.split(","):
            if kind not in ("dgt", "millennium", "chessery"):
                raise SystemExit(f"--boards: no emulated board {kind!r} (dgt, millennium, chessery)")
            board_games_bench(kind, args.board_games, hesitant=args.hesitant, press=args.press,
                              seeds=[int(x) for x in args.seeds.split(",")], hesitate_ms=args.hesitate_ms,
                              dump=args.dump, answer_ms=args.answer_ms)
    if args.no_core:
        return
    names = ["chess", *[n for n in engine.variant_names() if n != "chess"]] if args.variants == "all" \
        else args.variants.split(",")
    for name in names:
        if name == "mathematichess":
            core_bench(name, 1, 200)
            core_bench(name, 1, 200, identity=True)
        else:
            core_bench(name, args.games, args.plies)
    if not args.no_pipeline:
        pipeline_bench(args.pipeline_moves)


if __name__ == "__main__":
    main()
