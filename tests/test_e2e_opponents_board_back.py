"""A game against the computer while the board's cable is out: the service (real, in this
process) on the simulated board behind a real pty, the computer our own engine in its own
process. The computer's move is on the screen; the cable comes out and, while it is out, the
hands make another black move and a white reply. The board comes back showing both: they read
one way, but the computer never chose that black move, so nothing is taken and the board is
guided back; the computer's own move is then taken as usual."""

from __future__ import annotations

import engine
from controller.core_types import StatusKind
from controller.session import Phase
from engine import start_position
from firmware_bridge.faults import parse_faults
from tests.opponent_moves import accepted, announced, hands
from tests.service_rig import TIMEOUT

CHESS = engine.find_variant("chess")


def test_a_move_for_the_computer_made_while_the_cable_was_out_is_guided_back(rig) -> None:
    r = rig(players=(("black", "computer:0"),), engine_go="go depth 1")
    pos = start_position(CHESS)
    r.wait(lambda: r.service.session.phase == Phase.PLAY)
    hands(r, pos, "e2e4")
    accepted(r, 1, "e2e4")
    pos.push_text("e2e4")
    shown = announced(r, 1)["move"]
    wrong = next(m for m in pos.legal_moves() if pos.move_text(m) != shown and not m.victims
                 and len(m.relocations) == 1 and not m.tag)
    ahead = pos.copy()
    ahead.push(wrong)
    used = {c for c, _b, _a in wrong.changes}
    reply = next(m for m in ahead.legal_moves() if not m.victims and len(m.relocations) == 1 and not m.tag
                 and not used & {c for c, _b, _a in m.changes})
    wrong_text, reply_text = pos.move_text(wrong), ahead.move_text(reply)
    # The cable comes out before the first action of the next script, for 800 ms: both moves
    # are made while it is out.
    r.board.faults = parse_faults("unplug=800@1")
    r.board.play(f"lift {wrong_text[:2]}\nplace {wrong_text[2:4]}\nsleep 50\n"
                 f"lift {reply_text[:2]}\nplace {reply_text[2:4]}\nsleep 50\n", timeout=TIMEOUT)
    assert r.board.boots == 2  # it really was unplugged
    r.wait(lambda: r.service.session.status.kind == StatusKind.FIX)
    fixes = {f.cell for f in r.service.session.status.fixes}
    assert fixes == {c for m in (wrong, reply) for c, _b, _a in m.changes}
    assert [text for _game, text in r.accepted] == ["e2e4"]  # neither was taken
    r.board.faults = parse_faults(None)
    r.board.play(f"lift {reply_text[2:4]}\nplace {reply_text[:2]}\nlift {wrong_text[2:4]}\nplace {wrong_text[:2]}\n",
                 timeout=TIMEOUT)
    r.wait(lambda: r.service.session.status.kind != StatusKind.FIX)
    hands(r, pos, shown)
    accepted(r, 2, shown)
    assert [text for _game, text in r.accepted] == ["e2e4", shown]
