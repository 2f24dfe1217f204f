"""``fury_pieces``: the men of Royal Fury, each a set of powers (ways to travel and to take).

The powers (``POWERS``: travel by line, knight or advance; take by advance, knight, occupy,
Harpy over one man, swap, Dragon leap chains, charge) and the walks over a board that the takes
need (``line_men``, ``leap_chains``) are in ``engine.fury_powers``; this component builds the
tables per variant and generates the moves.

The Mimotaur has no power of its own: it takes an enemy man with that man's own powers (a
Jumper by a knight's leap, a Harpy over one man, a Dragon by leaping, a Capricorn by charging,
an Advancer from the cells that Advancer attacks, swaps with a Ximaera); so two Mimotaurs cannot
touch each other. A petrified man (``petrification``) makes no move at all, so none of its takes
count as attacks either. Every move with more than a plain capture is built by ``build_move``
with all its victims; the runner reads attacks from ``Move.victims``, so a charge, a leap or a
Harpy take on a Fury is an attack on her. Readings: docs/rules/royal-fury.md.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from ..fury_powers import KNIGHT, POWERS, SWAP_TEXT, Charge, Powers, leap_chains, line_men
from ..moves import Move, build_move
from . import Component, Mover, register
from .petrification import QUEEN_LINES, Petrification

if TYPE_CHECKING:
    from ..position import Position
    from ..rules import Rules

@register("fury_pieces")
class FuryPieces(Component):
    def __init__(self, rules: Rules) -> None:
        super().__init__(rules)
        v = self.v
        g = v.geometry
        n = g.size
        self.petrification: Petrification = rules.get(Petrification)
        self._near_key: tuple[int, int] | None = None
        self._near = bytearray()
        self._swaps: dict[int, Move] = {}
        self._size = n
        self._wide = v.max_code
        steps = [g.step(vec) for vec in QUEEN_LINES]
        self.lines = tuple(tuple(line for line in (g.ray(c, vec) for vec in QUEEN_LINES) if line) for c in range(n))
        self.line_steps = tuple(tuple(s for s in steps if s[c] >= 0) for c in range(n))
        self.neighbours = tuple(tuple(s[c] for s in steps if s[c] >= 0) for c in range(n))
        knight_steps = [g.step(vec) for vec in KNIGHT]
        self.knight = tuple(tuple(s[c] for s in knight_steps if s[c] >= 0) for c in range(n))
        # Per side and cell: the cells an Advancer of that side steps to (and takes on), and the
        # cells from which one of that side's Advancers takes on it (for the mimicking Mimotaur).
        self.advance: list[tuple[tuple[int, ...], ...]] = []
        self.advanced_from: list[tuple[tuple[int, ...], ...]] = []
        for side in range(v.nsides):
            fx, fy = v.forward[side]
            vecs = ((fx, fy), (fx + fy, fy + fx), (fx - fy, fy - fx))
            ahead = [g.step(vec) for vec in vecs]
            behind = [g.step((-x, -y)) for x, y in vecs]
            self.advance.append(tuple(tuple(s[c] for s in ahead if s[c] >= 0) for c in range(n)))
            self.advanced_from.append(tuple(tuple(s[c] for s in behind if s[c] >= 0) for c in range(n)))
        holds: dict[str, bytearray] = {}
        for power in ("advance", "knight", "occupy", "harpy", "swap", "leap", "charge"):
            holds[power] = bytearray(v.max_code)
        gazer = self.petrification.gazer
        for code in v.all_codes():
            powers = POWERS.get(v.kinds[v.kind_at[code]].hook)
            if powers and not powers.mimic:  # a mimic's takes are borrowed: it holds none
                for power in powers.takes:
                    holds[power][code] = 1
        everyone = bytearray(1 for _ in range(v.max_code))
        everyone[0] = 0
        self.victims: dict[str, dict[str, bytearray]] = {}
        for hook, powers in POWERS.items():
            tabs = {p: (holds[p] if powers.mimic else everyone) for p in powers.takes}
            if "leap" in tabs:
                tabs["leap"] = bytearray(0 if gazer[c] else tabs["leap"][c] for c in range(v.max_code))
            self.victims[hook] = tabs

    def has_legal_move(self, pos: Position) -> bool | None:
        """Cheap answer, asked after every move: a man that is not petrified and can step onto an
        empty neighbour (along a line), or jump or advance onto a cell free of his own side, has a
        move; only when none can does the full generation decide."""
        board = pos.board
        frozen = self.petrification.frozen_at(pos)
        v = self.v
        owner = v.owner
        side = pos.side
        for cell, code in enumerate(board):
            if owner[code] != side or not code or frozen[cell]:
                continue
            powers = POWERS.get(v.kinds[v.kind_at[code]].hook)
            if powers is None:
                return None
            travel = powers.travel
            if "queen" in travel and any(not board[c] for c in self.neighbours[cell]):
                return True
            if "knight" in travel and any(not board[t] or owner[board[t]] != side for t in self.knight[cell]):
                return True
            if "advance" in travel and any(not board[t] or owner[board[t]] != side
                                           for t in self.advance[side][cell]):
                return True
        return None

    def movers(self) -> dict[str, Mover]:
        out: dict[str, Mover] = {}
        for hook, powers in POWERS.items():
            victims = self.victims[hook]
            plain = powers.charge is Charge.NONE and not powers.mimic and len(powers.takes) == 1
            if plain and powers.travel == powers.takes == ("advance",):
                out[hook] = self.advancer_moves
            elif plain and powers.travel == powers.takes == ("knight",):
                out[hook] = partial(self.jumper_moves, victims["knight"])
            elif plain and powers.travel == ("queen",):
                out[hook] = partial(self.line_moves, powers.takes[0], victims[powers.takes[0]])
            else:
                out[hook] = partial(self.generate_for, powers, victims)
        return out

    # The men with one way to travel and one to take, and no charge, have generators of their own:
    # the same moves in the same order as ``generate_for`` gives them, without its set-up per man
    # (a position asks it some twenty times).
    def advancer_moves(self, pos: Position, cell: int, code: int, out: list[Move]) -> None:
        board = pos.board
        if self.petrification.frozen_at(pos)[cell]:
            return
        owner = self.v.owner
        side = owner[code]
        zone = self.rules.promo_zone[side]
        codes = self.rules.promo_codes[side]
        promo = codes[0] if codes else 0
        steps = self.advance[side][cell]
        for t in steps:
            if not board[t]:
                out.append(Move(cell, t, code, 0, promo if zone[t] else 0))
        tab = self.victims["advancer"]["advance"]
        for t in steps:
            p = board[t]
            if p and owner[p] != side and tab[p]:
                out.append(Move(cell, t, code, p, promo if zone[t] else 0))

    def jumper_moves(self, tab: bytearray, pos: Position, cell: int, code: int, out: list[Move]) -> None:
        board = pos.board
        if self.petrification.frozen_at(pos)[cell]:
            return
        owner = self.v.owner
        side = owner[code]
        leaps = self.knight[cell]
        for t in leaps:
            if not board[t]:
                out.append(Move(cell, t, code))
        for t in leaps:
            p = board[t]
            if p and owner[p] != side and tab[p]:
                out.append(Move(cell, t, code, p))

    def line_moves(self, how: str, tab: bytearray, pos: Position, cell: int, code: int, out: list[Move]) -> None:
        board = pos.board
        if self.petrification.frozen_at(pos)[cell]:
            return
        owner = self.v.owner
        side = owner[code]
        start = len(out)
        append = out.append
        lines = self.lines[cell]
        for line in lines:
            for t in line:
                if board[t]:
                    break
                append(Move(cell, t, code))
        if how == "leap":
            self._leaps(pos, cell, code, tab, None, out, start)
            return
        screens = 1 if how == "harpy" else 0
        for line in lines:
            seen = 0
            for t in line:
                p = board[t]
                if not p:
                    continue
                if seen < screens:
                    seen += 1
                    continue
                if owner[p] != side and tab[p]:
                    if how == "swap":
                        append(self._swap(board, cell, t))
                    else:
                        append(Move(cell, t, code, p))
                break

    # -- generation -----------------------------------------------------------------------------
    def near_enemies(self, pos: Position, side: int) -> bytearray:
        """1 on each cell next to a man of a side other than ``side`` (where a charge may take),
        cached on the position's hash like ``Petrification.frozen_at``."""
        key = (pos.hash, side)
        if key != self._near_key:
            board = pos.board
            owner = self.v.owner
            near = bytearray(len(board))
            neighbours = self.neighbours
            for c, code in enumerate(board):
                if code and owner[code] != side:
                    for n in neighbours[c]:
                        near[n] = 1
            self._near = near
            self._near_key = key
        return self._near

    def generate_for(self, powers: Powers, victims: dict[str, bytearray], pos: Position, cell: int, code: int,
                     out: list[Move]) -> None:
        board = pos.board
        if self.petrification.frozen_at(pos)[cell]:
            return
        v = self.v
        owner = v.owner
        side = owner[code]
        neighbours = self.neighbours
        charge_every = powers.charge is Charge.EVERY
        charge_tab = victims.get("charge")
        # Cells where a charge may take something (none for men that do not charge).
        hot = self.near_enemies(pos, side) if powers.charge is not Charge.NONE and charge_tab is not None else None

        def charged(at: int) -> tuple[int, ...]:
            # Enemies next to ``at`` that a charge arriving there takes (the mover's own start
            # cell holds the mover itself, so it is never one).
            assert charge_tab is not None
            return tuple(c for c in neighbours[at] if board[c] and owner[board[c]] != side and charge_tab[board[c]])

        def travel_to(t: int, promotion: int = 0) -> None:
            if hot is not None and hot[t]:
                hit = charged(t)
                if hit:
                    out.append(build_move(board, cell, t, relocate=((cell, t),), remove=hit, promotion=promotion))
                    return
            out.append(Move(cell, t, code, 0, promotion))

        def take_on(t: int, promotion: int = 0) -> None:
            if charge_every and hot is not None and hot[t]:
                hit = tuple(c for c in charged(t) if c != t)
                if hit:
                    out.append(build_move(board, cell, t, relocate=((cell, t),), remove=hit, promotion=promotion))
                    return
            out.append(Move(cell, t, code, board[t], promotion))

        start = len(out)
        zone = self.rules.promo_zone[side]
        promo = self.rules.promo_codes[side][0] if self.rules.promo_codes[side] else 0
        for how in powers.travel:
            if how == "queen":
                for line in self.lines[cell]:
                    for t in line:
                        if board[t]:
                            break
                        if hot is None or not hot[t]:
                            out.append(Move(cell, t, code))  # the common case, without a call
                        else:
                            travel_to(t)
            elif how == "knight":
                for t in self.knight[cell]:
                    if not board[t]:
                        travel_to(t)
            else:
                for t in self.advance[side][cell]:
                    if not board[t]:
                        travel_to(t, promo if zone[t] else 0)
        men: tuple[list[int], list[int]] | None = None
        for how in powers.takes:
            tab = victims[how]
            if how == "advance":
                if powers.mimic:
                    for enemy in range(v.nsides):
                        if enemy == side:
                            continue
                        for t in self.advanced_from[enemy][cell]:
                            p = board[t]
                            if p and owner[p] == enemy and tab[p]:
                                take_on(t)
                else:
                    for t in self.advance[side][cell]:
                        p = board[t]
                        if p and owner[p] != side and tab[p]:
                            take_on(t, promo if zone[t] else 0)
            elif how == "knight":
                for t in self.knight[cell]:
                    p = board[t]
                    if p and owner[p] != side and tab[p]:
                        take_on(t)
            elif how in ("occupy", "swap", "harpy"):
                if men is None:  # (one walk down the lines for all three)
                    men = line_men(board, self.lines[cell])
                for t in men[1] if how == "harpy" else men[0]:
                    if t >= 0:
                        p = board[t]
                        if owner[p] != side and tab[p]:
                            if how == "swap":
                                out.append(self._swap(board, cell, t))
                            else:
                                take_on(t)
            elif how == "leap":
                self._leaps(pos, cell, code, tab, charge_tab if charge_every else None, out, start)

    def _swap(self, board: list[int], cell: int, t: int) -> Move:
        """The swap of the men on ``cell`` and ``t``: it depends on nothing else, so it is built
        once per game."""
        key = (cell * self._size + t) * self._wide * self._wide + board[cell] * self._wide + board[t]
        move = self._swaps.get(key)
        if move is None:
            move = self._swaps[key] = build_move(board, cell, t, relocate=((cell, t), (t, cell)), text=SWAP_TEXT)
        return move

    def _leaps(self, pos: Position, cell: int, code: int, tab: bytearray, charge_tab: bytearray | None,
               out: list[Move], start: int) -> None:
        """Every leaping chain from ``cell`` (each prefix a move of its own: ``leap_chains``) as
        moves, one per end on the board."""
        board = pos.board
        found = leap_chains(board, cell, code, self.v.owner, tab, charge_tab, self.line_steps, self.neighbours,
                            self.petrification.gazed)
        if not found:
            return
        names = self.v.geometry.names
        seen = {frozenset(m.changes) for m in out[start:]}
        # Two chains that end alike are one move on the board: keep the one with fewest leaps.
        found.sort(key=lambda f: len(f[2]))
        for land, taken, landings in found:
            text = "".join(f":{names[c]}" for c in landings[:-1])
            move = build_move(board, cell, land, relocate=((cell, land),), remove=taken, text=text)
            key = frozenset(move.changes)
            if key in seen:
                continue
            seen.add(key)
            out.append(move)
