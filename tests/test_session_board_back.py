"""A board back after its link was down (a cable pulled, a board stalled past the silence limit)
showing the game plus moves the hands made meanwhile, on a session with a real SQLite file: the
moves are taken as played when they read one way, and in a game against the computer only if
the computer's side got no move but the one it chose (its move is made at the board once it is
shown, never before)."""

from __future__ import annotations

from pathlib import Path

from controller.core_types import StatusKind
from controller.session import Session
from controller.store import GameStore
from tests.session_moves import START, Clock, T, cell, move, started


def board_back(session: Session, clock: Clock, moves: list[tuple[str, str]]) -> tuple[str, ...]:
    """The board comes back showing the start position with ``moves`` made (no captures): the
    moves accepted once the referee has worked it out."""
    board = list(START)
    for frm, to in moves:
        board[cell(frm)], board[cell(to)] = 0, 1
    accepted = session.sync(board, clock()).accepted
    return accepted + session.tick(clock(T.guide_ms + T.settle_ms + 5)).accepted


def stored(store: GameStore, session: Session) -> tuple[str, ...]:
    assert session.game_id is not None
    return store.game(session.game_id).moves


def test_moves_made_while_the_board_was_away_are_taken_when_they_read_one_way(tmp_path: Path) -> None:
    clock = Clock()
    session, store, _path = started(tmp_path, clock)
    assert move(session, clock, "e2", "e4") == ["e2e4"]
    # (The bishop's move needs e7 empty: one order. Moves that could come in either order are
    # asked about, for the record.)
    assert board_back(session, clock, [("e2", "e4"), ("e7", "e5"), ("g1", "f3"), ("f8", "c5")]) == (
        "e7e5", "g1f3", "f8c5")
    assert session.status.kind == StatusKind.IDLE and stored(store, session) == ("e2e4", "e7e5", "g1f3", "f8c5")


def test_the_computers_move_and_a_reply_made_while_the_board_was_away_are_taken(tmp_path: Path) -> None:
    clock = Clock()
    session, store, _path = started(tmp_path, clock)
    assert move(session, clock, "g1", "f3") == ["g1f3"]
    black = session.position.side
    session.core.expect((session.position.parse_move("e7e5"),), frozenset({black}))  # shown on the screen
    assert board_back(session, clock, [("g1", "f3"), ("e7", "e5"), ("d2", "d4")]) == ("e7e5", "d2d4")
    assert stored(store, session) == ("g1f3", "e7e5", "d2d4")


def test_another_move_for_the_computer_and_a_reply_are_guided_back(tmp_path: Path) -> None:
    # The computer chose e7e5; the board comes back with d7d5 and c2c4 made. Both read one way,
    # but the computer never played d7d5: nothing is taken, the board is guided back.
    clock = Clock()
    session, store, _path = started(tmp_path, clock)
    assert move(session, clock, "g1", "f3") == ["g1f3"]
    black = session.position.side
    session.core.expect((session.position.parse_move("e7e5"),), frozenset({black}))
    assert board_back(session, clock, [("g1", "f3"), ("d7", "d5"), ("c2", "c4")]) == ()
    status = session.status
    assert status.kind == StatusKind.FIX and status.prompt is None, status.message
    assert {f.cell for f in status.fixes} == {cell("d7"), cell("d5"), cell("c2"), cell("c4")}
    assert stored(store, session) == ("g1f3",)


def test_a_move_for_the_computer_that_it_never_chose_is_not_taken(tmp_path: Path) -> None:
    # White (a person) to move, Black the computer: the board comes back with e2e4 and a black
    # move made by hand before the computer said anything.
    clock = Clock()
    session, store, _path = started(tmp_path, clock)
    session.core.expect(None, frozenset({1 - session.position.side}))
    assert board_back(session, clock, [("e2", "e4"), ("e7", "e5")]) == ()
    assert session.status.kind == StatusKind.FIX, session.status.message
    assert stored(store, session) == ()
