"""The hall's picture of its boards, built from what the broker delivers.

Every message passes controller.hall_wire's checks and then the engine's: a state's variant
must exist, its moves must be legal from its start, and they must lead to the position it
claims. The moves are replayed once each (a state that extends the known game by one move
costs one move's check), so a hall of hundreds of boards keeps up. A message that fails is
logged in one line and dropped; the board keeps what the hall knew before.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from dataclasses import dataclass, field, replace
from typing import Any

import engine
from engine import Position, Variant

from .hall_wire import WireError, check_event, check_online, check_state, split_topic

log = logging.getLogger("chessery.hall")

#: Events kept per board for its page.
EVENT_LOG = 60
#: Seconds a clash of two boards under one name stays on the arbiter's list after it was last seen.
CLASH_ALERT_S = 60.0
#: Runs (publishers' numberings) remembered per board to tell two boards under one name.
RUNS_KEPT = 4


@dataclass
class BoardView:
    name: str
    state: dict[str, Any] | None = None
    variant: Variant | None = None
    pos: Position | None = None  # the model's own, never handed to a reader
    #: The board's cells (piece codes) as of ``state``: what readers draw.
    cells: tuple[int, ...] = ()
    #: The cells the last move left and reached, for the page to mark.
    last_cells: tuple[int, ...] = ()
    online: bool = False
    offline_since: float | None = None
    #: When (hall time) the board last began to differ from its game (status "fix").
    fix_since: float | None = None
    #: The last event applied: (run, seq); a message at or below it is a repeat.
    last: tuple[int, int] = (0, 0)
    events: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=EVENT_LOG))
    #: When the latest final move arrived (hall time, time.time()).
    moved_at: float = 0.0
    #: When the latest state arrived (hall time), and whose turn it is then: the page counts the
    #: running clock down from there.
    received: float = 0.0
    turn: int = 0
    #: A scoring variant's (Mathematichess) territories worth something: (cells, owner or None),
    #: and each side's total; empty otherwise.
    territories: tuple[tuple[tuple[int, ...], int | None], ...] = ()
    totals: tuple[int, ...] = ()
    #: The runs this name's states came from, latest last. A board's run changes only when it
    #: starts without its outbox and never comes back: a run returning after another means two
    #: boards publish under this name (one ``hall_board`` configured twice).
    runs: tuple[int, ...] = ()
    #: When such a clash was last seen (hall time), None: never.
    clash_at: float | None = None


class HallModel:
    """Thread-safe: paho's thread feeds it, the web server's threads read it. ``version``
    grows with every change; ``changed`` wakes the readers waiting for one."""

    def __init__(self, alert_s: int = 10) -> None:
        self.alert_s = alert_s
        self.boards: dict[str, BoardView] = {}
        self.version = 0
        self.changed = threading.Condition()
        self.dropped = 0
        #: (version, board name) of each change, for the live page to fetch only what changed.
        self.recent: deque[tuple[int, str]] = deque(maxlen=1000)

    def feed(self, topic: str, payload: bytes) -> bool:
        """Apply one message; False (logged) when it was dropped."""
        try:
            name, kind = split_topic(topic)
            with self.changed:
                board = self.boards.get(name) or BoardView(name)
                if kind == "state":
                    changed = self._state(board, check_state(payload))
                elif kind == "event":
                    changed = self._event(board, check_event(payload))
                else:
                    changed = self._online(board, check_online(payload))
                self.boards[name] = board
                if changed:
                    self.version += 1
                    self.recent.append((self.version, name))
                    self.changed.notify_all()
            return True
        except (WireError, ValueError, KeyError, IndexError) as exc:
            # a ValueError from the engine (unknown variant, bad FEN, illegal move) is the
            # message's fault too; anything else is a bug of ours and is not swallowed
            self.dropped += 1
            log.warning("hall: dropped a message on %.80r: %s", topic, str(exc)[:160])
            return False

    def _online(self, board: BoardView, online: bool) -> bool:
        if online == board.online:
            return False
        board.online = online
        board.offline_since = None if online else time.time()
        return True

    def _state(self, board: BoardView, state: dict[str, Any]) -> bool:
        if board.state is not None and (state["run"], state["seq"]) < (board.state["run"], board.state["seq"]) \
                and state["run"] == board.state["run"]:
            return False  # an older state of the same run delivered late
        variant = engine.find_variant(state["variant"])
        pos, known = board.pos, board.state["moves"] if board.state is not None else []
        same_game = (board.state is not None and board.variant is variant and pos is not None
                     and board.state["game"] == state["game"] and board.state["start_fen"] == state["start_fen"]
                     and state["moves"][:len(known)] == known)
        if not same_game or pos is None:
            pos = engine.parse_fen(variant, state["start_fen"])
            known = []
        # the hall's own position goes forward in place; should the message prove bad half
        # way, it is thrown away and the next state replays its game from the start
        board.pos = None
        for text in state["moves"][len(known):]:
            pos.push(pos.parse_move(text))
        if pos.fen() != state["fen"]:
            raise WireError(f"board {board.name}: its moves lead to {pos.fen()}, not to {state['fen'][:100]}")
        board.cells = tuple(pos.board)
        last = pos.move_stack[-1] if pos.move_stack else None
        board.last_cells = tuple(c for c in (last.frm, last.to) if c >= 0) if last is not None else ()
        if len(state["moves"]) > len(known) or not same_game:
            board.moved_at = time.time()
        if state["status"] == "fix":
            board.fix_since = board.fix_since or time.time()
        else:
            board.fix_since = None
        self._runs(board, state["run"])  # a state that passed every check
        board.state, board.variant, board.pos = state, variant, pos
        board.received, board.turn = time.time(), pos.side
        scoring = variant.rules.scoring
        if scoring is not None:
            score = scoring.score(pos)
            board.territories = tuple((tuple(t.cells), t.owner) for t in score.territories if t.value)
            board.totals = tuple(score.totals)
        return True

    def _runs(self, board: BoardView, run: int) -> None:
        if board.runs and run != board.runs[-1] and run in board.runs:
            if board.clash_at is None or time.time() - board.clash_at > CLASH_ALERT_S:
                log.warning("hall: two boards publish as %s (runs %d and %d): give each its own hall_board",
                            board.name, board.runs[-1], run)
            board.clash_at = time.time()
        board.runs = (*(r for r in board.runs if r != run), run)[-RUNS_KEPT:]

    def _event(self, board: BoardView, event: dict[str, Any]) -> bool:
        key = (event["run"], event["seq"])
        if key[0] == board.last[0] and key[1] <= board.last[1]:
            return False  # a repeat (a resend whose first copy arrived)
        board.last = key
        board.events.append(event)
        return False  # the state that follows every event redraws the board (and its event log)

    # -- readers -----------------------------------------------------------------------------------
    def wait(self, version: int, timeout: float) -> int:
        with self.changed:
            self.changed.wait_for(lambda: self.version != version, timeout)
            return self.version

    def changed_since(self, version: int) -> list[str]:
        """Boards changed after ``version``; every board when that is older than the changes
        kept (a reader that fell far behind redraws everything)."""
        with self.changed:
            if self.recent and version < self.recent[0][0] - 1:
                return sorted(self.boards)
            return sorted({name for v, name in self.recent if v > version})

    def snapshot(self, name: str) -> BoardView | None:
        with self.changed:
            board = self.boards.get(name)
            if board is None:
                return None
            return replace(board, pos=None, events=deque(board.events, maxlen=EVENT_LOG))

    def names(self) -> list[str]:
        with self.changed:
            return sorted(name for name, b in self.boards.items() if b.state is not None)

    def alerts(self, now: float | None = None) -> list[tuple[str, str, str]]:
        """(board, kind, text) for the arbiter: offline, two boards under one name, flag fall,
        not matching its game for more than ``alert_s`` seconds, result."""
        now = time.time() if now is None else now
        out: list[tuple[str, str, str]] = []
        with self.changed:
            for name in sorted(self.boards):
                b = self.boards[name]
                if not b.online and b.offline_since is not None:
                    out.append((name, "offline", f"offline for {now - b.offline_since:.0f} s"))
                if b.clash_at is not None and now - b.clash_at < CLASH_ALERT_S:
                    out.append((name, "clash", f"two boards publish as {name}: each board needs its own hall_board "
                                               "(the hall shows whichever spoke last)"))
                if b.state is None:
                    continue
                if b.fix_since is not None and now - b.fix_since > self.alert_s:
                    out.append((name, "mismatch", f"board differs from its game for {now - b.fix_since:.0f} s: "
                                                  f"{b.state['message'][:120]}"))
                if b.state["status"] == "over":
                    term = b.state["termination"]
                    if "flag" in term:
                        out.append((name, "flag", f"flag fall: {b.state['result']}"))
                    out.append((name, "result", f"{b.state['result']} ({term or 'game over'})"))
        return out
