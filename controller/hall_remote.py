"""The broker's half of a remote game (``--black remote:BOARD``): the other board's final moves,
as they are published to the hall, delivered here in order and once each.

What the move then does on this board -- shown, guided onto the board, checked by this board's
referee -- is the player flow of the computer opponent (controller/service/opponents.py):
this module only hands that flow the opponent's moves. It reads both of the opponent's topics:
its events (each final move, the fast path) and its retained state (the whole game: a board that
was away, or that comes up after a restart of either side, catches up from it, and a gap in the
event numbers is filled from it). Every message passes controller.hall_wire's checks and the
engine's (legal from the game's start, leading to the position claimed) before a move is handed on.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import engine

from .hall_client import HallSubscriber
from .hall_wire import WireError, check_event, check_state, split_topic, topic

if TYPE_CHECKING:
    from .config import Config

log = logging.getLogger("chessery.hall")


class RemoteBoard(HallSubscriber):
    """``on_move(game, ply, move_text)`` is called on paho's thread for each new final move of
    the opponent's game, in order (``ply`` from 1). ``moves`` is the opponent's game so far."""

    def __init__(self, config: Config, opponent: str, variant: engine.Variant,
                 on_move: Callable[[int, int, str], None] | None = None) -> None:
        super().__init__(config, f"chessery-remote-{config.hall_board or 'board'}-{opponent}",
                         [(topic(opponent, "event"), 1), (topic(opponent, "state"), 1)])
        self.opponent = opponent
        self.variant = variant
        self.on_move = on_move
        self.game = -1
        self.moves: list[str] = []
        self.changed = threading.Condition()
        self._last: tuple[int, int] = (0, 0)  # the last event applied: (run, seq)
        self._pos: engine.Position | None = None  # the opponent's game, checked move by move

    def wait_for(self, plies: int, timeout: float) -> bool:
        with self.changed:
            return self.changed.wait_for(lambda: len(self.moves) >= plies, timeout)

    def on_refused(self, reason: str) -> None:
        log.error("remote game: the broker at %s refused us: %s", self.broker.url, reason)

    def on_message(self, topic_name: str, payload: bytes) -> None:
        try:
            _board, kind = split_topic(topic_name)
            with self.changed:
                if kind == "event":
                    self._event(check_event(payload))
                elif kind == "state":
                    self._state(check_state(payload))
                self.changed.notify_all()
        except (WireError, ValueError) as exc:
            log.warning("remote game: dropped a message from %s: %s", self.opponent, str(exc)[:160])

    def _event(self, event: dict[str, Any]) -> None:
        key = (event["run"], event["seq"])
        if key[0] == self._last[0] and key[1] <= self._last[1]:
            return  # a repeat
        if key[0] != self._last[0] or key[1] != self._last[1] + 1:
            return  # a gap, or a publisher restarted: its state (sent after every event) fills it
        self._last = key
        if event["kind"] == "move" and event["game"] == self.game and event["ply"] == len(self.moves) + 1:
            self._play([event["move"]])

    def _state(self, state: dict[str, Any]) -> None:
        if state["variant"] != self.variant.name:
            raise WireError(f"{self.opponent} plays {state['variant']}, not {self.variant.name}")
        if state["game"] != self.game or self._pos is None:
            # a new game over there (or the first word from it): follow it from its start
            self.game, self.moves = state["game"], []
            self._pos = engine.parse_fen(self.variant, state["start_fen"])
        if state["moves"][:len(self.moves)] != self.moves:
            raise WireError(f"{self.opponent} took back a move; a remote game never takes back")
        self._play(state["moves"][len(self.moves):], fen=state["fen"])
        self._last = (state["run"], max(state["seq"], self._last[1]) if state["run"] == self._last[0]
                      else state["seq"])

    def _play(self, moves: list[str], fen: str = "") -> None:
        """Check the moves on our own copy of the opponent's game (one move's check each) and,
        with ``fen``, that they lead there; only then hand them on. A move that fails is taken
        off our copy again and nothing is handed on (WireError, or the engine's ValueError)."""
        pos = self._pos
        assert pos is not None
        pushed = 0
        try:
            for text in moves:
                pos.push(pos.parse_move(text))
                pushed += 1
            if fen and pos.fen() != fen:
                raise WireError(f"{self.opponent}'s moves do not lead to the position it claims")
        except ValueError:
            for _ in range(pushed):
                pos.pop()
            raise
        for text in moves:
            self.moves.append(text)
            if self.on_move is not None:
                self.on_move(self.game, len(self.moves), text)
