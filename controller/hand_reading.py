"""The rules that read what hands do on a board, on top of the signatures: the order of the
events (a piece arrives after it left), overlapping hands (a move plus the next player's hand on
a man), a reply on top of a reading, a man resting on a cell it crosses, a move half made. No
variant is special: everything comes from the engine's ``Move.changes`` and ``Move.relocations``
and the legal moves' index.

Each rule is a function named for the situation it reads, over ``Readings`` (what the hands
did), the ``Game`` the board is read against and the legal moves' index; none changes any of
them (a rule that looks at the replies to a move pushes it and pops it before it returns). The
referee (``controller.inference``, ``controller.judging``) calls them and acts on the answer.
``replies`` is the referee's index of the legal moves after a reading's move (built once per
reading, with the move pushed)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations

from engine import Move, Position, Variant

from .core_types import Back, Fix, Game
from .hand_rules import between, lifted_with_no_move, takes_only
from .readings import Readings
from .signatures import MoveIndex, Shape, Sig, seen

#: The legal moves after a reading's move (called with that move pushed).
Replies = Callable[[Shape], MoveIndex]


def unseen_done(hands: Readings, game: Game, seqs: list[tuple[Move, ...]]) -> bool:
    """On a board that scans slower than ``settle_ms``, a piece that stood for less than one
    scan is never seen (a pawn taken back at once by a quick recapture): a board that reads
    like pieces still in the hand is rather that one sequence made, when the latest event put
    down the piece its last move brings to that cell."""
    if game.timing.scan_ms <= game.timing.settle_ms or len(seqs) != 1 or not hands.placed:
        return False
    last = seqs[0][-1]
    return any(c == hands.latest and a and hands.observed[c] == seen(a, game.identity)
               for c, _b, a in last.changes)


def half_made(hands: Readings, game: Game, index: MoveIndex) -> bool:
    """The differences are pieces lifted (in the hand) or put where some legal move puts them:
    the player is half-way through that move -- with, maybe, pieces of the other sides lifted
    as well (the next player's hand already on its piece)."""
    expected = hands.expected
    board = game.position.board
    side = game.position.side
    side_of = game.variant.side_of
    diff = list(hands.diff.items())
    # Pieces put down minus pieces lifted (a new code on an occupied cell of an identity
    # board is neither).
    placed = sum(1 for c, v in diff if v and not expected[c]) - sum(1 for c, v in diff if not v and expected[c])
    if _partial_of_a_move(hands, index, diff, placed):
        return True
    mine = [(c, v) for c, v in diff if not (v == 0 and expected[c] and side_of(board[c]) != side)]
    return bool(mine) and len(mine) < len(diff) and _partial_of_a_move(hands, index, mine, placed)


def _partial_of_a_move(hands: Readings, index: MoveIndex, items: list[tuple[int, int]], placed: int) -> bool:
    # Cells emptied and refilled meanwhile must be the move's too (a victim's cell): a
    # piece put on a cell no legal move of the lifted piece reaches is no move under way.
    refilled = hands.refilled - hands.diff.keys()
    for shapes in index.by_sig.values():
        for s in shapes:
            cells = s.cells
            if (placed <= s.imports and all(c in cells and (v == 0 or (c, v) in s.sig) for c, v in items)
                    and refilled <= cells):
                return True
    return False


def crossed_cells(variant: Variant, index: MoveIndex, move: Move) -> frozenset[int]:
    """Cells strictly between the ends of the pieces carried by the legal moves of several
    pieces that involve every cell of ``move`` (``MoveIndex.bigger_moves``)."""
    return frozenset(c for big in index.bigger_moves(move) for a, b in big.relocations
                     for c in between(variant, a, b))


def resting_on_the_way(hands: Readings, game: Game, index: MoveIndex) -> bool:
    """The piece just put down rests on a cell strictly between the two ends of one of the
    pieces some legal move of several pieces carries (a swap), and the rest of the
    differences are that move's pieces lifted or already where it puts them: the piece is
    being dragged along its way. (A move of one piece resting on its way is a legal move
    itself: ``MoveIndex.drag_cells``.)"""
    cell = hands.latest
    value = hands.diff.get(cell)
    if not hands.placed or not value:
        return False
    board = game.position.board
    side, side_of = game.position.side, game.variant.side_of
    # (Pieces of the other sides lifted meanwhile are the next player's hand: at most the two
    # men of a swap. More are men a move of the mover's takes, and no swap is under way.)
    theirs = {c for c, v in hands.diff.items() if v == 0 and board[c] and side_of(board[c]) != side}
    if len(theirs) > 2:
        return False
    others = [(c, v) for c, v in hands.diff.items() if c != cell and c not in theirs]
    for shapes in index.by_sig.values():
        for s in shapes:
            if (len(s.move.relocations) < 2 or cell in s.cells
                    or not all(c in s.cells and (v == 0 or (c, v) in s.sig) for c, v in others)):
                continue
            for a, b in s.move.relocations:
                if (a != b and seen(board[a], game.identity, game.look) == value
                        and cell in between(game.variant, a, b)):
                    return True
    return False


def lifted_next_on_the_line(hands: Readings, game: Game, drag: frozenset[int], move: Move) -> bool:
    """The man just lifted stands further along the line of one of ``move``'s pieces, on a cell
    that piece may still go on to (``drag``: ``MoveIndex.drag_cells``): the mover lifting the
    victim before sliding on to take it (a charge resting next to its victim reads as a complete
    shorter charge that takes it)."""
    cell = hands.latest
    return (not hands.placed and cell in drag
            and any(d in between(game.variant, s, cell) for s, d in move.relocations if s != d))


def silent_then_reply(hands: Readings, game: Game, replies: Replies, shapes: list[Shape], silent: Shape,
                      since: int) -> bool:
    """The moves matched leave cells of the silent reading handled that they do not involve,
    and the board is that reading followed by a legal reply."""
    touched = hands.touched
    return (all(s is not silent and (touched - s.cells) & silent.cells for s in shapes)
            and reply_on_top(hands, game, replies, silent, since))


def victims_left(hands: Readings, index: MoveIndex) -> tuple[Move, tuple[int, ...]] | None:
    """The legal move the board shows but for men it takes that still stand (``Move.victims``),
    and those cells; None unless exactly one set of cells is left (the move shown first)."""
    items = set(hands.diff.items())
    if not any(v for _c, v in items):
        return None  # nothing put down yet: no move to name
    found: list[tuple[Move, tuple[int, ...]]] = []
    for shapes in index.by_sig.values():
        for s in shapes:
            if not items <= s.sig or not s.hidden <= hands.touched:
                continue
            rest = s.sig - items
            victims = s.move.victims
            if rest and all(v == 0 and c in victims for c, v in rest):
                found.append((s.move, tuple(sorted(c for c, _v in rest))))
    if not found or len({cells for _m, cells in found}) > 1:
        return None
    return found[0]


def in_order(hands: Readings, game: Game, shape: Shape) -> bool:
    """A piece arrives after it left: for each piece the move carries from a cell that is
    empty now, the latest event on its destination (a placement) came after that cell's
    lift. (A victim put back before the attacker was lifted is not where the attacker went.)"""
    return not arrived_first(hands, game, shape)


def arrived_first(hands: Readings, game: Game, shape: Shape) -> list[int]:
    """The destinations of ``shape``'s pieces whose latest event came before the lift of
    the cell the piece leaves (see ``in_order``)."""
    observed = hands.observed
    cell_t = hands.cell_t
    scan = game.timing.scan_ms
    move = shape.move
    sources = {s for s, d in move.relocations if s != d}
    relocs = set(move.relocations)
    early = []
    for s, d in move.relocations:
        if s != d and (d, s) in relocs and _refilled_first(hands, scan, d, s):
            # Two men changing cells (a swap): both cells are empty at some moment, so the
            # man now on ``d`` came after ``s`` was first lifted. A cell lifted and put back
            # before that was handled, not swapped.
            early.append(d)
            continue
        # (Not along a pushed line: a shoved line flickers in any order.)
        if s != d and d not in sources and not observed[s] and s in cell_t and d in cell_t and (
                hands.before(d, s, scan) or _left_a_crossed_cell_after(hands, game, s, d)):
            before = next(b for c, b, _a in move.changes if c == s)
            after = next(a for c, _b, a in move.changes if c == d)
            if before == after:  # (a promotion's new piece may go down before the pawn is off)
                early.append(d)
    return early


def _left_a_crossed_cell_after(hands: Readings, game: Game, s: int, d: int) -> bool:
    """A slider rests on the cells it crosses: when a cell strictly between ``s`` and ``d``
    was last lifted after ``s`` was, and after ``d``'s latest event, the piece now on ``d``
    did not come from there (a man on ``d`` merely lifted and put back while the slider
    rested on its way, then the slider lifted: no capture on ``d``)."""
    lifted = hands.lifted_t.get(s)
    if lifted is None:
        return False
    observed, cell_t, board = hands.observed, hands.cell_t, game.position.board
    # (Cells empty in the game: a man lifted on the way is a victim, as in a charge.)
    scan = game.timing.scan_ms
    return any(not board[c] and not observed[c] and c in cell_t and cell_t[c] > lifted
               and hands.before(d, c, scan) for c in between(game.variant, s, d))


def _refilled_first(hands: Readings, scan_ms: int, d: int, s: int) -> bool:
    """Whether the latest event on cell ``d`` came before the first lift of cell ``s`` since
    the last final move (by more than a scan on a board that scans its squares in turn)."""
    lifted = hands.lifted_t.get(s)
    if lifted is None or d not in hands.cell_t:
        return False
    return hands.cell_t[d] < lifted - scan_ms


def placed_early(hands: Readings, game: Game, index: MoveIndex) -> list[Shape]:
    """The one legal move the board shows whose pieces were reported put down before they
    were lifted, each on a cell whose reading shows it (not a victim's cell touched: that
    is no arrival), or nothing. Two boards that each report on their own, or a board that
    scans its squares in turn, may report a move's placement before its lift."""
    shapes = index.match(hands.sig(), hands.touched)
    if len(shapes) != 1:
        return []
    visible = {c for c, _v in shapes[0].sig}
    early = arrived_first(hands, game, shapes[0])
    return shapes if early and visible.issuperset(early) else []


def same_result(hands: Readings, position: Position, shapes: list[Shape]) -> list[Shape]:
    """On an identity board the pieces read are the position: moves that lead to the very
    same position (a Mathematichess king swapping with his queen, and her substituting him)
    need no question. The record names the move of the piece lifted first."""
    results = set()
    for s in shapes:
        position.push(s.move)
        results.add(position.fen())
        position.pop()
    if len(results) > 1:
        return shapes
    lifted_t = hands.lifted_t

    def first_lift(s: Shape) -> int:
        return lifted_t.get(s.move.frm, 1 << 62)  # (the moving piece's cell; a swap moves two)

    return [min(shapes, key=first_lift)]


def handled_again(hands: Readings, game: Game, shape: Shape, since: int) -> set[int]:
    """Cells of ``shape``'s move handled since the board first showed it, later than a
    bounce (``settle_ms``)."""
    cell_t = hands.cell_t
    return {c for c in hands.since(since) & shape.cells if cell_t[c] - since >= game.timing.settle_ms}


def reply_on_top(hands: Readings, game: Game, replies: Replies, shape: Shape, since: int,
                 needs: frozenset[int] | set[int] = frozenset()) -> bool:
    """Whether the board is ``shape``'s move followed by a complete legal reply (handled
    after the board first showed the move), give or take pieces lifted again; the reply
    must involve the cells ``needs``. A man of the mover's lifted more than a scan before the
    board showed the move (``since``) is no piece lifted again: the mover had it off its cell
    while making the move, so did more than that move (a flurry of four: d5xd8, e8xd8, d1-b1,
    c6xe5 read as d1b1 and c6xe5 with the rook on d5 lifted)."""
    pos = game.position
    mover = pos.side
    before = pos.board
    off_early = {c for c, t in hands.lifted_t.items()
                 if before[c] and game.variant.side_of(before[c]) == mover and t < since - game.timing.scan_ms}
    with pos.after(shape.move):
        board = pos.board
        cells = set(hands.diff) | shape.cells
        sig = frozenset((c, hands.observed[c]) for c in cells
                        if hands.observed[c] != seen(board[c], game.identity, game.look))
        if not sig:
            return False
        index = replies(shape)
        # The move's own cells handled within settle_ms of it: a bounce, not the reply.
        touched = (hands.since(since) - shape.cells) | handled_again(hands, game, shape, since)
        lifts = [(c, v) for c, v in sig if v == 0 and board[c]]
        for r in range(0, min(len(lifts), 4) + 1):
            for chosen in combinations(lifts, r):
                rest = {c for c, _v in chosen}
                if rest & off_early:
                    continue
                if any(not rest & s.cells and needs <= s.cells
                       for s in index.match(sig - frozenset(chosen), touched)):
                    return True
        return False


@dataclass(frozen=True, slots=True)
class Peeled:
    """The board read as one complete legal move plus the next player's hand on men elsewhere
    (``overlapping_hands``)."""

    #: The cells of the men the next player's hand has lifted: no part of the move.
    lifted: frozenset[int]
    #: The move's readings.
    shapes: tuple[Shape, ...]


def overlapping_hands(hands: Readings, game: Game, index: MoveIndex, sig: Sig) -> Peeled | None:
    """The board is one complete legal move of the side to move plus pieces lifted elsewhere
    (the next player's hand already on its piece): those cells and the move's shapes, when
    exactly one such reading exists and the lifted cells are none the move could still go on
    to (a victim a dragged rook is about to take). ("Peeling" the next player's hand off.)"""
    expected = hands.expected
    lifts = [(c, v) for c, v in hands.diff.items() if v == 0 and expected[c]]
    if not lifts or len(lifts) > 12:
        return None
    # A charge or a chain lifts many men of one move: then the next player's hand holds at
    # most two of the lifted pieces (a swap's two men), which keeps the subsets few.
    most = len(lifts) if len(lifts) <= 6 else 2
    found: list[tuple[frozenset[int], list[Shape]]] = []
    for r in range(1, most + 1):
        for chosen in combinations(lifts, r):
            msig = sig - frozenset(chosen)
            rest = frozenset(c for c, _v in chosen)
            shapes = [s for s in index.match(msig, hands.touched) if not rest & s.cells and in_order(hands, game, s)]
            if shapes:
                found.append((rest, shapes))
    if len(found) > 1:
        # Which reading leaves the lifted pieces where the next player's hand can be: on
        # pieces some legal reply moves or takes (a lifted piece no reply touches is no
        # reply's doing).
        found = [(rest, shapes) for rest, shapes in found if rest <= reply_reach(game.position, shapes[0].move)]
    if len(found) != 1:
        return None
    rest, shapes = found[0]
    if (not game.identity and not game.timing.scans_in_turn()
            and lifted_with_no_move(hands, game.position, shapes[0].move, rest)):
        return None
    touched = hands.touched - rest
    own = [hands.cell_t.get(c, 0) for c in shapes[0].cells]
    done = max(own) if own else 0
    if any(hands.cell_t.get(c, 0) > done and hands.observed[c] for c in touched - shapes[0].cells):
        return None  # a piece put down elsewhere since: a reply under way, or done (``explain``)
    for s in shapes:
        if takes_only(s.move):
            return None
        # (A silent move has no signature to extend: see ``Judging._set_match``.)
        ext = index.extension_cells(s.sig, touched & s.cells) if s.sig else frozenset()
        ext |= index.continuation_cells(s.move, touched)
        drag = index.drag_cells(s.move)
        if rest & (ext | drag | index.bigger_cells(s.move)):
            if len(shapes) == 1 and not (rest & (ext | index.bigger_cells(s.move))):
                # The lifted piece may be the victim the mover's piece slides on to, or the
                # next player's: both readings stand, and the next event decides. Shown as
                # the reading with the lifted man aside, final only at the clock button, an
                # event no extension explains or ``hesitate_ms`` of quiet; if the next player
                # completes a move on top of it, it was the move (``reply_on_top``; on an
                # occupancy board a piece put down further along the line once the mover's
                # piece has left its cell is rather that slide going on: ``hand_rules.slid_on_further``).
                return Peeled(rest, tuple(shapes))
            return None
        # A piece the mover's piece could take, lifted before the mover's piece left: the
        # mover's own victim first (not the next player's hand). When the piece left is its
        # first lift: a swap refills the cells it leaves, so their latest event is no lift.
        left = [hands.lifted_t.get(a, hands.cell_t[a]) for a, b in s.move.relocations
                if a != b and a in hands.cell_t]
        if left and any(hands.cell_t.get(c, 0) < min(left) for c in rest & index.source_cells(s.move)):
            return None
    return Peeled(rest, tuple(shapes))


def reply_reach(position: Position, move: Move) -> frozenset[int]:
    """Cells whose piece some legal reply to ``move`` moves or takes."""
    with position.after(move):
        return frozenset(c for m in position.legal_moves() for c, before, _a in m.changes if before)


def takeback_match(hands: Readings, game: Game, backs: list[Back]) -> Back | None:
    """The earlier position of ``backs`` the board shows now, if any (hidden cells must be
    touched)."""
    board = game.position.board
    for back in backs:
        codes = back.codes
        if not set(hands.diff) <= codes.keys():
            continue
        ok = True
        for c, code in codes.items():
            s = seen(code, game.identity, game.look)
            if hands.observed[c] != s:
                ok = False
                break
            if code != board[c] and s == hands.expected[c] and c not in hands.touched:
                ok = False
                break
        if ok:
            return back
    return None


def fixes(hands: Readings, position: Position, wrong: bool = False) -> tuple[Fix, ...]:
    """Every cell to put right with what belongs there. On a wrong board this includes cells
    an occupancy board reads as right but where another piece may stand: emptied and
    refilled while a piece was off its cell (the victim of an illegal capture)."""
    board = position.board
    cells = dict(hands.diff)
    if wrong:
        for c in hands.refilled:
            cells.setdefault(c, hands.observed[c])
    return tuple(Fix(c, board[c], v) for c, v in sorted(cells.items()))
