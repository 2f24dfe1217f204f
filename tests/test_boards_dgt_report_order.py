"""A DGT board reports each square when its scan reaches it (a full scan 200-250 ms, a8 to h1),
so the next player's hand at work just after the mover's piece went on from a square it paused
on can be reported first, when its square comes earlier in the scan (issue 23: hesitant slides
read short on the emulated DGT board). The referee then waits one scan from the next player's
report for the mover's piece going on before a reading that could go on is final.

The emulator starts the script as its scan reaches a known square, so which square it reports
first is known: here White's queen rests on e2 (on its way from d1 to f3) and goes on as the scan
has just passed e2 and f3; Black's hand is on b8, which the scan reaches next, within 40 ms."""

from __future__ import annotations

import pytest

import engine
from controller.core_types import Event, Timing
from controller.inference import Referee
from firmware_bridge.boards.dgt import DgtDriver
from firmware_bridge.boards.emulators import DgtEmulator
from firmware_bridge.events import SensorEvent
from tests.emulated_boards import TIMEOUT, driver_on, eventually

CHESS = engine.find_variant("chess")
SCAN_MS = 220
#: Where the scan stands when the queen goes on from e2 (wire number, a8 = 0): past f3 (45) and
#: e2 (52), so their changes come nearly a scan later; b8 (1) comes within 40 ms.
PHASE = 54

OPENING = f"""
lift e2
place e4 P
sleep 400
lift e7
place e5 p
sleep 400
lift d1
place e2 Q
sleep {7 * SCAN_MS - 800}
lift e2
place f3 Q
sleep 10
lift b8
"""

#: Black's knight goes down after the lift (the lift alone first, then a whole reply, both
#: reported before the queen's squares).
REPLIES = {
    "the next player's lift": "sleep 300\nplace c6 n\nsleep 400\n",
    "the next player's whole move": "sleep 50\nplace c6 n\nsleep 400\n",
}


@pytest.mark.parametrize("reply", REPLIES)
def test_a_dgt_board_reads_a_slide_going_on_as_the_next_player_starts(reply: str) -> None:
    with DgtEmulator("chess", scan_ms=SCAN_MS) as emulator, driver_on(emulator, DgtDriver) as link:
        emulator.start_script(OPENING + REPLIES[reply], at_square=PHASE)
        assert emulator.done.wait(TIMEOUT)
        events: list[SensorEvent] = []
        assert eventually(lambda: _drained(link, events) and len(events) >= 10)
        scan_ms = link.scan_ms
    # What the board reported, in its order: Black's hand before the queen going on.
    order = [f"{'place' if ev.placed else 'lift'} {CHESS.geometry.names[ev.cell]}" for ev in events]
    assert order.index("lift b8") < order.index("place f3") < order.index("lift e2", order.index("place e2"))
    referee = Referee(engine.start_position(CHESS), identity=True, timing=Timing(scan_ms=scan_ms))
    t0 = events[0].host_time
    played: list[str] = []
    t = 0
    for ev in events:
        t = int((ev.host_time - t0) * 1000)
        for move in referee.tick(t).accepted + referee.event(Event(
                ev.cell, ev.placed, t, CHESS.parse_symbol(ev.piece) if ev.piece else 0)).accepted:
            played.append(engine.move_text(CHESS, move))
    for _ in range(4):  # (the last reading is final at the end of its wait)
        for move in referee.tick(t + 60_000).accepted:
            played.append(engine.move_text(CHESS, move))
    if reply == "the next player's whole move":
        # Black's knight down before the queen on f3, as reported: d1e2, b8c6, e2f3 fits the
        # board as well (the queen's lift from e2 and Black's from b8 were 10 ms apart), so
        # the referee asks (controller/two_readings.py).
        prompt = referee.status.prompt
        assert played == ["e2e4", "e7e5"] and prompt is not None
        assert sorted(o.texts for o in prompt.options if o.moves) == [("d1e2", "b8c6", "e2f3"), ("d1f3", "b8c6")]
        return
    assert played == ["e2e4", "e7e5", "d1f3", "b8c6"]


def _drained(link: DgtDriver, into: list[SensorEvent]) -> bool:
    while not link.events.empty():
        item = link.events.get_nowait()
        if isinstance(item, SensorEvent) and not item.synthetic:
            into.append(item)
    return True
