"""Playing strength of the computer opponent (engine.search), per variant.

    ./dev bench strength [--variants chess,zeta] [--games 20]
        [--movetime 1.0] [--opponents random,greedy,time] [--stockfish] [--max-plies 200] [--seed 1]
        [--skill 20] [--clock wall|cpu] [--resume FILE]... [--jobs 1] [--factor 4]

For each variant, games of the search at ``--movetime`` seconds a move against:

* ``random``: a random mover (goal: at least 95 %);
* ``greedy``: a one-ply material-greedy player (it takes a win when it has one, else the move
  leaving it the most material, ties at random; goal: at least 80 %);
* ``time``: the same search at 4x ``--movetime`` against itself at ``--movetime`` (the issue's
  2 s against 0.5 s; goal: over 60 % for the longer time). ``--factor`` sets another multiple,
  to see what far more time buys (``--movetime 0.1 --factor 20``: 2 s against 0.1 s).

``--stockfish``: chess against the system's ``stockfish`` at ``Skill Level 0`` (python-chess's
UCI client; same movetime), and python-chess's random mover as a sanity check.

Colours alternate game by game (three sides: the search takes each seat in turn, the other two are
the opponent); each game opens with two seeded random plies. A game still going after
``--max-plies`` plies is adjudicated by the search's own evaluation: a side ahead by 3 pawns or
more wins, else a draw (reported as ``adj``). Score: win 1, draw 1/2, loss 0. With three sides a
lost game also says who won it: ``won=right``, the side before the measured one in turn (the one
that may check it), or ``won=left``, the side after it (which can win only by mating the third).

``--clock cpu`` times each move by this process's CPU time instead of the wall clock: a match then
gives each side the same work on a loaded machine as on a quiet one (slower, not weaker).

Each game is seeded by its number alone, so a match can be cut and taken up again: every game
prints a ``game ...`` line as it ends, and ``--resume FILE`` (an earlier run's output, any number
of times) counts the games it lists with the same settings instead of playing them again.
``--jobs N`` plays N games at once in their own processes (with ``--clock cpu`` each still gets
its time; with the wall clock they would share the cores).
"""

from __future__ import annotations

import argparse
import contextlib
import random
import shutil
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path

from engine import Move, Position, Variant, find_variant, start_position, variant_names
from engine.search import Limits, Searcher
from engine.search.evaluation import Evaluator

Player = Callable[[Position], Move]
ADJUDICATE = 300
OPENING_PLIES = 2


def random_player(rng: random.Random) -> Player:
    def play(pos: Position) -> Move:
        return rng.choice(pos.legal_moves())
    return play


def greedy_player(rng: random.Random) -> Player:
    """One ply, material only: a winning move if any, else the most material afterwards."""
    def play(pos: Position) -> Move:
        v = pos.variant
        values = _values(v)
        side = pos.side
        best: list[Move] = []
        best_score = None
        for m in pos.legal_moves():
            pos.push(m)
            outcome = pos.outcome()
            if outcome is not None and outcome.winner == side:
                pos.pop()
                return m
            score = sum(values[c] if v.owner[c] == side else -values[c] for c in pos.board if c)
            if outcome is not None and outcome.winner is not None:
                score -= 100_000
            pos.pop()
            if best_score is None or score > best_score:
                best, best_score = [m], score
            elif score == best_score:
                best.append(m)
        return rng.choice(best)
    return play


_VALUES: dict[str, tuple[int, ...]] = {}


def _values(v: Variant) -> tuple[int, ...]:
    """The search's piece values of ``v`` (built once per variant)."""
    if v.name not in _VALUES:
        _VALUES[v.name] = Evaluator(v).tables.values
    return _VALUES[v.name]


# Which clock a move's time is measured on. The wall clock is what a player sees; this process's
# CPU time gives the search the same work whatever else the machine runs, so a time match can run
# beside other work and still measure "more time" rather than "a quieter moment".
CLOCKS: dict[str, Callable[[], float]] = {"wall": time.monotonic, "cpu": time.process_time}
#: The issue's time match: 2 s against 0.5 s.
FACTOR = 4.0


def search_player(variant_name: str, movetime: float, seed: int, skill: int = 20,
                  clock: Callable[[], float] = time.monotonic) -> Player:
    searcher = Searcher(find_variant(variant_name), hash_mb=32, skill=skill, seed=seed)

    def play(pos: Position) -> Move:
        result = searcher.search(pos, Limits(movetime=movetime), clock=clock)
        assert result.move is not None
        return result.move
    return play


@dataclass
class Tally:
    wins: int = 0
    draws: int = 0
    losses: int = 0
    adjudicated: int = 0
    plies: list[int] = field(default_factory=list)
    seconds: float = 0.0
    #: Three sides: losses by who won them, ``left`` (the next side in turn) or ``right``.
    lost_to: dict[str, int] = field(default_factory=dict)

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        return (self.wins + 0.5 * self.draws) / self.games if self.games else 0.0


def play_game(name: str, seats: list[Player], seed: int, max_plies: int) -> tuple[int | None, int, bool]:
    """(winner side or None, plies, adjudicated)."""
    v = find_variant(name)
    pos = start_position(v)
    rng = random.Random(seed)
    plies = 0
    while plies < max_plies:
        if pos.outcome() is not None:
            break
        moves = pos.legal_moves()
        if not moves:
            break
        move = rng.choice(moves) if plies < OPENING_PLIES else seats[pos.side](pos)
        pos.push(move)
        plies += 1
    outcome = pos.outcome()
    if outcome is not None or not pos.legal_moves():
        return (outcome.winner if outcome is not None else None), plies, False
    scores = Evaluator(v).scores(pos)
    lead = max(range(v.nsides), key=lambda s: scores[s])
    others = max(scores[s] for s in range(v.nsides) if s != lead)
    return (lead if scores[lead] - others >= ADJUDICATE else None), plies, True


@dataclass(frozen=True)
class MatchSpec:
    """What makes one match: a game of it is the same game whenever it is played."""

    variant: str
    opponent: str  # random, greedy or time
    movetime: float
    seed: int
    max_plies: int
    skill: int
    clock: str
    #: The longer time's multiple of ``movetime`` (``time`` matches). A line leaves out the
    #: issue's 4, as every line did before this could be set, so those lines still resume.
    factor: float = FACTOR

    def players(self, g: int) -> tuple[int, list[Player]]:
        """Game ``g``'s seat for the side measured, and every seat's player."""
        nsides = find_variant(self.variant).nsides
        clock = CLOCKS[self.clock]
        seat = g % nsides
        if self.opponent == "time":  # the longer time is the side measured
            seats = [search_player(self.variant, self.movetime, self.seed * 1000 + g * 10 + s, self.skill, clock)
                     for s in range(nsides)]
            seats[seat] = search_player(self.variant, self.factor * self.movetime, self.seed * 1000 + g, clock=clock)
        else:
            make = random_player if self.opponent == "random" else greedy_player
            seats = [make(random.Random(self.seed * 1000 + g * 10 + s)) for s in range(nsides)]
            seats[seat] = search_player(self.variant, self.movetime, self.seed * 1000 + g, self.skill, clock)
        return seat, seats

    def line(self, g: int, result: str, plies: int, adjudicated: bool, won: str = "") -> str:
        """A game's line; ``won``: with three sides, who won a game the side measured lost."""
        fields = {**self.settings(), "game": g, "result": result, "plies": plies, "adj": int(adjudicated)}
        if won:
            fields["won"] = won
        return "game " + " ".join(f"{k}={v}" for k, v in fields.items())

    def settings(self) -> dict[str, str]:
        """The fields a game line carries for this match (``factor`` only when not the 4)."""
        fields = {k: str(v) for k, v in asdict(self).items()}
        if self.factor == FACTOR:
            del fields["factor"]
        return fields


#: Three sides: who won a game the measured side lost, by the winner's seat after it in turn.
WON_BY = {1: "left", 2: "right"}

Game = tuple[str, int, bool, str]  # W/D/L, plies, adjudicated, who won a loss (three sides) or ""


def play_numbered(spec: MatchSpec, g: int) -> tuple[int, Game]:
    """Game ``g`` of ``spec``: (g, (W/D/L for the side measured, plies, adjudicated, who won
    when it lost with three sides: ``left``, the side after it in turn, or ``right``))."""
    seat, seats = spec.players(g)
    winner, plies, adj = play_game(spec.variant, seats, spec.seed * 7919 + g, spec.max_plies)
    if winner is None:
        return g, ("D", plies, adj, "")
    if winner == seat:
        return g, ("W", plies, adj, "")
    return g, ("L", plies, adj, WON_BY.get((winner - seat) % len(seats), "") if len(seats) > 2 else "")


def resumed(spec: MatchSpec, lines: Iterable[str]) -> dict[int, Game]:
    """The games of ``spec`` an earlier run printed: number -> (result, plies, adjudicated, won)."""
    want = {k: str(v) for k, v in asdict(spec).items()}
    done: dict[int, Game] = {}
    for line in lines:
        if not line.startswith("game "):
            continue
        fields = {"factor": str(FACTOR)} | dict(item.split("=", 1) for item in line.split()[1:] if "=" in item)
        if all(fields.get(k) == v for k, v in want.items()):
            done[int(fields["game"])] = (fields["result"], int(fields["plies"]), fields["adj"] == "1",
                                         fields.get("won", ""))
    return done


def match(spec: MatchSpec, games: int, earlier: list[str], jobs: int = 1) -> Tally:
    tally = Tally()
    results = resumed(spec, earlier)
    results = {g: r for g, r in results.items() if g < games}
    todo = [g for g in range(games) if g not in results]
    start = time.perf_counter()
    pool = ProcessPoolExecutor(jobs) if jobs > 1 and len(todo) > 1 else None
    with pool or contextlib.nullcontext():
        for g, game in (pool.map if pool else map)(play_numbered, [spec] * len(todo), todo):
            print(spec.line(g, *game), flush=True)
            results[g] = game
    for result, plies, adj, won in results.values():
        if won:
            tally.lost_to[won] = tally.lost_to.get(won, 0) + 1
        tally.plies.append(plies)
        tally.adjudicated += adj
        tally.wins += result == "W"
        tally.draws += result == "D"
        tally.losses += result == "L"
    tally.seconds = time.perf_counter() - start
    return tally


def report(name: str, label: str, t: Tally, goal: float, above: bool = False) -> None:
    """One line per match; ``above``: the goal is a score over ``goal`` (the issue's "over 60 %"
    for the longer time), not at least it."""
    mean = sum(t.plies) / len(t.plies) if t.plies else 0
    met = t.score > goal if above else t.score >= goal
    mark = f"{'>' if above else ''}{100 * goal:.0f}% {'ok' if met else 'BELOW'}"
    print(f"{name:20s} {label:18s} games {t.games:3d}  +{t.wins} ={t.draws} -{t.losses}  score {100 * t.score:5.1f}% "
          f"(goal {mark})  plies {mean:5.1f}  adj {t.adjudicated}  {t.seconds:6.1f}s"
          + "".join(f"  lost to {who} {n}" for who, n in sorted(t.lost_to.items())), flush=True)


def stockfish_match(games: int, movetime: float, seed: int) -> None:
    import chess
    import chess.engine

    # Debian puts it in /usr/games, which a script's PATH may lack
    command = shutil.which("stockfish") or shutil.which("stockfish", path="/usr/games")
    if command is None:
        raise SystemExit("--stockfish: no stockfish found (apt-get install stockfish)")
    with chess.engine.SimpleEngine.popen_uci(command) as sf:
        sf.configure({"Skill Level": 0})
        ours = Searcher(find_variant("chess"), hash_mb=32, seed=seed)
        v = find_variant("chess")
        tally = Tally()
        start = time.perf_counter()
        for g in range(games):
            board = chess.Board()
            pos = start_position(v)
            rng = random.Random(seed * 31 + g)
            our_colour = chess.WHITE if g % 2 == 0 else chess.BLACK
            plies = 0
            while not board.is_game_over(claim_draw=True) and plies < 300:
                if plies < OPENING_PLIES:
                    uci = rng.choice(list(board.legal_moves)).uci()
                elif board.turn == our_colour:
                    result = ours.search(pos, Limits(movetime=movetime))
                    assert result.move is not None
                    uci = pos.move_text(result.move)
                else:
                    played = sf.play(board, chess.engine.Limit(time=movetime))
                    assert played.move is not None
                    uci = played.move.uci()
                board.push_uci(uci)
                pos.push_text(uci)
                plies += 1
            outcome = board.outcome(claim_draw=True)
            tally.plies.append(plies)
            if outcome is None or outcome.winner is None:
                tally.draws += 1
                tally.adjudicated += outcome is None
            elif outcome.winner == our_colour:
                tally.wins += 1
            else:
                tally.losses += 1
        tally.seconds = time.perf_counter() - start
        report("chess", "stockfish-skill-0", tally, 0.5)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--variants", default=",".join(variant_names()))
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--movetime", type=float, default=1.0)
    p.add_argument("--opponents", default="random,greedy,time", help="comma list; empty: none (with --stockfish)")
    p.add_argument("--stockfish", action="store_true")
    p.add_argument("--max-plies", type=int, default=200)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--skill", type=int, default=20, help="our engine's Skill Level (0-20) against random/greedy")
    p.add_argument("--clock", choices=sorted(CLOCKS), default="wall",
                   help="time moves by the wall clock or by this process's CPU time")
    p.add_argument("--resume", action="append", default=[], metavar="FILE",
                   help="an earlier run's output: its games with the same settings are not played again")
    p.add_argument("--jobs", type=int, default=1, help="games played at once, each in its own process")
    p.add_argument("--factor", type=float, default=FACTOR,
                   help="time matches: the longer time is this many times --movetime (the issue's 4)")
    args = p.parse_args()
    mt = args.movetime
    print(f"# strength: --variants {args.variants} --games {args.games} --movetime {mt} "
          f"--opponents {args.opponents} --max-plies {args.max_plies} --seed {args.seed} --skill {args.skill} "
          f"--clock {args.clock} --jobs {args.jobs} --factor {args.factor:g}",
          flush=True)
    opponents = [o for o in args.opponents.split(",") if o]
    earlier = [line for path in args.resume for line in Path(path).read_text().splitlines()]
    labels = {"random": ("vs random", 0.95, False), "greedy": ("vs greedy", 0.80, False),
              "time": (f"{args.factor * mt:g}s vs {mt:g}s", 0.60, True)}
    for opp in opponents:
        if opp not in labels:
            raise SystemExit(f"unknown opponent {opp!r} (random, greedy, time)")
    for name in [n for n in args.variants.split(",") if n]:
        for opp in opponents:
            factor = args.factor if opp == "time" else FACTOR  # the others play one time only
            spec = MatchSpec(name, opp, mt, args.seed, args.max_plies, args.skill, args.clock, factor)
            label, goal, above = labels[opp]
            report(name, label, match(spec, args.games, earlier, args.jobs), goal, above=above)
    if args.stockfish:
        stockfish_match(args.games, mt, args.seed)


if __name__ == "__main__":
    main()
