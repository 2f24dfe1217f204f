"""Sessions on a real SQLite file: setup, play, game over, new game; every accepted move is in
the file by the time the session reports it; a restart resumes the game and guides the board."""

from __future__ import annotations

from pathlib import Path

import chess.pgn
import pytest

import engine
from controller.core_types import StatusKind
from controller.inference import Event, Timing
from controller.session import Phase, Session
from controller.store import GameStore
from tests.session_moves import CHESS, START, Clock, T, cell, move, started


def test_setup_phase_shows_what_is_missing_then_starts_the_game(tmp_path: Path) -> None:
    clock = Clock()
    store = GameStore(tmp_path / "g.db")
    session = Session(CHESS, store)
    readings = list(START)
    readings[cell("d1")] = 0  # the white queen is not on the board yet
    readings[cell("e4")] = 1  # and something stands on e4
    update = session.sync(readings, clock())
    assert update.phase == Phase.SETUP
    assert update.status.message == "Set up the board: d1: white queen, e4: empty"
    assert store.latest() is None  # no game before the board is ready
    session.event(Event(cell("e4"), False, clock()))
    update = session.event(Event(cell("d1"), True, clock()))
    assert update.phase == Phase.PLAY and update.note == "game started"
    assert update.status.message == "White to move"
    record = store.latest()
    assert record is not None
    assert record.moves == ()


def test_moves_are_committed_before_they_are_reported(tmp_path: Path) -> None:
    clock = Clock()
    session, store, path = started(tmp_path, clock)
    assert move(session, clock, "e2", "e4", path) == ["e2e4"]
    assert move(session, clock, "e7", "e5", path) == ["e7e5"]
    assert session.game_id is not None
    assert store.game(session.game_id).moves == ("e2e4", "e7e5")


def test_restart_resumes_the_game_and_guides_the_board_back(tmp_path: Path) -> None:
    clock = Clock()
    session, store, path = started(tmp_path, clock)
    move(session, clock, "e2", "e4")
    move(session, clock, "e7", "e5")
    store.close()  # the service dies here
    # Meanwhile someone knocked the e5 pawn off the board.
    readings = [1 if c else 0 for c in engine.parse_fen(CHESS, "rnbqkbnr/pppp1ppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR "
                                                                 "w KQkq - 0 2").board]
    store = GameStore(path)
    resumed = Session(CHESS, store, now=0)
    assert resumed.resumed and resumed.phase == Phase.PLAY
    assert [resumed.position.move_text(m) for m in resumed.position.move_stack] == ["e2e4", "e7e5"]
    resumed.sync(readings, 10)
    update = resumed.tick(10 + T.guide_ms)
    assert update.status.kind == StatusKind.FIX
    assert update.status.message == "Board does not match the game: e5: black pawn"
    update = resumed.event(Event(cell("e5"), True, 2000))
    assert update.status.kind == StatusKind.IDLE and update.status.message == "White to move"


def test_restart_accepts_a_move_made_while_the_service_was_down(tmp_path: Path) -> None:
    clock = Clock()
    session, store, path = started(tmp_path, clock)
    move(session, clock, "e2", "e4")
    store.close()
    readings = list(START)
    readings[cell("e2")] = 0
    readings[cell("e4")] = 1
    readings[cell("g8")] = 0
    readings[cell("f6")] = 1
    store = GameStore(path)
    resumed = Session(CHESS, store)
    resumed.sync(readings, 0)
    assert resumed.tick(T.settle_ms).accepted == ("g8f6",)
    assert resumed.game_id is not None
    assert store.game(resumed.game_id).moves == ("e2e4", "g8f6")


def mated(tmp_path: Path, clock: Clock) -> tuple[Session, GameStore, int]:
    """A session whose first game ended in the fool's mate; and that game's id."""
    session, store, _path = started(tmp_path, clock)
    for frm, to in (("f2", "f3"), ("e7", "e5"), ("g2", "g4"), ("d8", "h4")):
        move(session, clock, frm, to)
    assert session.game_id is not None and session.phase == Phase.OVER
    assert session.status.message == "Game over: 0-1 (checkmate). Set up the pieces for a new game"
    return session, store, session.game_id


def test_game_over_then_setting_up_starts_a_new_game(tmp_path: Path) -> None:
    clock = Clock()
    session, store, first = mated(tmp_path, clock)
    record = store.game(first)
    assert (record.result, record.termination) == ("0-1", "checkmate")
    # The players put the pieces back: the queen first, then the pawns.
    for frm, to in (("h4", "d8"), ("g4", "g2"), ("e5", "e7")):
        update = session.event(Event(cell(frm), False, clock()))
        assert update.phase == Phase.OVER
        update = session.event(Event(cell(to), True, clock()))
    session.event(Event(cell("f3"), False, clock()))
    update = session.event(Event(cell("f2"), True, clock()))
    assert update.phase == Phase.PLAY and session.game_id != first
    assert store.game(first).moves == ("f2f3", "e7e5", "g2g4", "d8h4")  # the old game is kept


def test_after_the_game_a_board_that_no_longer_shows_its_end_is_guided_to_the_new_games_setup(
        tmp_path: Path) -> None:
    clock = Clock()
    session, store, first = mated(tmp_path, clock)
    assert not session.status.fixes  # the board shows the game's end: nothing to light yet
    # The cable was out while the players cleared up: the board comes back showing neither the
    # game's end nor a new game (the queen and two pawns put back, the h1 rook and b8 knight off).
    board = list(START)
    board[cell("h1")] = board[cell("b8")] = 0
    update = session.sync(board, clock())
    assert update.phase == Phase.OVER and session.game_id == first
    assert update.status.message == ("Game over: 0-1 (checkmate). For a new game, set up: h1: white rook, "
                                     "b8: black knight")
    assert {f.cell for f in update.status.fixes} == {cell("h1"), cell("b8")}  # the lights show them too
    session.event(Event(cell("h1"), True, clock()))
    update = session.event(Event(cell("b8"), True, clock()))
    assert update.phase == Phase.PLAY and session.game_id != first
    assert store.game(first).moves == ("f2f3", "e7e5", "g2g4", "d8h4")


def test_takeback_button_after_mate_reopens_the_game(tmp_path: Path) -> None:
    clock = Clock()
    session, store, _path = started(tmp_path, clock)
    for frm, to in (("f2", "f3"), ("e7", "e5"), ("g2", "g4"), ("d8", "h4")):
        move(session, clock, frm, to)
    update = session.button("takeback", clock())
    assert update.undone == ("d8h4",) and update.phase == Phase.PLAY
    assert update.status.message == "Put the board back: h4: empty, d8: black queen"
    assert session.game_id is not None
    record = store.game(session.game_id)
    assert record.moves == ("f2f3", "e7e5", "g2g4") and record.result == "*"


def test_promotion_answered_with_the_encoder_and_confirm_button(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    store = GameStore(path)
    session = Session(CHESS, store, fen="4k3/1P5p/8/8/8/8/8/4K3 w - - 0 1")
    session.sync([1 if c else 0 for c in session.position.board], 0)
    assert session.phase == Phase.PLAY
    session.event(Event(cell("b7"), False, 10))
    session.event(Event(cell("b8"), True, 20))
    update = session.tick(20 + T.settle_ms)
    assert update.status.prompt is not None and session.selected == 0
    session.button("next", 100)
    session.button("next", 110)  # queen -> rook -> bishop
    update = session.button("confirm", 120)
    assert update.accepted == ("b7b8b",)
    assert session.game_id is not None
    assert store.game(session.game_id).moves == ("b7b8b",)


def test_menu_asks_before_abandoning_a_game(tmp_path: Path) -> None:
    clock = Clock()
    session, store, _path = started(tmp_path, clock)
    move(session, clock, "e2", "e4")
    first = session.game_id
    assert first is not None
    update = session.button("menu", clock())
    assert update.status.message == "Start a new game?"
    update = session.button("confirm", clock())  # "yes" is selected first
    assert update.phase == Phase.SETUP
    assert update.status.message == "Set up the board: e2: white pawn, e4: empty"
    record = store.game(first)
    assert record.termination == "abandoned" and record.moves == ("e2e4",)


def test_pgn_export_reads_back_in_python_chess(tmp_path: Path) -> None:
    clock = Clock()
    session, _store, _path = started(tmp_path, clock)
    for frm, to in (("f2", "f3"), ("e7", "e5"), ("g2", "g4"), ("d8", "h4")):
        move(session, clock, frm, to)
    text = session.pgn()
    assert "[Variant" not in text and '[Result "0-1"]' in text and '[Termination "checkmate"]' in text
    assert "1. f3 e5 2. g4 Qh4# 0-1" in text
    game = chess.pgn.read_game(__import__("io").StringIO(text))
    assert game is not None
    assert [m.uci() for m in game.mainline_moves()] == ["f2f3", "e7e5", "g2g4", "d8h4"]
    assert game.end().board().is_checkmate()


def test_pgn_of_a_game_from_a_position_has_its_fen(tmp_path: Path) -> None:
    from controller.pgn import export_pgn

    fen = "4k3/8/8/8/8/8/4P3/4K3 b - - 0 7"
    with GameStore(tmp_path / "g.db") as store:
        game = store.new_game("chess", fen)
        store.record(game, 0, ["e8d7", "e2e4"])
        text = export_pgn(store.game(game))
    assert '[SetUp "1"]' in text and f'[FEN "{fen}"]' in text
    assert "7... Kd7 8. e4 *" in text


def test_stored_move_that_is_not_legal_is_a_clear_error(tmp_path: Path) -> None:
    with GameStore(tmp_path / "g.db") as store:
        game = store.new_game("chess", engine.start_position(CHESS).fen())
        store.record(game, 0, ["e2e5"])
        with pytest.raises(ValueError, match="ply 1: no matching legal move for e2e5"):
            Session(CHESS, store)


def test_a_new_game_on_the_board_after_a_restart_is_asked_about_and_no_keeps_the_game(tmp_path: Path) -> None:
    clock = Clock()
    session, store, path = started(tmp_path, clock)
    assert move(session, clock, "e2", "e4") == ["e2e4"]
    assert move(session, clock, "e7", "e5") == ["e7e5"]
    store.close()
    # Restarted with the board reset and d2d4 played meanwhile: the game cannot explain that.
    board = list(START)
    board[cell("d2")], board[cell("d4")] = 0, 1
    store = GameStore(path)
    session = Session(CHESS, store, now=clock())
    assert session.sync(board, clock()).status.message == "White moving"  # the burst may go on
    update = session.tick(clock(T.settle_ms + 5))
    assert update.status.message == ("The board shows a new game (d2d4). Start it? (this game stays stored, "
                                     "abandoned)")
    update = session.answer("no", clock())
    assert update.status.kind == StatusKind.FIX and update.status.message.startswith("Board does not match the game")
    assert {f.cell for f in update.status.fixes} >= {cell("d2"), cell("d4"), cell("e4"), cell("e5")}
    assert session.status.prompt is None  # asked once for this board, not again at every look
    session.tick(clock(T.guide_ms + 5))
    assert session.status.prompt is None
    kept = store.unfinished("chess")
    assert kept is not None and kept.moves == ("e2e4", "e7e5") and len(store.game_ids()) == 1


def test_a_board_back_in_setup_showing_five_moves_is_not_taken_for_a_new_game(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "g.db")
    session = Session(CHESS, store)
    board = list(START)
    for frm, to in (("e2", "e4"), ("e7", "e5"), ("g1", "f3"), ("b8", "c6"), ("f1", "c4")):
        board[cell(frm)], board[cell(to)] = 0, 1
    update = session.sync(board, 10)
    assert update.phase == Phase.SETUP and update.status.message.startswith("Set up the board")
    assert store.game_ids() == []
    for frm, to in (("g1", "f3"), ("b8", "c6"), ("f1", "c4")):  # two moves: that is a new game
        board[cell(frm)], board[cell(to)] = 1, 0
    assert session.sync(board, 20).phase == Phase.PLAY
    update = session.tick(20 + T.settle_ms + 5)
    game = store.unfinished("chess")
    assert update.accepted == ("e2e4", "e7e5") and game is not None and game.moves == ("e2e4", "e7e5")


def test_the_board_s_own_drag_wait_unless_the_configuration_file_sets_one(tmp_path: Path) -> None:
    with GameStore(tmp_path / "g.db") as store:
        session = Session(CHESS, store)
        session.set_board_drag(117)  # a Millennium board's hello
        assert session.timing.drag_wait() == 117 and session.core.timing.drag_wait() == 117
        session.set_board_drag(0)  # the board gone, another kind in its place
        assert session.core.timing.drag_wait() == Timing().drag_ms
        owner = Session(CHESS, store, timing=Timing(drag_ms=250))
        owner.set_board_drag(117)
        assert owner.core.timing.drag_wait() == 250


def test_a_board_back_with_a_move_past_the_game_is_that_game_not_a_new_one(tmp_path: Path) -> None:
    """The link resynchronised (a lost frame, a reconnect) while the board showed the game under
    way plus a move the referee does not take (here not the computer's): that is the game with a
    move to guide back, not a new game that starts with the same moves."""
    clock = Clock()
    session, store, _path = started(tmp_path, clock)
    assert move(session, clock, "g1", "f3") == ["g1f3"]
    session.core.expect((session.position.parse_move("e7e5"),))  # the computer's move on the screen
    board = list(START)
    for frm, to in (("g1", "f3"), ("a7", "a6")):
        board[cell(frm)], board[cell(to)] = 0, 1
    session.sync(board, clock())
    update = session.tick(clock(T.guide_ms + T.settle_ms + 5))
    assert session.status.prompt is None, session.status.message
    assert update.status.kind == StatusKind.FIX
    assert {f.cell for f in update.status.fixes} == {cell("a7"), cell("a6")}
    game = session.game_id
    assert game is not None and store.game_ids() == [game] and store.game(game).moves == ("g1f3",)


def test_after_the_persons_move_the_computers_side_waits_for_its_move_to_be_shown(tmp_path: Path) -> None:
    """Black is the computer's. Once White's move is taken, and before the service has said what
    the computer plays, a black move made at the board is not taken: nobody chose it."""
    clock = Clock()
    session, store, _path = started(tmp_path, clock)
    session.core.expect(None, frozenset({1 - session.position.side}))  # White to move: a person
    assert move(session, clock, "e2", "e4") == ["e2e4"]
    assert move(session, clock, "e7", "e5") == []
    session.tick(clock(T.guide_ms + T.settle_ms + 5))
    assert session.status.kind == StatusKind.FIX, session.status.message
    game = session.game_id
    assert game is not None and store.game(game).moves == ("e2e4",)
