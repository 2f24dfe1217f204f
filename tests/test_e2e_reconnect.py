"""A board that comes back from a cable pull showing a new game: the simulated board (the
reference firmware's code behind a real pty) is unplugged by its own fault injection while the
players finish the reset and start the next game, or reset the board in the middle of a game;
the service (its link, controller thread and session on a real SQLite file) must not lose the
new game, nor drop the old one."""

from __future__ import annotations

from controller.core_types import PromptKind, StatusKind
from controller.service import Button
from controller.session import Phase
from tests.service_rig import TIMEOUT

#: Fool's mate, hand by hand; then the reset: the pieces that moved go back (actions 9-16).
FOOLS_MATE = """
lift f2
place f3
sleep 100
lift e7
place e5
sleep 100
lift g2
place g4
sleep 100
lift d8
place h4
sleep 300
lift f3
place f2
lift e5
place e7
lift g4
place g2
lift h4
place d8
"""


def test_the_first_move_of_the_next_game_made_while_the_cable_was_out(rig) -> None:
    # The cable is out from the last piece of the reset on (action 16) for 400 ms: the board comes
    # back showing the start position plus e2e4. That game used to be lost (bench/soak.py).
    r = rig("unplug=400@16")
    r.board.play(FOOLS_MATE + "sleep 50\nlift e2\nplace e4\nsleep 800\n", timeout=TIMEOUT)
    r.wait(lambda: (2, "e2e4") in r.accepted)
    assert r.service.session.status.message.startswith("White played e2e4")
    # the game goes on live after the reconnect
    r.board.play("lift e7\nplace e5\nsleep 300\n", timeout=TIMEOUT)
    r.finish()
    assert r.board.boots == 2  # it really was unplugged
    assert r.games() == [(("f2f3", "e7e5", "g2g4", "d8h4"), "0-1", "checkmate"), (("e2e4", "e7e5"), "*", "")]


def test_a_new_game_of_three_moves_made_while_the_cable_was_out(rig) -> None:
    # Out for the whole reset and three moves (one order only: the queen needs e2 empty).
    r = rig("unplug=900@9")
    r.board.play(FOOLS_MATE + "sleep 50\nlift e2\nplace e4\nsleep 50\nlift e7\nplace e5\nsleep 50\n"
                 "lift d1\nplace h5\nsleep 1500\n", timeout=TIMEOUT)
    r.wait(lambda: (2, "d1h5") in r.accepted)
    r.finish()
    assert r.games()[1] == (("e2e4", "e7e5", "d1h5"), "*", "")


def test_a_game_reset_during_the_outage_is_asked_about_and_kept(rig) -> None:
    # e2e4 e7e5 live; while the cable is out the players reset the board and play d2d4: no move
    # of the game explains that, a new game does. The screen asks; the old game stays stored.
    r = rig("unplug=600@5")
    r.board.play("lift e2\nplace e4\nsleep 100\nlift e7\nplace e5\nsleep 300\n"
                 "lift e4\nplace e2\nlift e5\nplace e7\nsleep 50\nlift d2\nplace d4\nsleep 1000\n", timeout=TIMEOUT)
    r.wait(lambda: any(s.prompt is not None and s.prompt.kind == PromptKind.NEW_ON_BOARD for s in r.statuses))
    question = r.service.session.status
    assert question.message == ("The board shows a new game (d2d4). Start it? (this game stays stored, "
                                "abandoned)")
    assert r.accepted == [(1, "e2e4"), (1, "e7e5")]  # nothing started before the answer
    r.service.inputs.put(Button("confirm"))  # the first choice: start the new game
    r.wait(lambda: (2, "d2d4") in r.accepted)
    r.finish()
    assert r.games() == [(("e2e4", "e7e5"), "*", "abandoned"), (("d2d4",), "*", "")]


def test_a_short_game_still_on_the_board_after_a_cable_pull_starts_no_new_game(rig) -> None:
    # Fool's mate ends the game; 1.5 s later the cable is out for 500 ms while a pawn is lifted,
    # and it is put back later. The board shows the ended game's last position, which is also
    # "the start plus four moves": it used to start a new game and ask in which order they came.
    r = rig("unplug=500@9")
    mate = "\n".join(FOOLS_MATE.strip().splitlines()[:11])
    r.board.play(mate + "\nsleep 1500\nlift a2\nsleep 800\nplace a2\nsleep 300\n", timeout=TIMEOUT)
    r.finish()
    assert r.board.boots == 2  # it really was unplugged
    assert r.games() == [(("f2f3", "e7e5", "g2g4", "d8h4"), "0-1", "checkmate")]
    assert r.service.session.phase == Phase.OVER and r.service.session.status.kind == StatusKind.IDLE
