"""A variant as the engine holds it: its data and the tables compiled from them.

``Variant`` keeps what the variant file says (validated by the loader, ``engine.variant``) and
compiles the piece notation into per-cell move tables that the move generator walks, plus the
reverse attack tables that check detection walks. Piece codes come from ``engine.codes``; the
tables below let hot loops look a code up instead.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from . import codes
from .geometry import Geometry, Vector
from .notation import parse_board
from .pieces import CAPTURE, lame_path, parse_betza, select_directions

if TYPE_CHECKING:
    from .rules import Rules


@dataclass
class PieceKind:
    letter: str  # upper-case symbol, e.g. "N" or "~N"
    name: str
    betza: str
    royal: bool = False
    pawn: bool = False
    en_passant: bool = False
    captures_en_passant: bool = False
    castles: str = ""
    gives_check: bool = True
    value: int = 0
    glyph: str = ""
    hook: str = ""
    san: str | None = None  # None: the letter (a pawn: nothing)
    initial_from: str = ""


@dataclass
class Variant:
    name: str
    title: str
    geometry: Geometry
    sides: tuple[str, ...]
    forward: tuple[Vector, ...]
    kinds: tuple[PieceKind, ...]
    start: str
    royalty: str = "checkmate"
    stalemate: str = "draw"
    fifty_move: int = 100
    repetition: int = 3
    insufficient_material: str = "none"
    castling: bool = False
    en_passant: bool = False
    promotion_zones: tuple[frozenset[int], ...] = ()
    promotion_choices: tuple[int, ...] = ()  # kind indices
    promotion_from_captured: bool = False
    promotion_optional: bool = False
    rule_components: tuple[str, ...] = ()  # named in the data's ``rules`` key
    options: dict[str, Any] = field(default_factory=dict)
    bare_king: bool = False
    side_letters: tuple[str, ...] = ()
    source: str = ""
    line_length: int = 0

    #: The rule components in stage order, and the runner that calls them: the loader
    #: (``engine.variant``) derives the one and builds the other once the tables are compiled.
    component_names: tuple[str, ...] = field(init=False, default=())
    rules: Rules = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.nsides = len(self.sides)
        self.kind_index = {k.letter: i for i, k in enumerate(self.kinds)}
        self._compile()

    # -- piece codes -----------------------------------------------------------------------------
    # Packing lives in engine.codes; the tables below let hot loops look a code up instead.
    def code(self, kind: int, side: int) -> int:
        return codes.make(kind, side)

    @staticmethod
    def side_of(code: int) -> int:
        return codes.side_of(code)

    @staticmethod
    def kind_of(code: int) -> int:
        return codes.kind_of(code)

    def symbol(self, code: int) -> str:
        """Text of a piece code: ``N``/``n`` for two sides, ``gN`` style marks for more."""
        kind = self.kinds[self.kind_at[code]]
        side = self.owner[code]
        if self.nsides == 2:
            return kind.letter if side == 0 else kind.letter.lower()
        return self.side_letters[side] + kind.letter

    def parse_symbol(self, text: str) -> int:
        if self.nsides == 2:
            upper = text.upper()
            if upper not in self.kind_index:
                raise ValueError(f"{self.name}: no piece {text!r}")
            side = 0 if text == upper else 1
            if text != upper and text.lower() != text:
                raise ValueError(f"{self.name}: piece {text!r} mixes cases")
            return self.code(self.kind_index[upper], side)
        mark, letter = text[:1], text[1:]
        if mark not in self.side_letters or letter not in self.kind_index:
            raise ValueError(f"{self.name}: no piece {text!r}")
        return self.code(self.kind_index[letter], self.side_letters.index(mark))

    def all_codes(self) -> list[int]:
        return [self.code(k, s) for k in range(len(self.kinds)) for s in range(self.nsides)]

    # -- compiled tables -------------------------------------------------------------------------
    def _compile(self) -> None:
        """Per piece code and cell: leaps as (target, mode, lame_cell, initial) and rides as
        (ray, mode, hop, initial); plus reverse attack tables for check detection."""
        g = self.geometry
        n = g.size
        self.max_code = codes.table_size(len(self.kinds))
        #: owner[code]: side index of a piece code, -1 for an empty cell (and unused codes).
        self.owner = [-1] * self.max_code
        #: kind_at[code]: kind index of a piece code.
        self.kind_at = [0] * self.max_code
        for code in self.all_codes():
            self.owner[code] = codes.side_of(code)
            self.kind_at[code] = codes.kind_of(code)
        #: overlaps[code]: some cell reaches one target by two components (QK, mBF, a ring rider).
        self.overlaps = [False] * self.max_code
        self.leaps: list[list[tuple[tuple[int, int, int, bool], ...]]] = [[] for _ in range(self.max_code)]
        self.rides: list[list[tuple[tuple[tuple[int, ...], int, bool, bool], ...]]] = [
            [] for _ in range(self.max_code)
        ]
        self.is_royal = [False] * self.max_code
        self.is_pawn = [False] * self.max_code
        # attack vectors: code -> list of (vector, max_range, hop) it captures along
        attack_vectors: dict[int, list[tuple[Vector, int, bool]]] = {}
        self.simple = True  # no hoppers, no hooks: enables pin-based fast legality
        self.hoppers = False  # a screen piece pins and checks in ways a line walk does not see
        # "i" components apply where the start position holds the same piece: FIDE pawns on their
        # second rank, Sesqui pawns on any pawn start cell (its text says exactly that).
        try:
            start_board = parse_board(self, self.start.split()[0].split("[")[0])
        except ValueError as exc:
            raise ValueError(f"bad start position: {exc}") from None
        for code in self.all_codes():
            kind = self.kinds[self.kind_at[code]]
            side = self.owner[code]
            self.is_royal[code] = kind.royal
            self.is_pawn[code] = kind.pawn
            comps = parse_betza(kind.betza) if kind.betza else ()
            # A piece made from another during play (Illusionary Piece Chess) has its "i" moves
            # where the start position holds that other piece.
            initial_code = code
            if kind.initial_from:
                if kind.initial_from not in self.kind_index:
                    raise ValueError(f"piece {kind.letter}: initial_from names no piece {kind.initial_from!r}")
                initial_code = self.code(self.kind_index[kind.initial_from], side)
            per_cell_leaps: list[list[tuple[int, int, int, bool]]] = [[] for _ in range(n)]
            per_cell_rides: list[list[tuple[tuple[int, ...], int, bool, bool]]] = [[] for _ in range(n)]
            attacks: list[tuple[Vector, int, bool]] = []
            if kind.hook:
                self.simple = False
            for comp in comps:
                vectors = select_directions(g.images(comp.atom), comp.directions, self.forward[side])
                for vec in vectors:
                    if comp.mode & CAPTURE and kind.gives_check:
                        attacks.append((vec, comp.max_range, comp.hop))
                    if comp.hop:
                        self.simple = False
                        self.hoppers = True
                    table = g.step(vec)
                    lame_vec = lame_path(vec) if comp.lame else None
                    lame_table = g.step(lame_vec) if lame_vec else None
                    for cell in range(n):
                        if comp.initial and start_board[cell] != initial_code:
                            continue
                        if comp.max_range == 1 and not comp.hop:
                            t = table[cell]
                            if t >= 0:
                                lame_cell = lame_table[cell] if lame_table else -1
                                per_cell_leaps[cell].append((t, comp.mode, lame_cell, comp.initial))
                        else:
                            ray = g.ray(cell, vec)
                            if comp.max_range:
                                ray = ray[: comp.max_range]
                            if ray:
                                per_cell_rides[cell].append((ray, comp.mode, comp.hop, comp.initial))
            self.leaps[code] = [_merge_leaps(c) for c in per_cell_leaps]
            self.rides[code] = [tuple(c) for c in per_cell_rides]
            for cell in range(n):
                targets = [t for t, *_ in self.leaps[code][cell]]
                targets += [t for ray, *_ in self.rides[code][cell] for t in ray]
                if len(targets) != len(set(targets)):
                    self.overlaps[code] = True
                    break
            attack_vectors[code] = attacks
        self._compile_attacks(attack_vectors)
        self.start_board = start_board
        #: royal pieces each side starts with (``capture_any`` loses when one of them is gone)
        self.royal_count = [sum(1 for c in start_board if self.owner[c] == s and self.is_royal[c])
                            for s in range(self.nsides)]

    def _compile_attacks(self, attack_vectors: dict[int, list[tuple[Vector, int, bool]]]) -> None:
        """Reverse tables: for a target cell and attacking side, the rays to look along and which
        codes attack from each distance. Built from capture components of pieces that give check."""
        g = self.geometry
        n = g.size
        # (side, vector) -> {distance: set(codes)}; 0 = unlimited
        by_vec: dict[tuple[int, Vector], dict[int, set[int]]] = {}
        hop_by_vec: dict[tuple[int, Vector], set[int]] = {}
        for code, atts in attack_vectors.items():
            side = self.owner[code]
            for vec, rng, hop in atts:
                if hop:
                    hop_by_vec.setdefault((side, vec), set()).add(code)
                else:
                    by_vec.setdefault((side, vec), {}).setdefault(rng, set()).add(code)
        # attack_rays[side][cell] = tuple of (ray cells, per-distance frozensets)
        self.attack_rays: list[list[tuple[tuple[tuple[int, ...], tuple[frozenset[int], ...]], ...]]] = []
        self.hop_rays: list[list[tuple[tuple[tuple[int, ...], frozenset[int]], ...]]] = []
        for side in range(self.nsides):
            per_cell: list[list[tuple[tuple[int, ...], tuple[frozenset[int], ...]]]] = [[] for _ in range(n)]
            hop_cell: list[list[tuple[tuple[int, ...], frozenset[int]]]] = [[] for _ in range(n)]
            for (s, vec), ranges in by_vec.items():
                if s != side:
                    continue
                back = (-vec[0], -vec[1])
                longest = 0 if 0 in ranges else max(ranges)
                for cell in range(n):
                    ray = g.ray(cell, back)
                    if longest:
                        ray = ray[:longest]
                    # A ray whose back-steps are not forward-steps (asymmetric filters) would lie.
                    ray = _consistent_ray(g, cell, vec, ray)
                    if not ray:
                        continue
                    sets = tuple(
                        frozenset(c for rng, codes in ranges.items() if rng == 0 or rng > d for c in codes)
                        for d in range(len(ray))
                    )
                    per_cell[cell].append((ray, sets))
            for (s, vec), hoppers in hop_by_vec.items():
                if s != side:
                    continue
                back = (-vec[0], -vec[1])
                for cell in range(n):
                    ray = _consistent_ray(g, cell, vec, g.ray(cell, back))
                    if ray:
                        hop_cell[cell].append((ray, frozenset(hoppers)))
            self.attack_rays.append([_merge_rays(c) for c in per_cell])
            self.hop_rays.append([tuple(c) for c in hop_cell])


def _merge_leaps(items: list[tuple[int, int, int, bool]]) -> tuple[tuple[int, int, int, bool], ...]:
    """Union the modes of identical leaps so a target is generated once."""
    merged: dict[tuple[int, int, bool], int] = {}
    for t, mode, lame, initial in items:
        merged[(t, lame, initial)] = merged.get((t, lame, initial), 0) | mode
    return tuple((t, mode, lame, initial) for (t, lame, initial), mode in merged.items())


def _merge_rays(items: list[tuple[tuple[int, ...], tuple[frozenset[int], ...]]]):
    """Rays that start along the same line merge their attacker sets (e.g. K and Q on one line)."""
    merged: dict[tuple[int, ...], list[set[int]]] = {}
    order: list[tuple[int, ...]] = []
    for ray, sets in items:
        key = None
        for existing in order:
            if existing[: len(ray)] == ray or ray[: len(existing)] == existing:
                key = existing
                break
        if key is None:
            order.append(ray)
            merged[ray] = [set(s) for s in sets]
            continue
        if len(ray) > len(key):
            old = merged.pop(key)
            order[order.index(key)] = ray
            merged[ray] = [set(s) for s in sets]
            for i, s in enumerate(old):
                merged[ray][i] |= s
        else:
            for i, attackers in enumerate(sets):
                merged[key][i] |= attackers
    return tuple((ray, tuple(frozenset(s) for s in merged[ray])) for ray in order)


def _consistent_ray(g: Geometry, cell: int, vec: Vector, ray: tuple[int, ...]) -> tuple[int, ...]:
    """Trim a backward ray to the part from which a forward ride really reaches ``cell``."""
    fwd = g.step(vec)
    out: list[int] = []
    prev = cell
    for c in ray:
        if fwd[c] != prev:
            break
        out.append(c)
        prev = c
    return tuple(out)
