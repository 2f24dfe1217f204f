"""PGN export: the 60 historical games stored in a real SQLite file, with players' names as
game tags and clock times per ply, exported by ``chessery export --all`` and read back by
python-chess (same moves, tags and clock comments); USB stick discovery on a fake /proc and /sys."""

from __future__ import annotations

import io
import re
from pathlib import Path

import chess
import chess.pgn
import pytest

import engine
from controller.cli import main
from controller.clock import Clock, parse_time_control
from controller.demo_games import DEMO_GAMES
from controller.export import ExportError, export_to_usb, removable_mounts
from controller.game_extras import GameExtras
from controller.inference import Event
from controller.session import Session
from controller.store import GameStore

DATA = Path(__file__).parent / "data" / "pgn" / "historical-games.pgn"
FEN = chess.STARTING_FEN


def read_games(text: str) -> list[chess.pgn.Game]:
    f = io.StringIO(text)
    out = []
    while (g := chess.pgn.read_game(f)) is not None:
        assert not g.errors, g.errors
        out.append(g)
    return out


@pytest.fixture(scope="module")
def event(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[chess.pgn.Game], list[list[int]]]:
    return stored_event(tmp_path_factory.mktemp("event"))


def stored_event(tmp_path: Path) -> tuple[Path, list[chess.pgn.Game], list[list[int]]]:
    games = read_games(DATA.read_text(encoding="utf-8"))
    db = tmp_path / "games.sqlite3"
    all_clocks = []
    with GameStore(db) as store, GameExtras(db) as extras:
        for n, g in enumerate(games):
            gid = store.new_game("chess", FEN)
            moves = [m.uci() for m in g.mainline_moves()]
            store.record(gid, 0, moves)
            store.finish(gid, g.headers["Result"], "")
            extras.set_tag(gid, "White", g.headers["White"])
            extras.set_tag(gid, "Black", g.headers["Black"])
            extras.set_tag(gid, "Round", str(n + 1))
            # a 90+30 game whose players spend 1 to 140 s a move
            clock = Clock(parse_time_control("90+30"))
            clock.start(0)
            now = 0
            per_ply = []
            for ply in range(len(moves)):
                now += 1_000 + (ply * 7919 + n * 104729) % 140_000
                side = clock.turn
                clock.press(now)
                per_ply.append(clock.left(side, now))
                extras.save_clock(gid, "90+30", clock.to_json(now), ply + 1, per_ply[-1])
            all_clocks.append(per_ply)
    return db, games, all_clocks


def test_sixty_games_round_trip_through_python_chess(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                     event) -> None:
    db, originals, clocks = event
    config = tmp_path / "config.toml"
    config.write_text('[event]\nname = "London 1851 replay"\nsite = "Club room"\n', encoding="utf-8")
    assert main(["export", "--db", str(db), "--all", "--config", str(config)]) == 0
    back = read_games(capsys.readouterr().out)
    assert len(back) == 60
    for n, (orig, got) in enumerate(zip(originals, back, strict=True)):
        assert [m.uci() for m in got.mainline_moves()] == [m.uci() for m in orig.mainline_moves()]
        h = got.headers
        assert list(h.keys())[:7] == ["Event", "Site", "Date", "Round", "White", "Black", "Result"]
        assert (h["Event"], h["Site"], h["Round"]) == ("London 1851 replay", "Club room", str(n + 1))
        assert (h["White"], h["Black"], h["Result"]) == (orig.headers["White"], orig.headers["Black"],
                                                         orig.headers["Result"])
        assert h["TimeControl"] == "5400+30" and "Variant" not in h
        got_clocks = [node.clock() for node in got.mainline()]
        # the comment holds whole seconds, rounded up like a clock's display
        assert got_clocks == [float(-(-ms // 1000)) for ms in clocks[n]]


def test_movetext_is_san(capsys: pytest.CaptureFixture[str], event) -> None:
    db, _originals, _ = event
    assert main(["export", "--db", str(db), "--game", "1"]) == 0
    text = capsys.readouterr().out.replace("\n", " ")
    assert text.split("  ", 1)[1].startswith("1. e4 {[%clk 1:30:29]} 1... e5 {[%clk 1:30:22]} 2. f4 ")
    assert " 3... Qh4+ " in text and " 10. exd6 " in text


def fake_root(tmp_path: Path, mounts: str, removable: dict[str, str]) -> Path:
    root = tmp_path / "root"
    (root / "proc").mkdir(parents=True)
    (root / "proc" / "mounts").write_text(mounts, encoding="utf-8")
    for disk, flag in removable.items():
        (root / "sys" / "block" / disk).mkdir(parents=True)
        (root / "sys" / "block" / disk / "removable").write_text(flag + "\n", encoding="ascii")
    return root


def test_first_removable_drive_is_the_usb_stick(tmp_path: Path) -> None:
    root = fake_root(tmp_path, "/dev/mmcblk0p2 / ext4 rw 0 0\nproc /proc proc rw 0 0\n"
                               "/dev/sda1 /media/pi/MY\\040STICK vfat rw 0 0\n/dev/sdb1 /media/other vfat rw 0 0\n",
                     {"mmcblk0": "0", "sda": "1", "sdb": "1"})
    stick = root / "media" / "pi" / "MY STICK"
    stick.mkdir(parents=True)
    assert removable_mounts(root) == [stick, root / "media" / "other"]
    path = export_to_usb("[Event \"x\"]\n\n*\n", "game.pgn", root)
    assert path == stick / "game.pgn" and path.read_text(encoding="utf-8").startswith("[Event")


def test_no_stick_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str], event) -> None:
    root = fake_root(tmp_path, "/dev/mmcblk0p2 / ext4 rw 0 0\n", {"mmcblk0": "0"})
    with pytest.raises(ExportError, match="no USB stick"):
        export_to_usb("x", "game.pgn", root)
    db, _, _ = event
    assert main(["export", "--db", str(db), "--usb", "--root", str(root)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no USB stick" in err


def test_export_all_to_the_stick_from_the_command(tmp_path: Path, event) -> None:
    root = fake_root(tmp_path, "/dev/sda1 /media/usb vfat rw 0 0\n", {"sda": "1"})
    (root / "media" / "usb").mkdir(parents=True)
    db, _, _ = event
    assert main(["export", "--db", str(db), "--all", "--usb", "--root", str(root)]) == 0
    files = list((root / "media" / "usb").glob("chessery-event-*.pgn"))
    assert len(files) == 1 and len(read_games(files[0].read_text(encoding="utf-8"))) == 60


def play_on_identity_board(session: Session, moves: list[str]) -> None:
    """Each move's pieces lifted then put down (an identity board names the piece), the session
    ticked through its settle times: the moves as a board would give them."""
    t = 0
    for text in moves:
        move = session.position.parse_move(text)
        lifts = [(c, 0) for c, before, after in move.changes if before and before != after]
        places = [(c, after) for c, before, after in move.changes if after and after != before]
        for cell, piece in lifts + places:
            t += 50
            session.event(Event(cell, piece != 0, t, piece))
        while session.deadline is not None:
            t = max(t, session.deadline)
            session.tick(t)
        assert session.position.move_stack[-1] == move, session.status.message


def test_a_three_sided_win_is_stored_and_exported_with_the_winners_name(tmp_path: Path,
                                                                         capsys: pytest.CaptureFixture[str]) -> None:
    variant = engine.find_variant("triscacia")
    db = tmp_path / "games.sqlite3"
    with GameStore(db) as store:
        session = Session(variant, store, identity=True)
        session.sync(list(engine.start_position(variant).board), 0)
        play_on_identity_board(session, list(DEMO_GAMES["triscacia"]))
        assert session.status.message.startswith("Game over: blue (checkmate)")
        # A game stored before names were stored (``1-wins``) exports the same way.
        old = store.new_game("triscacia", variant.start)
        store.record(old, 0, list(DEMO_GAMES["triscacia"]))
        store.finish(old, "1-wins", "checkmate")
    with GameStore(db, readonly=True) as store:
        assert (store.game(1).result, store.game(1).termination) == ("blue", "checkmate")
    for game in ("1", "2"):
        assert main(["export", "--db", str(db), "--game", game]) == 0
        text = capsys.readouterr().out
        tags = dict(re.findall(r'^\[(\w+) "([^"]*)"\]$', text, re.M))
        assert (tags["Result"], tags["Winner"], tags["Termination"]) == ("*", "blue", "checkmate")
        assert tags["Players"] == "blue green red"
        assert text.rstrip().endswith(" *")  # the movetext's end marker is the Result tag


def test_a_two_sided_result_has_no_winner_tag(capsys: pytest.CaptureFixture[str], event) -> None:
    db, _, _ = event
    assert main(["export", "--db", str(db), "--game", "1"]) == 0
    assert "[Winner " not in capsys.readouterr().out
