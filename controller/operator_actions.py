"""The arbiter's actions from the operator menu, carried out on a running service: the event's
tags (event, round, board), a time control typed in, the clocks (pause both, add or take time),
a result the arbiter records (forfeit, draw, adjourned), exporting a chosen game or the whole
event, restarting or shutting down the kiosk. ``controller.operator`` routes these kinds here.

What the players must know goes on the menu's message screen; nothing here raises for bad
input (a time control that cannot be read says why, and nothing changes)."""

from __future__ import annotations

import logging
import subprocess
from collections.abc import Callable
from typing import TYPE_CHECKING

from engine import Outcome
from engine.position import Termination

from .menu_types import Action
from .session_endings import Phase

if TYPE_CHECKING:
    from .service import Service

log = logging.getLogger("chessery")

#: The arbiter's results that are not decided on the board. "adjourned" is stored as ``*``: the
#: game is not over for PGN (``controller.session`` stores it so).
ARBITER_TERMINATIONS: dict[str, Termination] = {
    "forfeit": "forfeit", "draw": "arbiter_decision", "adjourned": "adjourned"}
#: What "Shut down the kiosk" runs (the unit's user needs the right to: docs/kiosk.md).
SHUTDOWN_COMMAND = ("systemctl", "poweroff")


def _run(argv: tuple[str, ...]) -> None:
    subprocess.run(argv, check=False, timeout=30)


#: How commands are run: replaced by a test, which must never switch its own machine off.
run_command: Callable[[tuple[str, ...]], None] = _run
#: Stored games listed for export, newest first.
GAMES_LISTED = 64


def carry_out(service: Service, action: Action, now: int) -> None:
    kind = action.kind
    if kind == "tag":
        service.event_tags[action.tag] = action.value
        from .operator import tag_game

        tag_game(service, force=True)
    elif kind == "clock_pause":
        clock = service.clock
        if clock is None or clock.clock is None:
            service.menu.show("No clock in this game")
            return
        clock.arbiter_pause(service.session, not clock.paused_by_arbiter, now)
    elif kind == "clock_adjust":
        clock = service.clock
        if clock is None or clock.clock is None or service.session.phase != Phase.PLAY:
            service.menu.show("No clock running in a game under way")
            return
        clock.adjust(action.side, int(action.value) * 1000, now)
    elif kind == "arbiter":
        arbiter_result(service, action, now)
    elif kind == "export":
        export(service, action.value)
    elif kind == "power":
        power(service, action.value)
    elif kind == "time_control":
        set_time_control(service, action.value)
    else:
        raise AssertionError(kind)
    current(service)


def resume_tags(service: Service) -> None:
    """A resumed game keeps what the menu set on it before the restart (its names, event, round,
    board: stored as the game's tags), on the screen as in its PGN, and for the games after it."""
    gid = service.session.game_id
    if gid is None:
        return
    from .game_extras import GameExtras
    from .operator import TAG_OF_SIDE

    with GameExtras(service.store) as extras:
        tags = extras.tags(gid)
    for side, tag in enumerate(TAG_OF_SIDE):
        if tags.get(tag):
            service.players[side] = tags[tag]
    for tag in ("Event", "Round", "Board"):
        if tags.get(tag):
            service.event_tags[tag] = tags[tag]
    service.tagged_game = gid


def current(service: Service) -> None:
    """What the menu shows as the settings in force."""
    menu = service.menu
    menu.current = {"variant": service.variant.name, "variant_title": service.variant.title,
                    "time": service.clock.control.text if service.clock is not None and service.clock.control
                    else "none"}
    for side, name in service.players.items():
        menu.current[f"name{side}"] = name
    for side, player in service.opponents.players.items():
        menu.current[f"player{side}"] = player.text()
    for purpose, tag in (("event", "Event"), ("round", "Round"), ("board", "Board")):
        if service.event_tags.get(tag):
            menu.current[purpose] = service.event_tags[tag]
    menu.clocks_paused = service.clock is not None and service.clock.paused_by_arbiter


def set_time_control(service: Service, text: str) -> None:
    from .clock import TimeControlError, parse_time_control
    from .operator import set_time_control as apply

    try:
        if text != "none":
            parse_time_control(text)  # before anything changes
        apply(service, text)
    except TimeControlError as exc:
        service.menu.show(f"{exc}. Nothing changed")
        return
    shown = "no clock" if text == "none" else text
    service.menu.show(f"Time control {shown} from the next game")


def arbiter_result(service: Service, action: Action, now: int) -> None:
    session = service.session
    if session.phase != Phase.PLAY:
        service.menu.show("No game under way")
        return
    winner = action.side if action.value == "forfeit" else None
    service.report(session.end(Outcome(ARBITER_TERMINATIONS[action.value], winner), now, "the arbiter's result"))


def games_for_export(service: Service) -> list[tuple[int, str]]:
    """The export list: (id, "Game 12: Tal - Ann, 1-0"), newest first."""
    from .game_extras import GameExtras

    store = service.store
    out = []
    with GameExtras(store) as extras:
        for gid in reversed(store.game_ids()[-GAMES_LISTED:]):
            game = store.game(gid)
            tags = extras.tags(gid)
            names = " - ".join(tags.get(t, "?") for t in ("White", "Black")) if tags else game.variant
            out.append((gid, f"Game {gid}: {names}, {game.result}"))
    return out


def export(service: Service, which: str) -> None:
    """``which``: "" the game under way (or the latest), "event" every stored game, else a game id."""
    from .export import ExportError, event_pgn, export_name, export_to_usb, game_pgn

    store = service.store
    if which == "event":
        if not store.game_ids():
            service.menu.show("No game to export yet")
            return
        text, name, what = event_pgn(store, service.config), export_name(None), "The whole event"
    else:
        gid = int(which) if which else service.session.game_id
        game = store.game(gid) if gid is not None else store.latest()
        if game is None:
            service.menu.show("No game to export yet")
            return
        text, name, what = game_pgn(store, game, service.config), export_name(game), f"Game {game.id}"
    try:
        path = export_to_usb(text, name, service.usb_root)
    except ExportError as exc:
        service.menu.show(str(exc))
        return
    service.menu.show(f"{what} saved to {path}")


def power(service: Service, what: str) -> None:
    """Restart: the service stops and systemd starts it again (``Restart=always``). Shut down:
    the kiosk is switched off; the game under way is stored move by move, so nothing is lost."""
    if what == "shutdown":
        log.warning("shutting the kiosk down (operator menu)")
        try:
            run_command(SHUTDOWN_COMMAND)
        except (OSError, subprocess.SubprocessError) as exc:
            service.menu.show(f"Could not shut down: {exc}")
            return
    else:
        log.warning("restarting (operator menu)")
    service.request_stop()
