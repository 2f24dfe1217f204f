"""Piece movement as data: a Betza-style notation.

A piece is a string of components; each component is optional modifiers, an atom, and an
optional range. ``mBcR`` moves as a bishop and captures as a rook; ``fmWfcF`` is the FIDE pawn.

Atoms (leaps in grid units, every symmetric image of the vector):

    W (1,0)  F (1,1)  D (2,0)  N (1,2)  A (2,2)  H (3,0)  C (1,3)  Z (2,3)  G (3,3)
    (a,b)    any leap, e.g. (3,0) or (24,0) on a ring
    K = WF   R = WW   B = FF   Q = WWFF

Range: an atom written twice (``WW``) rides without limit; a number after an atom limits the
ride (``W2``: one or two steps, the path must be empty).

Modifiers, before the atom:

    m  move only (no capture)         c  capture only
    f b l r  forward, backward, left, right, relative to the moving side
    v  forward and backward           s  left and right (sideways)
    fl fr bl br  a single diagonal direction (the two letters intersect)
    i  only for a piece that has not moved yet
    p  hop: the path must hold exactly one piece, which is jumped over (cannon / Harpy)
    n  lame: a two-step leap (D, A, N) is blocked by the cell it passes over

Anything the notation cannot say (pushes, swaps, petrifying gaze, multi-capture, mutation after
moving) is a named rule hook in code (see ``engine.rules``), not notation.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .errors import NotationError
from .geometry import Vector

MOVE = 1
CAPTURE = 2
BOTH = MOVE | CAPTURE

ATOMS: dict[str, tuple[Vector, ...]] = {
    "W": ((1, 0),), "F": ((1, 1),), "D": ((2, 0),), "N": ((1, 2),), "A": ((2, 2),),
    "H": ((3, 0),), "C": ((1, 3),), "Z": ((2, 3),), "G": ((3, 3),),
}
#: Shorthands that expand to other components (``Q`` is a rook plus a bishop).
SHORTHAND: dict[str, str] = {"K": "WF", "R": "W", "B": "F", "Q": "WF"}

_TOKEN = re.compile(r"([mcfbvslrinp]*)(\([-\d]+,[-\d]+\)|[WFDNAHCZGKRBQ])(\2|\d+)?")



@dataclass(frozen=True)
class Component:
    """One movement component: the atom's vectors (before direction filtering), what it may do,
    and how far it goes. ``directions`` is the modifier text that selects which images apply."""

    atom: Vector
    mode: int = BOTH
    max_range: int = 1  # 0 = unlimited
    directions: str = ""
    initial: bool = False
    hop: bool = False
    lame: bool = False


def parse_betza(text: str) -> tuple[Component, ...]:
    """Parse a piece notation into components; raises ``NotationError`` saying where it broke."""
    text = text.strip()
    out: list[Component] = []
    pos = 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m:
            raise NotationError(f"cannot read piece notation {text!r} at position {pos}")
        mods, atom, rng = m.group(1), m.group(2), m.group(3)
        mode = BOTH
        if "m" in mods and "c" not in mods:
            mode = MOVE
        elif "c" in mods and "m" not in mods:
            mode = CAPTURE
        dirs = "".join(ch for ch in mods if ch in "fbvslr")
        if atom.startswith("("):
            a, b = (int(v) for v in atom[1:-1].split(","))
            parts: tuple[tuple[Vector, bool], ...] = (((a, b), False),)
        elif atom in SHORTHAND:
            parts = tuple((ATOMS[ch][0], atom != "K") for ch in SHORTHAND[atom])
        else:
            parts = ((ATOMS[atom][0], False),)
        for vec, rides in parts:
            if rng is not None and rng.isdigit():
                max_range = int(rng)
            elif rng is not None or rides:
                max_range = 0
            else:
                max_range = 1
            out.append(Component(vec, mode, max_range, dirs, "i" in mods, "p" in mods, "n" in mods))
        pos = m.end()
    if not out:
        raise NotationError("empty piece notation")
    return tuple(out)


def select_directions(images: tuple[Vector, ...], directions: str, forward: Vector) -> tuple[Vector, ...]:
    """Keep the images a modifier string allows, for a side whose forward is ``forward``."""
    if not directions:
        return images
    fx, fy = forward
    groups: list[str] = []
    i = 0
    while i < len(directions):
        pair = directions[i:i + 2]
        if pair in ("fl", "fr", "bl", "br"):
            groups.append(pair)
            i += 2
        else:
            groups.append(directions[i])
            i += 1

    def keep(v: Vector, g: str) -> bool:
        dot = v[0] * fx + v[1] * fy
        cross = fx * v[1] - fy * v[0]  # > 0: to the left of forward
        tests = {
            "f": dot > 0, "b": dot < 0, "l": cross > 0, "r": cross < 0,
            "v": dot != 0 and cross == 0 if any(x[0] * fy - x[1] * fx == 0 for x in images) else dot != 0,
            "s": dot == 0 if any(x[0] * fx + x[1] * fy == 0 for x in images) else cross != 0,
        }
        return all(tests[ch] for ch in g)

    return tuple(v for v in images if any(keep(v, g) for g in groups))


def lame_path(vector: Vector) -> Vector | None:
    """The intermediate step a lame two-step leap passes over (along the long axis first for N)."""
    a, b = vector
    if (abs(a), abs(b)) in ((2, 0), (0, 2), (2, 2)):
        return (a // 2, b // 2)
    if (abs(a), abs(b)) == (2, 1):
        return (a // 2, 0)
    if (abs(a), abs(b)) == (1, 2):
        return (0, b // 2)
    return None
