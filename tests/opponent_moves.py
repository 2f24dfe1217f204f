"""The player's side of a game against a side the board does not play itself -- the computer,
or a remote board of the hall -- in the tests: the service (real, in this process, a
tests/service_rig.Rig) refereeing the simulated board, and the test as the human's hands.

The hands press the clock button (gpiozero's MockFactory) after each move, as a player who has
one does: the next move is only made once the last is taken, so a move that could still go on
(a pawn's single step, a slide) would otherwise wait the referee's whole quiet for a hand that
hesitates (``timing.hesitate_ms``, 3 s; tests/test_e2e_hesitant.py plays that wait)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from gpiozero.pins.mock import MockFactory, MockPin

from controller.config import GpioConfig
from controller.core_types import StatusKind
from controller.event_scripts import Style, script_for_moves
from controller.service.bus import Wake
from engine import Position, format_fen
from engine.search.evaluation import Evaluator
from tests.service_rig import TIMEOUT, Rig

#: The clock button's pin (``gpio.clock``).
CLOCK_PIN = 23
#: A move starts once the last one is taken (no thinking time needed to keep them apart).
HANDS = Style(think_ms=0, hand_ms=40)


def hands(rig: Rig, pos: Position, text: str, clock: MockPin | None = None) -> None:
    """Carry out ``text`` from ``pos`` on the simulated board, as a player's hands would, then
    press the ``clock`` button if there is one."""
    lines = script_for_moves(pos.variant, [text], HANDS, fen=format_fen(pos))
    rig.board.start_script("\n".join(line for line in lines if not line.startswith("choose")) + "\n")
    assert rig.board.done.wait(TIMEOUT), f"the board never played {text}"
    if clock is not None:
        clock.drive_low()
        clock.drive_high()


def clocked(rig: Callable[..., Rig], mock_pins: MockFactory, **config: Any) -> tuple[Rig, MockPin]:
    """A rig whose service has the clock button, and the button's pin."""
    return rig(gpio=GpioConfig(clock=CLOCK_PIN), **config), mock_pins.pin(CLOCK_PIN)


def announced(rig: Rig, plies: int) -> dict:
    """The computer's move, once the service shows it for the game's ply ``plies``."""
    def shown() -> bool:
        # (The controller thread sets the guide, then shows it: the summary comes a moment later.)
        guide = rig.service.opponents.guide
        return (guide is not None and guide.move is not None and guide.plies == plies
                and rig.service.outputs.summary.get("opponent", {}).get("move") == guide.text)
    rig.wait(shown)
    return rig.service.outputs.summary["opponent"]


def accepted(rig: Rig, n: int, text: str) -> None:
    """Wait for the game's ``n``-th move, ``text``; a question the referee asks about it (which
    piece was put down) is answered as a player at the screen would."""
    service = rig.service
    rig.wait(lambda: len(rig.accepted) >= n or service.session.status.kind == StatusKind.ASK)
    prompt = service.session.status.prompt
    if len(rig.accepted) < n and prompt is not None:
        service.demo.answers.append(next(o.key for o in prompt.options if text in o.texts))
        service.inputs.put(Wake())
    rig.wait(lambda: len(rig.accepted) >= n)


def losing_move(pos: Position, rng: random.Random) -> str:
    """The move that leaves the human worst off by the engine's own static evaluation (ties at
    random): a player who hangs his men and opens his king, so a whole game ends soon."""
    ev = Evaluator(pos.variant)
    side = pos.side
    scored = []
    for m in pos.legal_moves():
        pos.push(m)
        scored.append((ev.relative(pos, side), rng.random(), m))
        pos.pop()
    return pos.move_text(min(scored, key=lambda s: s[:2])[2])
