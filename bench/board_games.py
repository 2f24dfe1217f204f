"""Final-move latency by cause on the maker boards: the historical games of
``tests/data/pgn/historical-games.pgn`` played by the hand model of ``tests/hand_model.py``
(identity hands) on an emulated DGT or Millennium board (``firmware_bridge.boards``: a real pty,
the board's own scan timing and protocol) refereed by the whole service (driver -> controller
thread -> session with its SQLite commit), set up by ``bench.boards.refereed``. Part of
``bench/latency.py`` (``--boards``), which reports the same table for the core alone.

The hands are played in real time, as the script's clock says: each burst of lifts and
placements between two sleeps is handed to the board when it is due, and its host time is the
moment the hand acted (so the board's scan, the link and the service are all in the latency).
A share of the extendable moves' movers press the clock button (``Button("clock")``, as the
panel's) 300-1500 ms after the move's last event, if the move is still provisional then and
the next player has not started. Each final move is timed from its last event to its commit,
and put down to what made it final: the press, the next player's first event before the commit,
or else the quiet (``hesitate_ms``). ``--dump DIR`` writes each game's events, and an
emulator's line, host and hand logs, for ``bench/replay_events.py`` and ``bench/dgt_causes.py``
(which puts each slow DGT move down to a cause). ``--answer-ms MS``: a player at the screen
answers each question ("Which move did you make?") that long after it came, with the moves
played, as ``bench/dgt_offline.py`` does (the hands go on meanwhile; the moves an answer makes
final are counted, not timed). Moves that cannot be extended are timed from the hand's last
touch and from the board's report of the move's last change (the last event the referee had:
what the issue's goal counts from), and split by whether the board showed the move (and the
move before it) where its pieces landed.
"""

from __future__ import annotations

import json
import random
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

import engine
from bench.boards import refereed, scan_and_goal
from bench.latency import extendable, pct, report
from controller.core_types import Timing
from controller.service import Button, Sensor, Service, Touch
from controller.session import Phase, Update
from display.window import ChoiceClicked
from firmware_bridge.board_link import BoardKind
from firmware_bridge.boards.board_emulator import BoardEmulator
from firmware_bridge.script import Command, Lift, Place, Sleep, parse_script

#: How long the board and the service may take to start refereeing (s).
START_S = 15.0


def board_games_bench(kind: BoardKind, n_games: int, hesitant: float = 0.5, press: float = 0.3,
                      seeds: Sequence[int] = (0,), hesitate_ms: int | None = None, dump: str | None = None,
                      answer_ms: float | None = None, first: int = 0) -> None:
    """The first ``n_games`` historical games at each seed offset on a ``kind`` board.
    ``dump``: a folder to write each game's sensor events to, as the service handed them to
    the referee (``bench/replay_events.py`` plays them through the core again); ``first``:
    the games before it are left out (one game looked at alone)."""
    from tests.hand_model import Hands, game_script_with_plies
    from tests.historical_games import historical_games

    hands = Hands(**hands_for_boards(hesitant))
    variant = engine.find_variant("chess")
    timing = Timing() if hesitate_ms is None else Timing(hesitate_ms=hesitate_ms)
    plain: list[float] = []
    #: moves that cannot be extended: (the board's report of the move's last change -> final,
    #: made final together with the move before, the board showed it and the move before)
    shares: list[tuple[float, bool, bool]] = []
    # Last event -> final of each move that cannot be extended, and whether the board reported
    # it and the move before it where their pieces landed (a piece that stood under a scan is
    # never reported there: nothing can be final before a later report).
    shown_plain: list[tuple[float, bool]] = []
    by_cause: dict[str, list[float]] = {"clock": [], "opponent": [], "quiet": []}
    asked: list[float] = []
    questions = answered = by_answer = 0
    ok = total = wrong = 0
    scans: set[float] = set()
    goal = 0.0
    for offset in seeds:
        for n, moves in enumerate(historical_games()[:n_games]):
            if n < first:
                continue
            seed = n + 1000 * offset
            lines, plies = game_script_with_plies(engine.start_position(variant), moves,
                                                  hands, seed=seed)
            game = _Game(parse_script("\n".join(lines), variant), plies, list(moves), press, seed, answer_ms)
            with refereed(kind, variant, timing, on_update=game.on_update, on_input=game.on_input) as (board, service):
                game.service = service
                game.play(board, service, timing)
                game.status = service.session.status.message
                scan, goal = scan_and_goal(kind, board)
                scans.add(scan)
            total += 1
            questions, answered = questions + game.questions, answered + game.answered
            ok += game.texts == list(moves)
            wrong += sum(1 for a, b in zip(game.texts, moves, strict=False) if a != b)
            pos = engine.start_position(variant)
            before: engine.Move | None = None
            for ply, text in enumerate(game.texts):
                if text != moves[ply]:
                    break  # (after a misreading the plies are other moves: not timed)
                move = pos.parse_move(text)
                if ply in game.by_answer:
                    by_answer += 1
                elif ply in game.last_event:
                    latency = (game.finals[ply] - game.last_event[ply]) * 1000
                    if ply in game.asked:
                        asked.append(latency)
                    elif extendable(pos, move, True):
                        by_cause[game.cause(ply)].append(latency)
                    else:
                        plain.append(latency)
                        shown = (game.shown(ply, move, variant)
                                 and (before is None or game.shown(ply - 1, before, variant)))
                        shown_plain.append((latency, shown))
                        shares.append((game.report_to_final(ply, move), ply > 0 and
                                       game.finals[ply] - game.finals[ply - 1] < 0.005, shown))
                pos.push(move)
                before = move
            same = "move for move"
            if game.texts != list(moves):
                ply = next((i for i, (a, b) in enumerate(zip(game.texts, moves, strict=False)) if a != b),
                           len(game.texts))
                same = (f"NOT the game played (ply {ply + 1}: {game.texts[ply:ply + 2]} recorded, "
                        f"{list(moves[ply:ply + 2])} played; the referee says: {game.status})")
            print(f"  {kind} game {n + 1} (seed {seed}): {len(game.texts)}/{len(moves)} moves recorded, {same}",
                  flush=True)
            if dump:
                game.dump(f"{dump}/{kind}-{seed}.json", list(moves),
                          board if isinstance(board, BoardEmulator) else None)
    report(f"real games, emulated {kind} board (scan {', '.join(f'{ms:.0f} ms' for ms in sorted(scans))})",
           ok, total, wrong, plain, by_cause, asked, None, since="the hand's last touch")
    print(f"    questions: {questions}" + (f", answered {answer_ms:.0f} ms after they came: {answered}; "
                                            f"moves made final by an answer (not timed): {by_answer}"
                                            if answer_ms is not None else " (no one answers)"))
    for name, keep in (("the board showed it and the move before", True),
                       ("the board never showed it or the move before", False)):
        xs = [ms for ms, shown in shown_plain if shown == keep]
        if xs:
            print(f"    cannot be extended, the hand's last touch -> final ({name}): {len(xs)} moves, "
                  f"p50 {pct(xs, 50):.0f} ms  p95 {pct(xs, 95):.0f} ms  p99 {pct(xs, 99):.0f} ms  max {max(xs):.0f} ms")
    if shares:
        # What the board adds is up to a scan between the hand's last touch and the report of
        # that square (the scan comes round to it); what the referee and the host add is the rest.
        alone = [ms for ms, together, _s in shares if not together]
        with_before = [ms for ms, together, _s in shares if together]
        for name, xs in (("all", [ms for ms, _t, _s in shares]), ("read alone", alone),
                         ("made final together with the move before", with_before),
                         ("the board showed it and the move before", [ms for ms, _t, s in shares if s]),
                         ("the board never showed it or the move before", [ms for ms, _t, s in shares if not s])):
            if xs:
                # (The goal is judged from the board's report: the last event the referee had.)
                verdict = (f"   (goal p99 < {goal:.0f} ms: {'met' if pct(xs, 99) < goal else 'NOT met'})"
                           if name == "all" else "")
                print(f"    cannot be extended, the board's report of its last change -> final ({name}): "
                      f"{len(xs)} moves, p50 {pct(xs, 50):.0f} ms  p95 {pct(xs, 95):.0f} ms  p99 {pct(xs, 99):.0f} ms  "
                      f"max {max(xs):.0f} ms{verdict}")


def hands_for_boards(hesitant: float) -> dict:
    """The hand model's habits for the maker boards' games (``tests.hand_model.Hands``): identity
    hands, ``hesitant`` of the moves with pauses, and the floor of a human reply."""
    from tests.hand_model import MIN_REPLY_MS

    return {"identity": True, "hesitant": hesitant, "min_reply_ms": MIN_REPLY_MS}


class _Game:
    """One game's script played on a board in real time, and what the service made final."""

    def __init__(self, commands: list[Command], plies: list[int], moves: list[str], press: float, seed: int,
                 answer_ms: float | None = None) -> None:
        self.commands = commands
        self.moves = moves
        self.n_moves = len(moves)
        self.answer_ms = answer_ms
        #: the open question: (host time it came, plies final then), while it is shown
        self._asked_at: tuple[float, int] | None = None
        self.questions = 0  # questions put (one while it is shown again after board changes)
        self.answered = 0
        self.by_answer: set[int] = set()  # plies an answer made final
        self.plies = plies  # the ply of each script line (by line number - 1)
        self.press = press
        self.rng = random.Random(seed)
        self.finals: list[float] = []  # host time each ply became final
        self.texts: list[str] = []
        self.asked: set[int] = set()  # plies asked about
        self.last_event: dict[int, float] = {}
        self.first_event: dict[int, float] = {}
        self.pressed: set[int] = set()
        self._presses: list[tuple[float, int]] = []  # (host time, ply)
        self._changed = threading.Condition()
        self._started = False
        self.status = ""  # what the referee said at the end
        self.service: Service | None = None
        #: (service time ms, cell, put down, piece, synthetic, the referee's scan_ms) per sensor event
        #: (cell -1: a button, its name for the piece)
        self.sensed: list[tuple[int, int, bool, str | None, bool, int]] = []

    def on_input(self, item: object) -> None:
        service = self.service
        if isinstance(item, Sensor) and service is not None:
            ev = item.event
            t = int((ev.host_time - service.t0) * 1000)
            self.sensed.append((t, ev.cell, ev.placed, ev.piece, ev.synthetic, service.session.timing.scan_ms))
        elif isinstance(item, Button) and service is not None:
            self.sensed.append((service.now(), -1, False, item.name, False, service.session.timing.scan_ms))

    def dump(self, path: str, moves: list[str], board: BoardEmulator | None = None) -> None:
        """The game's sensor events as the service handed them to the referee, and (an
        emulator's logs, ``bench/dgt_causes.py``) what went over the line and when the hands acted."""
        t0 = self.service.t0 if self.service is not None else 0.0

        def ms(t: float | None) -> float | None:
            return None if t is None else round((t - t0) * 1000, 1)

        line = [] if board is None else [[ms(e.queued), ms(e.due), ms(e.written), list(e.head), e.change]
                                         for e in board.line_log]
        with open(path, "w") as f:
            json.dump({"played": moves, "recorded": self.texts, "events": self.sensed,
                       "finals": [ms(t) for t in self.finals],
                       "last_event": {ply: ms(t) for ply, t in self.last_event.items()},
                       "first_event": {ply: ms(t) for ply, t in self.first_event.items()},
                       "pressed": sorted(self.pressed),
                       "line": line,
                       "host": [[ms(t), list(data)] for t, data in (board.host_log if board else [])],
                       "hands": [[ms(t), sq, piece] for t, sq, piece in (board.hand_log if board else [])]}, f)

    def shown(self, ply: int, move: engine.Move, variant: engine.Variant) -> bool:
        """Whether the board reported each piece of ``move`` (``ply``) where it landed, after
        the move's first touch and by the time it was final."""
        t0 = self.service.t0 if self.service is not None else 0.0
        final = (self.finals[ply] - t0) * 1000
        first = (self.first_event.get(ply, self.finals[ply]) - t0) * 1000
        landed = {d: variant.symbol(a) for c, _b, a in move.changes for s, d in move.relocations
                  if s != d and c == d and a}
        return all(any(cell == d and down and piece == symbol and first <= t <= final
                       for t, cell, down, piece, _syn, _scan in self.sensed)
                   for d, symbol in landed.items())

    def report_to_final(self, ply: int, move: Any) -> float:
        """ms from the board's last report of a change on the cells ``move`` (``ply``) changes,
        after its first touch, to the move final (the hand's last touch -> final, if none)."""
        t0 = self.service.t0 if self.service is not None else 0.0
        final = (self.finals[ply] - t0) * 1000
        first = (self.first_event[ply] - t0) * 1000
        cells = move.changed_cells
        reports = [t for t, cell, _down, _piece, _syn, _scan in self.sensed if cell in cells and first <= t <= final]
        return final - max(reports) if reports else (self.finals[ply] - self.last_event[ply]) * 1000

    def on_update(self, update: Update) -> None:
        now = time.monotonic()
        with self._changed:
            for text in update.accepted:
                self.finals.append(now)
                self.texts.append(text)
            if update.status.prompt is not None:
                self.asked.add(len(self.finals))
                if self._asked_at is None or self._asked_at[1] != len(self.finals):
                    self._asked_at = (now, len(self.finals))
                    self.questions += 1
            elif self._asked_at is not None and self._asked_at[1] != len(self.finals):
                # (Kept while the question is shown again after a board change, until a move is
                # final: the player at the screen reads it once.)
                self._asked_at = None
            self._changed.notify_all()

    def _answer_due(self) -> float | None:
        """When the player at the screen answers the open question (None: no one will)."""
        if self.answer_ms is None or self._asked_at is None or self.service is None:
            return None
        if self.service.session.status.prompt is None:
            return None  # (not shown just now: answered when it is shown again)
        return self._asked_at[0] + self.answer_ms / 1000

    def _answer(self, service: Service) -> None:
        """Touch the option that is the moves played next, if the question offers it."""
        prompt = service.session.status.prompt
        with self._changed:
            asked, self._asked_at = self._asked_at, None
        if prompt is None or asked is None:
            return
        done = len(self.texts)
        for i, option in enumerate(prompt.options):
            if not option.undo and option.texts and list(option.texts) == self.moves[done:done + len(option.texts)]:
                self.answered += 1
                self.by_answer.update(range(done, done + len(option.texts)))
                service.inputs.put(Touch(ChoiceClicked(i, option.key)))
                return

    def cause(self, ply: int) -> str:
        final = self.finals[ply]
        if ply in self.pressed:
            return "clock"
        return "opponent" if any(p > ply and t <= final for p, t in self.first_event.items()) else "quiet"

    def play(self, board: Any, service: Service, timing: Timing) -> None:
        if not board.host_ready.wait(START_S):
            raise SystemExit("the board was never asked for its position by the service")
        started = time.monotonic() + START_S
        while service.session.phase != Phase.PLAY:
            if time.monotonic() > started:
                raise SystemExit(f"the service never started the game: {service.session.status.message}")
            time.sleep(0.01)
        last_line: dict[int, int] = {}
        for i, command in enumerate(self.commands):
            if isinstance(command, Lift | Place) and command.line - 1 < len(self.plies):
                last_line[self.plies[command.line - 1]] = i
        start = time.monotonic()
        at = 0.0  # the script's clock (ms)
        burst: list[tuple[int, Command]] = []
        for i, command in enumerate(self.commands):
            if isinstance(command, Sleep):
                if burst:
                    self._act(board, burst, last_line)
                    burst = []
                at += command.ms
                self._until(start + at / 1000, service)
            elif isinstance(command, Lift | Place):
                burst.append((i, command))
        if burst:
            self._act(board, burst, last_line)
        # The last move may wait for the quiet; presses still due go on meanwhile.
        self._until(time.monotonic() + (timing.hesitate_ms + 2 * timing.prefix_ms) / 1000, service,
                    done=lambda: len(self.finals) >= self.n_moves)

    def _act(self, board: Any, burst: list[tuple[int, Command]], last_line: dict[int, int]) -> None:
        """Hand the board one burst of actions (when the one before is played)."""
        if self._started and not board.done.wait(1.0):
            raise SystemExit("the board did not play the hands' last actions within 1 s")
        self._started = True
        board.start_script([c for _i, c in burst], wait_for_host=False)
        now = time.monotonic()
        for i, command in burst:
            if command.line - 1 >= len(self.plies):
                continue
            ply = self.plies[command.line - 1]
            self.last_event[ply] = now
            self.first_event.setdefault(ply, now)
            if last_line.get(ply) == i and self.rng.random() < self.press:
                self._presses.append((now + self.rng.randint(300, 1500) / 1000, ply))
                self._presses.sort()

    def _until(self, until: float, service: Service, done: Callable[[], bool] | None = None) -> None:
        """Wait until ``until`` (host time), pressing the clock when a press falls due."""
        while True:
            due = self._presses[0][0] if self._presses else until
            with self._changed:
                if done is not None and done():
                    return
                answer = self._answer_due()
                self._changed.wait(max(0.0, min(due, until, answer if answer is not None else until)
                                        - time.monotonic()))
                answer = self._answer_due()
            now = time.monotonic()
            if answer is not None and answer <= now:
                self._answer(service)
            elif self._presses and self._presses[0][0] <= now:
                _at, ply = self._presses.pop(0)
                # (Only before the next player's hand is at work: a player presses the clock for
                # the move just made, not over the opponent's.)
                if (service.session.status.provisional and len(self.finals) == ply
                        and ply + 1 not in self.first_event):
                    service.inputs.put(Button("clock"))
                    self.pressed.add(ply)
            elif now >= until:
                return
