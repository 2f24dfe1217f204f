"""The service at rest: memory, time to the first frame, and idle CPU.

    ./dev bench idle [--seconds 10]

1. Time to first frame: ``chessery run --headless`` (the demo on the simulated board) from the
   process's start to its first frame written as a PNG. Goal < 2 s.
2. RSS and idle CPU: ``chessery run --kiosk --demo`` on SDL's dummy driver (the same loops as a
   Pi's KMS/DRM screen: the window polls for touches), a two-move demo played, then the process's
   CPU time (utime + stime from /proc) over ``--seconds`` at rest and its VmRSS (the service's own
   process; the demo board runs in a child and is reported apart). Goals: < 100 MB, < 0.5 % of a
   core.
3. Reference in the same run: a bare pygame loop on ``pygame.event.wait(1000)`` with the dummy
   driver -- the way the display loop waited before (SDL implements that wait as 1 ms polling
   on drivers without a native wait) -- measured the same way; the ratio is printed.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
TICK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def children(pid: int) -> list[int]:
    try:
        return [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def env(tmp: Path) -> dict[str, str]:
    e = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
             XDG_CONFIG_HOME=str(tmp / "cfg"), XDG_DATA_HOME=str(tmp / "data"), XDG_CACHE_HOME=str(tmp / "cache"))
    e.pop("DISPLAY", None)
    return e


def first_frame(tmp: Path) -> float:
    frame = tmp / "frame.png"
    t0 = time.monotonic()
    proc = subprocess.Popen([sys.executable, "-m", "controller.cli", "run", "--headless", "--no-gpio",
                             "--db", str(tmp / "ff.sqlite3"), "--frame", str(frame)],
                            cwd=REPO, env=env(tmp), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        while not frame.exists():
            if time.monotonic() - t0 > 60:
                raise SystemExit("no frame within 60 s")
            time.sleep(0.005)
        return time.monotonic() - t0
    finally:
        proc.terminate()
        proc.wait(20)


def idle(tmp: Path, seconds: float) -> tuple[float, float, float]:
    cfg = tmp / "config.toml"
    cfg.write_text('display = "kiosk"\n', encoding="utf-8")
    proc = subprocess.Popen([sys.executable, "-m", "controller.cli", "run", "--kiosk", "--demo", "--no-gpio",
                             "--config", str(cfg), "--db", str(tmp / "idle.sqlite3"), "--demo-moves", "e2e4 e7e5"],
                            cwd=REPO, env=env(tmp), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        time.sleep(12)  # the demo: start, two moves at a watched pace, the board's script ends
        board = children(proc.pid)
        c0, t0 = cpu_seconds(proc.pid), time.monotonic()
        time.sleep(seconds)
        c1, t1 = cpu_seconds(proc.pid), time.monotonic()
        board_rss = sum(rss_mb(p) for p in board)
        return (c1 - c0) / (t1 - t0) * 100, rss_mb(proc.pid), board_rss
    finally:
        proc.terminate()
        proc.wait(20)


REFERENCE = """
import os, pygame
os.environ["SDL_VIDEODRIVER"] = "dummy"
pygame.display.init()
pygame.display.set_mode((800, 480))
while True:
    pygame.event.wait(1000)
"""


def reference(seconds: float) -> float:
    proc = subprocess.Popen([sys.executable, "-c", REFERENCE], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        time.sleep(2)
        c0, t0 = cpu_seconds(proc.pid), time.monotonic()
        time.sleep(seconds)
        return (cpu_seconds(proc.pid) - c0) / (time.monotonic() - t0) * 100
    finally:
        proc.kill()  # SDL turns SIGTERM into an event this loop never reads
        proc.wait(10)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=10.0)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        ff = first_frame(tmp)
        cpu, rss, board = idle(tmp, args.seconds)
        ref = reference(args.seconds)
    print(f"time to first frame (headless demo): {ff:.2f} s   (goal < 2 s)")
    print(f"service RSS at rest: {rss:.1f} MB   (goal < 100 MB; demo board process apart: {board:.1f} MB)")
    print(f"idle CPU over {args.seconds:g} s: {cpu:.2f} % of a core   (goal < 0.5 %)")
    print(f"reference, pygame.event.wait(1000) loop on the dummy driver: {ref:.2f} % of a core")
    if ref > 0:
        print(f"ratio service / reference: {cpu / ref:.2f}")


if __name__ == "__main__":
    main()
