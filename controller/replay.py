"""Feeding an event script straight into the decision core, on the script's own clock.

The clock starts at 0; ``sleep MS`` advances it by MS, and each ``lift``/``place`` advances it by
``STEP_MS`` first (a hand needs a moment between two cells; the simulated board sends such lines
back to back, well within the core's settle time either way). Whenever the clock passes the
core's deadline the core is ticked at exactly that deadline, so the same script always gives
the same decisions. ``choose ANSWER`` first lets pending decisions fall due (the question is
asked once the board is still), then answers the open question; with no question open it is
reported (``warnings``, ``on_warning``) and skipped: the game goes on, as on a real board where
a touch on a screen with nothing to answer changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from engine import Move, Position
from firmware_bridge.script import Choose, Command, Lift, Place, ScriptError, Sleep

from .inference import Decision, Event, Referee, Status, Timing

#: Script clock advance per lift/place line, in ms.
STEP_MS = 10
#: Upper bound on decisions per clock advance: each one changes the core's state, so a loop
#: longer than this is a bug, reported rather than hung on.
_MAX_FIRES = 1000


@dataclass
class ReplayLog:
    """Everything the core decided, in order: ``(t, decision)``."""

    decisions: list[tuple[int, Decision]] = field(default_factory=list)

    def statuses(self) -> list[tuple[int, Status]]:
        out: list[tuple[int, Status]] = []
        for t, d in self.decisions:
            if not out or out[-1][1] != d.status:
                out.append((t, d.status))
        return out


class Replayer:
    """Drives a ``Referee`` from script commands. ``on_decision`` sees every decision."""

    def __init__(self, position: Position, *, identity: bool = False, timing: Timing | None = None,
                 on_decision: Callable[[int, Decision], None] | None = None, source: str = "script",
                 on_warning: Callable[[str], None] | None = None) -> None:
        self.core = Referee(position, identity=identity, timing=timing)
        self.variant = position.variant
        self.identity = identity
        self.t = 0
        self.source = source
        self.log = ReplayLog()
        self._on_decision = on_decision
        self._on_warning = on_warning
        #: Script lines skipped, each as a one-line message naming the line.
        self.warnings: list[str] = []

    @property
    def moves(self) -> list[Move]:
        """The game's moves now (after any takebacks and corrections)."""
        return list(self.core.position.move_stack)

    def texts(self) -> list[str]:
        pos = self.core.position
        return [pos.move_text(m) for m in pos.move_stack]

    def _record(self, decision: Decision) -> Decision:
        self.log.decisions.append((self.t, decision))
        if self._on_decision is not None:
            self._on_decision(self.t, decision)
        return decision

    def advance(self, target: int) -> None:
        """Move the clock to ``target``, ticking the core at every deadline on the way."""
        for _ in range(_MAX_FIRES):
            d = self.core.deadline
            if d is None or d > target:
                break
            self.t = max(self.t, d)
            self._record(self.core.tick(self.t))
        else:
            raise RuntimeError(f"the core did not settle by t={target} ms")
        self.t = max(self.t, target)

    def settle(self) -> None:
        """Run the clock until nothing is pending (end of script, or before an answer)."""
        for _ in range(_MAX_FIRES):
            d = self.core.deadline
            if d is None:
                return
            self.advance(d)
        raise RuntimeError("the core did not settle")

    def settle_for_the_next_player(self) -> None:
        """Run the clock until the core waits for nothing but the next player's start (or the
        hesitating hand's quiet): what a player watching the screen waits before moving."""
        for _ in range(_MAX_FIRES):
            d = self.core.deadline
            if d is None:
                return
            soon = self.core.deadline_once_the_next_player_starts
            if soon is not None and soon < d:
                self.advance(soon)
                return
            self.advance(d)
        raise RuntimeError("the core did not settle")

    def feed(self, command: Command) -> None:
        if isinstance(command, Sleep):
            self.advance(self.t + command.ms)
        elif isinstance(command, Lift | Place):
            self.advance(self.t + STEP_MS)
            piece = 0
            if isinstance(command, Place) and command.piece:
                piece = self.variant.parse_symbol(command.piece)
            self._record(self.core.event(Event(command.cell, isinstance(command, Place), self.t, piece)))
        elif isinstance(command, Choose):
            self.settle()
            if self.core.status.prompt is None:
                warning = str(ScriptError(f"choose {command.answer}: nothing is being asked "
                                          f"({self.core.status.message}); ignored", command.line, self.source))
                self.warnings.append(warning)
                if self._on_warning is not None:
                    self._on_warning(warning)
                return
            try:
                self._record(self.core.answer(command.answer, self.t))
            except ValueError as exc:
                raise ScriptError(str(exc), command.line, self.source) from None

    def run(self, commands: Iterable[Command]) -> list[str]:
        for command in commands:
            self.feed(command)
            self.core.prepare()  # as the service does between events
        self.settle()
        return self.texts()


def script_uses_identity(commands: Iterable[Command]) -> bool:
    """A script written for an identity board names the piece on its placements."""
    return any(isinstance(c, Place) and c.piece for c in commands)
