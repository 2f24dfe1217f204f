"""A position taken back while the engine still thinks about it (a real ``chessery engine``
process): the engine is told to stop, its stale answer is dropped, and the new position is
asked about once it has answered."""

from __future__ import annotations

from controller.computer_turns import ComputerTurns, TurnState
from controller.players import parse_player
from engine import find_variant, start_position

WAIT = 60.0


def test_a_new_position_while_the_engine_thinks_is_asked_once_it_stopped() -> None:
    pos = start_position(find_variant("chess"))
    turns = ComputerTurns({1: parse_player("computer:0")}, pos, go="go infinite")
    try:
        pos.push_text("e2e4")
        turns.update(pos)
        first = turns.request
        assert turns.state is TurnState.THINKING and first is not None
        pos.pop()
        pos.push_text("d2d4")  # e4 taken back and d4 played while black was thinking
        turns.update(pos)
        assert turns.state is TurnState.THINKING and turns.request is None  # told to stop
        assert first.done.wait(WAIT)
        turns.update(pos)
        second = turns.request
        assert second is not None and second is not first
        turns.engines[1].stop()  # "go infinite": answer now
        assert turns.wait(WAIT)
        shown = turns.poll()
        assert shown is not None and shown.move in pos.legal_moves()  # a move for the d4 position
    finally:
        turns.close()
