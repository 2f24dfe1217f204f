"""Why a move that cannot be extended was slow on the emulated DGT board: the games dumped by
``./dev bench latency --no-core --boards dgt --dump DIR`` (``bench/board_games.py``), with the
emulator's own logs, taken apart move by move.

    ./dev bench dgt_causes DIR [--goal 270] [--verbose]

For each move that cannot be extended (recorded as played), the time from the hand's last touch
(the bench handing the burst to the emulator) to the move final is split at:

* ``applied``: the emulator's board thread put the hand's action on its board (its tick);
* ``seen``: the scan came round to the move's last reported square and queued the field update;
* ``sent``: the update left the emulator's line (9600 baud: 5.2 ms, more behind a dump);
* ``read``: the driver read it and made it an event (the pty, the host's scheduling);
* ``final``: the referee made the move final (the service, the referee's waits).

Each move slower than ``--goal`` is put down to one cause, the first that holds:

* ``never seen``: the board never reported the move's piece on its landing square before the
  move was final (it rested there less than a scan: the move is read once a later report, the
  piece going on or taken, reveals it);
* ``held with the move before``: made final together with the move before, which could go on
  and which the referee held (one scan after the next player's first report, or a lift that
  fits both readings): a move is never final before the one it follows;
* ``read with the move after``: made final together with the next move, whose reports the
  referee needed to read it (hands overlapping: the next player's reports came in among this
  move's, within a scan);
* ``line busy``: the field update waited on the line behind another message (a dump, a reply);
* ``host``: the emulator applied the touch, or the driver read the update, late (threads, load);
* ``scan not learnt``: the referee still waited for the slowest DGT scan (250 ms);
* ``correction``: the move's last change came as a dump's correction, not a field update;
* ``referee``: the rest of the time went to the referee's own wait after the report.
"""

from __future__ import annotations

import argparse
import glob
import json
from collections import Counter
from collections.abc import Sequence

import engine
from bench.latency import extendable, pct
from firmware_bridge.boards.driver import cell_to_wire

FIELD_UPDATE = 0x8E
#: A field update's five bytes at 9600 baud, and a little: more on the line means it waited.
LINE_MS = 7.0
#: More than this from the touch to the emulator's board, or from the line to the driver, is late.
HOST_LATE_MS = 15.0
SLOWEST_SCAN_MS = 250
#: The referee's margin after a scan (``scan_guard.SCAN_MARGIN_MS``).
HOLD_MARGIN_MS = 10


def moves_of(path: str) -> list[dict]:
    """One row per move that cannot be extended in one dumped game."""
    with open(path) as f:
        d = json.load(f)
    variant = engine.find_variant("chess")
    events, finals = d["events"], d["finals"]
    last = {int(k): v for k, v in d["last_event"].items()}
    first = {int(k): v for k, v in d["first_event"].items()}
    # (a field update's square is its fourth byte; -1: not logged, any update matches)
    updates = [(out, head[3] if len(head) > 3 else -1, q, due) for q, due, out, head, change in d["line"]
               if change and out is not None and head[0] == FIELD_UPDATE]
    rows: list[dict] = []
    pos = engine.start_position(variant)
    for ply, text in enumerate(d["recorded"]):
        if ply >= len(d["played"]) or text != d["played"][ply] or ply >= len(finals):
            break
        move = pos.parse_move(text)
        if ply in last and not extendable(pos, move, True):
            final = finals[ply]
            cells = move.changed_cells
            mine = [e for e in events if e[1] in cells and first[ply] <= e[0] <= final]
            landing = {(c, variant.symbol(a)) for c, b, a in move.changes if a and b != a}
            row = {"game": path, "ply": ply + 1, "move": text, "total": final - last[ply], "scan": None,
                   "applied": None, "seen": None, "sent": None, "read": None, "synthetic": False,
                   "landed": any((e[1], e[3]) in landing and e[2] for e in mine),
                   "together": ply > 0 and final - finals[ply - 1] < 5,
                   "with_next": ply + 1 < len(finals) and finals[ply + 1] - final < 5}
            applied = [t for t, _sq, _p in d["hands"] if last[ply] - 1 <= t <= last[ply] + 200]
            if applied:
                row["applied"] = min(applied) - last[ply]
            if mine:
                row["first_report"] = min(e[0] for e in mine) - last[ply]
                t, cell, _down, _piece, synthetic, scan = max(mine, key=lambda e: e[0])
                row["read"], row["synthetic"], row["scan"] = t - last[ply], synthetic, scan
                wire = cell_to_wire(cell)
                sent = [(out, q, due) for out, square, q, due in updates if square in (wire, -1) and out <= t + 1]
                if sent and not synthetic:
                    out, q, due = max(sent)
                    row["seen"], row["sent"], row["due"] = q - last[ply], out - last[ply], due - last[ply]
            rows.append(row)
        pos.push(move)
    return rows


def cause(row: dict) -> str:
    if not row["landed"]:
        return "never seen"
    if row["together"]:
        # (the move before could go on: held one scan + 10 ms after this move's first report,
        # scan_guard.merged_hold, or longer, when a later report fitted it going on too)
        first = row.get("first_report")
        scan_hold = first is not None and row["scan"] is not None and \
            abs(row["total"] - (first + row["scan"] + HOLD_MARGIN_MS)) <= 15
        return "held with the move before: one scan after this move's first report" if scan_hold \
            else "held with the move before: until a later report"
    if row["with_next"]:
        return "read with the move after"
    if row["seen"] is not None and row["due"] - row["seen"] > LINE_MS:
        return "line busy"
    if (row["applied"] or 0) > HOST_LATE_MS or (row["sent"] is not None and row["read"] - row["sent"] > HOST_LATE_MS):
        return "host"
    if row["scan"] == SLOWEST_SCAN_MS:
        return "scan not learnt"
    if row["synthetic"]:
        return "correction"
    return "referee"


def summary(name: str, xs: Sequence[float]) -> str:
    if not xs:
        return f"  {name}: none"
    return (f"  {name}: {len(xs)}, p50 {pct(xs, 50):.0f}  p95 {pct(xs, 95):.0f}  p99 {pct(xs, 99):.0f}  "
            f"max {max(xs):.0f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder")
    parser.add_argument("--goal", type=float, default=270.0)
    parser.add_argument("--verbose", action="store_true", help="print every slow move's times")
    args = parser.parse_args()
    rows = [r for path in sorted(glob.glob(f"{args.folder}/dgt-*.json")) for r in moves_of(path)]
    print(f"{len(rows)} moves that cannot be extended, recorded as played")
    print(summary("hand's last touch -> final", [r["total"] for r in rows]))
    timed = [r for r in rows if r["seen"] is not None and r["applied"] is not None]
    print(summary("touch -> the emulator's board (its tick)", [r["applied"] for r in timed]))
    print(summary("the emulator's board -> the scan queues the update", [r["seen"] - r["applied"] for r in timed]))
    print(summary("queued -> on the line (the line's time)", [r["sent"] - r["seen"] for r in timed]))
    print(summary("on the line -> the driver's event (pty, host)", [r["read"] - r["sent"] for r in timed]))
    print(summary("the driver's event -> final (the service, the referee)", [r["total"] - r["read"] for r in timed]))
    alone = [r["total"] for r in rows if not r["together"]]
    print(summary("touch -> final, read alone", alone))
    print(summary("touch -> final, final together with the move before", [r["total"] for r in rows if r["together"]]))
    slow = [r for r in rows if r["total"] > args.goal]
    causes = Counter(cause(r) for r in slow)
    print(f"slower than {args.goal:.0f} ms: {len(slow)} of {len(rows)}")
    for name, n in causes.most_common():
        print(f"  {name}: {n}")
    if args.verbose:
        for r in sorted(slow, key=lambda r: -r["total"]):
            print(f"  {r['game'].rsplit('/', 1)[-1]} ply {r['ply']} {r['move']}: {r['total']:.0f} ms, {cause(r)}; "
                  + ", ".join(f"{k} {r[k]:.0f}" for k in ("applied", "seen", "sent", "read") if r[k] is not None)
                  + f", first report {r.get('first_report', 0):.0f}, scan {r['scan']}")


if __name__ == "__main__":
    main()
