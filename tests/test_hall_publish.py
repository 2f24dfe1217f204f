"""A board's service publishing its game to a real Mosquitto the test starts: retained state,
one event per final move, the last will, a broker killed and restarted mid-game, and a board
whose password is wrong."""

from __future__ import annotations

import json
import logging
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

import engine
from controller.config import Config
from controller.event_scripts import script_for_moves
from controller.hall_model import HallModel
from controller.hall_publish import HallPublisher
from controller.hall_wire import PREFIX, check_online, check_state, dumps
from controller.mosquitto import Mosquitto, make_password_file
from tests.hall_rig import TIMEOUT, Recorder, need_mosquitto, sample_state

REPO = Path(__file__).resolve().parent.parent
CHESS = engine.find_variant("chess")
GAME = ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6"]


def play(rig, moves: list[str], done: list[str]) -> None:
    """Play ``moves`` on the simulated board after ``done``; wait until the service took them."""
    pos = engine.start_position(CHESS)
    for text in done:
        pos.push_text(text)
    rig.board.start_script("\n".join(script_for_moves(CHESS, moves, fen=pos.fen())))
    rig.wait(lambda: len(rig.accepted) >= len(done) + len(moves))
    done += moves


def test_a_board_publishes_its_state_and_each_final_move(rig, broker) -> None:
    recorder = Recorder(broker.port)
    board = rig(hall=broker.url, hall_board="b1")
    done: list[str] = []
    try:
        play(board, GAME[:4], done)
        recorder.wait(lambda: any(t.endswith("b1/state") and check_state(p)["moves"] == GAME[:4]
                                  for t, p, _ in recorder.messages))
        assert recorder.moves("b1") == GAME[:4]
        events = recorder.events("b1")
        assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
        assert [e["san"] for e in events if e["kind"] == "move"] == ["e4", "e5", "Nf3", "Nc6"]
        states = [check_state(p) for t, p, _ in recorder.messages if t == f"{PREFIX}b1/state"]
        last = states[-1]
        assert last["moves"] == GAME[:4] and last["variant"] == "chess" and last["status"] == "idle"
        assert last["fen"] == board.service.session.position.fen()
        assert last["seq"] == events[-1]["seq"]
        # every state the broker carried holds final moves only: each is a prefix of the game
        assert all(s["moves"] == GAME[:len(s["moves"])] for s in states)
        online = [check_online(p) for t, p, _ in recorder.messages if t == f"{PREFIX}b1/online"]
        assert online[-1] is True
    finally:
        board.close()
        recorder.wait(lambda: check_online([p for t, p, _ in recorder.messages if t.endswith("b1/online")][-1])
                      is False)
        recorder.close()


def test_a_broker_restarted_mid_game_loses_no_move_and_repeats_none(rig, broker) -> None:
    """Stopped (it saves its persistence file) while two moves are played, then started again:
    the subscriber's persistent session gets every move once, in order."""
    recorder = Recorder(broker.port, client_id="arbiter", session=True)
    hall = HallModel()
    board = rig(hall=broker.url, hall_board="b2")
    done: list[str] = []
    try:
        play(board, GAME[:2], done)
        recorder.wait(lambda: len(recorder.moves("b2")) == 2)
        broker.stop()
        play(board, GAME[2:5], done)  # refereed and stored while the broker is away
        broker.start()
        play(board, GAME[5:], done)
        recorder.wait(lambda: any(t.endswith("b2/state") and check_state(p)["moves"] == GAME
                                  for t, p, _ in recorder.messages))
        assert recorder.moves("b2") == GAME
        seqs = [e["seq"] for e in recorder.events("b2")]
        assert seqs == sorted(seqs)  # a resend may repeat a number, never reorder
        for t, p, _ in list(recorder.messages):
            hall.feed(t, p)
        view = hall.snapshot("b2")
        assert view is not None and view.state is not None and view.state["moves"] == GAME
    finally:
        board.close()
        recorder.close()


def test_a_broker_killed_without_saving_learns_the_whole_game_again(rig, broker) -> None:
    """SIGKILL: the broker forgets every retained message; the board publishes its whole state
    again when it is back, and a hall that joins later sees the game to its last move."""
    board = rig(hall=broker.url, hall_board="b3")
    done: list[str] = []
    try:
        play(board, GAME[:3], done)
        assert board.service.hall is not None and board.service.hall.connected.wait(TIMEOUT)
        broker.stop(kill=True)
        play(board, GAME[3:6], done)
        broker.start()
        late = Recorder(broker.port, client_id="late")
        late.wait(lambda: any(t.endswith("b3/state") and check_state(p)["moves"] == GAME[:6]
                              for t, p, _ in late.messages))
        late.close()
    finally:
        board.close()


def test_the_last_will_says_a_board_that_vanished_is_offline(broker, tmp_path) -> None:
    code = ("import sys, time\n"
            "from controller.config import Config\n"
            "from controller.hall_publish import HallPublisher\n"
            "from tests.hall_rig import sample_state\n"
            f"p = HallPublisher(Config(hall={broker.url!r}, hall_board='gone')).start()\n"
            "p.publish_state(sample_state('chess', ['e2e4']))\n"
            "p.connected.wait(30); print('up', flush=True); time.sleep(120)\n")
    recorder = Recorder(broker.port)
    proc = subprocess.Popen([sys.executable, "-c", code], cwd=REPO, stdout=subprocess.PIPE,
                            env=dict(os.environ, PYTHONPATH=str(REPO)))
    try:
        assert proc.stdout is not None and proc.stdout.readline() == b"up\n"
        recorder.wait(lambda: any(t.endswith("gone/online") and check_online(p) for t, p, _ in recorder.messages))
        proc.send_signal(signal.SIGKILL)  # no goodbye: the broker speaks the will
        proc.wait(TIMEOUT)
        recorder.wait(lambda: [check_online(p) for t, p, _ in recorder.messages if t.endswith("gone/online")][-1]
                      is False)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(TIMEOUT)
        if proc.stdout is not None:
            proc.stdout.close()
        recorder.close()


def test_a_board_with_a_wrong_password_is_refused_and_says_so(tmp_path, caplog) -> None:
    need_mosquitto()
    passwords = make_password_file(tmp_path / "passwd", {"board7": "right horse", "hall": "hall pass"})
    with Mosquitto(tmp_path / "broker", password_file=passwords) as broker:
        wrong = HallPublisher(Config(hall=broker.url, hall_board="b7", hall_user="board7", hall_password="wrong"))
        right = HallPublisher(Config(hall=broker.url, hall_board="b7", hall_user="board7",
                                     hall_password="right horse"))
        recorder = Recorder(broker.port, user="hall", password="hall pass")
        try:
            with caplog.at_level(logging.ERROR, logger="chessery.hall"):
                wrong.start()
                wrong.publish_state(sample_state("chess", ["e2e4"]))
                assert wrong.answered.wait(TIMEOUT)
            assert "not authorized" in wrong.refused.lower() or "password" in wrong.refused.lower()
            assert any("refused board b7" in r.getMessage() for r in caplog.records)
            assert not wrong.connected.is_set()
            right.start()
            right.publish_state(sample_state("chess", ["d2d4"]))
            recorder.wait(lambda: any(t.endswith("b7/state") for t, _p, _r in recorder.messages))
            assert [check_state(p)["moves"] for t, p, _ in recorder.messages if t.endswith("b7/state")] == [["d2d4"]]
        finally:
            wrong.stop()
            right.stop()
            recorder.close()


def test_publishing_the_same_state_again_sends_nothing(broker) -> None:
    recorder = Recorder(broker.port)
    publisher = HallPublisher(Config(hall=broker.url, hall_board="same")).start()
    try:
        state = sample_state("chess", ["e2e4"])
        publisher.publish_state(state)
        publisher.publish_state(dict(state, updated=5))
        publisher.publish_state(sample_state("chess", ["e2e4", "e7e5"]))
        recorder.wait(lambda: any(t.endswith("same/state") and len(check_state(p)["moves"]) == 2
                                  for t, p, _ in recorder.messages))
        states = [json.loads(p) for t, p, _ in recorder.messages if t.endswith("same/state")]
        # states in between may be skipped (the latest goes), never repeated or reordered
        assert [s["moves"] for s in states] in ([["e2e4"], ["e2e4", "e7e5"]], [["e2e4", "e7e5"]])
        assert [e["seq"] for e in recorder.events("same")] == [1, 2] and publisher.seq == 2
    finally:
        publisher.stop()
        recorder.close()
    assert dumps({"a": 1}) == b'{"a":1}'


def _certificates(folder: Path) -> dict[str, str]:
    """A CA, the broker's certificate (for 127.0.0.1) and a board's, made with openssl; and a
    board certificate from a CA the broker does not know."""
    def run(*args: str) -> None:
        subprocess.run(["openssl", *args], cwd=folder, check=True, capture_output=True, timeout=60)

    (folder / "ip.ext").write_text("subjectAltName=IP:127.0.0.1\n")
    for ca in ("ca", "rogue-ca"):
        run("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", f"{ca}.key", "-out", f"{ca}.crt",
            "-days", "2", "-subj", f"/CN={ca}")
    for name, ca, extra in (("server", "ca", ["-extfile", "ip.ext"]), ("board-9", "ca", []),
                            ("rogue", "rogue-ca", [])):
        run("req", "-newkey", "rsa:2048", "-nodes", "-keyout", f"{name}.key", "-out", f"{name}.csr", "-subj",
            f"/CN={'127.0.0.1' if name == 'server' else name}")
        run("x509", "-req", "-in", f"{name}.csr", "-CA", f"{ca}.crt", "-CAkey", f"{ca}.key", "-CAcreateserial",
            "-out", f"{name}.crt", "-days", "2", *extra)
    return {name: str(folder / name) for name in ("ca.crt", "server.crt", "server.key", "board-9.crt",
                                                   "board-9.key", "rogue.crt", "rogue.key")}


def test_a_board_with_a_client_certificate_gets_in_and_a_stranger_does_not(tmp_path, caplog) -> None:
    need_mosquitto()
    if not shutil.which("openssl"):
        pytest.skip("openssl is not installed")
    certs = _certificates(tmp_path)
    with Mosquitto(tmp_path / "broker", tls=(certs["ca.crt"], certs["server.crt"], certs["server.key"])) as broker:
        url = f"mqtts://127.0.0.1:{broker.tls_port}"
        good = HallPublisher(Config(hall=url, hall_board="board-9", hall_tls_ca=certs["ca.crt"],
                                    hall_tls_cert=certs["board-9.crt"], hall_tls_key=certs["board-9.key"]))
        rogue = HallPublisher(Config(hall=url, hall_board="rogue", hall_tls_ca=certs["ca.crt"],
                                     hall_tls_cert=certs["rogue.crt"], hall_tls_key=certs["rogue.key"]))
        recorder = Recorder(broker.port)  # the plain listener on loopback, for the test
        try:
            with caplog.at_level(logging.ERROR, logger="chessery.hall"):
                rogue.start()
                rogue.publish_state(sample_state("chess", ["e2e4"]))
                assert rogue.unreachable.wait(TIMEOUT)
            assert not rogue.connected.is_set() and rogue.refused
            assert any("rogue" in r.getMessage() or "cannot connect" in r.getMessage() for r in caplog.records)
            good.start()
            good.publish_state(sample_state("chess", ["c2c4"]))
            recorder.wait(lambda: any(t.endswith("board-9/state") for t, _p, _r in recorder.messages))
            assert not any(t.endswith("rogue/state") for t, _p, _r in recorder.messages)
        finally:
            good.stop()
            rogue.stop()
            recorder.close()


def test_chessery_run_with_a_hall_in_its_config_file_publishes_the_game_to_its_end(broker, tmp_path) -> None:
    """The whole command: the demo's fool's mate on the simulated board, published as it is
    played, the result included; a clean stop says the board is offline."""
    config = tmp_path / "config.toml"
    config.write_text(f'hall = "{broker.url}"\nhall_board = "cli"\n[event]\nround = "4"\n')
    recorder = Recorder(broker.port)
    env = dict(os.environ, PYTHONPATH=str(REPO), SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    env.pop("DISPLAY", None)
    try:
        run = subprocess.run(
            [sys.executable, "-m", "controller.cli", "run", "--config", str(config), "--headless", "--no-gpio",
             "--db", str(tmp_path / "g.db"), "--frame", str(tmp_path / "f.png"), "--status-file",
             str(tmp_path / "s.json"), "--demo-moves", "f2f3 e7e5 g2g4 d8h4"],
            cwd=REPO, env=env, capture_output=True, text=True, timeout=TIMEOUT * 3)
        assert run.returncode == 0, run.stderr
        recorder.wait(lambda: any(t.endswith("cli/state") and check_state(p)["status"] == "over"
                                  for t, p, _ in recorder.messages))
        last = [check_state(p) for t, p, _ in recorder.messages if t.endswith("cli/state")][-1]
        assert last["moves"] == ["f2f3", "e7e5", "g2g4", "d8h4"] and last["result"] == "0-1"
        assert last["termination"] == "checkmate" and last["round"] == "4"
        assert recorder.moves("cli") == last["moves"]
        assert [e["kind"] for e in recorder.events("cli")][-1] == "end"
        recorder.wait(lambda: [check_online(p) for t, p, _ in recorder.messages if t.endswith("cli/online")][-1:]
                      == [False])
    finally:
        recorder.close()
