"""A board that sends a numbered frame again with other content, and loses a lift frame to garbage
(issue 29): the first frame stands, the repeat is named and counted and never reaches the event
history, and the move after the lost lift is read all the same -- through a real pty, with the
reference firmware's code behind it."""

from __future__ import annotations

import logging

import engine
from controller.status import format_status, link_status
from firmware_bridge import Link, SensorEvent, SimBoard, parse_script
from firmware_bridge.faults import parse_faults
from firmware_bridge.messages import Event, Heartbeat
from firmware_bridge.repeats import WINDOW, RecentFrames, Repeat

CHESS = engine.find_variant("chess")
WAIT = 30.0

#: The issue's reproduction: 1. a4 Nf6 2. f4 Ne4 3. b3 f5 4. Nf3, then Ne4-g5.
GAME = ["a2a4", "g8f6", "f2f4", "f6e4", "b2b3", "f7f5", "g1f3", "e4g5"]
#: Action 4 is the place on f6 (the last event of 1... Nf6), action 15 the lift of e4.
FAULTS = "resend=20@4,smash=12@15"


def script(moves: list[str]) -> str:
    return "".join(f"lift {m[:2]}\nplace {m[2:]}\n" for m in moves)


def test_the_faults_parse() -> None:
    faults = parse_faults("resend@4,resend=35@6,smash@15,smash=3@2")
    assert faults.resends == {4: 20, 6: 35} and faults.smashes == {15: 8, 2: 3} and faults.any


def test_a_repeat_is_told_from_a_new_frame_by_its_number_and_content() -> None:
    recent = RecentFrames()
    first = Event(12, 2, 0, 1000, seq=7)
    recent.note(first)
    assert recent.check(first, expected=8) is Repeat.DUPLICATE
    assert recent.check(Event(12, 2, 0, 1020, seq=7), expected=8) is Repeat.REUSED
    assert recent.check(Event(12, 2, 0, 1020, seq=8), expected=8) is Repeat.NEW  # the next one
    assert recent.check(Heartbeat(5, 1, seq=6), expected=8) is Repeat.NEW  # never seen
    for seq in range(8, 8 + WINDOW):
        recent.note(Heartbeat(seq, 1, seq=seq))
    assert recent.check(first, expected=8 + WINDOW) is Repeat.NEW  # forgotten: bounded
    recent.clear()
    assert recent.check(Heartbeat(9, 1, seq=9), expected=10) is Repeat.NEW


def test_a_reused_number_is_counted_and_named_and_its_event_is_not_delivered(caplog) -> None:
    caplog.set_level(logging.WARNING, logger="firmware_bridge.link")
    with SimBoard(CHESS, heartbeat_ms=100, faults="resend=20@2") as board:
        board.start_script(script(["e2e4", "e7e5"]))
        with Link(board.path) as link:
            assert link.wait_connected(WAIT)
            events: list[SensorEvent] = [link.events.get(timeout=WAIT) for _ in range(4)]
            assert board.done.wait(WAIT)
            link.ping(WAIT)  # every frame the board sent before the ping's answer has been handled
            stats = link.stats
            assert link.events.empty()  # no fifth event: the repeat was not delivered
    wanted = [(c.cell, type(c).__name__.lower()) for c in parse_script(script(["e2e4", "e7e5"]), CHESS)]
    assert [(e.cell, e.action, e.synthetic) for e in events] == [(c, a, False) for c, a in wanted]
    assert board.faulty.frames.resent == 1
    assert stats["reused_seq"] == 1 and stats["gaps"] == 0 and stats["synthetic"] == 0, stats
    assert any("came again with other content" in r.getMessage() for r in caplog.records)


def test_the_issue_reproduction_through_the_service_records_e4g5(rig) -> None:
    r = rig(FAULTS)
    r.board.start_script(script(GAME))
    r.wait(lambda: len(r.accepted) >= len(GAME))
    assert [m for _, m in r.accepted] == GAME
    assert r.board.faulty.frames.resent == 1 and r.board.faulty.frames.smashed == 1
    stats = r.service.links[0].stats
    assert stats["reused_seq"] == 1 and stats["gaps"] >= 1, stats
    assert r.store.game(1).moves == tuple(GAME)
    # `chessery status` names it among the errors
    lines = format_status({"pid": 1, "running": False, "boards": [link_status(r.service.links[0])]})
    errors = next(line for line in lines if line.startswith("  errors: "))
    assert "reused_seq 1" in errors.split(": ", 1)[1].split(", ")
