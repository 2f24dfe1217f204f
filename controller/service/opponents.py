"""The sides the people at this board do not play: a computer (``computer[:LEVEL]``,
``uci:COMMAND``) or a board elsewhere (``remote:BOARD``, over the hall's broker). One flow for
both: once the previous move is final, the opponent's move is asked for (the engine, through
``ComputerTurns``) or awaited (the other board's final moves, through ``RemoteBoard``); when it is
known the screen says what to lift and where to put it and marks its cells (boards with lights
light them), and the decision core accepts exactly that move (``Referee.expect``): any other is
guided back like a wrong board. The clock charges the opponent's side until its move is
announced, and nobody while the player carries it out.

The operator menu offers the boards of the hall as players (``hall_boards``): a
``HallDirectory`` listens to the hall's retained messages while the menu is open.

A hint for the human (the operator menu's Hint: ``ask_hint``) is our engine's choice for the
position, shown the same way but not enforced.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine import Move, Position
from engine.errors import ChesseryError

from ..computer_move import BoardSteps, board_steps
from ..computer_turns import ComputerTurns, TurnState
from ..hall_directory import HallDirectory
from ..hall_publish import board_name
from ..hall_remote import RemoteBoard
from ..hall_wire import check_name
from ..messages import side_name
from ..players import Player, PlayerError, PlayerKind, players_for
from ..session_endings import Phase
from ..uci_player import Request
from .bus import Wake
from .offers import Offers

if TYPE_CHECKING:
    from .service import Service

log = logging.getLogger("chessery")

#: The longest an engine's answer is waited for by the thread that wakes the controller with it
#: (an engine that ends sets its request done at once).
ANSWER_WAIT_S = 3600.0


@dataclass(frozen=True)
class Guide:
    """What the screen shows for the opponent's turn: ``move`` is None while it is not known."""

    side: int
    plies: int  # the game's length when it was announced (one guide per turn)
    line: str
    move: Move | None = None
    text: str = ""
    steps: BoardSteps | None = None
    #: False: no move will come (the engine failed); the players may make any move for that side.
    waits: bool = True


class Opponents:
    def __init__(self, service: Service) -> None:
        self.service = service
        self.players: dict[int, Player] = players_for(service.variant, dict(service.config.players))
        self.variant = service.variant  # the engines play this one (the menu may switch it)
        self.turns: ComputerTurns | None = None
        self.remotes: dict[int, RemoteBoard] = {}
        #: The opponent's turn being shown (None: a human's turn, or no game under way).
        self.guide: Guide | None = None
        #: The last hint asked for and the game's length then; its line once it is in.
        self._hint: tuple[Request, int] | None = None
        self.hint_line = ""
        self._announced: tuple[int, str] | None = None
        self._woken: Request | None = None
        #: The provisional reading (plies, text) the engine was last offered to start on.
        self._foreseen: tuple[int, str] | None = None
        #: The hall's boards, for the menu (listening while it is open; None: not listening).
        self.directory: HallDirectory | None = None
        #: An offer to end by agreement put to the computer sides (controller/service/offers.py).
        self.offers = Offers(service, self)

    @property
    def active(self) -> bool:
        return any(p.kind is not PlayerKind.HUMAN for p in self.players.values())

    # -- life cycle (main thread) ---------------------------------------------------------------------
    def start(self) -> None:
        """Start the engines' processes and the remote boards' subscriptions; a bad player is an
        error now, before the game."""
        service = self.service
        engines = {side: p for side, p in self.players.items() if p.is_engine}
        if engines:
            self.turns = ComputerTurns(engines, service.session.position, go=service.config.engine_go)
        for side, player in self.players.items():
            if player.kind is PlayerKind.REMOTE:
                if not service.config.hall:
                    raise PlayerError(f"{player.text()}: a remote game needs the hall's broker "
                                      "(hall = \"mqtt://host:port\" in the configuration)")
                try:
                    check_name(player.board)
                except ValueError as exc:
                    raise PlayerError(f"{player.text()}: {exc}") from None
                if player.board == board_name(service.config):
                    raise PlayerError(f"{player.text()}: that is this board's own name in the hall")
                self.remotes[side] = RemoteBoard(service.config, player.board, service.variant,
                                                 on_move=lambda *_a: service.inputs.put(Wake())).start()

    def close(self) -> None:
        """The service stops: the players, and the menu's list of boards."""
        self.stop()
        self.watch_hall(False)

    def watch_hall(self, on: bool) -> None:
        """Listen to the hall's boards (the operator menu opened) or no longer (it closed)."""
        config = self.service.config
        if on and self.directory is None and config.hall:
            self.directory = HallDirectory(config, board_name(config)).start()
        elif not on and self.directory is not None:
            self.directory.stop()
            self.directory = None

    def hall_boards(self) -> list[str]:
        """The boards of the hall online that play this variant: the menu offers them."""
        directory = self.directory
        return directory.boards(self.service.variant.name) if directory is not None else []

    def stop(self) -> None:
        if self.turns is not None:
            self.turns.close()
            self.turns = None
        for remote in self.remotes.values():
            remote.stop()
        self.remotes = {}

    def set_player(self, side: int, player: Player) -> str:
        """The operator menu chose who plays ``side``: the engines start again (the controller
        waits for their handshake, a second or so, while the menu is open). Returns what went
        wrong ("" when nothing did); then nothing changed."""
        return self._restart({**self.players, side: player})

    def _restart(self, players: dict[int, Player]) -> str:
        old, old_variant = self.players, self.variant
        self.stop()
        self.players = players
        self.variant = self.service.variant
        self.guide, self._hint, self.hint_line, self._announced, self._woken = None, None, "", None, None
        self._foreseen = None
        try:
            self.start()
        except ChesseryError as exc:
            log.warning("players: %s", exc)
            self.stop()
            if self.variant is old_variant:  # the players as they were
                self.players = old
                self.start()
            else:  # a new variant whose engine would not start: people play every side
                self.players = players_for(self.variant, {})
            return str(exc)
        return ""

    def _follow_variant(self) -> None:
        """The menu switched the variant: the players chosen by side name play the new one (a
        side it does not have is dropped, with a warning); the engines start again for it."""
        sides = self.service.variant.sides
        wanted = {self.variant.sides[s]: p for s, p in self.players.items() if p.kind is not PlayerKind.HUMAN}
        kept = {name: p for name, p in wanted.items() if name in sides}
        if len(kept) < len(wanted):
            log.warning("players: %s has no side %s; played by people now", self.service.variant.name,
                        ", ".join(sorted(set(wanted) - set(kept))))
        self._restart(players_for(self.service.variant, kept))

    # -- the controller thread ----------------------------------------------------------------------
    def follow(self) -> None:
        """Bring the opponent's turn up to the session (each turn of the loop, before the frame)."""
        service = self.service
        if service.variant is not self.variant:
            self._follow_variant()
        if not self.active and self._hint is None:
            # People play every side (the menu may have just made them): no move is chosen elsewhere.
            service.session.core.expect(None)
            return
        session = service.session
        pos = session.position
        guide: Guide | None = None
        if session.phase == Phase.PLAY and pos.outcome() is None:
            player = self.players[pos.side]
            if self.turns is not None:
                try:
                    self.turns.update(pos)
                except ChesseryError as exc:  # the engine's process ended: the players go on by hand
                    self.turns.state, self.turns.error = TurnState.FAILED, str(exc)
                request = self.turns.request
                if self.turns.state is TurnState.THINKING and request is not None and request is not self._woken:
                    self._woken = request  # one waiter per question asked
                    self._wake_on(request.done.wait)
                if not player.is_engine:
                    self._foresee(pos)
            if player.is_engine:
                guide = self._computer(pos.side, len(pos.move_stack))
            elif player.kind is PlayerKind.REMOTE:
                guide = self._remote(pos.side, player.board)
        self.guide = guide
        # Sides whose moves come from elsewhere: of moves read at once (the board was away), they
        # get none but the one chosen. (An engine that failed: its moves are made by hand.)
        elsewhere = frozenset(side for side, p in self.players.items() if p.kind is PlayerKind.REMOTE
                              or (p.is_engine and self.turns is not None and self.turns.state is not TurnState.FAILED))
        if guide is None or not guide.waits:
            session.core.expect(None, elsewhere)
        else:
            session.core.expect(() if guide.move is None else (guide.move,), elsewhere)
        if service.clock is not None:
            service.clock.guide_pause(session, guide is not None and guide.move is not None, service.now())
        if guide is not None and guide.move is not None and self._announced != (guide.plies, guide.text):
            self._announced = (guide.plies, guide.text)
            service.outputs.say(guide.line)
        self._follow_hint()
        self.offers.follow()

    def _foresee(self, pos: Position) -> None:
        """A provisional reading of a move at this board: the engine whose turn follows may
        start on it (``ComputerTurns.foresee``); it answers only once the move is final."""
        provisional = self.service.session.status.provisional
        turns = self.turns
        if len(provisional) != 1 or turns is None or self._foreseen == (len(pos.move_stack), provisional[0]):
            return
        self._foreseen = (len(pos.move_stack), provisional[0])
        ahead = pos.copy()  # (foresee keeps it)
        try:
            ahead.push_text(provisional[0])
            request = turns.foresee(ahead)
        except (ValueError, ChesseryError) as exc:  # a reading's text that does not parse; the engine ended
            log.warning("the computer cannot start on %s: %s", provisional[0], exc)
            return
        if request is not None:
            self._woken = request  # the move's waiter if the reading becomes final: adopted then
            self._wake_on(request.done.wait)  # (a stopped early search frees its engine for the real move)

    def _computer(self, side: int, plies: int) -> Guide:
        turns = self.turns
        assert turns is not None
        shown = turns.poll()
        who = f"{side_name(self.service.variant, side)} (computer)"
        if turns.state is TurnState.FAILED:
            return Guide(side, plies, f"{who} failed: {turns.error}. Make its move by hand", waits=False)
        if shown is None:
            return Guide(side, plies, f"{who} is thinking")
        return Guide(side, plies, f"{who} plays {shown.text}: {'; '.join(shown.steps.steps)}",
                     shown.move, shown.text, shown.steps)

    def _remote(self, side: int, board: str) -> Guide:
        service = self.service
        pos = service.session.position
        remote = self.remotes[side]
        who = f"{side_name(service.variant, side)} ({board})"
        with remote.changed:
            theirs = list(remote.moves)
        ours = [pos.move_text(m) for m in pos.move_stack] if len(theirs) > len(pos.move_stack) else []
        plies = len(pos.move_stack)
        if len(theirs) <= plies:
            return Guide(side, plies, f"waiting for {who}'s move")
        if theirs[:plies] != ours[:plies]:
            return Guide(side, plies, f"{board}'s game is not this board's game: check both boards")
        text = theirs[plies]
        try:
            move = pos.parse_move(text)
        except ValueError as exc:
            return Guide(side, plies, f"{who} played {text}, not legal here: {exc}")
        steps = board_steps(service.variant, move)
        return Guide(side, plies, f"{who} plays {text}: {'; '.join(steps.steps)}", move, text, steps)

    # -- hints ----------------------------------------------------------------------------------------
    def ask_hint(self) -> None:
        """The human to move asks for our engine's choice: it shows on the screen once it is in
        (the engine thinks in its own process)."""
        service = self.service
        session = service.session
        pos = session.position
        if session.phase != Phase.PLAY or pos.outcome() is not None or self.guide is not None:
            self.hint_line = "No hint now: it is not a player's turn at this board"
            return
        if self.turns is None:
            self.turns = ComputerTurns({}, pos, go=service.config.engine_go)
        try:
            request = self.turns.hint(pos)
        except ChesseryError as exc:  # still thinking about the last hint, or it ended
            self.hint_line = f"No hint now: {exc}"
            return
        self._hint = (request, len(pos.move_stack))
        self._wake_on(request.done.wait)
        self.hint_line = "Hint: the computer is thinking"

    def _follow_hint(self) -> None:
        hint = self._hint
        pos = self.service.session.position
        if hint is None:
            return
        request, plies = hint
        if plies != len(pos.move_stack):
            self._hint, self.hint_line = None, ""  # a move was made: the hint is old
            return
        if request.done.is_set():
            if request.move is None:
                self.hint_line = f"No hint: {request.error}"
            else:
                steps = board_steps(self.service.variant, request.move)
                self.hint_line = f"Hint: {pos.move_text(request.move)} ({'; '.join(steps.steps)})"

    def _wake_on(self, answered: Callable[[float], bool]) -> None:
        """Wake the controller when the engine has answered: it shows the move at once (the
        engine thinks in its own process; this thread only waits for its word)."""
        inputs = self.service.inputs

        def wait() -> None:
            if answered(ANSWER_WAIT_S):
                inputs.put(Wake())

        threading.Thread(target=wait, name="opponent-answer", daemon=True).start()

    # -- what the outputs show ------------------------------------------------------------------------
    def line(self) -> str:
        """The line the status shows ("" when there is nothing to say)."""
        turn = self.guide.line if self.guide is not None else self.hint_line
        return ". ".join(x for x in (self.offers.line, turn) if x)

    def cells(self) -> tuple[int, ...]:
        """The cells to mark on the screen and light on the board."""
        guide = self.guide
        if guide is None or guide.steps is None:
            return ()
        return tuple(sorted(guide.steps.cells))
