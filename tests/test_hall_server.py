"""``chessery hall`` against a real Mosquitto: the pages, the PGN feeds (read back by
python-chess), the arbiter's alerts, read-only HTTP, and hostile messages that are logged and
dropped while the hall goes on."""

from __future__ import annotations

import contextlib
import io
import json
import logging
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import chess.pgn
import paho.mqtt.client as mqtt
import pytest

from controller.config import Config
from controller.hall_model import HallModel
from controller.hall_publish import HallPublisher
from controller.hall_server import HallServer
from controller.hall_wire import PREFIX, dumps
from controller.mosquitto import Mosquitto
from tests.hall_rig import TIMEOUT, need_mosquitto, sample_state

REPO = Path(__file__).resolve().parent.parent
GAME_SHORT = ["e2e4", "e7e5", "g1f3"]


@pytest.fixture
def hall(tmp_path):
    need_mosquitto()
    with Mosquitto(tmp_path / "broker") as broker:
        server = HallServer(Config(hall=broker.url, hall_listen="127.0.0.1:0", hall_alert_s=1)).start()
        publishers: list[HallPublisher] = []
        try:
            assert server.subscribed.wait(TIMEOUT)
            yield server, broker, publishers
        finally:
            for p in publishers:
                p.stop()
            server.stop()


def publish(hall, name: str, state: dict) -> HallPublisher:
    server, broker, publishers = hall
    p = HallPublisher(Config(hall=broker.url, hall_board=name)).start()
    publishers.append(p)
    p.publish_state(state)
    wait_for(server.model, lambda: (b := server.model.snapshot(name)) is not None and b.state is not None
             and b.state["moves"] == state["moves"] and b.state["status"] == state["status"])
    return p


def wait_for(model: HallModel, what) -> None:
    with model.changed:
        assert model.changed.wait_for(what, TIMEOUT), "the hall never got there"


def get(server: HallServer, path: str) -> str:
    with urllib.request.urlopen(server.url + path, timeout=TIMEOUT) as reply:
        return reply.read().decode()


def test_the_round_feed_is_pgn_with_clocks_that_python_chess_reads(hall) -> None:
    server = hall[0]
    publish(hall, "t1", sample_state("chess", ["e2e4", "e7e5", "g1f3"], players=["Ann", "Bob"],
                                     ply_clocks=[299_000, 298_000, 297_000], time_control="300+2",
                                     clocks=[297.0, 298.5]))
    publish(hall, "t2", sample_state("chess", ["d2d4"], round="2"))
    publish(hall, "t3", sample_state("sesqui", []))
    text = get(server, "/round/1.pgn")
    game = chess.pgn.read_game(io.StringIO(text))
    assert game is not None and game.headers["White"] == "Ann" and game.headers["Board"] == "t1"
    assert [m.uci() for m in game.mainline_moves()] == ["e2e4", "e7e5", "g1f3"]
    assert [node.clock() for node in game.mainline()] == [299.0, 298.0, 297.0]
    assert chess.pgn.read_game(io.StringIO(text)) is not None and text.count("[Event ") == 1  # t2 is round 2
    variants = get(server, "/round/1/variants.pgn")
    assert '[Variant "sesqui"]' in variants and '[SetUp "1"]' in variants and "[FEN " in variants
    assert "[Board \"t3\"]" in variants and "t1" not in variants


def test_the_pages_show_every_board_and_refuse_to_be_written(hall) -> None:
    server = hall[0]
    publish(hall, "p1", sample_state("chess", ["e2e4"]))
    publish(hall, "ring", sample_state("sesqui", []))
    page = get(server, "/")
    assert 'id="board-p1"' in page and 'id="board-ring"' in page and "<svg" in page
    assert page.count("<polygon") == 64 + 48  # every cell of both boards, from their geometry
    board = get(server, "/board/p1")
    assert 'data-cell="e4" data-piece="P"' in board and "e4" in board
    assert json.loads(get(server, "/hall.json"))["boards"]["p1"]["moves"] == ["e2e4"]
    request = urllib.request.Request(server.url + "/", data=b"x", method="POST")
    with pytest.raises(urllib.error.HTTPError) as info:
        urllib.request.urlopen(request, timeout=TIMEOUT)
    assert info.value.code == 405
    for path in ("/board/nobody", "/board/..%2Fetc", "/round/x%20y.pgn", "/secret"):
        with pytest.raises(urllib.error.HTTPError) as info:
            urllib.request.urlopen(server.url + path, timeout=TIMEOUT)
        assert info.value.code == 404
    assert Config().hall_listen == "127.0.0.1:8080"  # localhost unless configured otherwise


def test_the_arbiter_sees_offline_boards_flags_mismatches_and_results(hall) -> None:
    server = hall[0]
    gone = publish(hall, "gone", sample_state("chess", ["e2e4"]))
    publish(hall, "flag", sample_state("chess", ["e2e4"], status="over", result="1-0", termination="flag fall"))
    publish(hall, "mate", sample_state("chess", ["f2f3", "e7e5", "g2g4", "d8h4"], status="over", result="0-1",
                                       termination="checkmate"))
    publish(hall, "knock", sample_state("chess", ["e2e4"], status="fix", message="Put back the pawn on d2"))
    gone.stop()
    wait_for(server.model, lambda: not server.model.boards["gone"].online)
    alerts = server.model.alerts(now=time.time() + 5)  # hall_alert_s is 1
    kinds = {(name, kind) for name, kind, _ in alerts}
    assert {("gone", "offline"), ("flag", "flag"), ("flag", "result"), ("mate", "result"),
            ("knock", "mismatch")} <= kinds
    assert ("knock", "mismatch") not in {(n, k) for n, k, _ in server.model.alerts(now=time.time() - 5)}
    page = get(server, "/arbiter")
    assert "0-1 (checkmate)" in page and "offline for" in page and "flag fall: 1-0" in page


HOSTILE: list[tuple[str, bytes]] = [
    ("state", b"not json"),
    ("state", b"\xff\xfe"),
    ("state", b"[" * 100_000 + b"]" * 100_000),  # too deep for the parser, or too big
    ("state", b"x" * 300_000),
    ("state", b"[]"),
    ("state", dumps({"variant": "chess"})),
    ("state", dumps(dict(sample_state("chess", []), variant="no-such-variant"))),
    ("state", dumps(dict(sample_state("chess", []), moves=["e2e5"], san=["e5"]))),  # illegal
    ("state", dumps(dict(sample_state("chess", ["e2e4"]), fen="8/8/8/8/8/8/8/8 w - - 0 1"))),  # not where it leads
    ("state", dumps(dict(sample_state("chess", []), start_fen="rnbqkbnr/ppp w"))),
    ("state", dumps(dict(sample_state("chess", []), seq=-1))),
    ("state", dumps(dict(sample_state("chess", []), status="<script>"))),
    ("state", dumps(dict(sample_state("chess", []), moves=["e2e4"] * 5000, san=["e4"] * 5000))),
    ("state", dumps(dict(sample_state("chess", []), players="x"))),
    ("state", dumps(dict(sample_state("chess", []), clocks=[1]))),
    ("event", b"{}"),
    ("event", dumps({"kind": "rm -rf", "run": 1, "seq": 1, "game": 1, "ply": 1, "move": "", "san": ""})),
    ("online", b'{"online": "yes"}'),
    ("secret", b"{}"),
]


def test_hostile_messages_are_logged_and_dropped_and_the_hall_goes_on(hall, caplog) -> None:
    server, broker, _ = hall
    publish(hall, "evil", sample_state("chess", ["e2e4"], players=["<script>alert(1)</script>", "Bob"]))
    raw = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="attacker")
    raw.connect("127.0.0.1", broker.port)
    raw.loop_start()
    try:
        with caplog.at_level(logging.WARNING, logger="chessery.hall"):
            for kind, payload in HOSTILE:
                raw.publish(f"{PREFIX}evil/{kind}", payload, qos=1).wait_for_publish(TIMEOUT)
            raw.publish(f"{PREFIX}bad name!/state", b"{}", qos=1).wait_for_publish(TIMEOUT)
            good = sample_state("chess", ["e2e4", "c7c5"], players=["<script>alert(1)</script>", "Bob"])
            raw.publish(f"{PREFIX}evil/state", dumps(good), qos=1).wait_for_publish(TIMEOUT)
            wait_for(server.model, lambda: server.model.boards["evil"].state is not None
                     and server.model.boards["evil"].state["moves"] == ["e2e4", "c7c5"])
        dropped = [r.getMessage() for r in caplog.records if "dropped a message" in r.getMessage()]
        # each hostile message on a hall topic is dropped with one line ("secret" and the bad name
        # are not hall topics: the subscription never delivers them, or they are dropped too)
        assert len(dropped) >= len(HOSTILE) - 1 and all("\n" not in line for line in dropped)
        assert server.model.dropped == len(dropped)
        page = get(server, "/")
        assert "<script>alert(1)" not in page and "&lt;script&gt;alert(1)" in page
        assert 'id="board-evil" data-ply="2"' in page
    finally:
        raw.disconnect()
        raw.loop_stop()


def test_chessery_hall_serves_until_stopped(hall, tmp_path) -> None:
    """The command: one line with its URL, then pages; a bad broker URL is one line, exit 2."""
    broker = hall[1]
    bad = subprocess.run([sys.executable, "-m", "controller.cli", "hall", "--broker", "http://x"], cwd=REPO,
                         capture_output=True, text=True, timeout=TIMEOUT, env=dict(os.environ, PYTHONPATH=str(REPO)))
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "hall: expected mqtt://" in bad.stderr
    proc = subprocess.Popen([sys.executable, "-m", "controller.cli", "hall", "--broker", broker.url, "--listen",
                             "127.0.0.1:0"], cwd=REPO, stdout=subprocess.PIPE, text=True,
                            env=dict(os.environ, PYTHONPATH=str(REPO)))
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith("hall: http://127.0.0.1:")
        with urllib.request.urlopen(line.split()[1] + "/", timeout=TIMEOUT) as reply:
            assert "Chessery hall" in reply.read().decode()
    finally:
        proc.terminate()
        assert proc.wait(TIMEOUT) == 0
        if proc.stdout is not None:
            proc.stdout.close()


def test_the_demo_hall_starts_its_own_mosquitto_and_its_boards_play_into_it(tmp_path) -> None:
    """./dev run --hall: no broker configured, so the demo starts one; its board's moves reach
    the pages."""
    need_mosquitto()
    from controller.hall_demo import DemoHall

    demo = DemoHall(Config(hall_listen="127.0.0.1:0"), boards=(("d1", "chess"),)).start()
    try:
        assert demo.broker is not None and demo.broker.url.startswith("mqtt://127.0.0.1:")
        model = demo.server.model
        wait_for(model, lambda: (b := model.boards.get("d1")) is not None and b.state is not None
                 and len(b.state["moves"]) >= 2)
        assert 'id="board-d1"' in get(demo.server, "/")
    finally:
        demo.stop()


def test_a_13x13_territory_game_is_drawn_with_its_territories_and_score(hall) -> None:
    import engine
    from controller.event_scripts import random_game
    from controller.hall_svg import SHARED_FILL, TERRITORY_FILLS

    variant = engine.find_variant("mathematichess")
    moves = random_game(variant, 20, seed=3)  # placements and board moves, legal by the engine
    server = hall[0]
    publish(hall, "m13", sample_state("mathematichess", moves))
    pos = engine.start_position(variant)
    for text in moves:
        pos.push_text(text)
    scoring = variant.rules.scoring
    assert scoring is not None
    score = scoring.score(pos)
    worth = [t for t in score.territories if t.value]
    assert worth  # the seed gives a territory worth something
    card = get(server, "/").split('id="board-m13"')[1].split('<div class="card')[0]
    assert card.count("<polygon") == 169
    tints = {TERRITORY_FILLS[t.owner] if t.owner is not None else SHARED_FILL for t in worth}
    assert all(f'fill="{tint}"' in card for tint in tints)
    assert f"Score: white {score.totals[0]}, black {score.totals[1]}" in card


def test_two_boards_configured_with_one_name_raise_an_alert(hall, caplog) -> None:
    """Two boards with one ``hall_board``: their states come from two runs that take turns (the
    broker also hands the name's connection from one to the other); the arbiter is told."""
    server, broker, publishers = hall
    twins = [HallPublisher(Config(hall=broker.url, hall_board="twin"), outbox=None) for _ in range(2)]
    twins[1].run = twins[0].run + 1  # two boards started in one millisecond would share it
    with caplog.at_level(logging.WARNING, logger="chessery.hall"):
        for twin, moves in zip(twins, (["e2e4"], ["d2d4", "d7d5"]), strict=True):
            publishers.append(twin.start())
            twin.publish_state(sample_state("chess", moves))
        wait_for(server.model, lambda: any(kind == "clash" for _n, kind, _t in server.model.alerts()))
    assert "two boards publish as twin" in caplog.text
    assert "two boards publish as twin" in get(server, "/arbiter")
    # one board alone, restarted without its outbox (a new run), is no clash
    publish(hall, "single", sample_state("chess", ["e2e4"])).stop()
    again = HallPublisher(Config(hall=broker.url, hall_board="single"))
    publishers.append(again.start())
    again.publish_state(sample_state("chess", ["e2e4", "e7e5"]))
    wait_for(server.model, lambda: (b := server.model.snapshot("single")) is not None and b.state is not None
             and len(b.state["moves"]) == 2)
    assert ("single", "clash") not in {(n, k) for n, k, _t in server.model.alerts()}


class Stream:
    """A spectator's event stream (``/events``): the cards it was sent for ``board``, in order."""

    def __init__(self, server: HallServer, board: str) -> None:
        self.board = board
        self.cards: list[str] = []
        self.changed = threading.Condition()
        # a plain socket: shutting it down ends the reader's wait at once (closing a urllib
        # reply would wait for the reader, blocked until the next keep-alive)
        self.sock = socket.create_connection(("127.0.0.1", server.port), timeout=TIMEOUT)
        self.sock.sendall(b"GET /events HTTP/1.0\r\nHost: hall\r\n\r\n")
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        try:
            for line in self.sock.makefile("rb"):
                if line.startswith(b"data: "):
                    card = json.loads(line[6:]).get("cards", {}).get(self.board)
                    if card is not None:
                        with self.changed:
                            self.cards.append(card)
                            self.changed.notify_all()
        except (OSError, ValueError):
            return  # closed by the test

    def wait(self, what) -> str:
        with self.changed:
            assert self.changed.wait_for(lambda: any(map(what, self.cards)), TIMEOUT), self.cards[-1:]
            return next(c for c in reversed(self.cards) if what(c))

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_RDWR)
        self.sock.close()
        self.reader.join(TIMEOUT)


def test_every_spectator_gets_each_moves_card_and_an_offline_board_greyed(hall) -> None:
    """The card drawn for a change is shared by the pages watching: each gets the card of
    the latest state, and a board going offline (same state) gets a new card all the same."""
    server = hall[0]
    streams = [Stream(server, "spec") for _ in range(2)]
    try:
        board = publish(hall, "spec", sample_state("chess", []))
        for n in range(1, 4):
            board.publish_state(sample_state("chess", GAME_SHORT[:n]))
            cards = [s.wait(lambda c, n=n: f'data-ply="{n}"' in c) for s in streams]
            assert cards[0] == cards[1]
        board.stop()
        offline = [s.wait(lambda c: "(offline)" in c) for s in streams]
        assert offline[0] == offline[1] and 'data-ply="3"' in offline[0] and "card offline" in offline[0]
    finally:
        for s in streams:
            s.close()
