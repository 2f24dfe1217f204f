"""The service: a :class:`~controller.session.Session` refereeing the boards, composed of parts
with one job each (see the package's docstring); this module composes them, holds what they
share (the game, the input bus, the operator's settings) and runs their life cycle.

Threads (each stops on ``stopping``): the main thread runs the display's window loop (pygame's
rule: one thread owns the display); one controller thread (``loop``) owns the session; per port
a forwarder (``boards``) moves the link's events onto the input bus; the status file's writer.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from engine import Variant

from .. import operator
from ..board_clocks import show_on_board_clocks
from ..board_map import SensorMap
from ..config import GPIO_PINS, Config
from ..game_clock import GameClock
from ..game_extras import GameExtras
from ..hall_publish import hall_publisher
from ..inference import Status
from ..operator_actions import resume_tags
from ..session import Session, Update
from ..store import GameStore
from .boards import Boards
from .bus import Button, Input, Wake
from .controls import Controls
from .demo import DemoPlayer
from .loop import Loop
from .opponents import Opponents
from .outputs import Outputs
from .status_file import StatusFile

if TYPE_CHECKING:
    from display.window import Window
    from firmware_bridge.board_link import BoardLink
    from hardware.panel import Panel

#: How long a stop by signal waits for the controller to show its last frame before the window
#: closes anyway (s): a hung controller must not keep the process from stopping.
STOP_GRACE_S = 2.0


class Service:
    def __init__(self, config: Config, variant: Variant, store: GameStore, sensor_map: SensorMap, *,
                 answers: list[str] | None = None, answer_delay_ms: int = 0, out: TextIO | None = None,
                 err: TextIO | None = None, window: Window | None = None, print_moves: bool = True,
                 status_path: Path | None = None) -> None:
        """``answers``: the demo player's answers, each ``answer_delay_ms`` after its question
        opens. ``out``, ``err``, ``print_moves``: see :class:`Outputs`. ``status_path``: the
        file ``chessery status`` reads, rewritten while the service runs."""
        # -- the game (the operator may switch variant, map and session: controller.operator)
        self.config = config
        self.variant = variant
        self.store = store
        self.map = sensor_map
        self.t0 = time.monotonic()
        self.session = Session(variant, store, identity=config.identity == "true", timing=config.timing,
                               now=self.now(), computer_answers=lambda: self.opponents.offers.answered_by_computer())
        #: The chess clock (None: untimed), and when the latest move was completed on the board.
        self.clock: GameClock | None = None
        if config.time_control:
            self.clock = GameClock(config.time_control, config.clock, GameExtras(store), variant.nsides)
        self.moved_at: int | None = None
        self.hall = hall_publisher(config, store.path)  # the hall's MQTT broker (None: no hall configured)
        # -- the operator's settings: the menu (controller.menu), the board turned round, names
        self.menu = operator.make_menu(self)
        self.flipped = False
        self.players: dict[int, str] = {}
        self.event_tags: dict[str, str] = {}  # Event, Round, Board set in the menu (operator_actions)
        self.tagged_game: int | None = None
        self.usb_root = "/"
        # -- the input bus. SimpleQueue: its put is reentrant, so the SIGTERM handler may wake the
        # controller even when it interrupts the main thread inside a put (a touch on the screen).
        self.inputs: queue.SimpleQueue[Input] = queue.SimpleQueue()
        self.stopping = threading.Event()
        self.window = window
        self.panel: Panel | None = None
        # -- hooks, called on the controller thread: each update right after it was committed,
        # the status just shown (screen, panel, board lights), each input before it is handled.
        self.on_update: Callable[[Update], None] | None = None
        self.on_show: Callable[[Status], None] | None = None
        self.on_input: Callable[[Input], None] | None = None
        # -- the parts
        self.outputs = Outputs(self, out, err, print_moves)
        self.boards = Boards(self)
        self.controls = Controls(self)
        self.demo = DemoPlayer(self, answers or [], answer_delay_ms)
        self.opponents = Opponents(self)  # the sides a computer or another board plays
        resume_tags(self)  # a resumed game's names and tags, as the menu set them before the restart
        self.status_file = StatusFile(self, status_path)
        self.loop = Loop(self)
        self._threads: list[threading.Thread] = []

    def now(self) -> int:
        """The service clock (ms since the service was made)."""
        return int((time.monotonic() - self.t0) * 1000)

    @property
    def links(self) -> list[BoardLink]:
        return self.boards.links

    @property
    def finished(self) -> threading.Event:
        """Set once the controller loop has ended."""
        return self.loop.finished

    @property
    def error(self) -> BaseException | None:
        """What stopped the controller loop by itself (None: nothing did)."""
        return self.loop.error

    # -- life cycle -----------------------------------------------------------------------------------
    def start(self) -> Service:
        self.opponents.start()
        self.boards.open()
        self._open_panel()
        self.boards.start()
        if self.hall is not None:
            self.hall.start(self)
        self.spawn("controller", self.loop.run)
        self.outputs.show()
        if self.status_file.path is not None:
            self.spawn("status", self.status_file.run)
        return self

    def spawn(self, name: str, target: Callable[..., None], *args: Any) -> None:
        """A thread of the service's, joined when it stops."""
        t = threading.Thread(target=target, args=args, name=name, daemon=True)
        t.start()
        self._threads.append(t)

    def request_stop(self, grace: float = STOP_GRACE_S) -> None:
        """Ask the service to stop, from any thread or a signal handler (SIGTERM). The controller
        finishes what it is handling, shows the last frame (with every move it has printed and
        stored) and only then stops the window; should it not get there, the window stops by
        itself after ``grace`` seconds."""
        self.stopping.set()
        self.inputs.put(Wake())
        if self.window is not None:
            self.window.stop_within(grace)

    def stop(self) -> None:
        self.stopping.set()
        self.inputs.put(Wake())
        for t in self._threads:
            if t is not threading.current_thread():
                t.join(2.0)
        self.boards.close()
        self.opponents.close()
        if self.hall is not None:
            self.hall.stop()
        if self.panel is not None:
            self.panel.close()
        if self.window is not None:
            self.window.stop()

    def finish_when_at_rest(self) -> None:
        """Stop once everything the boards have sent so far is handled and the game is at rest
        (no deadline, nothing asked); for a scripted board that has played its script. Blocks
        until each link has answered a ping and a snapshot (see ``Boards.finish_when_at_rest``)."""
        self.boards.finish_when_at_rest()

    def _open_panel(self) -> None:
        gpio = self.config.gpio
        if not gpio.enabled:
            return
        from hardware.panel import open_panel

        pins = {name: pin for name, pin in asdict(gpio).items() if name in GPIO_PINS}
        self.panel, reason = open_panel(pins, lambda word: self.inputs.put(Button(word)), gpio.pin_factory)
        if self.panel is None:
            self.outputs.say(f"no GPIO ({reason}); running without buttons, lights and buzzer")

    # -- the controller thread -------------------------------------------------------------------------
    def report(self, update: Update) -> None:
        """What follows an update: the clock (whose flag may fall on it) and the commit, then the
        outputs, the players' names on a new game."""
        # The clock time its mover had left joins the move's transaction; both commit before
        # anyone is told (the loop holds a store transaction around each turn).
        flagged = self.clock.follow(self.session, update, self.now(), self.moved_at) if self.clock else None
        self.store.commit()
        self.outputs.report(update)
        if (self.players or self.event_tags) and self.session.game_id != self.tagged_game:
            operator.tag_game(self)
        if self.clock is not None and (update.accepted or update.undone):
            show_on_board_clocks(self.boards.links, self.clock, self.session, self.now())
        if flagged is not None:
            self.report(self.session.end(flagged, self.now(), "flag fall"))
        if self.hall is not None:
            self.hall.follow(self)  # only committed (final) moves: after the clock took them
