"""The optional GPIO clock button (``gpio.clock``), pressed through gpiozero's MockFactory on a
service refereeing the simulated board on a real pty, with a 1-minute clock: a press makes the
move the board shows final at once and switches the clock, charged up to the move's last
placement; a press with nothing moved, half a move made, or after the move, switches nothing and
only says so. Every timing long enough that only the press can have made the move final."""

from __future__ import annotations

from controller.config import GpioConfig
from controller.core_types import StatusKind
from controller.game_extras import GameExtras
from controller.inference import Timing
from controller.session import Phase
from tests.service_rig import Rig

CLOCK_PIN = 23
#: No move becomes final by itself within the test: only a press (or the next move) does it.
PATIENT = Timing(settle_ms=60_000, prefix_ms=60_000, drag_ms=60_000)


def press(r: Rig, mock_pins, says: str) -> None:
    """Press and release the clock button; wait for the frame that shows ``says`` ("" when the
    press made a move final: wait for that instead)."""
    shown = len(r.notes)
    pin = mock_pins.pin(CLOCK_PIN)
    pin.drive_low()
    pin.drive_high()
    if says:
        r.wait(lambda: says in r.notes[shown:])


def test_the_clock_button_switches_only_for_a_move_on_the_board(rig, mock_pins) -> None:
    r: Rig = rig(time_control="1", timing=PATIENT, gpio=GpioConfig(clock=CLOCK_PIN))
    service = r.service
    assert service.panel is not None and "clock" in service.panel.buttons
    r.wait(lambda: service.session.phase == Phase.PLAY and service.clock is not None and service.clock.clock is not None
           and service.clock.clock.running)
    assert service.clock is not None and service.clock.clock is not None
    clock = service.clock.clock
    started = clock.since
    assert started is not None and clock.turn == 0

    press(r, mock_pins, "Clock button: White to move, nothing moved on the board yet")
    assert (clock.turn, clock.remaining, clock.since, clock.running) == (0, [60_000, 60_000], started, True)

    r.board.play("lift g1\n", timeout=30)  # the knight in the hand
    r.wait(lambda: r.statuses[-1].kind == StatusKind.MOVING)
    press(r, mock_pins, "Clock button: White's move is not complete on the board; the clock runs on")
    assert (clock.turn, clock.remaining, clock.since) == (0, [60_000, 60_000], started)

    r.board.play("place f3\n", timeout=30)
    r.wait(lambda: r.statuses[-1].provisional == ("g1f3",))
    placed = service.moved_at
    pressed = service.now()
    assert placed is not None and placed <= pressed and r.accepted == []
    press(r, mock_pins, "")
    r.wait(lambda: r.statuses[-1].message.startswith("White played g1f3"))  # shown once the clock followed
    assert r.accepted == [(1, "g1f3")]
    assert r.accepted_at[0] < placed + PATIENT.settle_ms  # the press made it final, not the quiet
    # White is charged up to the knight's placement, not up to the press; Black's time runs.
    assert clock.turn == 1 and clock.running and clock.since == placed
    assert clock.remaining == [60_000 - (placed - started), 60_000]
    with GameExtras(r.store.path) as extras:
        assert extras.ply_clocks(1, 1) == [60_000 - (placed - started)]

    press(r, mock_pins, "Clock button: Black to move, nothing moved on the board yet")
    assert clock.turn == 1 and clock.since == placed and clock.remaining == [60_000 - (placed - started), 60_000]
    assert r.accepted == [(1, "g1f3")]
