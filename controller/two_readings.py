"""Boards that fit two readings on a board that scans its squares in turn (a DGT board), where
the referee must not take one of them as final before an event decides (issue 23: "where an
event fits both, keep both readings and let the next event decide; a final move is never taken
back").

Such a board reports a square when its scan reaches it (a full scan 200-250 ms): a change
reported within one scan of another may have been made before or after it, and a man that
stood on a square for less than a scan is never reported there. Two such cases, read from the
engine's moves alone (no variant is special):

- ``taken_unseen``: moves worked out together in which a man is put on an empty square and a
  later move takes it there, although the board never showed it there, when the board reads
  as well with that man still in a hand (or lifted as a victim to be): c4e6 f5xe6 g2g4 for
  g2g4 f5e6 and White's bishop on its way to d3; h3h4 h5xh4 c2xc3 for c2xc3 and Black's rook
  resting on h4 on its way to take on h3. Where the man lands decides; until the hands let go
  (``hesitate_ms``) such a sequence is not taken. A pawn taken back at once (e4e5 d6xe5) has no
  other reading, and is read at once as before.
- ``next_move_too``: a reading held for the next player's hand (``scan_guard``) whose piece then
  goes on, reported within a scan of the next player's first event, either way: the piece went
  on before the next player started (the reading's going on, as read so far), or the reading
  was the move and the going on is the mover's next move, made on top of the reply. When that reading also fits
  (its moves begin in turn, and each puts its pieces down after the move before it did: a move
  is not put down before the one before it is complete), nothing on the board tells them
  apart (on an identity board both are the same man), so the players are asked.
"""

from __future__ import annotations

from collections.abc import Callable

from engine import Move, Position

from .core_types import SCAN_MARGIN_MS
from .hand_rules import between
from .readings import Readings
from .scan_guard import began, in_turn
from .signatures import Budget, MoveIndex, diff_sig, explain, looks, seen

#: Moves the searches of one board that fits two readings may try together (``next_move_too``).
SEARCH_NODES = 40_000


def taken_unseen(hands: Readings, position: Position, identity: bool, scan_ms: int, seq: tuple[Move, ...]) -> bool:
    """Whether ``seq`` puts a man on a cell empty in the game whose lift the board never
    reported (so never showed the man there) and a later move of ``seq`` takes it there, while
    the board reads as well, in fewer moves, with that man back on its first cell (in a hand,
    or lifted as a victim to be)."""
    firsts = {s for s, _d in _put_and_taken_unseen(hands, position, seq, loose=False)}
    return any(_read_without(hands, position, identity, scan_ms, s, len(seq) - 1) for s in firsts)


def landing_unseen_until(hands: Readings, position: Position, identity: bool, scan_ms: int,
                         seq: tuple[Move, ...]) -> int | None:
    """Until when ``seq``, which puts a man on a cell empty in the game where the board never
    showed it and takes it there, may as well be that man still in the hand on its way to
    another empty cell the board has not reported, the rest of the board one move of the next
    player's, its piece resting on its way (seed 3009: g2g4 e6xg4 for g2-g3 in the hand and
    Black's bishop resting on g4 on its way to h3, the pawn's landing reported 27 ms later;
    seed 5006: f6d5 d4xd5 for Nf6-g4 and White's rook resting on d5). The next player does not
    put a piece down before the move it answers is complete, so that man landed before the
    taker's piece was put down, and the board reports its landing within a scan of that: one
    scan (and ``SCAN_MARGIN_MS``) after the taker's report. None when no such reading fits."""
    until = [hands.cell_t[d] + scan_ms + SCAN_MARGIN_MS
             for s, d in _put_and_taken_unseen(hands, position, seq, loose=True)
             if d in hands.cell_t and _landing_unseen(hands, position, identity, s, seq)]
    return max(until, default=None)


def puts_and_takes_unseen(hands: Readings, position: Position, identity: bool, scan_ms: int,
                          seq: tuple[Move, ...], board: list[int]) -> bool:
    """Whether ``seq`` puts a man where the board never showed it and a later move of ``seq``
    takes it there (``_put_and_taken_unseen``, loose), while ``board`` (the board as observed,
    maybe with a man put back in thought) reads as well with that man in a hand: back on its
    first cell, the rest in fewer moves, or on its way to an empty cell the board has not
    reported, the rest one move (g2g4 e6xg4 for g2-g3 in the hand and Black's bishop resting on
    g4, seed 3009). With no such reading it is the move (f2f4 e5xf4, White's knight already
    lifted for its next move: seed 5003)."""
    return any(_read_without(hands, position, identity, scan_ms, s, len(seq) - 1, board)
               or _landing_unseen(hands, position, identity, s, seq, board)
               for s, _d in _put_and_taken_unseen(hands, position, seq, loose=True))


def _put_and_taken_unseen(hands: Readings, position: Position, seq: tuple[Move, ...],
                          loose: bool) -> set[tuple[int, int]]:
    """The (first cell, cell) of each man ``seq`` puts on an empty cell where the board never
    showed it, and a later move of ``seq`` takes it there. Strict: a cell empty in the game
    whose lift was never reported. ``loose``: also a cell an earlier move of ``seq`` emptied,
    and a lift reported there before the man left its cell (a man resting there on its way in
    an earlier move, the man the earlier move took away) does not show it."""
    board0 = list(position.board)
    found: set[tuple[int, int]] = set()
    with position.after():
        for i, move in enumerate(seq):
            board = position.board
            for s, d in move.relocations:
                if loose:
                    shown = hands.lifted_t.get(d, -1) >= hands.first_since(s, -1)
                else:
                    shown = bool(board0[d]) or d in hands.lifted_t
                if (s != d and board0[s] and not board[d] and not shown and not hands.observed[s]
                        and _taken_later(seq[i + 1:], d)):
                    found.add((s, d))
            position.push(move)
    return found


def _taken_later(moves: tuple[Move, ...], cell: int) -> bool:
    return any(c == cell and b and b != a for m in moves for c, b, a in m.changes)


def _landing_unseen(hands: Readings, position: Position, identity: bool, cell: int, seq: tuple[Move, ...],
                    board: list[int] | None = None) -> bool:
    """Whether the board reads as well with the man of ``cell`` (moved by a move of ``seq``)
    still in the hand on its way to another empty cell the board has not reported (where it
    will land), and the rest of the board one move of the next player's, its piece resting
    there on its way (seed 3009: g2g4 e6xg4 for g2-g3 in the hand and Black's bishop resting
    on g4 on its way to h3; seed 5006: f6d5 d4xd5 for Nf6-g4 and White's rook resting on d5)."""
    i = next(i for i, move in enumerate(seq) if any(s == cell for s, _d in move.relocations))
    look = looks(position.variant) if identity else None
    shown = hands.observed if board is None else board
    with position.after(*seq[:i]):
        for m in position.legal_moves():
            if len(m.relocations) != 1 or m.relocations[0][0] != cell or m == seq[i]:
                continue
            landing = m.relocations[0][1]
            if shown[landing] or landing in hands.touched or any(b for c, b, _a in m.changes if c == landing):
                continue
            with position.after(m):
                board_after = position.board
                observed = list(shown)
                observed[landing] = seen(board_after[landing], identity, look)
                diff = {c for c, v in enumerate(observed) if v != seen(board_after[c], identity, look)}
                sig = frozenset((c, observed[c]) for c in diff)
                if diff and MoveIndex(position, identity).match(sig, hands.touched | {landing}):
                    return True
    return False


def _read_without(hands: Readings, position: Position, identity: bool, scan_ms: int, cell: int, plies: int,
                  board: list[int] | None = None) -> bool:
    """Whether the board (``board``: as observed, by default), with ``cell`` read as in the
    game, is one legal move or a sequence of up to ``plies`` of them begun in turn (not Black's
    knight moved long before White's rook, with White's pawn in the hand all the while: seed
    4001)."""
    observed = list(hands.observed if board is None else board)
    observed[cell] = hands.expected[cell]
    diff = {c for c, v in enumerate(observed) if v != hands.expected[c]}
    if not diff:
        return False
    sig = frozenset((c, observed[c]) for c in diff)
    if MoveIndex(position, identity).match(sig, hands.touched):
        return True
    return plies >= 2 and bool(in_turn(hands, scan_ms, explain(position, observed, diff, hands.touched, identity,
                                                                strict=True, max_plies=plies)))


def next_move_too(hands: Readings, position: Position, identity: bool, scan_ms: int, reading: Move,
                  went_on: Move, started: int) -> list[tuple[Move, ...]]:
    """The readings ``reading`` (the move shown before the next player started, at ``started``),
    a reply and the mover's next move, when they fit the board as well as ``went_on`` (the
    reading's piece gone on) does: the piece's going on reported after ``started``, the moves
    in turn. Empty when the going on is the only reading."""
    if went_on == reading:
        return []
    landed = [d for s, d in reading.relocations if s != d]
    # (Within a scan either way: the board reports each square when its scan reaches it.)
    left = [hands.cell_t[d] for d in landed if d in hands.cell_t and hands.cell_t[d] > started - scan_ms
            and hands.observed[d] != _reads(position, reading, d, identity)]
    if not left:
        return []
    # The reading, then up to four more moves (the reply, the mover's next move and the next
    # player's after it: the question stays open while they play on), give or take men
    # lifted since the last piece was put down (in a hand: the going on as read so far allows
    # them too), or else one man lifted since the next player started (a player takes hold of
    # a man before the other's move is complete, seed 3019: White's rook lifted from d1 for its
    # next move before Black's bishop, going on from e4 on top of White's reply, landed on c2).
    down = max((hands.cell_t.get(c, 0) for c, v in hands.diff.items() if v), default=max(left))
    lifted = {c for c, v in hands.diff.items() if v == 0 and hands.expected[c]}
    last = frozenset(c for c in lifted if hands.cell_t.get(c, 0) > max(*left, down))
    tries = [frozenset(), last, *(frozenset((c,)) for c in sorted(lifted) if hands.cell_t.get(c, 0) > started)]
    # (One budget for every try: the searches run at each board change while the players are
    # asked, on a board that grows as they play on.)
    budget = Budget(SEARCH_NODES)
    for in_hand in dict.fromkeys(tries):
        observed = [hands.expected[c] if c in in_hand else v for c, v in enumerate(hands.observed)]
        # (A try counts only with readings in turn: one whose moves are all out of turn says
        # nothing of the men in the hand, and a later try may read the board in turn.)
        seqs = [seq for seq in in_turn(hands, scan_ms, _then(position, reading, hands, identity, observed, budget))
                if landed_in_turn(hands, seq)]
        if seqs:
            return seqs
    return []


def played_on(hands: Readings, position: Position, identity: bool,
              asked: list[tuple[Move, ...]]) -> list[tuple[Move, ...]]:
    """The readings ``asked`` (each a reading, a reply and the mover's next move..., asked
    about), followed on to the board as it is now: each one's last move, which may have gone
    on, then up to three more moves, with men lifted since the last piece was put down, or
    every man off its cell, or any one of them, maybe in a hand (the fewest moves kept). While
    a question stands the players may play on, a move at a time, soon beyond
    ``next_move_too``'s reach from the reading alone; from where they were asked, each move is
    one more. Empty when the board follows on from none (a man put down out of turn)."""
    down = max((hands.cell_t.get(c, 0) for c, v in hands.diff.items() if v), default=0)
    look = looks(position.variant) if identity else None
    budget = Budget(SEARCH_NODES)
    found: list[tuple[Move, ...]] = []
    for seq in asked:
        with position.after(*seq):
            # (Men off their cells from where ``seq`` left them.)
            board = position.board
            off = {c: seen(board[c], identity, look) for c in hands.touched if board[c] and not hands.observed[c]}
        # In a hand: those lifted since the last put-down; else every one of them, or any one
        # (a player may take hold of his next man before the other's move is complete: the
        # queen lifted for d1b1 before Black's rook landed on d8 to retake there, then the
        # victim on e5 lifted before the queen landed on b1; real time, seed 2).
        last = {c: x for c, x in off.items() if hands.cell_t.get(c, 0) > down}
        tries: list[dict[int, int]] = []
        for in_hand in ({}, last, off, *({c: x} for c, x in sorted(off.items()))):
            if in_hand not in tries:
                tries.append(in_hand)
        with position.after(*seq[:-1]):
            best: list[tuple[Move, ...]] = []
            for in_hand in tries:
                observed = [in_hand.get(c, v) for c, v in enumerate(hands.observed)]
                more = [s for first in gone_on(position, seq[-1], identity)
                        for s in _followed(position, first, hands, identity, observed, max_plies=3, budget=budget)]
                # (Put down in turn from where they were asked: a knight gone back and out
                # again, f6g8 and g8f6, fills no turn.)
                more = [s for s in more if _put_down_in_turn(hands, seq[-2:-1] + s)]
                # (The fewest moves: men in a hand before moves that only pass the time.)
                if more and (not best or min(map(len, more)) < min(map(len, best))):
                    best = more
                    if min(map(len, best)) == 1:
                        break  # (the last move alone, maybe gone on: no try reads fewer)
            found += [seq[:-1] + s for s in best]
    return list(dict.fromkeys(found))


def gone_on(position: Position, move: Move, identity: bool) -> list[Move]:
    """``move``, then the legal moves of its piece gone on further along its line (a bishop
    shown resting on g5 that went on to h4 while the question stood: seed 4019)."""
    drag = MoveIndex(position, identity).drag_cells(move)
    moved = [(s, d) for s, d in move.relocations if s != d]
    if not drag or len(moved) != 1:
        return [move]
    (src, dst), = moved
    return [move, *(m for m in position.legal_moves()
                    if m.piece == move.piece and len(m.relocations) == 1 and m.relocations[0][0] == src
                    and dst in between(position.variant, src, m.relocations[0][1]) and not m.promotion)]


def _put_down_in_turn(hands: Readings, seq: tuple[Move, ...]) -> bool:
    """``landed_in_turn`` counting only landings the board still shows: a cell a later move of
    ``seq`` leaves counts for nothing."""
    def landings(i: int) -> list[int]:
        left = {s for m in seq[i + 1:] for s, d in m.relocations if s != d}
        return [hands.cell_t[d] for s, d in seq[i].relocations if s != d and d in hands.cell_t and d not in left]

    return _landed_in_order(seq, landings)


def _then(position: Position, first: Move, hands: Readings, identity: bool,
          observed: list[int], budget: Budget) -> list[tuple[Move, ...]]:
    """``first`` followed by one to four legal moves that leave the board as ``observed``
    (every cell they change handled): one more than ``with_the_rest`` reads after the going on,
    so that the two readings are weighed on the same board."""
    # (Deeper than ``explain``'s default, kept to handled cells: only for a board that fits two
    # readings.)
    seqs = _followed(position, first, hands, identity, observed, max_plies=4, budget=budget)
    return [] if seqs == [(first,)] else seqs


def _followed(position: Position, first: Move, hands: Readings, identity: bool, observed: list[int],
              max_plies: int, budget: Budget | None = None) -> list[tuple[Move, ...]]:
    """``first`` followed by one legal move, or failing that up to ``max_plies`` of them, that
    leave the board as ``observed`` (every cell they change handled); ``[(first,)]`` when
    ``first`` alone does. With ``budget``: searched within it, kept to handled cells (else
    within ``explain``'s default budget)."""
    look = looks(position.variant) if identity else None
    with position.after(first):
        board = position.board
        diff = {c for c, v in enumerate(observed) if v != seen(board[c], identity, look)}
        if not diff:
            return [(first,)]
        sig = frozenset((c, observed[c]) for c in diff)
        found: list[tuple[Move, ...]] = [(s.move,) for s in MoveIndex(position, identity).match(sig, hands.touched)]
        if not found:
            found = explain(position, observed, diff, hands.touched, identity, strict=True, max_plies=max_plies,
                            handled_only=budget is not None, budget=budget)
    return [(first, *seq) for seq in found]


def stops_on_the_way(hands: Readings, position: Position, move: Move) -> list[Move]:
    """The legal moves of ``move``'s piece to a cell it crosses on its way whose reading the
    board reported (the piece rested there): what the board showed of ``move`` before the
    piece went on."""
    on_the_way = {d: between(position.variant, s, d) for s, d in move.relocations if s != d}
    if len(on_the_way) != 1:
        return []
    (src, dst), = ((s, d) for s, d in move.relocations if s != d)
    cells = {c for c in on_the_way[dst] if c in hands.cell_t and c in hands.touched}
    return [m for m in position.legal_moves()
            if m.relocations == ((src, m.relocations[0][1]),) and m.relocations[0][1] in cells
            and m.piece == move.piece and not m.promotion]


def _reads(position: Position, move: Move, cell: int, identity: bool) -> int:
    """What the sensor of ``cell`` reads once ``move`` is made."""
    after = next(a for c, _b, a in move.changes if c == cell)
    return seen(after, identity, looks(position.variant) if identity else None)


def landed_in_turn(hands: Readings, seq: tuple[Move, ...]) -> bool:
    """Whether each move of ``seq`` after the first put its pieces down no sooner than the
    move before it did (as reported): a player may take hold of a man before the other's move
    is complete, but does not put it down before. A landing is the latest put-down reported on
    its cell, which a later move of ``seq`` may have left since (that lift is no landing);
    unknown when a later move of ``seq`` lands there too, or when it came before ``seq`` began
    (the landing never reported: an earlier man's)."""
    start = began(hands, seq[0]) if seq else 0

    def landings(i: int) -> list[int]:
        later = {d for m in seq[i + 1:] for s, d in m.relocations if s != d}
        return [hands.placed_t[d] for s, d in seq[i].relocations
                if s != d and d not in later and hands.placed_t.get(d, -1) >= start]

    return _landed_in_order(seq, landings)


def _landed_in_order(seq: tuple[Move, ...], landings: Callable[[int], list[int]]) -> bool:
    """Whether each move of ``seq`` after the first put its pieces down (``landings(i)``: the
    known landing times of move ``i``) no sooner than the move before it; a move with none
    known says nothing."""
    for i in range(1, len(seq) - 1):
        la, lb = landings(i), landings(i + 1)
        if la and lb and max(la) > min(lb):
            return False
    return True


def with_the_rest(hands: Readings, position: Position, identity: bool, first: Move) -> list[tuple[Move, ...]]:
    """``first`` followed by what the rest of the board reads as: up to three legal moves
    (nothing when the rest is not complete)."""
    return _followed(position, first, hands, identity, hands.observed, max_plies=3)


def lifted_before_the_move(hands: Readings, position: Position, scan_ms: int, move: Move,
                           rest: frozenset[int]) -> bool:
    """Whether a man of the mover's among ``rest`` (men read as lifted by the next player while
    ``move`` was made) was lifted more than a scan before ``move`` began: the next player does
    not take hold of a man of the mover's before the move it answers has begun, so the mover
    did more than ``move`` (seed 5005: White's pawn lifted from e4 to take on d5 and taken
    back at once, never shown there, then the bishop c4-b5: read c4b5 with e4 in Black's
    hand)."""
    board, variant = position.board, position.variant
    # (The move begins with the first of its men lifted, a victim's too: the next player may
    # take hold of a man of the mover's as the mover reaches for its victim.)
    lifted = [hands.first_since(c, -1) for c, b, a in move.changes if b and b != a and c in hands.cell_t]
    start = min(lifted, default=began(hands, move))
    return any(board[c] and variant.side_of(board[c]) == position.side
               and hands.first_since(c, -1) < start - scan_ms for c in rest)


def resting_in_fewer(hands: Readings, position: Position, identity: bool, plies: int) -> bool:
    """Whether the board reads in fewer than ``plies`` moves with a man put down on a square
    empty in the game taken as still on its way, resting there: with that man back on the
    square it left, the board is one legal move, after which a legal move of that man crosses
    the square it rests on (seed 5017: d1a4 d8d7 a4b3, the queen never shown on a4, for Qd1-b3
    check and Black's queen resting on d7 on its way to block on d5; d8d7 alone is illegal)."""
    if plies < 2:
        return False
    expected, observed = hands.expected, hands.observed
    pairs = [(rest, left) for rest in (c for c, v in hands.diff.items() if v and not expected[c])
             for left in (c for c, v in hands.diff.items() if not v and expected[c] == observed[rest])]
    index = MoveIndex(position, identity) if pairs else None  # (the game's moves: one index serves every pair)
    for rest, left in pairs:
        board = list(observed)
        board[rest], board[left] = expected[rest], expected[left]
        sig = diff_sig(board, expected, range(len(board)))
        if index is not None and sig:
            for shape in index.match(sig, hands.touched):
                with position.after(shape.move):
                    if any(m.relocations[0][0] == left and rest in between(position.variant, left, m.relocations[0][1])
                           for m in position.legal_moves() if len(m.relocations) == 1):
                        return True
    return False
