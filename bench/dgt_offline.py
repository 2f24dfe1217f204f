"""The DGT board games of ``bench/board_games.py`` on the script's clock: what a DGT board
would report for the hand model's script, computed instead of run, fed to the referee core.

    ./dev bench dgt_offline [--games 3] [--seeds 0,1,2] [--scan 220] [--phases 4]
        [--min-reply-ms MS] [--verbose SEED] [--jobs N] [--only SEEDS] [--answer-ms MS] [--over-ms MS]

A DGT board visits its squares in wire order (a8 = 0 ... h1 = 63), a full scan every
``--scan`` ms, and reports a square whose piece differs from what it last reported
(``firmware_bridge.boards.dgt_emulator``). Here the visits are computed from the script's times
(each game at ``--phases`` scan phases), and each report reaches the referee after its five
bytes at 9600 baud, queued behind the one before. No host, no pty, no threads: the same hands
give the same reports, so a change to the core is measured on hundreds of games in seconds, and
the real-time emulator run (``./dev bench latency --boards dgt``) is left to confirm it. The
referee's scan period is the board's plus 2 ms (what the driver learns, ``dgt_scan``).

Reported: games move for move, wrong final moves, and the latency of moves that cannot be
extended, from the hand's last touch (the script's time) and from the board's report of the
move's last change (what the core adds), p50/p95/p99/max; and from the last touch split into
moves read alone and moves made final together with the move before (a held reading, a
flurry worked out together), and into moves the board showed (and the move before them) and
moves it never showed where they landed (a piece that stood under a scan) or that follow one:
those cannot be final before a later report shows what became of the piece; the questions
put to the players, how many of them had the moves played among their options, and with
``--answer-ms`` how many a player at the screen answered (the hands go on playing meanwhile,
as the hand model does not read the screen; the moves an answer makes final wait on the player,
and are counted, not timed); and the referee's CPU time (its events and ticks,
every game; the costliest games named), the cost a Pi's controller thread pays. ``--over-ms``
lists the moves the board showed that took longer than that (each with its seed, ply and phase,
and whether it was made final together with the move before): the tail to look at with
``--verbose SEED --phase P``.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import engine
from bench.latency import extendable, pct
from controller.core_types import Decision, Event, Option, Prompt, Timing
from controller.inference import Referee

#: One report's five bytes at 9600 baud (8N1), ms.
REPORT_MS = 5 * 10 / 9.6
#: Script time per lift/place line (``controller.replay.STEP_MS``).
STEP_MS = 10


@dataclass
class Played:
    """One game on the computed board: what the core made final, and when."""

    moves: list[str]
    texts: list[str] = field(default_factory=list)
    finals: list[float] = field(default_factory=list)
    last_touch: dict[int, float] = field(default_factory=dict)   # ply -> the hand's last event
    last_report: dict[int, float] = field(default_factory=dict)  # ply -> report of its last change
    cpu_s: float = 0.0  # the referee's CPU time (its events and ticks), s
    asked: int = 0  # questions put to the players (each new one, not each time it is shown again)
    answered: int = 0  # answered with the moves played (``--answer-ms``)
    unanswerable: int = 0  # asked with no option that is the moves played
    end: str = ""  # what the referee said last (a game stopped: a question, the board wrong)
    unseen: set[int] = field(default_factory=set)  # plies a piece of which the board never showed landed
    by_answer: set[int] = field(default_factory=set)  # plies made final by the players' answer

    @property
    def wrong(self) -> int:
        return sum(1 for a, b in zip(self.texts, self.moves, strict=False) if a != b)


def hand_actions(lines: Sequence[str], plies: Sequence[int]) -> list[tuple[float, str, str, str | None, int]]:
    """(script ms, lift/place, square name, piece, ply) of each hand action of a script."""
    t = 0.0
    out = []
    for line, ply in zip(lines, plies, strict=True):
        words = line.split()
        if words[0] == "sleep":
            t += int(words[1])
        elif words[0] in ("lift", "place"):
            t += STEP_MS
            out.append((t, words[0], words[1], words[2] if len(words) > 2 else None, ply))
    return out


def dgt_reports(actions: Sequence[tuple[float, str, str, str | None, int]], variant: engine.Variant,
                scan_ms: float, phase: float) -> list[tuple[float, int, str | None, set[int]]]:
    """(host ms, cell, piece or None, plies whose actions it shows) of each report a DGT board
    scanning every ``scan_ms`` from ``phase`` (0-1 of a scan) would send for these actions."""
    g = variant.geometry
    pos = engine.start_position(variant)
    physical: list[str | None] = [variant.symbol(code) if code else None for code in pos.board]
    seen = list(physical)
    touched: list[set[int]] = [set() for _ in physical]
    end = actions[-1][0] + 4 * scan_ms if actions else 0.0
    out: list[tuple[float, int, str | None, set[int]]] = []
    line_free = 0.0
    i = 0
    visit = 0
    while True:
        # The visit of square number ``visit`` (in scan order) happens at this time.
        at = (visit / 64 + phase) * scan_ms
        if at > end:
            break
        while i < len(actions) and actions[i][0] <= at:
            _t, kind, name, piece, ply = actions[i]
            cell = g.index(name)
            physical[cell] = piece if kind == "place" else None
            touched[cell].add(ply)
            i += 1
        square = visit % 64
        cell = _cell_of_wire(variant, square)
        if physical[cell] != seen[cell]:
            seen[cell] = physical[cell]
            line_free = max(line_free, at) + REPORT_MS
            out.append((line_free, cell, physical[cell], set(touched[cell])))
        touched[cell].clear()  # (a touch the visit did not see changed is never reported)
        visit += 1
    return out


def never_shown(variant: engine.Variant, moves: Sequence[str],
                reports: Sequence[tuple[float, int, str | None, set[int]]]) -> set[int]:
    """The plies one of whose pieces the board never reported where it landed: it stood there
    less than a scan before a later move took it or moved it on (no reading of the board can
    tell that move; the referee can only work it out from what came after)."""
    shown = {(cell, piece, ply) for _t, cell, piece, plies in reports for ply in plies}
    pos = engine.start_position(variant)
    out: set[int] = set()
    for ply, text in enumerate(moves):
        move = pos.parse_move(text)
        landed = [(c, variant.symbol(a)) for c, b, a in move.changes if a and a != b]
        if any((c, piece, ply) not in shown for c, piece in landed):
            out.add(ply)
        pos.push(move)
    return out


def _cell_of_wire(variant: engine.Variant, square: int) -> int:
    """The engine's cell of DGT wire square ``square`` (a8 = 0, h8 = 7, ... h1 = 63)."""
    file, rank_from_top = square % 8, square // 8
    return variant.geometry.index(f"{'abcdefgh'[file]}{8 - rank_from_top}")


def play(moves: Sequence[str], seed: int, scan_ms: float, phase: float, hands_kwargs: dict,
         verbose: bool = False, answer_ms: float | None = None) -> Played:
    from tests.hand_model import Hands, game_script_with_plies

    variant = engine.find_variant("chess")
    lines, plies = game_script_with_plies(engine.start_position(variant), moves, Hands(**hands_kwargs), seed=seed)
    actions = hand_actions(lines, plies)
    reports = dgt_reports(actions, variant, scan_ms, phase)
    game = Played(list(moves))
    for t, _kind, _name, _piece, ply in actions:
        if ply >= 0:
            game.last_touch[ply] = t
    for t, _cell, _piece, shown in reports:
        for ply in shown:
            if ply >= 0:
                game.last_report[ply] = max(game.last_report.get(ply, 0.0), t)
    game.unseen = never_shown(variant, moves, reports)
    referee = Referee(engine.start_position(variant), identity=True,
                      timing=Timing(scan_ms=int(scan_ms) + 2))

    def timed(call: Callable[[Any], Decision], arg: Any) -> Decision:
        start = time.process_time()
        decision = call(arg)
        game.cpu_s += time.process_time() - start
        return decision

    def took(decision, at: float) -> None:
        for move in decision.accepted:
            game.texts.append(engine.move_text(variant, move))
            game.finals.append(at)
            if verbose:
                print(f"{at:9.0f}  FINAL {game.texts[-1]} (ply {len(game.texts)}; played "
                      f"{moves[len(game.texts) - 1] if len(game.texts) <= len(moves) else '-'})")

    # A player at the screen: a question (kept while it is shown again after a board change,
    # until a move is final) is answered ``answer_ms`` after it first came, with the option
    # that is what the players did, if there is one.
    asked_at: tuple[float, int] | None = None  # (when, plies final then)

    def played(prompt: Prompt) -> Option | None:
        """The option that is the moves played next, if there is one."""
        done = len(game.texts)
        return next((o for o in prompt.options if not o.undo and o.moves and
                     [engine.move_text(variant, m) for m in o.moves] == list(moves[done:done + len(o.moves)])),
                    None)

    def answer(now: float) -> bool:
        """Note a new question; answer it if it is time (True: answered)."""
        nonlocal asked_at
        prompt = referee.status.prompt
        if prompt is None:
            if asked_at is not None and asked_at[1] != len(game.texts):
                asked_at = None
            return False
        truth = played(prompt)
        if asked_at is None or asked_at[1] != len(game.texts):
            asked_at = (now, len(game.texts))
            game.asked += 1
            game.unanswerable += truth is None
        if answer_ms is None or now < asked_at[0] + answer_ms or truth is None:
            return False
        game.answered += 1
        before = len(game.texts)
        took(timed(partial(referee.answer, truth.key), int(now)), now)
        game.by_answer.update(range(before, len(game.texts)))
        if verbose:
            print(f"{now:9.0f}  answer {truth.key}")
        return True

    def answer_due(before: float | None) -> float | None:
        """When the open question is answered, if that comes before ``before`` (None: any time)."""
        if answer_ms is None or asked_at is None or referee.status.prompt is None:
            return None
        at = asked_at[0] + answer_ms
        return at if before is None or at < before else None

    if verbose:
        for t, kind, name, piece, ply in actions:
            print(f"{t:9.0f}  hand  {kind} {name} {piece or ''} (ply {ply + 1})")
    t = 0
    for host, cell, piece, _shown in reports:
        t = int(host)
        for _ in range(20):
            due = referee.deadline
            at = answer_due(due)
            if at is not None and at <= t and answer(at):
                continue
            if due is None or due > t:
                break
            took(timed(referee.tick, due), due)
            answer(due)
        code = variant.parse_symbol(piece) if piece else 0
        took(timed(referee.event, Event(cell, piece is not None, t, code)), t)
        answer(t)
        if verbose:
            print(f"{t:9d}  board {'place' if piece else 'lift '} {variant.geometry.names[cell]} {piece or ''}"
                  f" -> {referee.status.message[:70]} [deadline {referee.deadline}]")
    for _ in range(20):  # the last move: final at its own deadline (``end``: what it said then)
        due = referee.deadline
        at_answer = answer_due(due)
        if at_answer is not None and answer(max(t, at_answer)):
            continue
        at = due if due is not None else t + 60_000
        took(timed(referee.tick, at), at)
        answer(at)
    game.end = referee.status.message
    return game


def _play(run: tuple[Sequence[str], int, float, float, dict, float | None]) -> Played:
    moves, seed, scan_ms, phase, hands, answer_ms = run
    return play(moves, seed, scan_ms, phase, hands, answer_ms=answer_ms)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--seeds", default="0,1,2")
    parser.add_argument("--scan", type=float, default=220.0)
    parser.add_argument("--phases", type=int, default=4)
    parser.add_argument("--hesitant", type=float, default=0.5)
    parser.add_argument("--min-reply-ms", type=int, default=None,
                        help="the hand model's floor (default: the maker boards' bench's, bench/board_games.py)")
    parser.add_argument("--verbose", type=int, default=None, metavar="SEED", help="print one game's events")
    parser.add_argument("--only", default="", metavar="SEEDS",
                        help="only these games (seeds, comma-separated), at the phases the whole run gives them")
    parser.add_argument("--jobs", type=int, default=1, help="games played at once (processes)")
    parser.add_argument("--phase", type=float, default=None, help="with --verbose: the scan phase (0-1)")
    parser.add_argument("--over-ms", type=float, default=None,
                        help="list the moves the board showed (and the move before) that cannot be extended "
                             "and took longer than this from the last touch to final")
    parser.add_argument("--answer-ms", type=float, default=None,
                        help="a player at the screen answers each question this long after it came, with "
                             "the moves played (default: no one answers)")
    args = parser.parse_args()
    from bench.board_games import hands_for_boards
    from tests.historical_games import historical_games

    hands = hands_for_boards(args.hesitant)
    if args.min_reply_ms is not None:
        hands["min_reply_ms"] = args.min_reply_ms
    games = historical_games()
    if args.verbose is not None:
        game = play(games[args.verbose % 1000], args.verbose, args.scan, args.phase or 0.0, hands, verbose=True,
                    answer_ms=args.answer_ms)
        print(f"wrong {game.wrong}, {len(game.texts)}/{len(game.moves)}")
        return
    ok = total = wrong = misread = asked = answered = unanswerable = with_questions = 0
    stopped_unseen = 0  # games stopped (not misread) within two plies of a move the board never showed
    misread_unseen = 0  # games misread first at a move the board never showed where it landed
    cpu = 0.0
    costly: list[tuple[float, int, float]] = []  # (referee CPU s, seed, phase) per game
    touch: list[float] = []
    report: list[float] = []
    together: list[bool] = []  # per move timed: made final with the move before
    # Per move timed: the board showed it and the move before it (a move the board never
    # showed cannot be final before a later report; the move after it waits on that reading).
    shown: list[bool] = []
    slow: list[tuple[float, int, int, float]] = []
    by_answer = 0  # moves made final by an answer (their wait is the players'; not timed)
    rng = random.Random(0)
    # (The phases are drawn in the games' order whatever ``--jobs``: the same games either way.)
    runs = [(moves, n + 1000 * offset, args.scan, rng.random(), hands, args.answer_ms)
            for offset in (int(x) for x in args.seeds.split(","))
            for n, moves in enumerate(games[:args.games]) for _ in range(args.phases)]
    if args.only:
        runs = [run for run in runs if run[1] in {int(x) for x in args.only.split(",")}]
    with multiprocessing.Pool(args.jobs) as pool:
        for (moves, seed, _scan, phase, _hands, _answer), game in zip(runs, pool.imap(_play, runs), strict=True):
            total += 1
            cpu += game.cpu_s
            costly.append((game.cpu_s, seed, phase))
            ok += game.texts == list(moves)
            asked, answered = asked + game.asked, answered + game.answered
            unanswerable += game.unanswerable
            with_questions += game.asked > 0
            wrong += game.wrong
            misread += game.wrong > 0
            if game.texts != list(moves):
                first = next((i for i, (a, b) in enumerate(zip(game.texts, moves, strict=False)) if a != b),
                             len(game.texts))
                near = sorted(p + 1 for p in game.unseen if first - 1 <= p <= first + 2)
                stopped_unseen += bool(near) and not game.wrong
                misread_unseen += bool(game.wrong) and first in game.unseen
                print(f"  seed {seed} phase {phase:.3f}: {len(game.texts)}/{len(moves)}, wrong {game.wrong}, "
                      f"ply {first + 1}: {game.texts[first:first + 2]} for {list(moves[first:first + 2])}; "
                      f"{game.end[:60]!r}" + (f"; never shown: ply {near}" if near else "")
                      + (f"; asked {game.asked}, {game.unanswerable} without the moves played" if game.asked else ""))
            pos = engine.start_position(engine.find_variant("chess"))
            for ply, text in enumerate(game.texts):
                if text != moves[ply]:
                    break
                move = pos.parse_move(text)
                if ply in game.by_answer:
                    by_answer += 1
                elif not extendable(pos, move, True) and ply in game.last_touch:
                    touch.append(game.finals[ply] - game.last_touch[ply])
                    report.append(game.finals[ply] - game.last_report.get(ply, game.last_touch[ply]))
                    together.append(ply > 0 and game.finals[ply] - game.finals[ply - 1] < 1)
                    shown.append(ply not in game.unseen and ply - 1 not in game.unseen)
                    slow.append((touch[-1], seed, ply + 1, phase))
                pos.push(move)
    print(f"dgt offline, scan {args.scan:.0f} ms, hands {hands}: {ok}/{total} games move for move, "
          f"{misread} with a wrong final move, wrong final moves {wrong} (every ply after the first wrong one)")
    print(f"  stopped, not misread, within two plies of a move the board never showed where it landed: "
          f"{stopped_unseen}; misread first at such a move (no reading of the reports tells it): {misread_unseen}")
    print(f"  questions: {asked} in {with_questions} games, {unanswerable} without the moves played among the "
          f"options when first asked" + (f"; answered after {args.answer_ms:.0f} ms: {answered}"
                                         if args.answer_ms is not None else "; no one answers"))
    print(f"  made final by the players' answer (not timed): {by_answer} moves")
    for name, xs in (("last touch -> final", touch), ("board's last report -> final (the core's share)", report)):
        if xs:
            print(f"  cannot be extended, {name}: {len(xs)} moves, p50 {pct(xs, 50):.0f}  p95 {pct(xs, 95):.0f}  "
                  f"p99 {pct(xs, 99):.0f}  max {max(xs):.0f} ms")
    # Split both ways: from the hand's last touch (what the player sees) and from the board's
    # report (the last event the referee could know of: the "from the last event").
    for origin, times in (("last touch", touch), ("board's last report", report)):
        for name, xs in (("read alone", [t for t, w in zip(times, together, strict=True) if not w]),
                         ("made final together with the move before",
                          [t for t, w in zip(times, together, strict=True) if w]),
                         ("the board showed it and the move before",
                          [t for t, w in zip(times, shown, strict=True) if w]),
                         ("the board never showed it or the move before",
                          [t for t, w in zip(times, shown, strict=True) if not w])):
            if xs:
                print(f"  cannot be extended, {origin} -> final, {name}: {len(xs)} moves, p50 {pct(xs, 50):.0f}  "
                      f"p95 {pct(xs, 95):.0f}  p99 {pct(xs, 99):.0f}  max {max(xs):.0f} ms")
    slowest = [(round(a), b, c, round(d, 3)) for a, b, c, d in sorted(slow)[-6:]]
    print("  slowest (touch ms, seed, ply, phase):", slowest)
    if args.over_ms is not None:
        print(f"  shown, over {args.over_ms:.0f} ms (touch ms, seed, ply, move, phase, final with the move before):")
        over = [(t, seed, ply, phase, w) for (t, seed, ply, phase), s, w in zip(slow, shown, together, strict=True)
                if s and t > args.over_ms]
        for t, seed, ply, phase, with_before in sorted(over):
            print(f"    {t:.0f} {seed} {ply} {games[seed % 1000][ply - 1]} {phase:.3f} {with_before}")
    print(f"  referee CPU (its events and ticks, all games): {cpu:.1f} s; costliest games (s, seed, phase):",
          [(round(a, 1), b, round(c, 3)) for a, b, c in sorted(costly)[-5:]])


if __name__ == "__main__":
    main()
