"""The broker's half of a remote game: the other board's final moves reach this one in order,
once each, checked by our engine, across a broker restart; a hostile or illegal move stops
there."""

from __future__ import annotations

import logging

import engine
from controller.config import Config
from controller.hall_publish import HallPublisher
from controller.hall_remote import RemoteBoard
from controller.hall_wire import PREFIX, dumps
from tests.hall_rig import TIMEOUT, sample_state

CHESS = engine.find_variant("chess")
GAME = ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6"]


def test_the_other_boards_moves_arrive_in_order_once_each_across_a_broker_restart(broker) -> None:
    seen: list[tuple[int, int, str]] = []
    a = HallPublisher(Config(hall=broker.url, hall_board="A")).start()
    b = RemoteBoard(Config(hall=broker.url, hall_board="B"), "A", CHESS,
                    on_move=lambda game, ply, move: seen.append((game, ply, move))).start()
    try:
        assert b.subscribed.wait(TIMEOUT)
        for n in range(1, 4):
            a.publish_state(sample_state("chess", GAME[:n], game=7))
        assert b.wait_for(3, TIMEOUT)
        broker.stop()
        for n in range(4, 7):
            a.publish_state(sample_state("chess", GAME[:n], game=7))
        broker.start()
        for n in range(7, len(GAME) + 1):
            a.publish_state(sample_state("chess", GAME[:n], game=7))
        assert b.wait_for(len(GAME), TIMEOUT)
        assert seen == [(7, ply, move) for ply, move in enumerate(GAME, 1)]
        assert b.moves == GAME
    finally:
        a.stop()
        b.stop()


def test_an_illegal_or_inconsistent_move_from_the_other_board_is_dropped(broker, caplog) -> None:
    import paho.mqtt.client as mqtt

    b = RemoteBoard(Config(hall=broker.url, hall_board="B"), "A", CHESS).start()
    raw = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="fake-A")
    raw.connect("127.0.0.1", broker.port)
    raw.loop_start()
    try:
        assert b.subscribed.wait(TIMEOUT)
        with caplog.at_level(logging.WARNING, logger="chessery.hall"):
            for state in (sample_state("chess", ["e2e4"]),
                          dict(sample_state("chess", ["e2e4"]), moves=["e2e4", "e2e4"], san=["e4", "e4"]),
                          dict(sample_state("chess", ["e2e4", "e7e5"]), fen="8/8/8/8/8/8/8/8 w - - 0 1"),
                          sample_state("sesqui", []),
                          sample_state("chess", ["d2d4"]),  # a takeback of e2e4: never in a remote game
                          sample_state("chess", ["e2e4", "c7c5"])):
                raw.publish(f"{PREFIX}A/state", dumps(state), qos=1).wait_for_publish(TIMEOUT)
            assert b.wait_for(2, TIMEOUT)
        assert b.moves == ["e2e4", "c7c5"]
        dropped = [r.getMessage() for r in caplog.records if "dropped a message from A" in r.getMessage()]
        assert len(dropped) == 4, dropped
    finally:
        raw.disconnect()
        raw.loop_stop()
        b.stop()


def test_a_board_restarted_mid_game_learns_the_other_boards_moves_again(broker) -> None:
    """Board B (re)starts after A has played: the retained state brings A's game, move by move."""
    a = HallPublisher(Config(hall=broker.url, hall_board="A")).start()
    try:
        a.publish_state(sample_state("chess", GAME[:3], game=2))
        assert a.connected.wait(TIMEOUT)
        late: list[tuple[int, int, str]] = []
        b = RemoteBoard(Config(hall=broker.url, hall_board="B"), "A", CHESS,
                        on_move=lambda game, ply, move: late.append((game, ply, move))).start()
        try:
            assert b.wait_for(3, TIMEOUT)
            a.publish_state(sample_state("chess", GAME[:4], game=2))
            assert b.wait_for(4, TIMEOUT)
            assert late == [(2, ply, move) for ply, move in enumerate(GAME[:4], 1)]
        finally:
            b.stop()
    finally:
        a.stop()
