"""Carrying out what the operator chose in the menu (``controller.menu``) on a running service:
new game, variant, names, time control, flip, resign, draws, takeback, export to USB.

Kept out of the service (``controller.service``): its ``controls`` route touches and buttons here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import engine
from engine import Outcome

from .menu import Action, OperatorMenu
from .session_endings import Phase

if TYPE_CHECKING:
    from .service import Service

TAG_OF_SIDE = ("White", "Black")


def make_menu(service: Service) -> OperatorMenu:
    from .operator_actions import games_for_export

    return OperatorMenu(lambda: variants_that_fit(service), tuple(service.variant.sides),
                        service.config.operator_pin, games=lambda: games_for_export(service),
                        remotes=(lambda: service.opponents.hall_boards()) if service.config.hall else None,
                        engines=service.config.engines)


def variants_that_fit(service: Service) -> list[tuple[str, str]]:
    """(name, title) of each variant the connected board can play (every variant without a
    board), in title order: the menu offers no variant that ``switch_variant`` would refuse."""
    out = []
    for name in engine.variant_names():
        variant = engine.find_variant(name)
        if not service.links or _sensor_map(service, variant) is not None:
            out.append((name, variant.title))
    return sorted(out, key=lambda pair: pair[1].lower())


def _sensor_map(service: Service, variant: engine.Variant):
    """The board's sensor map for ``variant``, or None when the connected board cannot hold it."""
    from .board_map import SensorMap

    layout = None
    if service.config.layout and service.links:
        from hardware.layout import load_layout

        layout = load_layout(service.config.layout)
    try:
        new_map = SensorMap(variant, layout, service.config.orientation, boards=max(1, len(service.links)))
    except ValueError:
        return None
    return new_map if not service.links or new_map.sensors == service.map.sensors else None


def open_menu(service: Service) -> None:
    session = service.session
    agreement = service.variant.rules.agreement is not None
    service.menu.open(session.position.side, agreement, service.opponents.offers.answered_by_computer())
    service.opponents.watch_hall(True)  # the boards of the hall a side may be played by
    from .operator_actions import current

    current(service)
    if service.clock is not None:
        service.clock.menu_open(session, True, service.now())


def after_menu(service: Service) -> None:
    service.opponents.watch_hall(service.menu.is_open)
    if service.clock is not None and service.clock.paused_by_menu != service.menu.is_open:
        service.clock.menu_open(service.session, service.menu.is_open, service.now())


def carry_out(service: Service, action: Action | None, now: int) -> None:
    """Do what ``action`` asks; what the players must know goes to the menu's message screen."""
    if action is None:
        return
    session = service.session
    kind = action.kind
    nsides = service.variant.nsides
    if kind == "new_game":
        service.report(session.new_game(now))
    elif kind == "resign":
        if session.phase != Phase.PLAY:
            service.menu.show("No game under way")
            return
        winner = (action.side + 1) % nsides if nsides == 2 else None
        service.report(session.end(Outcome("resignation", winner), now, "resigned"))
    elif kind == "draw":
        if session.phase != Phase.PLAY:
            service.menu.show("No game under way")
            return
        if service.opponents.offers.answered_by_computer():  # the computer decides: offers.py
            service.opponents.offers.offer_draw()
            return
        service.report(session.end(Outcome("agreement", None), now, "draw agreed"))
    elif kind == "claim":
        pos = session.position
        if session.phase != Phase.PLAY:
            service.menu.show("No game under way")
        elif pos.history.count(pos.hash) >= 3:
            service.report(session.end(Outcome("repetition", None), now, "draw claimed"))
        elif pos.halfmove >= 100:
            service.report(session.end(Outcome("fifty_move", None), now, "draw claimed"))
        else:
            service.menu.show("No draw to claim: no threefold repetition and no 50 moves without a capture or a "
                              "pawn move")
    elif kind == "takeback":
        service.report(session.takeback(now))
    elif kind == "player":  # who plays a side: controller/service/opponents.py
        from .players import parse_player

        problem = service.opponents.set_player(action.side, parse_player(action.value))
        if problem:
            service.menu.show(f"{problem}. Nothing changed")
        from .operator_actions import current

        current(service)
    elif kind == "hint":  # the computer's choice for the player to move, shown on the screen
        service.opponents.ask_hint()
    elif kind == "flip":
        service.flipped = not service.flipped
    elif kind == "agreement":
        service.report(session.button("menu", now))
        prompt = session.status.prompt
        if prompt is not None and prompt.find("agree") is not None:
            service.report(session.answer("agree", now))
    elif kind == "variant":
        switch_variant(service, action.value, now)
    elif kind == "name":
        side = action.side
        service.players[side] = action.value
        tag_game(service, force=True)
        from .operator_actions import current

        current(service)
    elif kind != "close":  # the arbiter's actions, export, time controls: controller.operator_actions
        from . import operator_actions

        operator_actions.carry_out(service, action, now)


def set_time_control(service: Service, text: str) -> None:
    from .game_clock import GameClock
    from .game_extras import GameExtras

    if service.clock is None:
        if text == "none":
            return
        service.clock = GameClock("", service.config.clock, GameExtras(service.store), service.variant.nsides)
    service.clock.set_control(text)


def switch_variant(service: Service, name: str, now: int) -> None:
    from .board_map import SensorMap
    from .session import Session

    variant = engine.find_variant(name)
    layout = None
    if service.config.layout and service.links:
        from hardware.layout import load_layout

        layout = load_layout(service.config.layout)
    try:
        new_map = SensorMap(variant, layout, service.config.orientation, boards=max(1, len(service.links)))
    except ValueError as exc:
        service.menu.show(f"{variant.title} does not fit this board: {exc}")
        return
    if service.links and new_map.sensors != service.map.sensors:
        service.menu.show(f"{variant.title} needs a board of {new_map.sensors} squares; this one has "
                          f"{service.map.sensors}")
        return
    session = service.session
    if session.phase == Phase.PLAY and session.game_id is not None:
        service.report(session.new_game(now))  # the game under way is abandoned, as with New game
    service.variant = variant
    service.map = new_map
    service.session = Session(variant, service.store, identity=session.identity, timing=session.timing, now=now,
                              resume=False, computer_answers=session.computer_answers)
    service.menu = make_menu(service)
    if service.clock is not None:
        service.clock.nsides = variant.nsides
        service.clock.game_id = -1  # rebind on the next update
    if service.boards.synced:
        service.report(service.session.sync(service.boards.readings(), now))
    else:
        service.report(service.session.tick(now))


def tag_game(service: Service, force: bool = False) -> None:
    """Write the players' names on the game under way (once per game, or again after a change)."""
    gid = service.session.game_id
    if gid is None or not (service.players or service.event_tags) or (gid == service.tagged_game and not force):
        return
    from .game_extras import GameExtras

    with GameExtras(service.store) as extras:
        for side, name in service.players.items():
            if name and side < len(TAG_OF_SIDE):
                extras.set_tag(gid, TAG_OF_SIDE[side], name)
        for tag, value in service.event_tags.items():
            if value:
                extras.set_tag(gid, tag, value)
    service.tagged_game = gid
