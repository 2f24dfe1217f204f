"""Mathematichess on a physical board, through the decision core: pushes of whole lines, king
swaps and queen substitutions as lift/place events in the orders hands make them, terminators
told apart from a piece held in the hand, and whole seeded games replayed move for move.

Positions come from a seeded random placement (``placement_game``): 162 pieces, 7 empty cells,
white to move, both terminators still available -- the hardest case, since any lifted piece may
be a terminator."""

from __future__ import annotations

import pytest

import engine
from controller.core_types import PendingKind, PromptKind, StatusKind
from controller.event_scripts import Style, hand_steps, placement_game, script_for_moves, shape_of
from controller.inference import Timing
from controller.replay import Replayer
from controller.signatures import Shape
from engine import Move, Position
from engine.components.placement import Placement
from engine.components.terminator import Terminator
from engine.components.territory import TerritoryRules
from firmware_bridge.script import parse_script

MATH = engine.find_variant("mathematichess")
NAMES = MATH.geometry.names
T = Timing()
GAME = placement_game(MATH, seed=5, board_plies=4)  # 162 placements, both terminators, 4 moves


def position_after(plies: int) -> Position:
    pos = engine.start_position(MATH)
    for text in GAME[:plies]:
        pos.push_text(text)
    return pos


PLACED = position_after(162).fen()          # stage two begins; both terminators still to play
TERMINATED = position_after(164).fen()      # ... and after both terminators
MOVED = position_after(165).fen()           # ... and a move after that (black to move)


def replay(fen: str, script: str, identity: bool = False, settle: bool = True) -> Replayer:
    r = Replayer(engine.parse_fen(MATH, fen), identity=identity)
    for command in parse_script(script, MATH):
        r.feed(command)
    if settle:
        r.settle()
    return r


def twins(pos: Position, move: Move, identity: bool = False) -> list[Move]:
    """Other legal moves the sensors cannot tell from ``move`` once its cells were handled."""
    shape = Shape(move, identity)
    return [m for m in pos.legal_moves() if m != move and (s := Shape(m, identity)).sig == shape.sig
            and s.hidden <= shape.cells]


def expect(fen: str, script: str, move: Move, identity: bool = False) -> None:
    """The script is recorded as ``move``, asking only when another legal move leaves the same
    readings (then the player picks it on the display)."""
    pos = engine.parse_fen(MATH, fen)
    text = pos.move_text(move)
    r = replay(fen, script, identity)
    prompt = r.core.status.prompt
    if twins(pos, move, identity):
        assert prompt is not None and prompt.kind == PromptKind.WHICH_MOVE, (text, r.core.status)
        assert r.texts() == []
        (choice,) = [o for o in prompt.options if o.moves == (move,)]
        r.feed(parse_script(f"choose {choice.key}", MATH)[0])
    else:
        assert prompt is None, (text, script, r.core.status)
    assert r.texts() == [text], script
    assert r.core.status.kind == StatusKind.IDLE


# -- pushes ---------------------------------------------------------------------------------------
def push_script(move: Move, order: str, pause: int = 300) -> str:
    """The hands pushing a line: ``back`` (the pusher first, each piece lifted before the one
    behind it lands on its cell), ``front`` (the front piece into the empty cell first, then each
    next one into the cell just freed), ``shove`` (the whole line slid at once: every cell
    flickers, in no particular order but quickly)."""
    relocs = list(move.relocations)  # pusher -> t1, t1 -> t2, ..., tn -> empty cell
    lines: list[str] = []
    if order == "back":
        lines.append(f"lift {NAMES[relocs[0][0]]}")
        for _src, dst in relocs:
            if dst != relocs[-1][1]:
                lines.append(f"lift {NAMES[dst]}")
            lines += [f"sleep {pause}", f"place {NAMES[dst]}"]
    elif order == "front":
        for src, dst in reversed(relocs):
            lines += [f"lift {NAMES[src]}", f"sleep {pause}", f"place {NAMES[dst]}", f"sleep {pause}"]
    else:
        lines.append(f"place {NAMES[relocs[-1][1]]}")
        for src, _dst in reversed(relocs[1:]):
            lines += [f"lift {NAMES[src]}", f"place {NAMES[src]}"]
        lines.append(f"lift {NAMES[relocs[0][0]]}")
    return "\n".join(lines)


def pushes(fen: str) -> list[Move]:
    pos = engine.parse_fen(MATH, fen)
    return [m for m in pos.legal_moves() if shape_of(m) == "line"]


@pytest.mark.parametrize("fen", [PLACED, TERMINATED], ids=["terminators-open", "terminators-played"])
@pytest.mark.parametrize("order", ["back", "front", "shove"])
def test_every_push_of_a_line_is_recognised_in_each_hand_order(fen: str, order: str) -> None:
    moves = pushes(fen)
    assert len(moves) >= 10 and max(len(m.changes) for m in moves) >= 6  # lines of five pieces and more
    for move in moves:
        expect(fen, push_script(move, order), move)


def test_a_push_held_long_on_its_first_step_is_still_recorded_as_the_push() -> None:
    """Front first, the first piece's step is often a legal move by itself; the referee waits
    (``prefix_ms``) while the hand goes on along the line, also through pauses longer than
    ``guide_ms`` (half-way through the push, the board also reads as that step and the
    opponent pushing the rest of the line: it asks rather than guesses, and the hand going on
    closes the question)."""
    pos = engine.parse_fen(MATH, MOVED)
    moves = [m for m in pushes(MOVED) if len(m.changes) >= 4 and any(
        o.relocations == (m.relocations[-1],) for o in pos.legal_moves() if shape_of(o) == "step")]
    assert moves
    for move in moves:
        for pause in (T.settle_ms * 3, T.prefix_ms // 2, T.prefix_ms - 100):
            expect(MOVED, push_script(move, "front", pause), move)


def test_push_on_an_identity_board() -> None:
    for move in pushes(PLACED)[:8]:
        _src, dst = move.relocations[-1]
        script = push_script(move, "front").replace(f"place {NAMES[dst]}",
                                                    f"place {NAMES[dst]} {MATH.symbol(move.changes[-1][2])}")
        # Every placement names the piece that lands there.
        after = {c: a for c, _b, a in move.changes}
        script = "\n".join(f"{line} {MATH.symbol(after[MATH.geometry.index(line.split()[1])])}"
                           if line.startswith("place") and len(line.split()) == 2 else line
                           for line in script.splitlines())
        expect(PLACED, script, move, identity=True)


# -- swaps: king and queen -----------------------------------------------------------------------------
def swaps(fen: str, letter: str) -> list[Move]:
    pos = engine.parse_fen(MATH, fen)
    code = MATH.parse_symbol(letter)
    return [m for m in pos.legal_moves() if m.piece == code and shape_of(m) == "swap"]


def swap_script(move: Move, mover_first: bool, pause: int = 250) -> str:
    """Both pieces lifted, then put back exchanged: on an occupancy board lift, lift, place,
    place on the two cells, and the board reads as before."""
    a, b = move.frm, move.to
    if not mover_first:
        a, b = b, a
    return f"lift {NAMES[a]}\nlift {NAMES[b]}\nsleep {pause}\nplace {NAMES[a]}\nsleep {pause}\nplace {NAMES[b]}"


@pytest.mark.parametrize("letter", ["K", "Q"], ids=["king-swap", "queen-substitution"])
@pytest.mark.parametrize("fen", [PLACED, TERMINATED], ids=["terminators-open", "terminators-played"])
def test_every_swap_is_recognised_and_asked_only_when_two_moves_look_alike(letter: str, fen: str) -> None:
    moves = swaps(fen, letter)
    assert moves
    if letter == "Q":  # substitutions across the board, jumping over pieces
        assert max(max(abs(x - y) for x, y in zip(MATH.geometry.coords[m.frm], MATH.geometry.coords[m.to],
                                                   strict=True)) for m in moves) >= 3
    for move in moves:
        for mover_first in (True, False):
            expect(fen, swap_script(move, mover_first), move)


def test_swap_asks_when_a_king_and_a_queen_could_each_have_moved() -> None:
    """A white king next to a white queen: the king swapping with her and her substituting the
    king leave the same board; an occupancy board cannot tell them apart, so the display asks."""
    pos = engine.parse_fen(MATH, PLACED)
    g = MATH.geometry
    empty = next(c for c, code in enumerate(pos.board) if not code and g.coords[c][0] < 12 and g.coords[c][1] < 12)
    x, y = g.coords[empty]
    a, b = g.coords.index((x + 1, y)), g.coords.index((x, y + 1))  # both next to the empty cell
    board = list(pos.board)
    for cell, letter in ((a, "K"), (b, "Q")):  # exchange pieces: the counts stay right
        other = board.index(MATH.parse_symbol(letter))
        board[other], board[cell] = board[cell], board[other]
    pos.board[:] = board
    fen = pos.fen()
    pos = engine.parse_fen(MATH, fen)
    move = pos.parse_move(f"{g.names[a]}{g.names[b]}")
    assert [pos.move_text(m) for m in twins(pos, move)] == [f"{g.names[b]}{g.names[a]}"]
    r = replay(fen, swap_script(move, True))
    prompt = r.core.status.prompt
    assert prompt is not None and r.core.status.message == "Which move did you make?"
    texts = sorted(" ".join(o.texts) for o in prompt.options)
    assert texts == sorted([pos.move_text(move), *(pos.move_text(m) for m in twins(pos, move))])
    # An identity board reads which piece stands where, which is the whole position: both moves
    # lead to it, so no question; the record names the move of the piece lifted first.
    after = {c: a for c, _b, a in move.changes}
    for mover_first in (True, False):
        script = "\n".join(f"{line} {MATH.symbol(after[MATH.geometry.index(line.split()[1])])}"
                           if line.startswith("place") else line
                           for line in swap_script(move, mover_first).splitlines())
        r = replay(fen, script, identity=True)
        assert all(d.status.prompt is None for _t, d in r.log.decisions)
        first = move if mover_first else twins(pos, move)[0]
        assert r.texts() == [pos.move_text(first)]


def test_a_swap_held_with_both_pieces_in_the_hand_is_not_two_terminators() -> None:
    move = swaps(PLACED, "K")[0]
    r = replay(PLACED, swap_script(move, True, pause=3000))
    assert r.texts() == [engine.parse_fen(MATH, PLACED).move_text(move)]
    assert not any(d.accepted and d.accepted[0].tag == "remove" for _t, d in r.log.decisions)


# -- terminators --------------------------------------------------------------------------------------
def white_piece(fen: str) -> str:
    pos = engine.parse_fen(MATH, fen)
    return NAMES[next(c for c, code in enumerate(pos.board) if code and MATH.side_of(code) == 0)]


def test_a_lifted_piece_is_asked_about_never_taken_as_the_terminator_by_itself() -> None:
    cell = white_piece(PLACED)
    pos = engine.parse_fen(MATH, PLACED)
    r = replay(PLACED, f"lift {cell}\nsleep {T.prefix_ms - 100}", settle=False)
    assert r.core.status.kind == StatusKind.MOVING and r.core.pending_kind == PendingKind.REMOVAL  # a piece in the hand
    r = replay(PLACED, f"lift {cell}\nsleep 10000")
    prompt = r.core.status.prompt
    assert prompt is not None and prompt.kind == PromptKind.REMOVAL
    name = f"white {MATH.kinds[MATH.kind_of(pos.board[MATH.geometry.index(cell)])].name}"
    assert r.core.status.message == f"Take the {name} on {cell} off for good (x{cell})?"
    assert [o.key for o in prompt.options] == ["yes", "no"]
    assert r.texts() == []
    r.feed(parse_script("choose yes", MATH)[0])
    assert r.texts() == [f"x{cell}"]
    assert MATH.rules.get(Terminator).used(r.core.position, 0)


def test_still_moving_keeps_waiting_for_the_piece() -> None:
    pos = engine.parse_fen(MATH, PLACED)
    step = next(m for m in pos.legal_moves() if shape_of(m) == "step")
    frm, to = NAMES[step.frm], NAMES[step.to]
    r = replay(PLACED, f"lift {frm}\nsleep 2000\nchoose no\nsleep 10000")
    assert r.core.status.prompt is None and r.core.status.kind == StatusKind.MOVING  # not asked again
    assert r.core.deadline is None
    r.feed(parse_script(f"place {to}", MATH)[0])
    r.settle()
    assert r.texts() == [pos.move_text(step)]


def test_a_piece_lifted_during_placement_and_put_back_is_nothing() -> None:
    fen = position_after(20).fen()
    cell = white_piece(fen)
    r = replay(fen, f"lift {cell}\nsleep 2000")
    assert r.core.status.prompt is not None and r.core.status.prompt.kind == PromptKind.REMOVAL
    r.feed(parse_script(f"place {cell}", MATH)[0])
    r.settle()
    assert r.texts() == [] and r.core.status.kind == StatusKind.IDLE


def test_terminator_then_the_opponents_move_confirms_it() -> None:
    """The player took a piece off and did not confirm; the opponent moved: both moves stand."""
    pos = engine.parse_fen(MATH, PLACED)
    cell = white_piece(PLACED)
    pos.push_text(f"x{cell}")
    reply = next(m for m in pos.legal_moves() if shape_of(m) == "step" and NAMES[m.frm] != cell)
    r = replay(PLACED, f"lift {cell}\nsleep 500\nlift {NAMES[reply.frm]}\nplace {NAMES[reply.to]}\nsleep 3000")
    assert r.texts() == [f"x{cell}", pos.move_text(reply)]


# -- a reply while the last move is still being taken ----------------------------------------------
@pytest.mark.parametrize(("seed", "first", "identity", "pause"), [
    # Black pushes a line front first into the cell white's move just left: half-way, the board
    # reads exactly as white correcting that move to another; the referee waits for the hands.
    (2, "g3f4", False, 60),
    # White's step is the front of a longer push, so the referee waits; black swaps two pieces
    # on that line meanwhile: a silent move, told only by the cells handled.
    (6, "c7b8", False, 60),
    # The same as the first, read by an identity board (new codes on occupied cells are
    # neither lifts nor placements), once white's step is final (it may be the front of a
    # longer push: final when the hand has let go).
    (22, "a11a12", True, T.hesitate_ms + 100),
], ids=["push-into-the-cell-just-left", "swap-while-a-push-waits", "identity-push-into-the-cell-just-left"])
def test_the_next_move_made_at_once_is_read_as_the_next_move(seed: int, first: str, identity: bool,
                                                             pause: int) -> None:
    moves = placement_game(MATH, seed=seed, board_plies=100)
    k = moves.index(first, 164)
    pos = engine.start_position(MATH)
    for text in moves[:k]:
        pos.push_text(text)
    fen = pos.fen()
    style = Style(think_ms=0, hand_ms=30, castle="rook", identity=identity)  # lines front first
    lines: list[str] = []
    for text in moves[k:k + 2]:
        move = pos.parse_move(text)
        lines += [*hand_steps(pos, move, style, 1), f"sleep {pause}"]
        pos.push(move)
    r = replay(fen, "\n".join(lines), identity=identity)
    assert r.texts() == moves[k:k + 2]
    assert r.core.status.kind == StatusKind.IDLE


# -- whole games --------------------------------------------------------------------------------------
@pytest.mark.parametrize("style", [
    Style(think_ms=60, hand_ms=30, castle="alternate", answer_ms=20),
    Style(think_ms=0, hand_ms=30, castle="rook", answer_ms=20),
    Style(think_ms=120, hand_ms=80, castle="alternate", identity=True),
], ids=["occupancy", "occupancy-quick-front-first", "identity"])
def test_a_whole_seeded_game_replays_move_for_move(style: Style) -> None:
    moves = placement_game(MATH, seed=2, board_plies=45)
    shapes = []
    choices = 0  # placements with more than one kind in hand: the occupancy board must ask
    pos = engine.start_position(MATH)
    for text in moves:
        move = pos.parse_move(text)
        shapes.append(shape_of(move))
        choices += shape_of(move) == "drop" and len(MATH.rules.get(Placement).remaining(pos, pos.side)) > 1
        pos.push(move)
    assert shapes.count("drop") == 162 and shapes.count("removal") == 2
    assert min(shapes.count(s) for s in ("line", "swap", "step")) >= 12
    lines = script_for_moves(MATH, moves, style)  # raises unless the replay gives exactly these moves
    r = Replayer(engine.start_position(MATH), identity=style.identity)
    assert r.run(parse_script("\n".join(lines), MATH)) == moves
    asked = [line.split()[1] for line in lines if line.startswith("choose")]
    if style.identity:
        assert asked == ["yes", "yes"]  # only the two terminators
    else:
        assert choices > 150 and len([a for a in asked if a in "KQTRBNGPF"]) == choices
        assert asked.count("yes") == 2
    territory = MATH.rules.get(TerritoryRules)
    assert territory.score(r.core.position).totals == territory.score(pos).totals
