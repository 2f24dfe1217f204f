"""A remote game survives a restart of either side: two ``chessery run`` processes, each
refereeing its own simulated board (real ptys held by the test: the boards and their pieces stay
while a service is down), one Mosquitto the test starts. Board A plays White with Black
``remote:B``; board B the other way round. Mid-game, B's service is killed (SIGKILL: nothing
said, nothing saved beyond what it stored) and A's player moves meanwhile; B comes back on the
same games file and shows that move to carry out. Later A's service is killed with B's move
just made, and A, back, shows it. The game goes on; both boards store and print every move once.
"""

from __future__ import annotations

import engine
from engine import start_position
from tests.hall_rig import BoardRun, Recorder

CHESS = engine.find_variant("chess")
GAME = ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "d2d3", "f8c5", "c2c3", "d7d6"]


def test_a_remote_game_plays_on_after_either_sides_service_is_killed_and_restarted(tmp_path, broker) -> None:
    from controller.store import GameStore

    recorder = Recorder(broker.port)
    a = BoardRun(tmp_path, "A", broker.url, black="remote:B")
    b = BoardRun(tmp_path, "B", broker.url, white="remote:A")
    sides = {"A": a, "B": b}
    try:
        a.start()
        b.start()
        pos = start_position(CHESS)

        def play(n: int, *, kill_after_move: BoardRun | None = None) -> None:
            """The game's move ``n``: made on the mover's board, shown and carried out on the
            other (whose service, with ``kill_after_move``, is killed before it learns of the
            move and started again)."""
            text = GAME[n]
            here, there = (a, b) if pos.side == 0 else (b, a)
            if kill_after_move is there:
                there.kill()
            here.hands(pos, text)
            if kill_after_move is there:
                # the move is in the broker (the hall saw it) while the other side is down
                recorder.wait(lambda: recorder.moves(here.name)[-1:] == [text])
                there.start()
            there.shows(text, here.name)
            there.hands(pos, text)
            pos.push_text(text)

        for n in range(4):
            play(n)
        play(4, kill_after_move=b)  # B's service is down while A's player makes White's 3rd move
        for n in range(5, 7):
            play(n)
        play(7, kill_after_move=a)  # and A's while B's player makes Black's 4th
        for n in range(8, len(GAME)):
            play(n)
        for side in sides.values():
            assert side.printed == GAME, side.name  # each move printed once, across its runs
            assert side.run.stop() == 0
            with GameStore(side.db) as store:
                records = [store.game(g) for g in store.game_ids()]
                assert [r.moves for r in records if r is not None] == [tuple(GAME)], side.name
        # the hall saw each board's moves once each, in order, across the restarts
        assert len(a.runs) == len(b.runs) == 2
        recorder.wait(lambda: all(len(recorder.moves(name)) >= len(GAME) for name in sides))
        for name in sides:
            assert recorder.moves(name) == GAME, name
    finally:
        recorder.close()
        for side in sides.values():
            side.close()
