"""Driving the move-inference core in tests: an event script replayed on its own clock
(``play``), events at exact times ticked at the core's deadlines as the service does
(``play_timed``), and what came out (``told``, ``texts``)."""

from __future__ import annotations

import engine
from controller.inference import Event, Referee, Timing
from controller.replay import Replayer
from firmware_bridge.script import parse_script

CHESS = engine.find_variant("chess")


def play(script: str, fen: str | None = None, variant=CHESS, identity: bool = False,
         settle: bool = True) -> Replayer:
    pos = engine.parse_fen(variant, fen) if fen else engine.start_position(variant)
    r = Replayer(pos, identity=identity)
    for command in parse_script(script, variant):
        r.feed(command)
    if settle:
        r.settle()
    return r


def told(r: Replayer) -> list[str]:
    """Every distinct status message, in order."""
    return [s.message for _t, s in r.log.statuses()]


# a board that scans its squares in turn (DGT: a full scan 200-250 ms)
DGT = Timing(scan_ms=250)


def play_timed(events: list[tuple[int, str, bool, str]], fen: str | None = None, timing: Timing = DGT,
               variant=CHESS, identity: bool = True) -> Referee:
    """Events at exact times (``(t, cell, placed, piece)``), ticking the core at its deadlines on
    the way, as the service does."""
    pos = engine.parse_fen(variant, fen) if fen else engine.start_position(variant)
    core = Referee(pos, identity=identity, timing=timing)
    for t, name, placed, piece in events:
        while (d := core.deadline) is not None and d <= t:
            core.tick(d)
        core.event(Event(variant.geometry.index(name), placed, t, variant.parse_symbol(piece) if piece else 0))
    for _ in range(20):  # (a deadline may fall due at once again: a move read after the one before)
        if (d := core.deadline) is None:
            break
        core.tick(d)
    return core


def texts(core: Referee) -> list[str]:
    pos = core.position.copy()
    moves = list(pos.move_stack)
    for _ in moves:
        pos.pop()
    out = []
    for m in moves:
        out.append(pos.move_text(m))
        pos.push(m)
    return out
