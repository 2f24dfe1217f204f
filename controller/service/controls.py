"""What the players and the operator do besides moving pieces: the panel's buttons (the menu
button, confirm, take back, the clock button, the encoder) and touches on the screen (a prompt's
choices, the operator menu, board cells). The menu's actions are carried out by
``controller.operator``."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from display.window import CellClicked, ChoiceClicked, InputEvent, MenuClicked, QuitRequested

from .. import operator
from ..core_types import PromptKind
from ..game_clock import clock_button
from ..session_endings import Phase

if TYPE_CHECKING:
    from hardware.panel import Word

    from .service import Service

log = logging.getLogger("chessery")


class Controls:
    def __init__(self, service: Service) -> None:
        self.service = service
        #: What the clock button last said when it switched nothing (on the screen until the
        #: next input).
        self.clock_note = ""

    def button(self, name: Word, now: int) -> None:
        """A panel button: the menu button opens (or closes) the operator menu; while it is open
        the other buttons move through it and choose."""
        service = self.service
        session = service.session
        menu = service.menu
        prompt = session.status.prompt
        if name == "clock":
            self._clock_button(now)
            return
        if name == "menu" and menu.is_open:
            menu.close()
        elif name == "menu" and (session.phase != Phase.PLAY or not session.position.move_stack):
            operator.open_menu(service)
        elif name == "menu" and prompt is not None and prompt.kind == PromptKind.MENU:
            # Pressed again while the game's own menu asks "new game?": the operator menu.
            service.report(session.answer("no", now))
            operator.open_menu(service)
        elif menu.is_open:
            if name in ("next", "previous"):
                menu.move(1 if name == "next" else -1)
            elif name == "confirm":
                operator.carry_out(service, menu.confirm(), now)
            elif name == "takeback":
                menu.close()
        else:
            service.report(session.button(name, now))
        operator.after_menu(service)

    def _clock_button(self, now: int) -> None:
        """The optional clock button (controller.game_clock.clock_button): it may make the move
        on the board final; else it only says why it switched nothing, on the screen and the log."""
        service = self.service
        if service.menu.is_open:
            note = "Clock button: close the menu first"
        else:
            update, note = clock_button(service.session, now)
            if update is not None:
                service.report(update)
        self.clock_note = note
        if note:
            service.outputs.say(note)

    def touch(self, ev: InputEvent, now: int) -> None:
        service = self.service
        menu = service.menu
        if isinstance(ev, MenuClicked):
            operator.open_menu(service)
        elif isinstance(ev, ChoiceClicked) and menu.is_open:
            try:
                operator.carry_out(service, menu.tap(ev.key), now)
            except ValueError as exc:  # the screen changed under the finger
                log.info("touch ignored: %s", exc)
            operator.after_menu(service)
        elif isinstance(ev, ChoiceClicked):
            try:
                service.report(service.session.answer(ev.key, now))
            except ValueError as exc:  # the question changed under the finger
                log.info("touch ignored: %s", exc)
        elif isinstance(ev, CellClicked) and not menu.is_open:
            # The display's cells are engine cells (it draws the engine's geometry, turned round
            # or not): no sensor mapping here.
            try:
                update = service.session.touch(ev.cell, now)
            except ValueError as exc:
                log.info("touch ignored: %s", exc)
                return
            if update.accepted:
                service.moved_at = now  # the touch completed the move: the clock stops now
            service.report(update)
            if update.note and update.note not in service.session.status.message:
                log.info("%s", update.note)
        elif isinstance(ev, QuitRequested):
            service.stopping.set()
