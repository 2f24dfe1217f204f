"""The generated hands never take a piece the last move put down sooner than ``reaction_ms``.

A scanning board sees a square only when its scan comes round: a DGT board visits each square
every 220 ms, so a piece taken sooner than that after it was put down is, in about one phase in
three, never reported at all, and the referee is left with a move it cannot read (the Alice demo
on two DGT boards lost 5... d7d5 so, under load). Tests of such boards set ``reaction_ms`` to one
scan; these check that the scripts keep to it whichever piece of a capture the hand takes first.
"""

from __future__ import annotations

from typing import Literal

import pytest

import engine
from controller.demo_games import DEMO_GAMES
from controller.event_scripts import Style, hand_steps, script_for_moves
from tests.demo_game_runs import MAKER_HANDS

CHESS = engine.find_variant("chess")
ALICE = engine.find_variant("alice")


def ms_before_touching(lines: list[str], name: str) -> int:
    """The sleeps before the first line that lifts ``name``."""
    total = 0
    for line in lines:
        if line == f"lift {name}":
            return total
        if line.startswith("sleep "):
            total += int(line.split()[1])
    raise AssertionError(f"{name} is never lifted in {lines}")


@pytest.mark.parametrize("capture", ["victim", "attacker"])
def test_a_capture_of_the_piece_just_put_down_waits_the_reaction_time(
        capture: Literal["victim", "attacker"]) -> None:
    """Attacker first, the victim on its square goes with the attacker: it waits too."""
    pos = engine.start_position(CHESS)
    for text in ("e2e4", "d7d5"):
        pos.push_text(text)
    lines = hand_steps(pos, pos.parse_move("e4d5"), Style(capture=capture, think_ms=0, reaction_ms=250))
    assert ms_before_touching(lines, "d5") >= 250, lines


def test_no_piece_of_the_alice_demo_is_taken_within_one_dgt_scan_of_being_put_down() -> None:
    """The style of the demo on two maker boards (tests/test_e2e_alice.py): every piece a move
    puts down stands at least 220 ms (one DGT scan) before the next move lifts it."""
    lines = script_for_moves(ALICE, list(DEMO_GAMES["alice"]), MAKER_HANDS)
    put_at: dict[str, int] = {}  # cell -> when the last move put a piece there
    t = 0
    short = []
    for line in lines:
        word, _, rest = line.partition(" ")
        if word == "sleep":
            t += int(rest)
        elif word == "place":
            put_at[rest.split()[0]] = t
        elif word == "lift" and rest in put_at:
            if t - put_at[rest] < 220:
                short.append(f"{rest} taken {t - put_at[rest]} ms after it was put down")
            del put_at[rest]
    assert not short, short
