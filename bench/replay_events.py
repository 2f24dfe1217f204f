"""Play the sensor events of a game misread on an emulated board (``bench/latency.py --dump
DIR``) through the referee core again, with the times the service gave them: a misreading seen
once under load can then be looked at event by event, and a change to the core tried on it.

    ./dev bench replay_events /tmp/dump/dgt-1.json [--verbose] [--from-ply N]

Deadlines are fired at their own time before each event, as the service's loop does
(``Loop.catch_up``); a clock press is replayed as the service's clock button does it. The
referee's scan period follows the one the service had at each event.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import replace

import engine
from controller.core_types import Event, Timing
from controller.inference import Referee


def replay(path: str, verbose: bool = False, from_ply: int = 0, board_drag_ms: int = 0) -> list[str]:
    return replay_timed(path, verbose, from_ply, board_drag_ms)[0]


def replay_timed(path: str, verbose: bool = False, from_ply: int = 0,
                 board_drag_ms: int = 0) -> tuple[list[str], list[int]]:
    """The moves the core makes final, and when (service ms). ``board_drag_ms``: the drag wait
    the board asked for (a Millennium board's, ``MillenniumDriver.drag_ms``)."""
    with open(path) as f:
        data = json.load(f)
    variant = engine.find_variant("chess")
    referee = Referee(engine.start_position(variant), identity=True, timing=Timing(board_drag_ms=board_drag_ms))
    played: list[str] = []
    finals: list[int] = []
    t = 0

    def took(decision, at: int) -> None:
        for move in decision.accepted:
            played.append(engine.move_text(variant, move))
            finals.append(at)
            if verbose and len(played) > from_ply:
                print(f"{at:8d}  FINAL {played[-1]}  (ply {len(played)}; played {data['played'][len(played) - 1]})")

    for t, cell, down, piece, synthetic, scan_ms in data["events"]:
        if referee.timing.scan_ms != scan_ms:
            referee.timing = replace(referee.timing, scan_ms=scan_ms)
        for _ in range(20):  # (each deadline at its own time, and those a decision sets anew)
            due = referee.deadline
            if due is None or due > t:
                break
            took(referee.tick(due), due)
        if cell < 0:  # the clock button
            if referee.status.provisional and referee.deadline is not None:
                took(referee.tick(max(t, referee.deadline)), t)
            if verbose and len(played) >= from_ply:
                print(f"{t:8d}  press {piece}")
            continue
        code = variant.parse_symbol(piece) if piece and down else 0
        decision = referee.event(Event(cell, down, t, code, resync=synthetic))
        took(decision, t)
        if verbose and len(played) >= from_ply:
            name = variant.geometry.names[cell]
            print(f"{t:8d}  {'place' if down else 'lift '} {name} {piece or ''}{' (synthetic)' if synthetic else ''}"
                  f"  -> {referee.status.message[:90]}  [deadline {referee.deadline}, scan {scan_ms}]")
    for _ in range(20):
        took(referee.tick(t + 60_000), t + 60_000)
    return played, finals


def latencies(data: dict, played: list[str], finals: list[int]) -> list[tuple[int, int, bool]]:
    """(ply, last event -> final in ms, whether the move could be extended) of each ply made
    final right, from the hands' times the bench dumped (``last_event``)."""
    from bench.latency import extendable

    variant = engine.find_variant("chess")
    pos = engine.start_position(variant)
    out = []
    last = {int(k): v for k, v in data.get("last_event", {}).items()}
    for ply, (text, want) in enumerate(zip(played, data["played"], strict=False)):
        if text != want:
            break
        move = pos.parse_move(text)
        if ply in last:
            out.append((ply, finals[ply] - last[ply], extendable(pos, move, True)))
        pos.push(move)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("path")
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--from-ply", type=int, default=0, help="print events from this ply on")
    parser.add_argument("--board-drag", type=int, default=0, help="the drag wait the board asked for (ms)")
    args = parser.parse_args()
    with open(args.path) as f:
        data = json.load(f)
    played, finals = replay_timed(args.path, args.verbose, args.from_ply, args.board_drag)
    moves = data["played"]
    timed = latencies(data, played, finals)
    plain = sorted((ms, ply) for ply, ms, ext in timed if not ext)
    if plain:
        print(f"cannot be extended, last event -> final in the core (no host time): {len(plain)} moves, "
              f"slowest {[(f'ply {p + 1}', ms) for ms, p in plain[-5:]]}")
    first = next((i for i, (a, b) in enumerate(zip(played, moves, strict=False)) if a != b), None)
    print(f"service recorded {len(data['recorded'])} moves, this core {len(played)} of {len(moves)}; "
          + ("move for move" if first is None and len(played) == len(moves) else
             f"first difference at ply {(first if first is not None else len(played)) + 1}: "
             f"{played[first:first + 2] if first is not None else []} for {moves[first or len(played):][:2]}"))


if __name__ == "__main__":
    main()
