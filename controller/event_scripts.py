"""Event scripts for whole games, written from move texts through the engine's ``Move.changes``
and ``relocations``: what a player's hands do, in the simulator's script format.

``script_for_moves`` turns moves into ``lift``/``place``/``sleep``/``choose`` lines with a chosen
``Style``: which piece a capture lifts first, which piece a castling (or a push of a line, or a
swap) moves first, sliders dragged across the cells between, bouncing placements, quick replies.
The ``choose`` answers come from the decision core itself: the script is replayed while it is
written, and where the core asks, the option holding the intended move is chosen -- so every
generated script is one the core must turn back into exactly these moves. Before each ``choose``
the script sleeps until the question is up and ``Style.answer_ms`` more: a board plays its script
on its own clock, and the hands must not go on before the player has answered.

``placement_game`` writes a whole seeded game of a placement variant (Mathematichess): every
piece placed, both removals (terminators), then board moves of every shape.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, NamedTuple

from engine import Move, Position, Variant, parse_fen, start_position
from firmware_bridge.script import parse_line

from .core_types import PendingKind
from .inference import Timing
from .replay import Replayer
from .signatures import looks

#: A game with castling on the long side and captures: Morphy v Duke of Brunswick and Count
#: Isouard, Paris 1858 (the "Opera game"), in the engine's move notation.
OPERA_GAME = (
    "e2e4", "e7e5", "g1f3", "d7d6", "d2d4", "c8g4", "d4e5", "g4f3", "d1f3", "d6e5", "f1c4", "g8f6",
    "f3b3", "d8e7", "b1c3", "c7c6", "c1g5", "b7b5", "c3b5", "c6b5", "c4b5", "b8d7", "e1c1", "a8d8",
    "d1d7", "d8d7", "h1d1", "e7e6", "b5d7", "f6d7", "b3b8", "d7b8", "d1d8",
)


@dataclass(frozen=True)
class Style:
    """How the hands move. Times in ms."""

    capture: Literal["victim", "attacker", "alternate"] = "victim"  # which piece a capture lifts first
    castle: Literal["king", "rook", "alternate"] = "king"  # which piece of a multi-piece move goes first
    #                             (king: the mover first, so a push starts at its back and a king's swap
    #                             with the king; rook: the far end first)
    slide: bool = False         # drag pieces across the cells between (line moves only)
    slide_rest_ms: int = 15     # time spent on each cell passed over
    bounce: bool = False        # every placement bounces once (place, lift, place)
    think_ms: int = 400         # pause before each move (0: a reply right after the last move)
    reaction_ms: int = 100      # least pause before taking a piece the last move just put down
    hand_ms: int = 150          # pause between lifting a piece and putting it down
    identity: bool = False      # placements name the piece (identity boards)
    answer_ms: int = 100        # after a question comes up, the player's time to answer it


def random_game(variant: Variant, plies: int, seed: int = 1, fen: str | None = None) -> list[str]:
    """Legal moves picked at random (seeded), until ``plies`` or the end of the game."""
    rng = random.Random(seed)
    pos = parse_fen(variant, fen) if fen else start_position(variant)
    out: list[str] = []
    for _ in range(plies):
        if pos.outcome() is not None:
            break
        moves = pos.legal_moves()
        if not moves:
            break
        move = rng.choice(moves)
        out.append(pos.move_text(move))
        pos.push(move)
    return out


def shape_of(move: Move) -> str:
    """What a move looks like on the board, from its effects alone: ``drop`` (a piece put
    down), ``removal`` (pieces taken off, nothing put down), ``swap`` (pieces change places,
    every cell stays occupied), ``line`` (three or more cells: a push, a castling, en passant),
    ``step`` (anything else)."""
    changes = move.changes
    if all(not after for _c, _b, after in changes):
        return "removal"
    if all(not before for _c, before, _a in changes):
        return "drop"
    if all(before and after for _c, before, after in changes):
        return "swap"
    return "line" if len(changes) >= 3 else "step"


def placement_game(variant: Variant, seed: int = 1, board_plies: int = 40, fen: str | None = None) -> list[str]:
    """A whole game of a variant that starts with every piece in hand (Mathematichess): seeded
    random placements until both hands are empty, then each side's removal (the terminator),
    then ``board_plies`` board moves whose shape (``shape_of``) is picked first, in turn over
    the shapes available, so long pushes and swaps are as common as steps. Stops early if the
    game ends."""
    rng = random.Random(seed)
    pos = parse_fen(variant, fen) if fen else start_position(variant)
    out: list[str] = []

    def play(move: Move) -> None:
        out.append(pos.move_text(move))
        pos.push(move)

    while any(pos.hands[pos.side].values()) and pos.outcome() is None:
        play(rng.choice([m for m in pos.legal_moves() if shape_of(m) == "drop"]))
    for _ in range(variant.nsides):
        removals = [m for m in pos.legal_moves() if shape_of(m) == "removal"]
        if removals and pos.outcome() is None:
            play(rng.choice(removals))
    order = ("line", "swap", "step")
    for n in range(board_plies):
        if pos.outcome() is not None:
            break
        by_shape: dict[str, list[Move]] = {}
        for m in pos.legal_moves():
            by_shape.setdefault(shape_of(m), []).append(m)
        shapes = [s for s in order[n % 3:] + order[:n % 3] if s in by_shape] or sorted(by_shape)
        play(rng.choice(by_shape[shapes[0]]))
    return out


def _line_cells(variant: Variant, board: list[int], frm: int, to: int) -> list[int]:
    """Empty cells strictly between two cells on one straight line, in order; [] if none."""
    g = variant.geometry
    (x0, y0), (x1, y1) = g.coords[frm], g.coords[to]
    dx, dy = x1 - x0, y1 - y0
    if (dx, dy) == (0, 0) or not (dx == 0 or dy == 0 or abs(dx) == abs(dy)):
        return []
    step = ((dx > 0) - (dx < 0), (dy > 0) - (dy < 0))
    ray = g.ray(frm, step)
    if to not in ray:
        return []
    between = list(ray[: ray.index(to)])
    return between if all(board[c] == 0 for c in between) else []


class HandWork(NamedTuple):
    """What a hand has to do for a move, read from its effects: the code on each changed cell
    afterwards, the pieces it carries (from, to), their cells, and the men it takes off."""

    after: dict[int, int]
    relocs: list[tuple[int, int]]
    sources: set[int]
    dests: set[int]
    victims: list[int]


def hand_work(move: Move) -> HandWork:
    relocs = [(s, d) for s, d in move.relocations if s != d]
    sources = {s for s, _d in relocs}
    return HandWork({c: a for c, _b, a in move.changes}, relocs, sources, {d for _s, d in relocs},
                    [c for c, b, _a in move.changes if b and c not in sources])


def hand_steps(pos: Position, move: Move, style: Style, nth: int = 0) -> list[str]:
    """The lift/place/sleep lines of one move made by hand in ``pos`` (before it is played).
    No hand takes a piece the previous move put down sooner than ``style.reaction_ms``: the
    board cannot tell that from the previous move still going on (and no player is that fast)."""
    v = pos.variant
    names = v.geometry.names
    board = list(pos.board)
    after, relocs, _sources, dests, victims = hand_work(move)
    lines: list[str] = []
    in_hand: set[int] = set()

    look = looks(v)

    def named(code: int) -> str:
        # the piece the hand puts down is a physical one (an illusionary pawn is a pawn)
        if not style.identity or not code:
            return ""
        return f" {v.symbol(look[code] if look is not None else code)}"

    def symbol(cell: int) -> str:
        return named(after.get(cell, 0))

    def lift(cell: int) -> None:
        if cell in in_hand or not board[cell]:
            return
        lines.append(f"lift {names[cell]}")
        board[cell] = 0
        in_hand.add(cell)

    def place(cell: int, code: int) -> None:
        lines.append(f"place {names[cell]}{symbol(cell)}")
        board[cell] = code
        if style.bounce:
            lines.extend(["sleep 3", f"lift {names[cell]}", "sleep 3", f"place {names[cell]}{symbol(cell)}"])

    capture = style.capture if style.capture != "alternate" else ("victim", "attacker")[nth % 2]
    castle = style.castle if style.castle != "alternate" else ("king", "rook")[nth % 2]
    if castle == "rook":
        relocs.reverse()
    think = style.think_ms
    if pos.move_stack and think < style.reaction_ms:
        last = pos.move_stack[-1]
        # What the hand takes before its first pause: the victims (victim first), the first
        # piece it moves, and whatever stands on that piece's destination (attacker first: the
        # victim goes with it, not after the others).
        first = set(victims) if capture == "victim" else set()
        if relocs:
            s, d = relocs[0]
            first |= {s} | ({d} if board[d] else set())
        if first & {c for c, _b, a in last.changes if a}:
            think = style.reaction_ms
    if think:
        lines.append(f"sleep {think}")
    if capture == "victim":
        for c in victims:
            lift(c)
    # Place a piece only where the cell is free; a piece standing on a destination that itself
    # moves is lifted first (pushes, swaps).
    for s, d in relocs:
        moving = board[s]
        lift(s)
        if board[d]:
            lift(d)
        if style.hand_ms:
            lines.append(f"sleep {style.hand_ms}")
        if style.slide:
            for mid in _line_cells(v, board, s, d):
                # (named on an identity board: the hand may hold the victim too)
                lines.append(f"place {names[mid]}{named(moving)}")
                lines.append(f"sleep {style.slide_rest_ms}")
                lines.append(f"lift {names[mid]}")
        code = after[d]
        place(d, code)
        in_hand.discard(s)
    for c in victims:  # attacker first: the victims go last
        lift(c)
    for c, _b, a in move.changes:
        if a and c not in dests and board[c] != a:
            lift(c)
            place(c, a)
    return lines


class _Writer:
    """Writes a script while replaying it, to add the answers the core will ask for."""

    def __init__(self, pos: Position, style: Style, timing: Timing | None) -> None:
        self.variant = pos.variant
        self.style = style
        self.replayer = Replayer(pos.copy(), identity=style.identity, timing=timing, source="generated")
        self.lines: list[str] = []
        #: How much later than the next move's first event (after ``think_ms``) the core took
        #: the last move here, where ``answer_for`` ran the clock on without the script.
        self.lag = 0

    def add(self, text: str) -> None:
        command = parse_line(text, len(self.lines) + 1, self.variant, "generated")
        self.lines.append(text)
        if command is not None:
            self.replayer.feed(command)

    def wait_for_core(self, handles_its_pieces: bool) -> None:
        """The hands wait until the core has decided what is pending (a player watching the
        screen for the last move to be taken before touching its pieces), or, for a move that
        handles none of the last move's cells, until the core waits only for the next player's
        start (a reading the mover could still extend is final at that start)."""
        t0 = self.replayer.t
        if handles_its_pieces:
            self.replayer.settle()
        else:
            self.replayer.settle_for_the_next_player()
        if self.replayer.t > t0:
            self.add(f"sleep {self.replayer.t - t0}")

    def answer_for(self, moves: Sequence[Move]) -> None:
        """If the core is asking (now or once the board is still), wait for the question and
        choose the option with exactly these moves."""
        t0 = self.replayer.t
        self.replayer.settle_for_the_next_player()
        prompt = self.replayer.core.status.prompt
        if prompt is None:
            self.lag = max(0, self.replayer.t - t0 - self.style.think_ms)
            return
        for opt in prompt.options:
            if tuple(opt.moves) == tuple(moves):
                self.add(f"sleep {self.replayer.t - t0 + self.style.answer_ms}")
                self.add(f"choose {opt.key}")
                return
        raise ValueError(f"the core asks {prompt.question!r} without the intended move among the options")


def script_for_moves(variant: Variant, moves: Sequence[str], style: Style | None = None, *,
                     fen: str | None = None, timing: Timing | None = None) -> list[str]:
    """Script lines that play ``moves`` (move texts) from ``fen`` or the start position;
    ``ValueError`` if the script, replayed, does not give exactly these moves."""
    style = style or Style()
    lines = _write(variant, moves, style, fen, timing)
    commands = [c for n, line in enumerate(lines, 1) if (c := parse_line(line, n, variant)) is not None]
    start = parse_fen(variant, fen) if fen else start_position(variant)
    got = Replayer(start, identity=style.identity, timing=timing).run(commands)
    if got != list(moves):
        raise ValueError(f"the generated script replays as {got} instead of {list(moves)}")
    return lines


def _write(variant: Variant, moves: Sequence[str], style: Style, fen: str | None,
           timing: Timing | None) -> list[str]:
    pos = parse_fen(variant, fen) if fen else start_position(variant)
    writer = _Writer(pos, style, timing)
    for n, text in enumerate(moves):
        move = pos.parse_move(text)
        writer.add(f"# {n // variant.nsides + 1}{'.' if pos.side == 0 else '...'} {text}")
        # The players wait for the referee to take the last move when it waits longer than they
        # think (it may be the first half of a bigger move: the rook of a castling, the front
        # piece of a line pushed front first), and before they handle its pieces.
        core = writer.replayer.core
        handles = len(core.position.move_stack) < len(pos.move_stack) and bool(
            {c for c, _b, _a in move.changes} & {c for c, _b, _a in pos.move_stack[-1].changes})
        if writer.lag:
            writer.add(f"sleep {writer.lag + 10}")
        elif len(core.position.move_stack) < len(pos.move_stack) and (
                handles or (core.deadline or 0) - writer.replayer.t > core.timing.settle_ms):
            writer.wait_for_core(handles)
        writer.lag = 0
        for line in hand_steps(pos, move, style, n):
            writer.add(line)
        # In a quick game the next move's events follow at once; the clock only waits for the
        # core where it will ask.
        # A removal is always asked about (the referee never takes one from the board alone).
        if (style.think_ms or n == len(moves) - 1 or shape_of(move) == "removal"
                or writer.replayer.core.pending_kind in (PendingKind.AMBIGUOUS, PendingKind.REMOVAL)):
            writer.answer_for([move])
        pos.push(move)
    return writer.lines
