"""The computer's turns in a game at the board, between the referee and the engine processes:
which side is an engine's, when to ask it, the move to show once it answers, and whether the move
the board then shows is that one.

The service calls ``update(position)`` with every final position (an engine answers only about a
final move), ``foresee(position)`` with the game after a provisional reading (the engine may
start thinking on it; ``update`` adopts that search if the reading becomes the final move, and
its move is shown only then), ``poll()`` in its loop for the move to show, and
``check(move)`` when the next move is final on the board; ``hint(position)`` asks for the
human's best move; ``consult(position, side)`` an engine's search for an offer to end the game by
agreement. Engines run in their own processes
(``EnginePlayer``): nothing here waits for one, so the referee's decisions are never slowed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum

from engine import Move, Position

from .computer_move import BoardSteps, board_steps
from .players import Player, PlayerError, PlayerKind
from .uci_player import EnginePlayer, Request


class TurnState(Enum):
    IDLE = "idle"            # a human's turn, or the game is over
    THINKING = "thinking"    # an engine has the position
    SHOWING = "showing"      # its move is known: the player carries it out on the board
    FAILED = "failed"        # the engine gave no legal move (its error is in ``error``)


@dataclass(frozen=True)
class _Early:
    """A search started on the game after a provisional reading (``foresee``)."""

    key: tuple[int, int]
    position: Position
    request: Request


@dataclass(frozen=True)
class ComputerMove:
    side: int
    move: Move
    text: str
    steps: BoardSteps


class ComputerTurns:
    def __init__(self, players: dict[int, Player], position: Position, go: str = "go movetime 1000",
                 start: Callable[[Player, Position], EnginePlayer] = EnginePlayer) -> None:
        self.go = go
        self._start = start
        self._hinter: EnginePlayer | None = None
        # one process per engine side, started now so a bad command is an error before the game
        self.engines: dict[int, EnginePlayer] = {}
        try:
            for side, player in sorted(players.items()):
                if player.is_engine:
                    self.engines[side] = start(player, position)
        except BaseException:
            self.close()
            raise
        self.state = TurnState.IDLE
        self.error = ""
        self._request: Request | None = None
        self._asked: tuple[int, int] | None = None  # (hash, plies) of the position asked about
        self._shown: ComputerMove | None = None
        self._position: Position | None = None
        self._early: _Early | None = None

    def update(self, position: Position) -> None:
        """A new final position: ask its side's engine when that side is a computer's (or take
        the search ``foresee`` started on it)."""
        key = (position.hash, len(position.move_stack))
        if key == self._asked:
            return
        self._request, self._shown, self.error = None, None, ""
        early, self._early = self._early, None
        if early is not None and early.key == key:
            self._asked, self._position, self._request = key, early.position, early.request
            self.state = TurnState.THINKING
            return
        engine = self.engines.get(position.side)
        if engine is None or position.outcome() is not None:
            self._asked = key
            self.state = TurnState.IDLE
            return
        if engine.busy:
            # still on a position taken back meanwhile: asked to answer now, and asked again on
            # the next update once it has (the stale answer is dropped)
            engine.stop()
            self.state = TurnState.THINKING
            return
        self._asked = key
        self._position = position.copy()
        self._request = engine.ask(self._position, self.go)
        self.state = TurnState.THINKING

    def foresee(self, position: Position) -> Request | None:
        """``position``: the game after a provisional reading on the board. When it is a
        computer's turn there and its engine is idle, the engine starts on it now: a hand that
        hesitates keeps a reading provisional for seconds (``timing.hesitate_ms``), and the
        computer's clock only runs once the move is final. Returns the search started (None:
        none). A reading that does not become the move costs nothing but the engine's time:
        ``update`` stops it and asks about the real move. ``position`` is kept as the search's
        (the caller's own copy with the reading pushed: nobody changes it afterwards)."""
        key = (position.hash, len(position.move_stack))
        if key == self._asked or (self._early is not None and self._early.key == key):
            return None
        engine = self.engines.get(position.side)
        if engine is None or engine.busy or self.state is TurnState.THINKING or position.outcome() is not None:
            return None
        self._early = _Early(key, position, engine.ask(position, self.go))
        return self._early.request

    def poll(self) -> ComputerMove | None:
        """The computer's move once its engine answered (then every time until the next update)."""
        request = self._request
        if self.state == TurnState.THINKING and request is not None and request.done.is_set():
            pos = self._position
            assert pos is not None
            if request.move is None:
                self.state, self.error = TurnState.FAILED, request.error or "the engine gave no move"
                return None
            self._shown = ComputerMove(pos.side, request.move, pos.move_text(request.move),
                                       board_steps(pos.variant, request.move))
            self.state = TurnState.SHOWING
        return self._shown

    def wait(self, timeout: float) -> bool:
        """Block until the engine asked has answered (tools and tests; the service polls)."""
        request = self._request
        return request is not None and request.done.wait(timeout)

    def check(self, move: Move) -> str:
        """"" when ``move`` (final on the board) is the computer's move being shown, or when no
        computer move is due; else what to tell the player."""
        shown = self._shown
        if self.state == TurnState.THINKING:
            return "the computer is still thinking: wait for its move"
        if shown is None or move == shown.move:
            return ""
        return f"that is not the computer's move: play {shown.text} ({'; '.join(shown.steps.steps)})"

    @property
    def request(self) -> Request | None:
        """The engine's answer being waited for (None: nothing asked, or not yet)."""
        return self._request

    @property
    def foreseen(self) -> Request | None:
        """The search started on a provisional reading (``foresee``), until the next final move."""
        return self._early.request if self._early is not None else None

    def shown(self) -> ComputerMove | None:
        """The computer's move being shown (None while none is known)."""
        return self._shown

    def consult(self, position: Position, side: int) -> Request:
        """Ask the engine of ``side`` for its search of ``position`` (an offer to end the game
        by agreement: ``controller.agreement_offer`` reads the score of its ``info`` lines). When
        that engine is already thinking about this very position (its move), that search is the
        answer; else it is asked now, in its process, with the same ``go`` as for a move."""
        if (self._request is not None and self._position is not None and position.side == side
                and self._asked == (position.hash, len(position.move_stack))):
            return self._request
        engine = self.engines.get(side)
        if engine is None:
            raise PlayerError(f"no engine plays side {side}")
        return engine.ask(position, self.go)

    def hint(self, position: Position) -> Request:
        """Ask for a hint on ``position`` (a human's turn): Chessery's engine at full strength, in
        a process of its own started on the first hint; the move arrives on the request."""
        if self._hinter is None:
            self._hinter = self._start(Player(PlayerKind.COMPUTER), position)
        return self._hinter.ask(position, self.go)

    def close(self) -> None:
        for engine in self.engines.values():
            engine.close()
        self.engines = {}
        if self._hinter is not None:
            self._hinter.close()
            self._hinter = None
