"""The powers of Royal Fury's men, and the walks over a board that their takes need.

Each man is a set of powers (``POWERS``): ways to travel (to an empty cell) and ways to take.
Travel: ``queen`` (any distance along the eight lines), ``knight``, ``advance`` (one step straight
or cornerwise forward). Takes:

* ``advance``: onto an enemy one step forward (straight or cornerwise); promotes in the enemy half.
* ``knight``: onto an enemy a knight's leap away.
* ``occupy``: onto the first man down a line when he is an enemy.
* ``harpy``: onto an enemy down a line with exactly one man (either side's) in between.
* ``swap``: change cells with the first man down a line when he is an enemy (no capture).
* ``leap``: over a lone enemy down a line (empty cells before him allowed, the cell beyond him
  empty) to any empty cell beyond, then again from there while the leaper is not petrified where
  it landed; every leap is optional, so each prefix of a chain is a move. The leaper stands only
  on its latest landing cell: a later leap may cross or land on a cell it landed on before. Men
  with the gaze (Gorgon, Fury) are never leapt.
* ``charge``: after arriving, every enemy next to the arrival cell is taken. The Capricorn (and
  the mimicking Mimotaur) charges at the end of a travel move; the Fury after every arrival
  (travel, take, each leap landing) except a swap.

``line_men`` and ``leap_chains`` are pure functions of a board (given the board's lines and
steps), like ``territory_scoring`` for Mathematichess: the component ``fury_pieces``
(``engine/components/fury_pieces.py``) turns what they find into moves. Readings:
docs/rules/royal-fury.md.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum

#: Written after a swap (``c3f6~``): the Fury may also take on the cell she swaps with.
SWAP_TEXT = "~"
KNIGHT = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))


class Charge(Enum):
    """When a man's charge takes the enemies next to the cell it arrived on."""

    NONE = "none"
    #: after a travel move (Capricorn, Mimotaur)
    QUIET = "quiet"
    #: after every arrival but a swap: travel, take, each leap's landing (Fury)
    EVERY = "every"


@dataclass(frozen=True)
class Powers:
    """What one kind of man can do: its ways to travel and its ways to take."""

    travel: tuple[str, ...]
    takes: tuple[str, ...]
    charge: Charge = Charge.NONE
    #: takes only enemies that hold the same power, and with it
    mimic: bool = False


#: The men of Royal Fury by hook name. The gaze is ``petrification``'s (option ``petrifiers``).
POWERS: dict[str, Powers] = {
    "advancer": Powers(("advance",), ("advance",)),
    "jumper": Powers(("knight",), ("knight",)),
    "gorgon": Powers(("queen",), ("occupy",)),
    "ximaera": Powers(("queen",), ("swap",)),
    "dragon": Powers(("queen",), ("leap",)),
    "capricorn": Powers(("queen",), ("charge",), charge=Charge.QUIET),
    "harpy": Powers(("queen",), ("harpy",)),
    "mimotaur": Powers(("queen",), ("advance", "knight", "occupy", "harpy", "swap", "leap", "charge"),
                       charge=Charge.QUIET, mimic=True),
    "fury": Powers(("queen", "knight"), ("occupy", "leap", "harpy", "knight", "swap", "charge"), charge=Charge.EVERY),
}


def line_men(board: Sequence[int], lines: Sequence[Sequence[int]]) -> tuple[list[int], list[int]]:
    """Per line (the cells down it, nearest first): the first man on it and the one behind him
    (-1: none)."""
    firsts: list[int] = []
    seconds: list[int] = []
    for line in lines:
        first = second = -1
        it = iter(line)
        for t in it:
            if board[t]:
                first = t
                break
        if first >= 0:
            for t in it:
                if board[t]:
                    second = t
                    break
        firsts.append(first)
        seconds.append(second)
    return firsts, seconds


#: Does the man ``code`` standing on ``cell`` of ``board`` stand petrified (an enemy's gaze)?
Gaze = Callable[[Sequence[int], int, int], bool]
#: A leaping chain: the landing cell, the men taken (leapt and charged), the landings in order.
Chain = tuple[int, tuple[int, ...], tuple[int, ...]]


def leap_chains(board: list[int], cell: int, code: int, owner: Sequence[int], tab: bytearray,
                charge_tab: bytearray | None, line_steps: Sequence[Sequence[Sequence[int]]],
                neighbours: Sequence[Sequence[int]], gazed: Gaze) -> list[Chain]:
    """Every leaping chain of the man ``code`` from ``cell``, each prefix a chain of its own.
    ``tab``: 1 for the codes he may leap; ``charge_tab``: those a charge takes at each landing
    (None: he does not charge while leaping); ``line_steps[c]``: the steps (cell -> next cell,
    -1 off the board) along the lines from ``c``; ``neighbours[c]``: the cells next to ``c``.
    The board is changed as the chain goes (victims off, the leaper on its landing cell) and
    restored before this returns."""
    side = owner[code]
    found: list[tuple[int, tuple[int, ...], tuple[int, ...]]] = []

    def chain(at: int, taken: tuple[int, ...], landings: tuple[int, ...]) -> None:
        for step in line_steps[at]:
            t = step[at]
            while t >= 0 and not board[t]:
                t = step[t]
            if t < 0:
                continue
            p = board[t]
            if owner[p] == side or not tab[p]:
                continue
            land = step[t]
            if land < 0 or board[land]:
                continue  # not a lone man: the cell beyond him is taken or off the board
            board[t] = 0
            while land >= 0 and not board[land]:
                hit: tuple[int, ...] = ()
                if charge_tab is not None:
                    hit = tuple(c for c in neighbours[land] if board[c] and owner[board[c]] != side
                                and charge_tab[board[c]])
                now_taken = (*taken, t, *hit)
                found.append((land, now_taken, (*landings, land)))
                saved = [board[c] for c in hit]
                for c in hit:
                    board[c] = 0
                # The leaper stands on its landing cell only: the cells it landed on before
                # are empty again, so a later leap may cross or land on them, and a gaze that
                # an emptied cell no longer blocks petrifies it here (it then stops).
                board[land] = code
                petrified = gazed(board, land, code)
                board[land] = 0
                if not petrified:
                    chain(land, now_taken, (*landings, land))
                for c, was in zip(hit, saved, strict=True):
                    board[c] = was
                land = step[land]
            board[t] = p

    board[cell] = 0
    try:
        chain(cell, (), ())
    finally:
        board[cell] = code
    return found
