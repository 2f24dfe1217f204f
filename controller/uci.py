"""``chessery engine``: Chessery's own search (``engine.search``) as a UCI engine.

The dialogue is the UCI protocol with the variant extensions other variant engines use:
``UCI_Variant`` (a combo listing every shipped variant, then the user's own variant files by name
as ``chessery variants`` does; any variant file's path is accepted too),
positions as ``position startpos|fen FEN [moves M...]`` in the engine's move text (what
``chessery moves`` prints), and ``bestmove (none)`` when the side to move has no move.

Clocks: ``wtime``/``winc`` are the first side's, ``btime``/``binc`` the second's, whatever the
sides are called; any side may also be given by its name (``redtime``/``redinc`` in Triscacia).
A side to move without a clock of its own uses the shortest one given. The engine always plays
the side to move (three sides, or the second half of a Meddlers turn, included).

Every bad line is answered with ``info string <why>`` and changes nothing; the search runs in its
own thread so ``stop``, ``isready`` and ``quit`` are answered while it thinks.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass

from engine import ChesseryError, Position, find_variant, move_text, parse_fen, start_position, variant_names
from engine.search import MAX_SKILL, Info, Limits, Result, Searcher
from engine.variant import Variant, user_variant_names

NAME = "Chessery"
AUTHOR = "the Chessery project"
DEFAULT_VARIANT = "chess"
DEFAULT_HASH = 16
MAX_HASH = 1024


class UciError(ChesseryError, ValueError):
    """A line the engine cannot act on: answered with ``info string``."""


@dataclass
class _Running:
    thread: threading.Thread
    stop: threading.Event


class UciEngine:
    """The engine's state between commands. ``write`` receives each output line (no newline)."""

    def __init__(self, write: Callable[[str], None], variant: str = DEFAULT_VARIANT, seed: int | None = None) -> None:
        self._write_line = write
        self._lock = threading.Lock()
        self.skill = MAX_SKILL
        self.hash_mb = DEFAULT_HASH
        self.seed = seed
        self._running: _Running | None = None
        self._infinite = False
        self.variant: Variant
        self.position: Position
        self.searcher: Searcher
        self._set_variant(find_variant(variant))

    # -- output ----------------------------------------------------------------------------------
    def send(self, line: str) -> None:
        with self._lock:
            self._write_line(line)

    # -- the dialogue ----------------------------------------------------------------------------
    def handle(self, line: str) -> bool:
        """Act on one input line; False after ``quit``."""
        words = line.split()
        if not words:
            return True
        command, args = words[0], words[1:]
        try:
            if command == "quit":
                self._stop_search()
                return False
            handler = self._handlers().get(command)
            if handler is None:
                raise UciError(f"unknown command {command!r}")
            handler(args)
        except (ChesseryError, ValueError) as exc:
            self.send(f"info string error: {_one_line(exc)}")
        return True

    def _handlers(self) -> dict[str, Callable[[list[str]], None]]:
        return {"uci": self._uci, "isready": lambda _a: self.send("readyok"), "setoption": self._setoption,
                "ucinewgame": self._ucinewgame, "position": self._position, "go": self._go,
                "stop": lambda _a: self._stop_search(), "ponderhit": lambda _a: None, "debug": lambda _a: None}

    def _uci(self, _args: list[str]) -> None:
        self.send(f"id name {NAME}")
        self.send(f"id author {AUTHOR}")
        names = " ".join(f"var {n}" for n in variant_names() + user_variant_names())
        self.send(f"option name UCI_Variant type combo default {DEFAULT_VARIANT} {names}")
        self.send(f"option name Skill Level type spin default {MAX_SKILL} min 0 max {MAX_SKILL}")
        self.send(f"option name Hash type spin default {DEFAULT_HASH} min 1 max {MAX_HASH}")
        self.send("uciok")

    def _setoption(self, args: list[str]) -> None:
        text = " ".join(args)
        if not text.startswith("name "):
            raise UciError("setoption needs 'name NAME [value VALUE]'")
        name, _, value = text[len("name "):].partition(" value ")
        name, value = name.strip(), value.strip()
        self._require_idle("setoption")
        key = name.lower()
        if key == "uci_variant":
            self._set_variant(find_variant(value))
        elif key == "skill level":
            self.skill = _int_in(value, 0, MAX_SKILL, "Skill Level")
            self.searcher.skill = self.skill
        elif key == "hash":
            self.hash_mb = _int_in(value, 1, MAX_HASH, "Hash")
            self.searcher.table.resize(self.hash_mb)
        else:
            raise UciError(f"unknown option {name!r}")

    def _ucinewgame(self, _args: list[str]) -> None:
        self._require_idle("ucinewgame")
        self.searcher.new_game()
        self.position = start_position(self.variant)

    def _position(self, args: list[str]) -> None:
        self._require_idle("position")
        if not args:
            raise UciError("position needs 'startpos' or 'fen FEN', then 'moves ...'")
        moves: list[str] = []
        if "moves" in args:
            at = args.index("moves")
            args, moves = args[:at], args[at + 1:]
        if args[0] == "startpos" and len(args) == 1:
            pos = start_position(self.variant)
        elif args[0] == "fen" and len(args) > 1:
            pos = parse_fen(self.variant, " ".join(args[1:]))
        else:
            raise UciError(f"position: expected 'startpos' or 'fen FEN', got {' '.join(args)!r}")
        for index, text in enumerate(moves, start=1):
            if pos.outcome() is not None:
                raise UciError(f"position: move {index} {text!r}: the game is already over")
            try:
                pos.push_text(text)
            except ValueError:
                raise UciError(f"position: move {index} {text!r} is not legal in {pos.fen()}") from None
        self.position = pos

    def _go(self, args: list[str]) -> None:
        self._require_idle("go")
        limits = self._limits(args)
        stop = threading.Event()
        pos = self.position.copy()
        thread = threading.Thread(target=self._think, args=(pos, limits, stop), name="uci-search", daemon=True)
        self._running = _Running(thread, stop)
        self._infinite = limits.infinite
        thread.start()

    # -- searching -------------------------------------------------------------------------------
    def _limits(self, args: list[str]) -> Limits:
        numbers: dict[str, float] = {}
        infinite = False
        sides = self.variant.sides
        clock_words = {"wtime": ("time", 0), "btime": ("time", 1), "winc": ("inc", 0), "binc": ("inc", 1)}
        for i, side in enumerate(sides):
            clock_words[f"{side}time"] = ("time", i)
            clock_words[f"{side}inc"] = ("inc", i)
        times: dict[int, float] = {}
        incs: dict[int, float] = {}
        it = iter(args)
        for word in it:
            if word == "infinite":
                infinite = True
                continue
            if word in ("ponder",):
                continue
            if word not in clock_words and word not in ("movetime", "depth", "nodes", "movestogo", "mate"):
                raise UciError(f"go: unknown word {word!r}")
            raw = next(it, None)
            if raw is None:
                raise UciError(f"go: {word} needs a number")
            try:
                number = float(raw)
            except ValueError:
                raise UciError(f"go: {word} {raw!r} is not a number") from None
            if number < 0 and word not in clock_words:
                raise UciError(f"go: {word} {raw} must not be negative")
            if word in clock_words:
                kind, which = clock_words[word]
                (times if kind == "time" else incs)[which] = number / 1000
            else:
                numbers[word] = number
        mover = self.position.side
        time_left = times.get(mover, min(times.values()) if times else None)
        depth = int(numbers["depth"]) if "depth" in numbers else None
        if "mate" in numbers:
            depth = max(depth or 0, 2 * int(numbers["mate"]))
        return Limits(depth=depth if depth is None else max(1, depth),
                      nodes=int(numbers["nodes"]) if "nodes" in numbers else None,
                      movetime=numbers["movetime"] / 1000 if "movetime" in numbers else None,
                      time_left=time_left, increment=incs.get(mover, 0.0),
                      moves_to_go=int(numbers["movestogo"]) if numbers.get("movestogo") else None,
                      infinite=infinite)

    def _think(self, pos: Position, limits: Limits, stop: threading.Event) -> None:
        result: Result | None = None
        try:
            result = self.searcher.search(pos, limits, stop, self._report)
        except Exception as exc:  # the dialogue must go on: any failure becomes a line
            self.send(f"info string error: search failed: {_one_line(exc)}")
        if limits.infinite:
            stop.wait()  # UCI: after 'go infinite' the best move waits for 'stop'
        move = result.move if result is not None else next(iter(pos.legal_moves()), None)
        self.send(f"bestmove {pos.move_text(move) if move is not None else '(none)'}")

    def _report(self, info: Info) -> None:
        mate = info.mate
        if mate is None:
            score = f"cp {info.score}"
        else:
            # in the engine's own turns: a round is every side's turn (two half-moves in Meddlers)
            per_round = self.variant.nsides * (2 if self.variant.rules.multi_move_turns else 1)
            moves = -(-abs(mate) // per_round)
            score = f"mate {moves if mate > 0 else -moves}"
        ms = max(1, int(info.seconds * 1000))
        pv = " ".join(move_text(self.variant, m) for m in info.pv)
        self.send(f"info depth {info.depth} score {score} nodes {info.nodes} nps {info.nodes * 1000 // ms} "
                  f"time {ms} pv {pv}")

    def _stop_search(self) -> None:
        running = self._running
        if running is None:
            return
        running.stop.set()
        running.thread.join()
        self._running = None

    def _require_idle(self, command: str) -> None:
        """A bounded search still running finishes first (its best move is sent, as after a
        GUI's own wait); an infinite one must be stopped by the GUI."""
        running = self._running
        if running is None:
            return
        if running.thread.is_alive() and self._infinite and not running.stop.is_set():
            raise UciError(f"{command}: the engine is searching without limit (send 'stop' first)")
        running.thread.join()
        self._running = None

    def _set_variant(self, variant: Variant) -> None:
        self.variant = variant
        self.position = start_position(variant)
        self.searcher = Searcher(variant, self.hash_mb, self.skill, self.seed)

    def finish(self) -> None:
        """End of input: let a bounded search send its best move; stop an infinite one."""
        running = self._running
        if running is None:
            return
        if not running.thread.is_alive() or self._infinite:
            running.stop.set()
        running.thread.join()
        self._running = None


def _int_in(text: str, low: int, high: int, name: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise UciError(f"{name}: {text!r} is not a whole number") from None
    if not low <= value <= high:
        raise UciError(f"{name}: {value} is out of range {low}..{high}")
    return value


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__

