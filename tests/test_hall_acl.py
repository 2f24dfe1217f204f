"""The deployment docs' broker rules, as written in docs/hall.md, on a real Mosquitto: one user
per board and one for the hall, and the ACL by which a board writes only its own topics and
reads the others' (for remote games and the operator menu's list of boards). A board that
writes another board's topics reaches nobody."""

from __future__ import annotations

import re
from pathlib import Path

import paho.mqtt.client as mqtt

import engine
from controller.config import Config
from controller.hall_directory import HallDirectory
from controller.hall_publish import HallPublisher
from controller.hall_remote import RemoteBoard
from controller.hall_wire import PREFIX, check_state, dumps
from controller.mosquitto import Mosquitto, make_password_file
from tests.hall_rig import TIMEOUT, Recorder, need_mosquitto, sample_state

REPO = Path(__file__).resolve().parent.parent
CHESS = engine.find_variant("chess")


def documented_acl() -> str:
    """The ACL block of docs/hall.md ("Deploying the broker")."""
    text = (REPO / "docs" / "hall.md").read_text(encoding="utf-8")
    found = re.search(r"and an ACL so that[^\n]*\n\n```\n(.*?)```", text, re.S)
    assert found is not None, "docs/hall.md has no ACL block"
    return found.group(1)


def test_the_documented_acl_lets_boards_play_each_other_and_not_write_for_another(tmp_path) -> None:
    need_mosquitto()
    users = {"A": "a pass", "B": "b pass", "hall": "hall pass"}
    passwords = make_password_file(tmp_path / "passwd", users)
    acl = tmp_path / "hall.acl"
    acl.write_text(documented_acl(), encoding="utf-8")
    with Mosquitto(tmp_path / "broker", password_file=passwords, acl_file=acl) as broker:
        def login(name: str, board: str | None = None) -> Config:
            return Config(hall=broker.url, hall_board=board or name, hall_user=name, hall_password=users[name])

        hall = Recorder(broker.port, user="hall", password=users["hall"])
        a = HallPublisher(login("A")).start()
        moves: list[str] = []
        b = RemoteBoard(login("B"), "A", CHESS, on_move=lambda _g, _p, move: moves.append(move)).start()
        listing = HallDirectory(login("B"), "B").start()
        forger = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="forger")
        forger.username_pw_set("B", users["B"])
        forger.connect("127.0.0.1", broker.port)
        forger.loop_start()
        try:
            assert b.subscribed.wait(TIMEOUT) and listing.subscribed.wait(TIMEOUT)
            a.publish_state(sample_state("chess", ["e2e4"]))
            assert b.wait_for(1, TIMEOUT)  # B reads A's topics: the remote game's moves
            hall.wait(lambda: any(t == f"{PREFIX}A/state" for t, _p, _r in hall.messages))
            with listing.changed:  # and the menu lists A (its state and online message read by B)
                assert listing.changed.wait_for(lambda: listing.boards("chess") == ["A"], TIMEOUT)
            # B writes a state under A's name: the broker takes it (QoS 1) and hands it to nobody
            forger.publish(f"{PREFIX}A/state", dumps(sample_state("chess", ["d2d4"])), qos=1).wait_for_publish(
                TIMEOUT)
            a.publish_state(sample_state("chess", ["e2e4", "e7e5"]))
            assert b.wait_for(2, TIMEOUT)
            hall.wait(lambda: any(t == f"{PREFIX}A/state" and check_state(p)["moves"] == ["e2e4", "e7e5"]
                                  for t, p, _r in hall.messages))
            assert moves == ["e2e4", "e7e5"]
            assert all(check_state(p)["moves"][:1] != ["d2d4"] for t, p, _r in hall.messages if t.endswith("/state"))
        finally:
            forger.disconnect()
            forger.loop_stop()
            listing.stop()
            b.stop()
            a.stop()
            hall.close()
