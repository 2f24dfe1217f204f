"""A hall under load: N simulated boards publishing into one Mosquitto, the hall serving them,
and a headless Chromium showing the hall page.

    ./dev bench hall [--boards 100 300] [--seconds 60] [--workers 4]
                                                [--move-s 5] [--no-browser]
    ./dev bench hall --remote     # a remote game's hop, A to B

Each board is a real controller.hall_publish.HallPublisher (its own paho client and sender
thread) fed with a random chess game prepared beforehand (engine moves, SAN, FEN per ply),
``--workers`` processes holding the boards between them. Each board plays a move every
``--move-s`` seconds on average (uniform 0.5x to 1.5x: blitz, 5+3, is about a move per player
every 7 s, so 5 s per board is a fast blitz hall). The broker is a Mosquitto started here; the
hall is ``chessery hall`` in its own process; Chromium keeps the hall page open, and the page's
own log (``window.hallSeen``) says when each ply was shown.

Measured per run:
* final move -> broker -> a subscriber: from ``publish_state`` in the board's process to the
  event's arrival at a plain paho subscriber in this process (the MQTT hop), p50/p99;
* final move -> page: to the page's script applying the card (Chromium's Date.now()), p50/p99,
  and how many of the moves the page showed (a card replaced twice quickly shows the later ply);
* CPU (% of one core over the run, from /proc utime+stime) and peak RSS of the broker, the
  hall, the board processes (all together) and Chromium's processes.
"""

from __future__ import annotations

import argparse
import heapq
import multiprocessing as mp
import os
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
TICK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICK


def peak_rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def tree(pid: int) -> list[int]:
    """``pid`` and its descendants (Chromium is a family of processes)."""
    out = [pid]
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            if ppid == pid:
                out += tree(int(entry.name))
    return out


def prepared_games(names: list[str], plies: int, seed: int) -> dict[str, list[dict[str, Any]]]:
    """Per board, the state after each ply of a random chess game."""
    import engine
    from controller.event_scripts import random_game
    from engine.san import san

    chess = engine.find_variant("chess")
    out: dict[str, list[dict[str, Any]]] = {}
    for k, name in enumerate(names):
        moves = random_game(chess, plies, seed=seed + k)
        pos = engine.start_position(chess)
        texts: list[str] = []
        states = []
        for n, text in enumerate(moves):
            move = pos.parse_move(text)
            texts.append(san(pos, move))
            pos.push(move)
            states.append({"variant": "chess", "fen": pos.fen(), "start_fen": chess.start, "moves": moves[:n + 1],
                           "san": list(texts), "players": [f"{name} W", f"{name} B"], "clocks": None,
                           "ply_clocks": [], "time_control": "", "event": "Bench open", "round": "1", "site": "?",
                           "game": 1, "status": "idle", "message": "", "result": "*", "termination": "",
                           "updated": 0, "date": "2026-11-27"})
        out[name] = states
    return out


def worker(url: str, names: list[str], seconds: float, move_s: float, seed: int, ready: Any, go: Any,
           results: Any) -> None:
    from controller.config import Config
    from controller.hall_publish import HallPublisher

    games = prepared_games(names, plies=int(seconds / move_s * 1.6) + 4, seed=seed)
    publishers = {name: HallPublisher(Config(hall=url, hall_board=name)).start() for name in names}
    for p in publishers.values():
        p.connected.wait(30)
    ready.put(len(names))
    go.wait()
    rng = random.Random(seed)
    start = time.time()
    queue = [(start + rng.uniform(0, move_s), name, 0) for name in names]
    heapq.heapify(queue)
    sent: list[tuple[str, int, float]] = []
    while queue:
        at, name, ply = heapq.heappop(queue)
        if at > start + seconds or ply >= len(games[name]):
            continue
        time.sleep(max(0.0, at - time.time()))
        t0 = time.time()
        publishers[name].publish_state(games[name][ply])
        sent.append((name, ply + 1, t0))
        heapq.heappush(queue, (at + move_s * rng.uniform(0.5, 1.5), name, ply + 1))
    deadline = time.time() + 30
    while any(p.pending for p in publishers.values()) and time.time() < deadline:
        time.sleep(0.1)
    me = os.getpid()
    results.put((sent, cpu_seconds(me), peak_rss_mb(me)))
    for p in publishers.values():
        p.stop()


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def run(boards: int, seconds: float, workers: int, move_s: float, browser: bool) -> dict[str, Any]:
    import paho.mqtt.client as mqtt

    from controller.mosquitto import Mosquitto

    with tempfile.TemporaryDirectory(prefix="chessery-bench-hall-") as tmp, Mosquitto(Path(tmp) / "broker") as broker:
        hall = subprocess.Popen([sys.executable, "-m", "controller.cli", "hall", "--broker", broker.url, "--listen",
                                 "127.0.0.1:0"], cwd=REPO, stdout=subprocess.PIPE, text=True)
        assert hall.stdout is not None
        hall_url = hall.stdout.readline().split()[1]
        arrived: dict[tuple[str, int], float] = {}
        lock = threading.Lock()

        def on_message(_c: Any, _u: Any, msg: Any) -> None:
            import json

            t1 = time.time()
            data = json.loads(msg.payload)
            if data.get("kind") == "move":
                with lock:
                    arrived.setdefault((msg.topic.split("/")[2], data["ply"]), t1)

        sub = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="bench-subscriber")
        sub.on_connect = lambda c, *_: c.subscribe("chessery/hall/+/event", qos=1)
        sub.on_message = on_message
        sub.connect("127.0.0.1", broker.port)
        sub.loop_start()
        ctx = mp.get_context("spawn")
        ready, results, go = ctx.Queue(), ctx.Queue(), ctx.Event()
        names = [f"bench-{i:03d}" for i in range(boards)]
        procs = [ctx.Process(target=worker, args=(broker.url, names[w::workers], seconds, move_s, 1000 * w, ready, go,
                                                  results)) for w in range(workers)]
        for p in procs:
            p.start()
        for _ in procs:
            ready.get(timeout=600)
        driver = None
        if browser:
            from tests.hall_rig import chromium

            driver = chromium(str(Path(tmp) / "profile"))
            driver.get(hall_url + "/")
            driver.set_script_timeout(60)
        time.sleep(2)  # the page's first load of every board's start state is not measured
        watched = [broker.proc.pid, hall.pid]  # type: ignore[union-attr]
        worker_before = sum(cpu_seconds(p.pid) for p in procs if p.pid)
        chrome_pids = tree(driver.service.process.pid) if driver is not None else []
        before = {pid: cpu_seconds(pid) for pid in watched + chrome_pids}
        t_start = time.time()
        go.set()
        sent: list[tuple[str, int, float]] = []
        worker_cpu = worker_rss = 0.0
        for _ in procs:
            part, cpu, mem = results.get(timeout=seconds + 300)
            sent += part
            worker_cpu += cpu
            worker_rss += mem
        elapsed = time.time() - t_start
        time.sleep(2)
        after = {pid: cpu_seconds(pid) for pid in before}
        seen: list[list[Any]] = driver.execute_script("return window.hallSeen;") if driver is not None else []
        rss = {pid: peak_rss_mb(pid) for pid in before}
        for p in procs:
            p.join(60)
        if driver is not None:
            driver.quit()
        sub.disconnect()
        sub.loop_stop()
        hall.terminate()
        hall.wait(30)
        hall.stdout.close()

    def load(pids: list[int]) -> tuple[float, float]:
        return (100 * sum(after[p] - before[p] for p in pids) / elapsed, sum(rss[p] for p in pids))

    to_broker = [arrived[(n, ply)] - t0 for n, ply, t0 in sent if (n, ply) in arrived]
    sent_at = {(n, ply): t0 for n, ply, t0 in sent}
    first_shown: dict[tuple[str, int], float] = {}
    for n, ply, t in seen:
        first_shown.setdefault((n, ply), t / 1000)  # a card drawn again (online, a repeat) counts once
    to_page = [t - sent_at[key] for key, t in first_shown.items() if key in sent_at]
    return {"boards": boards, "moves": len(sent), "seconds": round(elapsed, 1),
            "moves_per_s": round(len(sent) / elapsed, 1),
            "broker_ms": (1000 * percentile(to_broker, 0.5), 1000 * percentile(to_broker, 0.99), len(to_broker)),
            "page_ms": (1000 * percentile(to_page, 0.5), 1000 * percentile(to_page, 0.99), len(to_page)),
            "broker": load([watched[0]]), "hall": load([watched[1]]),
            "boards_cpu": (100 * (worker_cpu - worker_before) / elapsed, worker_rss),
            "chromium": load(chrome_pids)}


def remote(plies: int = 200, gap_s: float = 0.1) -> tuple[float, float, int]:
    """A remote game's broker hop: board A publishes a final move, board B's RemoteBoard has it
    checked and handed on (controller.hall_remote), on loopback. p50, p99 (ms), moves."""
    from controller.config import Config
    from controller.hall_publish import HallPublisher
    from controller.hall_remote import RemoteBoard
    from controller.mosquitto import Mosquitto

    games = prepared_games(["A"], plies, seed=7)["A"]
    got: dict[int, float] = {}
    with tempfile.TemporaryDirectory(prefix="chessery-bench-remote-") as tmp, Mosquitto(Path(tmp) / "b") as broker:
        import engine

        def arrived(_game: int, ply: int, _move: str) -> None:
            got.setdefault(ply, time.time())

        a = HallPublisher(Config(hall=broker.url, hall_board="A")).start()
        b = RemoteBoard(Config(hall=broker.url, hall_board="B"), "A", engine.find_variant("chess"),
                        on_move=arrived).start()
        a.connected.wait(30)
        b.subscribed.wait(30)
        sent: dict[int, float] = {}
        for state in games:
            sent[len(state["moves"])] = time.time()
            a.publish_state(state)
            time.sleep(gap_s)
        b.wait_for(len(games), 30)
        a.stop()
        b.stop()
    delays = [got[ply] - t for ply, t in sent.items() if ply in got]
    return 1000 * percentile(delays, 0.5), 1000 * percentile(delays, 0.99), len(delays)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--boards", type=int, nargs="+", default=[100, 300])
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--move-s", type=float, default=5.0)
    parser.add_argument("--no-browser", action="store_true")
    parser.add_argument("--remote", action="store_true", help="only the remote game's hop (board A to board B)")
    args = parser.parse_args()
    if shutil.which("mosquitto") is None and not Path("/usr/sbin/mosquitto").exists():
        sys.exit("bench/hall.py: mosquitto is not installed")
    print(f"{os.cpu_count()} cores; a move every {args.move_s} s per board (0.5x-1.5x); {args.workers} board "
          f"processes; {args.seconds:.0f} s per run")
    if args.remote:
        r50, r99, count = remote()
        print(f"remote game: final move on board A -> checked and handed on at board B: p50 {r50:.1f} ms, "
              f"p99 {r99:.1f} ms ({count} moves, one every 0.1 s, loopback)")
        return
    for n in args.boards:
        r = run(n, args.seconds, args.workers, args.move_s, not args.no_browser)
        print(f"\n{r['boards']} boards: {r['moves']} moves in {r['seconds']} s ({r['moves_per_s']}/s)")
        b50, b99, bn = r["broker_ms"]
        p50, p99, pn = r["page_ms"]
        print(f"  final move -> broker -> subscriber: p50 {b50:.1f} ms, p99 {b99:.1f} ms ({bn} moves)")
        print(f"  final move -> hall page in Chromium: p50 {p50:.1f} ms, p99 {p99:.1f} ms ({pn} plies shown)")
        for part in ("broker", "hall", "boards_cpu", "chromium"):
            cpu, mem = r[part]
            print(f"  {part:10s} CPU {cpu:5.1f} % of a core, peak RSS {mem:6.1f} MB"
                  + (" (summed over its processes)" if part in ("boards_cpu", "chromium") else ""))


if __name__ == "__main__":
    main()
