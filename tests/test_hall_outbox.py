"""The publisher's outbox survives a restart of the board: ``chessery run`` on a simulated board
(real pty) publishing to a Mosquitto the test starts; the broker is stopped, moves are made, the
board's service is killed (SIGKILL) and started again, one more move is made, and the broker
comes back: a persistent subscriber gets every event once, in order, in one numbering."""

from __future__ import annotations

import sqlite3

import engine
from controller.hall_outbox import Outbox, outbox_path
from controller.hall_wire import check_state
from engine import start_position
from tests.hall_rig import BoardRun, Recorder

CHESS = engine.find_variant("chess")
GAME = ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "d2d3", "f8c5"]


def test_events_made_while_the_broker_is_away_survive_a_restart_of_the_board(tmp_path, broker) -> None:
    recorder = Recorder(broker.port, client_id="arbiter", session=True)
    board = BoardRun(tmp_path, "b5", broker.url)
    pos = start_position(CHESS)

    def move(text: str) -> None:
        board.hands(pos, text)
        pos.push_text(text)

    try:
        board.start()
        for text in GAME[:2]:
            move(text)
        # the state after the second move: sent once the broker acknowledged that move's event
        # (a broker stopped with an event in flight gets it again, a repeat its number tells)
        recorder.wait(lambda: any(t.endswith("b5/state") and check_state(p)["moves"] == GAME[:2]
                                  for t, p, _r in recorder.messages))
        broker.stop()
        for text in GAME[2:5]:  # refereed, stored, and their events kept while the broker is away
            move(text)
        board.kill()
        # On disk, waiting: the events of the three moves, or of the first two when the kill
        # came between the last move's line and its event (the restart numbers that one from
        # the game last numbered, kept beside the events).
        kept = Outbox(outbox_path(board.db), "b5")
        assert kept.game is not None and len(kept) == len(kept.game["moves"]) - 2 >= 2
        kept.close()
        board.start()
        move(GAME[5])  # one more before the broker is back
        broker.start()
        for text in GAME[6:]:
            move(text)
        recorder.wait(lambda: len(recorder.moves("b5")) >= len(GAME))
        events = recorder.events("b5")
        # every event once (no repeat even of a number), in order, in one numbering across the restart
        assert [e["move"] for e in events if e["kind"] == "move"] == GAME
        numbers = [(e["run"], e["seq"]) for e in events]
        assert len({run for run, _seq in numbers}) == 1
        assert [seq for _run, seq in numbers] == list(range(numbers[0][1], numbers[0][1] + len(numbers)))
        assert board.run.stop() == 0
        con = sqlite3.connect(outbox_path(board.db))
        try:  # the broker took everything
            assert con.execute("SELECT COUNT(*) FROM events").fetchone()[0] == 0
        finally:
            con.close()
    finally:
        recorder.close()
        board.close()


def test_an_outbox_of_another_board_or_not_a_database_is_set_aside(tmp_path, caplog) -> None:
    path = tmp_path / "games.sqlite3.hall-outbox"
    first = Outbox(path, "b1")
    first.add([b'{"seq":1}', b'{"seq":2}'], 2, {"game": 1, "moves": ["e2e4", "e7e5"], "san": ["e4", "e5"],
                                                "status": "idle", "result": "*"})
    first.sent()
    first.close()
    again = Outbox(path, "b1")  # the same board: its numbering and the event not yet sent
    assert (again.run, again.seq, len(again), again.first()) == (first.run, 2, 1, b'{"seq":2}')
    again.close()
    with caplog.at_level("WARNING", logger="chessery.hall"):
        other = Outbox(path, "b2")  # renamed: the old name's events are not this board's
        assert (other.seq, len(other), other.game) == (0, 0, None)
        other.close()
        garbage = tmp_path / "garbage.hall-outbox"
        garbage.write_bytes(b"not a database" * 100)
        kept = Outbox(garbage, "b1")  # unusable: in memory, and the board plays on
        kept.add([b"{}"], 1, {"game": 1, "moves": [], "san": [], "status": "idle", "result": "*"})
        assert len(kept) == 1
    assert "was board b1's outbox, not b2's" in caplog.text
    assert "cannot be used" in caplog.text
