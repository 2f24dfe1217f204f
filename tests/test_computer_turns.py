"""The computer's turns (controller/computer_turns.py) with real ``chessery engine`` processes:
asked only on its side's final positions, its move shown with the board steps, a different move
on the board answered with guidance."""

from __future__ import annotations

import pytest

from controller.computer_turns import ComputerMove, ComputerTurns, TurnState
from controller.players import HUMAN, PlayerError, parse_player
from engine import find_variant, start_position

WAIT = 60.0


def wait_for_move(turns: ComputerTurns) -> ComputerMove:
    assert turns.wait(WAIT), "no answer"
    shown = turns.poll()
    assert shown is not None, turns.error
    return shown


def test_a_human_against_the_computer_in_chess() -> None:
    pos = start_position(find_variant("chess"))
    turns = ComputerTurns({0: HUMAN, 1: parse_player("computer:3")}, pos, go="go nodes 100")
    try:
        turns.update(pos)
        assert turns.state == TurnState.IDLE and turns.poll() is None  # white is human
        pos.push_text("e2e4")
        turns.update(pos)
        assert turns.state in (TurnState.THINKING, TurnState.SHOWING)
        shown = wait_for_move(turns)
        assert turns.state == TurnState.SHOWING and shown.side == 1
        assert shown.move in pos.legal_moves()
        assert shown.steps.steps and shown.steps.lift == {shown.move.frm}
        other = next(m for m in pos.legal_moves() if m != shown.move)
        assert turns.check(other).startswith(f"that is not the computer's move: play {shown.text}")
        assert turns.check(shown.move) == ""
        assert turns.shown() == shown
        pos.push(shown.move)
        turns.update(pos)
        assert turns.state == TurnState.IDLE and turns.poll() is None
    finally:
        turns.close()


def test_a_hint_for_the_human_is_a_legal_move_of_his() -> None:
    pos = start_position(find_variant("alice"))
    turns = ComputerTurns({0: HUMAN, 1: parse_player("computer:1")}, pos, go="go nodes 80")
    try:
        request = turns.hint(pos)
        assert request.done.wait(WAIT) and request.move is not None
        assert request.move in pos.legal_moves() and pos.variant.owner[request.move.piece] == 0
    finally:
        turns.close()


def test_one_human_against_two_computers_in_triscacia() -> None:
    pos = start_position(find_variant("triscacia"))
    turns = ComputerTurns({0: HUMAN, 1: parse_player("computer:2"), 2: parse_player("computer:2")}, pos,
                          go="go nodes 60")
    try:
        pos.push(pos.legal_moves()[0])  # the human (blue)
        for side in (1, 2):
            turns.update(pos)
            shown = wait_for_move(turns)
            assert shown.side == side and shown.move in pos.legal_moves()
            pos.push(shown.move)
        turns.update(pos)
        assert turns.state == TurnState.IDLE  # blue again
    finally:
        turns.close()
    assert not turns.engines


def test_a_bad_engine_command_fails_before_the_game() -> None:
    with pytest.raises(PlayerError, match="cannot start"):
        ComputerTurns({0: parse_player("uci:/nonexistent/engine")}, start_position(find_variant("chess")))


def test_consulting_the_computer_about_an_agreement() -> None:
    """An offer to end by agreement: on the human's turn the computer's engine is asked for its
    search of the position (the score of its ``info`` lines); on its own turn the search of its
    move is the answer (its engine is not asked twice). A side no engine plays is an error."""
    pos = start_position(find_variant("chess"))
    turns = ComputerTurns({0: HUMAN, 1: parse_player("computer:3")}, pos, go="go depth 1")
    try:
        turns.update(pos)
        request = turns.consult(pos, 1)
        assert request.done.wait(WAIT) and request.move is not None
        assert any(" score " in line for line in request.info)
        assert turns.state == TurnState.IDLE  # the human's turn goes on: nothing shown
        pos.push_text("e2e4")
        turns.update(pos)
        mine = turns.request
        assert mine is not None and turns.consult(pos, 1) is mine
        wait_for_move(turns)
        with pytest.raises(PlayerError):
            turns.consult(pos, 0)
    finally:
        turns.close()


def test_the_engine_starts_on_a_provisional_reading_and_answers_once_it_is_final() -> None:
    """A provisional reading (``foresee``): the engine starts on the game after it at once, and
    that search is the answer when the reading becomes the move; it is shown only then. A
    reading that does not become the move is dropped: its search is stopped and the engine is
    asked about the real move."""
    pos = start_position(find_variant("chess"))
    turns = ComputerTurns({0: HUMAN, 1: parse_player("computer:3")}, pos, go="go depth 2")
    try:
        turns.update(pos)
        ahead = pos.copy()
        ahead.push_text("e2e3")  # a pawn's step that could still go on to e4
        early = turns.foresee(ahead)
        assert early is not None and turns.foresee(ahead) is None  # asked once
        assert early.done.wait(WAIT) and early.move is not None
        assert turns.poll() is None and turns.state == TurnState.IDLE  # not final: nothing shown
        pos.push_text("e2e3")
        turns.update(pos)
        assert turns.request is early  # the search already done is the answer
        shown = turns.poll()
        assert shown is not None and shown.move == early.move and shown.side == 1
        pos.push(shown.move)
        turns.update(pos)
        # a reading that went on: the early search on d2d3 is dropped for d2d4's
        ahead = pos.copy()
        ahead.push_text("d2d3")
        dropped = turns.foresee(ahead)
        assert dropped is not None
        pos.push_text("d2d4")
        turns.update(pos)
        assert dropped.done.wait(WAIT)
        turns.update(pos)  # (the loop's next turn: the engine is free again)
        answer = wait_for_move(turns)
        assert turns.request is not dropped and answer.move in pos.legal_moves()
    finally:
        turns.close()
