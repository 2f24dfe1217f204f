"""A remote game: two services, each refereeing its own simulated board (real ptys), playing one
game over a Mosquitto broker the test starts. Board A has White at it and Black as
``remote:B``; board B the other way round. Each move made on one board is shown on the other
(what to lift, where to put it), carried out there by the test's hands, and accepted there only
as that move."""

from __future__ import annotations

import engine
from controller.session import Phase
from engine import start_position
from tests.opponent_moves import accepted, announced, hands
from tests.service_rig import Rig

CHESS = engine.find_variant("chess")
GAME = ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6"]


def test_two_boards_play_one_game_over_the_broker(tmp_path, broker) -> None:
    rigs: dict[str, Rig] = {}
    try:
        for name, other, side in (("A", "B", "black"), ("B", "A", "white")):
            (tmp_path / name).mkdir()
            rigs[name] = Rig(tmp_path / name, "", hall=broker.url, hall_board=name,
                             players=((side, f"remote:{other}"),))
            rigs[name].service.start()
        for r in rigs.values():
            r.wait(lambda r=r: r.service.session.phase == Phase.PLAY)
        pos = start_position(CHESS)
        for n, text in enumerate(GAME):
            here, there = (rigs["A"], rigs["B"]) if pos.side == 0 else (rigs["B"], rigs["A"])
            hands(here, pos, text)  # the player at this board moves
            accepted(here, n + 1, text)
            shown = announced(there, n)  # the other board shows it ...
            assert shown["move"] == text and "lift" in shown["say"]
            hands(there, pos, text)  # ... and its player carries it out
            accepted(there, n + 1, text)
            pos.push_text(text)
        for r in rigs.values():
            assert [t for _game, t in r.accepted] == GAME
            assert r.games()[-1][0] == tuple(GAME)
    finally:
        for r in rigs.values():
            r.close()
