"""``chessery engine``, the UCI engine, as a real process: driven by python-chess's own UCI client
for chess, and by a small client of ours (tests/uci_client.py) for the other variants."""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from pathlib import Path

import chess
import chess.engine
import pytest

from engine import find_variant, start_position, variant_names
from engine.variant import user_variant_names

from .uci_client import ROOT, UciClient

ENGINE = [sys.executable, "-m", "controller.cli", "engine"]


@pytest.fixture
def sf_like() -> Iterator[chess.engine.SimpleEngine]:
    engine = chess.engine.SimpleEngine.popen_uci(ENGINE, cwd=ROOT, timeout=60)
    try:
        yield engine
    finally:
        engine.quit()


@pytest.fixture
def client() -> Iterator[UciClient]:
    c = UciClient()
    try:
        yield c
    finally:
        c.close()


def test_python_chess_sees_our_id_and_options(sf_like: chess.engine.SimpleEngine) -> None:
    assert sf_like.id["name"] == "Chessery"
    variant = sf_like.options["UCI_Variant"]
    assert variant.type == "combo" and variant.default == "chess"
    assert list(variant.var or ()) == variant_names() + user_variant_names()
    skill = sf_like.options["Skill Level"]
    assert (skill.min, skill.max, skill.default) == (0, 20, 20)
    assert sf_like.options["Hash"].type == "spin"


def test_python_chess_plays_a_few_legal_moves(sf_like: chess.engine.SimpleEngine) -> None:
    board = chess.Board()
    for _ in range(6):
        result = sf_like.play(board, chess.engine.Limit(depth=2))
        assert result.move is not None and board.is_legal(result.move)
        board.push(result.move)
    # and a clock: the engine answers within it with a legal move
    result = sf_like.play(board, chess.engine.Limit(white_clock=5, black_clock=5, white_inc=0.1, black_inc=0.1))
    assert result.move is not None and board.is_legal(result.move)


def test_python_chess_gets_the_mate_and_its_score(sf_like: chess.engine.SimpleEngine) -> None:
    board = chess.Board("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    info = sf_like.analyse(board, chess.engine.Limit(depth=2))
    assert info["score"].white() == chess.engine.Mate(1)
    assert info["pv"][0] == chess.Move.from_uci("a1a8")


def test_python_chess_infinite_analysis_stops_with_a_legal_move(sf_like: chess.engine.SimpleEngine) -> None:
    board = chess.Board()
    board.push_uci("e2e4")
    with sf_like.analysis(board) as analysis:  # go infinite
        for info in analysis:
            if info.get("depth", 0) >= 1 and "pv" in info:
                break
        analysis.stop()
        best = analysis.wait()
    assert best.move is not None and best.move in board.legal_moves


def test_python_chess_node_limit_and_skill(sf_like: chess.engine.SimpleEngine) -> None:
    sf_like.configure({"Skill Level": 0})
    board = chess.Board()
    info = sf_like.analyse(board, chess.engine.Limit(depth=8))
    assert info["depth"] == 1  # level 0 looks one ply ahead
    sf_like.configure({"Skill Level": 20})
    result = sf_like.play(board, chess.engine.Limit(nodes=100), info=chess.engine.INFO_ALL)
    assert result.move is not None and board.is_legal(result.move)


def test_bad_input_is_answered_by_info_string_and_changes_nothing(client: UciClient) -> None:
    client.send("position startpos moves e2e4")
    for bad, why in [("position fen not/a/fen w - - 0 1", "board has"),
                     ("position startpos moves e2e4 e2e4", "not legal"),
                     ("go depth x", "not a number"),
                     ("go sometimes 5", "unknown word"),
                     ("setoption name Skill Level value 21", "out of range"),
                     ("setoption name UCI_Variant value nosuch", "nosuch"),
                     ("setoption name Colour value red", "unknown option"),
                     ("fly away", "unknown command")]:
        lines = client.ask(bad, "info string")
        assert lines[-1].startswith("info string error:") and why in lines[-1], (bad, lines)
    client.ask("isready", "readyok")
    # the position set before the bad lines still stands: black to move after 1.e4
    best = client.bestmove("go depth 1")
    board = chess.Board()
    board.push_uci("e2e4")
    assert chess.Move.from_uci(best) in board.legal_moves
    assert client.close() == 0
    assert "Traceback" not in client.stderr()


def test_stop_ends_an_infinite_search_and_quit_ends_the_process(client: UciClient) -> None:
    client.send("position startpos")
    client.send("go infinite")
    client.until("info depth")
    client.ask("isready", "readyok")  # answered while thinking
    best = client.ask("stop", "bestmove")[-1].split()[1]
    assert chess.Move.from_uci(best) in chess.Board().legal_moves
    assert client.close() == 0


@pytest.mark.parametrize("name", ["alice", "royal-fury", "mathematichess", "triscacia", "meddlers"])
def test_other_variants_play_legal_moves_through_uci(client: UciClient, name: str) -> None:
    v = find_variant(name)
    client.send(f"setoption name UCI_Variant value {name}")
    client.send("ucinewgame")
    pos = start_position(v)
    played: list[str] = []
    for _ in range(3):  # three sides in Triscacia: one move each; a whole turn of two in Meddlers
        client.send("position startpos" + (" moves " + " ".join(played) if played else ""))
        lines = client.ask("go nodes 150", "bestmove")
        best = lines[-1].split()[1]
        assert best in {pos.move_text(m) for m in pos.legal_moves()}, (name, best, pos.fen())
        assert any(line.startswith("info depth") for line in lines)
        pos.push_text(best)
        played.append(best)


def test_a_variant_file_path_is_accepted(client: UciClient) -> None:
    path = Path(ROOT, "engine", "variants", "zeta.toml")
    client.send(f"setoption name UCI_Variant value {path}")
    client.send("position startpos")
    best = client.bestmove("go depth 1")
    pos = start_position(find_variant(str(path)))
    assert best in {pos.move_text(m) for m in pos.legal_moves()}


def test_a_finished_game_gets_bestmove_none(client: UciClient) -> None:
    client.send("position fen 7k/6Q1/6K1/8/8/8/8/8 b - - 0 1")  # black is mated
    assert client.bestmove("go depth 2") == "(none)"


def test_the_clock_of_a_third_side_is_read_by_its_name(client: UciClient) -> None:
    client.send("setoption name UCI_Variant value triscacia")
    pos = start_position(find_variant("triscacia"))
    moves = []
    for _ in range(2):
        best = pos.move_text(pos.legal_moves()[0])
        pos.push_text(best)
        moves.append(best)
    assert pos.side == 2
    client.send("position startpos moves " + " ".join(moves))
    lines = client.ask("go wtime 100000 btime 100000 redtime 300 redinc 0", "bestmove")
    assert lines[-1].split()[1] in {pos.move_text(m) for m in pos.legal_moves()}
    # 300 ms for red: a few plies at most, never the blue clock's 100 s share
    depths = [int(line.split()[2]) for line in lines if line.startswith("info depth")]
    assert max(depths, default=0) <= 6  # (on a loaded machine 300 ms may end before depth 1 does)


def test_the_users_own_variants_are_listed_and_played(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "quick.toml").write_text('inherits = "chess"\ntitle = "Quick chess"\n'
                                        'start = "4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1"\n')
    monkeypatch.setenv("CHESSERY_VARIANTS_DIR", str(tmp_path))
    c = UciClient()
    try:
        option = next(line for line in c.ask("uci", "uciok") if line.startswith("option name UCI_Variant"))
        assert option.endswith(" var zeta-short var quick")
        c.send("setoption name UCI_Variant value quick")
        c.send("position startpos")
        best = c.bestmove("go depth 1")
        pos = start_position(find_variant(str(tmp_path / "quick.toml")))
        assert best in {pos.move_text(m) for m in pos.legal_moves()}
    finally:
        c.close()


def test_garbage_lines_never_raise_and_always_get_an_answer() -> None:
    from controller.uci import UciEngine

    out: list[str] = []
    engine = UciEngine(out.append, seed=3)
    rng = random.Random(5)
    words = ["uci", "go", "position", "fen", "startpos", "moves", "setoption", "name", "value", "depth", "nodes",
             "-5", "0", "x", "e2e4", "UCI_Variant", "Hash", "Skill", "Level", "infinite", "stop", "wtime", "zeta",
             "movetime", "1", "redtime", "mate", "8/8/8/8/8/8/8/8", "w", "-", "ucinewgame", "isready"]
    for _ in range(300):
        line = " ".join(rng.choice(words) for _ in range(rng.randrange(1, 7)))
        if line.split()[0] == "go":
            line = "go depth 1"  # every search bounded: the dialogue goes on without waiting
        before = len(out)
        assert engine.handle(line)
        engine.handle("isready")
        assert out[-1] == "readyok" and len(out) > before, line
    engine.finish()
    assert all(not line.startswith("info string error: search failed") for line in out)
