"""What the service tells: accepted moves on stdout (the engine's move text, or SAN), messages
on stderr or the log, the panel's beeps and lights, the screen's view, and the boards' lights
(the squares to fix, the question's cells, the last move, a swap still to make)."""

from __future__ import annotations

import logging
import sys
from dataclasses import replace
from typing import TYPE_CHECKING, Any, TextIO

from hardware.panel import LightState

from ..core_types import StatusKind
from ..inference import Status
from ..logs import write_safely
from ..names import players_line
from ..screen import NOTATION, view_of
from ..session import Update
from ..swaps import swaps

if TYPE_CHECKING:
    from .service import Service

log = logging.getLogger("chessery")

#: The board lights the service asks for: (to fix, the question's cells, the last move), as
#: sensor numbers.
Lights = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]


class Outputs:
    def __init__(self, service: Service, out: TextIO | None, err: TextIO | None, print_moves: bool) -> None:
        """``out``: where moves are printed (stdout). ``err``: where messages go; None: the
        ``chessery`` logger (``chessery run`` gives it one handler on stderr). A reader of
        either that goes away silences the stream, never the referee."""
        self.service = service
        self.out = out or sys.stdout
        self.err = err
        self.print_moves = print_moves
        #: The game as the status file shows it.
        self.summary: dict[str, Any] = {}
        #: Occupancy boards: cells where the last move asks for a piece swap (Gryphon) that has
        #: not been made yet (no piece put down there since); their lights blink meanwhile. An
        #: identity board needs none: the referee waits for the new piece and shows a fix.
        self._swap_cells: set[int] = set()
        self._lights: Lights | None = None
        self._last_status: Status | None = None
        self._out_lost = False
        self._printed: list[str] = []  # the game's moves as printed in SAN, for "undo" lines

    def say(self, text: str, level: int = logging.INFO) -> None:
        """One message for whoever watches the service: one line, one write."""
        if self.err is None:
            log.log(level, "%s", text)
        else:
            write_safely(self.err, f"chessery: {text}\n")

    def swap_done(self, cell: int) -> None:
        """A piece was put down on ``cell``: a swap asked for there is made."""
        self._swap_cells.discard(cell)

    def forget_lights(self) -> None:
        """Send the board lights again with the next frame (a reconnected board lost them)."""
        self._lights = None

    # -- an update, as soon as it is committed ----------------------------------------------------------
    def report(self, update: Update) -> None:
        service = self.service
        session = service.session
        if update.accepted or update.undone:
            stack = session.position.move_stack
            self._swap_cells = set()
            if update.accepted and stack and not session.identity:
                self._swap_cells = {cell for cell, _old, _new in swaps(service.variant, stack[-1])}
        if self.print_moves:
            undone, accepted = self._printable(update)
            lines = [f"undo {text}" for text in undone] + list(accepted)
            if lines and not write_safely(self.out, "".join(f"{line}\n" for line in lines)) and not self._out_lost:
                self._out_lost = True
                log.warning("standard output is gone; moves are no longer printed (they are still stored)")
        panel = service.panel
        if panel is not None and update.accepted:
            panel.beep("move")
        if service.on_update is not None:
            service.on_update(update)
        status = session.status
        if status != self._last_status:
            last = self._last_status
            if self.print_moves and status.message and (last is None or status.message != last.message):
                self.say(status.message)
            if panel is not None and status.kind == StatusKind.ASK:
                panel.beep("ask")
            if panel is not None and status.kind == StatusKind.FIX:
                panel.beep("error")
            self._last_status = status

    def _printable(self, update: Update) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """The update's moves as stdout shows them: the engine's move text (the contract), or
        SAN with ``notation = "san"``."""
        if self.service.config.notation != "san":
            return update.undone, update.accepted
        texts = [t.removesuffix(" e.p.") for t in NOTATION.texts(self.service.session.position)]
        k = len(update.undone)
        undone = tuple(reversed(self._printed[len(self._printed) - k:])) if k else ()
        accepted = tuple(texts[len(texts) - len(update.accepted):]) if update.accepted else ()
        self._printed = texts
        return undone, accepted

    # -- the end of each turn of the loop -----------------------------------------------------------------
    def show(self) -> None:
        service = self.service
        session = service.session
        status = session.status
        notice = ". ".join(x for x in (service.store.problem, service.boards.notice) if x)  # a full disk first
        summary: dict[str, Any] = {"id": session.game_id, "phase": session.phase.value,
                                   "message": notice or status.message}
        turn = service.opponents.guide
        if turn is not None:  # chessery status (and tests) read the opponent's move here
            summary["opponent"] = {"side": service.variant.sides[turn.side], "move": turn.text, "say": turn.line}
        self.summary = summary  # whole: other threads read it
        window = service.window
        if window is not None:
            guide = service.opponents.line()
            view = view_of(session, ". ".join(x for x in (notice, guide, service.controls.clock_note) if x),
                           service.boards.synced)
            marked = service.opponents.cells()
            if marked:  # the opponent's move: its cells marked like a move being made
                view = replace(view, highlights=replace(view.highlights,
                                                        pending=tuple(sorted({*view.highlights.pending, *marked}))))
            if service.clock is not None:
                view = replace(view, clocks=service.clock.seconds(service.now()))
            view = replace(view, players=players_line(service.config.event, service.players, service.variant.nsides))
            view = replace(view, menu=service.menu.prompt(), menu_button=True, flipped=service.flipped)
            window.show(view)
        panel = service.panel
        if panel is not None:
            attention = status.kind in (StatusKind.ASK, StatusKind.FIX)
            state = LightState.WAITING if notice else LightState.ATTENTION if attention else LightState.OK
            if panel.state != state:
                panel.show(state)
        self._board_lights(status)
        if service.on_show is not None:
            service.on_show(status)

    def _board_lights(self, status: Status) -> None:
        service = self.service
        links = service.boards.links
        if not links:
            return
        sensor_of = service.map.sensor_of
        wrong = {f.cell for f in status.fixes}
        if status.kind in (StatusKind.IDLE, StatusKind.MOVING):
            wrong |= self._swap_cells
        fix = tuple(sorted(sensor_of[c] for c in wrong if c in sensor_of))
        asked = status.kind == StatusKind.ASK
        pending = tuple(sorted(sensor_of[c] for c in status.cells if c in sensor_of)) if asked else ()
        if not pending and status.kind != StatusKind.FIX:  # the opponent's move to carry out: its cells lit
            pending = tuple(sorted(sensor_of[c] for c in service.opponents.cells() if c in sensor_of))
        last: tuple[int, ...] = ()
        lights = service.config.last_move_lights
        stack = service.session.position.move_stack
        if (not fix and not pending and (lights == "true" or (lights == "auto" and service.config.board != "chessery"))
                and stack):
            changed = {cell for cell, _before, _after in stack[-1].changes}
            last = tuple(sorted(sensor_of[c] for c in changed if c in sensor_of))
        want = (fix, pending, last)
        if want == self._lights:
            return
        self._lights = want
        for link in links:
            if link.hello is not None and not link.hello.lights:
                continue
            link.set_leds(fix, "blink")
            if pending:
                link.set_leds(pending, "on", replace=False)
            if last:
                link.set_leds(last, "on", replace=False)
