"""What a board publishes to its hall, taken from the running service on its controller
thread right after an update was committed: only final moves (the session's committed
position), never a provisional reading."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from .screen import MoveNotation
from .session_endings import Phase

if TYPE_CHECKING:
    from .service import Service


class StateBuilder:
    """Keeps the game's readable move texts between updates (working one out replays the game)."""

    def __init__(self) -> None:
        self._notation = MoveNotation()

    def state(self, service: Service) -> dict[str, Any]:
        session = service.session
        variant = service.variant
        pos = session.position
        san = [text.removesuffix(" e.p.") for text in self._notation.texts(pos)]
        moves = [pos.move_text(m) for m in pos.move_stack]
        event = service.config.event
        names = [service.players.get(i, "") for i in range(variant.nsides)]
        if variant.nsides == 2:
            names = [names[0] or event.white, names[1] or event.black]
        players = [name or side for name, side in zip(names, variant.sides, strict=True)]
        record = session.store.game(session.game_id) if session.game_id is not None else None
        status = session.status.kind.value
        if session.phase == Phase.OVER:
            status = "over"
        elif session.phase != Phase.PLAY:
            status = "setup"
        clocks: list[float] | None = None
        ply_clocks: list[int | None] = []
        time_control = ""
        if service.clock is not None and service.clock.clock is not None:
            seconds = service.clock.seconds(service.now())
            clocks = [round(s, 1) for s in seconds] if seconds is not None else None
            time_control = service.clock.clock.control.text
            if session.game_id is not None:
                ply_clocks = service.clock.extras.ply_clocks(session.game_id, len(moves))
        return {
            "variant": variant.name, "fen": pos.fen(), "start_fen": record.start_fen if record else pos.fen(),
            "moves": moves, "san": san, "players": players, "clocks": clocks, "ply_clocks": ply_clocks,
            "time_control": time_control, "event": event.name, "round": event.round, "site": event.site,
            "game": session.game_id or 0, "status": status, "message": session.status.message[:400],
            "result": record.result if record is not None and session.phase == Phase.OVER else "*",
            "termination": record.termination if record is not None and session.phase == Phase.OVER else "",
            "updated": int(time.time()), "date": record.started[:10] if record is not None else "",
        }


def events_of(before: dict[str, Any] | None, state: dict[str, Any]) -> list[dict[str, Any]]:
    """The hall events between two published states: the start of a new game, each takeback,
    each final move (with its readable text), the end of the game. Worked out from the states,
    not from one update, so that an update handled inside another (a flag fall while the clock
    follows a move) still publishes its moves before the end. Unnumbered: the publisher numbers
    them."""
    game = state["game"]
    out: list[dict[str, Any]] = []
    old: list[str] = [] if before is None or before["game"] != game else before["moves"]
    if before is not None and before["game"] != game:
        out.append({"kind": "start", "game": game, "ply": 0, "move": "", "san": ""})
    new: list[str] = state["moves"]
    same = 0
    while same < min(len(old), len(new)) and old[same] == new[same]:
        same += 1
    for ply in range(len(old), same, -1):
        out.append({"kind": "undo", "game": game, "ply": ply - 1, "move": old[ply - 1], "san": ""})
    for ply in range(same, len(new)):
        out.append({"kind": "move", "game": game, "ply": ply + 1, "move": new[ply], "san": state["san"][ply]})
    if state["status"] == "over" and (before is None or before["status"] != "over" or before["game"] != game):
        out.append({"kind": "end", "game": game, "ply": len(new), "move": "", "san": state["result"]})
    return out
