"""Variants as data.

Each variant is a TOML file in ``engine/variants/``. A file may name another in ``inherits`` and
then states only what differs (Fairy-Stockfish's ``[child:parent]`` idea). ``load_variant``
merges the chain, validates every key, and compiles the piece notation into per-cell move tables
that the move generator walks. Errors are ``VariantError`` with a one-line reason naming the key.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from . import codes
from . import geometry as geo
from .errors import GeometryError, NotationError, VariantError
from .geometry import Geometry, Vector
from .pieces import BOTH, CAPTURE, MOVE, lame_path, parse_betza, select_directions

# Every key a variant file may hold, with what it means; the validator rejects anything else.
VARIANT_KEYS: dict[str, str] = {
    "inherits": "name of the variant this one extends",
    "title": "human-readable name",
    "source": "rule text this variant follows",
    "geometry": "board shape table (type = rectangle | ring | two_boards ...)",
    "sides": "names of the sides in turn order",
    "side_letters": "for 3+ sides: one lower-case mark per side, written before piece letters",
    "forward": "per side, the grid vector that counts as forward",
    "start": "start position in the text position notation",
    "pieces": "table of piece kinds by letter",
    "royalty": "checkmate | capture_any (alias king_capture) | capture_all | none",
    "stalemate": "draw | loss | win (for the side that cannot move)",
    "fifty_move": "plies without capture or pawn move that draw (0: off)",
    "repetition": "occurrences of one position that draw (0: off)",
    "insufficient_material": "none | fide",
    "castling": "true when kings castle with rooks",
    "en_passant": "true when pawns capture en passant",
    "promotion": "table: zones (region per side), choices (letters), from_captured (bool), optional (bool)",
    "rules": "list of rule component names (engine.components) for what data cannot say",
    "options": "table of settings read by the variant's rule components",
    "bare_king": "true when a side left with only royal (and non-checking) pieces loses",
    "notation": "move notation name (uci)",
    "line_length": "a side with this many pieces in one straight line wins (0: off)",
}
PIECE_KEYS: dict[str, str] = {
    "name": "piece name",
    "betza": "movement in the piece notation (engine.pieces)",
    "royal": "true when losing it (or being checkmated) loses the game",
    "pawn": "true for pawns: promote in the zone, count for the fifty-move rule",
    "en_passant": "true when its multi-step non-capturing move may be captured en passant",
    "captures_en_passant": "true when its captures include en passant",
    "castles": "king | rook",
    "gives_check": "false for pieces that may not attack royal pieces",
    "value": "material or scoring value",
    "glyph": "picture for the display: king queen rook bishop knight pawn, or a letter",
    "remove": "true in a child variant: drop the inherited piece",
    "hook": "name of a movement hook a rule component provides, for moves the notation cannot say",
    "san": "its letters in SAN and on the display's move list (default: the letter; none for a pawn)",
    "initial_from": "letter of the piece it is made from: its 'i' moves apply where the start holds that piece",
}
GEOMETRY_KEYS = {
    "type", "files", "ranks", "holes", "regions", "step_regions", "cells", "names", "base", "suffixes",
    "sectors",
}


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

    def __post_init__(self) -> None:
        self.nsides = len(self.sides)
        self.kind_index = {k.letter: i for i, k in enumerate(self.kinds)}
        self.component_names = self._component_names()
        self._compile()
        from .rules import rules_for  # local: rules import this module
        self.rules = rules_for(self)

    def _component_names(self) -> tuple[str, ...]:
        """The rule components in stage order: what the data flags imply around the ones the
        ``rules`` key names (generation helpers first, then the named ones, then royalty and the
        standard ends of a game, so a named component's outcome is asked first)."""
        first = [name for name, on in (("castling", self.castling), ("en_passant", self.en_passant),
                                       ("captured_pool", self.promotion_from_captured)) if on]
        royal = {"checkmate": ["royal_safety"], "king_capture": ["royal_capture"],
                 "capture_any": ["royal_capture"], "capture_all": ["royal_capture"]}.get(self.royalty, [])
        last = [name for name, on in (("line", self.line_length > 0), ("bare_king", self.bare_king),
                                      ("no_moves", True), ("fifty_move", self.fifty_move > 0),
                                      ("repetition", self.repetition > 0),
                                      ("insufficient_material", self.insufficient_material == "fide")) if on]
        named = [n for n in self.rule_components if n not in first + royal + last]
        from .components import component_class
        superseded = {s for n in named for s in component_class(n).supersedes}
        return tuple(n for n in dict.fromkeys([*first, *named, *royal, *last]) if n not in superseded)

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
        from .notation import parse_board
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


# ---------------------------------------------------------------------------------------------
# Loading
# ---------------------------------------------------------------------------------------------
def _read(name: str) -> dict[str, Any]:
    """The data of a shipped variant, else of a user variant file of that name."""
    try:
        text = resources.files("engine.variants").joinpath(f"{name}.toml").read_text(encoding="utf-8")
    except (FileNotFoundError, OSError):
        user = user_variants_dir() / f"{name}.toml"
        if not user.is_file():
            raise VariantError(f"unsupported variant: {name!r} (see 'chessery variants')") from None
        try:
            text = user.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise VariantError(f"variant file {user}: cannot read: {exc}") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise VariantError(f"variant {name}: bad TOML: {exc}") from None


def _merge(parent: dict[str, Any], child: dict[str, Any]) -> dict[str, Any]:
    out = dict(parent)
    for key, value in child.items():
        if key == "pieces":
            pieces = {k: dict(v) for k, v in parent.get("pieces", {}).items()}
            for letter, spec in value.items():
                if spec.get("remove"):
                    pieces.pop(letter, None)
                else:
                    pieces[letter] = {**pieces.get(letter, {}), **spec}
            out["pieces"] = pieces
        elif key in ("options", "promotion") and isinstance(value, dict):
            out[key] = {**parent.get(key, {}), **value}
        else:
            out[key] = value
    out.pop("inherits", None)
    return out


def resolve(name: str, _seen: tuple[str, ...] = (), data: dict[str, Any] | None = None) -> dict[str, Any]:
    """The merged data of a variant and its ancestors (``data`` instead of the shipped file)."""
    if name in _seen:
        raise VariantError(f"variant {name}: inheritance loop through {' -> '.join((*_seen, name))}")
    if data is None:
        data = _read(name)
    unknown = set(data) - set(VARIANT_KEYS)
    if unknown:
        raise VariantError(f"variant {name}: unknown key {sorted(unknown)[0]!r}")
    parent = data.get("inherits")
    if parent:
        return _merge(resolve(parent, (*_seen, name)), data)
    return data


def variant_from_toml(name: str, text: str) -> Variant:
    """A variant defined by TOML text (which may inherit from a shipped variant): for tests and
    for users trying a rule set before it ships. Same validation as shipped variants."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise VariantError(f"variant {name}: bad TOML: {exc}") from None
    return build_variant(name, resolve(name, data=data))


def build_geometry(spec: dict[str, Any], where: str) -> Geometry:
    unknown = set(spec) - GEOMETRY_KEYS
    if unknown:
        raise VariantError(f"{where}: unknown geometry key {sorted(unknown)[0]!r}")
    kind = spec.get("type")
    try:
        if kind == "rectangle":
            return geo.rectangle(
                int(spec["files"]), int(spec["ranks"]), holes=spec.get("holes", ()),
                regions=spec.get("regions"), step_regions=spec.get("step_regions", ()),
            )
        if kind == "ring":
            return geo.ring(int(spec["cells"]), names=spec.get("names"), regions=spec.get("regions"),
                            sectors=int(spec.get("sectors", 8)))
        if kind == "two_boards":
            base = build_geometry(spec["base"], where)
            suffixes = tuple(spec.get("suffixes", ("", "'")))
            return geo.two_boards(base, (suffixes[0], suffixes[1]))
    except KeyError as exc:
        raise VariantError(f"{where}: geometry needs {exc.args[0]!r}") from None
    except GeometryError as exc:
        raise VariantError(f"{where}: {exc}") from None
    raise VariantError(f"{where}: unknown geometry type {kind!r}")


@cache
def load_variant(name: str) -> Variant:
    """Load, merge, validate and compile a shipped variant by name."""
    return build_variant(name, resolve(name))


def build_variant(name: str, data: dict[str, Any]) -> Variant:
    """Validate merged variant data and compile it."""
    where = f"variant {name}"
    for key in ("geometry", "sides", "start", "pieces"):
        if key not in data:
            raise VariantError(f"{where}: missing key {key!r}")
    geometry = build_geometry(data["geometry"], where)
    sides = tuple(data["sides"])
    forward = tuple(tuple(v) for v in data.get("forward", [[0, 1], [0, -1]][: len(sides)]))
    if len(forward) != len(sides):
        raise VariantError(f"{where}: 'forward' needs one vector per side")
    kinds: list[PieceKind] = []
    for letter, spec in data["pieces"].items():
        bad = set(spec) - set(PIECE_KEYS)
        if bad:
            raise VariantError(f"{where}: piece {letter}: unknown key {sorted(bad)[0]!r}")
        if not letter or not letter[-1].isupper() or len(letter) > 2:
            raise VariantError(f"{where}: piece letter {letter!r} must be an upper-case letter")
        try:
            parse_betza(spec.get("betza", "")) if spec.get("betza") else None
        except NotationError as exc:
            raise VariantError(f"{where}: piece {letter}: {exc}") from None
        kinds.append(PieceKind(letter=letter, name=spec.get("name", letter), betza=spec.get("betza", ""),
                               royal=bool(spec.get("royal", False)), pawn=bool(spec.get("pawn", False)),
                               en_passant=bool(spec.get("en_passant", False)),
                               captures_en_passant=bool(spec.get("captures_en_passant", False)),
                               castles=spec.get("castles", ""), gives_check=bool(spec.get("gives_check", True)),
                               value=int(spec.get("value", 0)), glyph=spec.get("glyph", ""),
                               hook=spec.get("hook", ""), san=spec.get("san"),
                               initial_from=spec.get("initial_from", "")))
    if len(kinds) > 60:
        raise VariantError(f"{where}: too many piece kinds")
    kind_index = {k.letter: i for i, k in enumerate(kinds)}
    promo = data.get("promotion", {})
    zones: tuple[frozenset[int], ...] = ()
    choices: tuple[int, ...] = ()
    bad_promo = set(promo) - {"zones", "choices", "from_captured", "optional"}
    if bad_promo:
        raise VariantError(f"{where}: unknown promotion key {sorted(bad_promo)[0]!r}")
    if promo:
        try:
            zones = tuple(geometry.region(z) for z in promo.get("zones", ()))
        except ValueError as exc:
            raise VariantError(f"{where}: promotion zones: {exc}") from None
        for ch in promo.get("choices", ""):
            if ch.upper() not in kind_index:
                raise VariantError(f"{where}: promotion choice {ch!r} is not a piece")
        choices = tuple(kind_index[ch.upper()] for ch in promo.get("choices", ""))
    for key, allowed in (("royalty", ("checkmate", "king_capture", "capture_any", "capture_all", "none")),
                         ("stalemate", ("draw", "loss", "win")),
                         ("insufficient_material", ("none", "fide"))):
        if key in data and data[key] not in allowed:
            raise VariantError(f"{where}: {key} must be one of {', '.join(allowed)}, not {data[key]!r}")
    side_letters = tuple(data.get("side_letters", ()))
    if len(sides) > 2 and len(side_letters) != len(sides):
        raise VariantError(f"{where}: 'side_letters' needs one mark per side for {len(sides)} sides")
    if not 2 <= len(sides) <= codes.MAX_SIDES:
        raise VariantError(f"{where}: 2 to {codes.MAX_SIDES} sides are supported, not {len(sides)}")
    rules = data.get("rules", [])
    if isinstance(rules, str):
        rules = [rules]
    if not isinstance(rules, list) or not all(isinstance(r, str) for r in rules):
        raise VariantError(f"{where}: 'rules' must be a list of rule component names")
    from .components import component_names
    for r in rules:
        if r not in component_names():
            raise VariantError(f"{where}: rules: unknown rule component {r!r} (known: {', '.join(component_names())})")
    try:
        return _construct(name, data, geometry, sides, forward, kinds, zones, choices, promo, side_letters)
    except VariantError:
        raise
    except ValueError as exc:
        raise VariantError(f"{where}: {exc}") from None


def _construct(name: str, data: dict[str, Any], geometry: Geometry, sides: tuple[str, ...],
               forward: tuple, kinds: list[PieceKind], zones: tuple[frozenset[int], ...],
               choices: tuple[int, ...], promo: dict[str, Any], side_letters: tuple[str, ...]) -> Variant:
    where = f"variant {name}"
    variant = Variant(
        name=name, title=data.get("title", name), geometry=geometry, sides=sides, forward=forward,
        kinds=tuple(kinds), start=data["start"], royalty=data.get("royalty", "checkmate"),
        stalemate=data.get("stalemate", "draw"), fifty_move=int(data.get("fifty_move", 100)),
        repetition=int(data.get("repetition", 3)),
        insufficient_material=data.get("insufficient_material", "none"),
        castling=bool(data.get("castling", False)), en_passant=bool(data.get("en_passant", False)),
        promotion_zones=zones, promotion_choices=choices,
        promotion_from_captured=bool(promo.get("from_captured", False)),
        promotion_optional=bool(promo.get("optional", False)),
        rule_components=tuple(r for r in ([data["rules"]] if isinstance(data.get("rules"), str)
                                          else data.get("rules", []))),
        options=dict(data.get("options", {})),
        bare_king=bool(data.get("bare_king", False)), side_letters=side_letters,
        source=data.get("source", ""), line_length=int(data.get("line_length", 0)),
    )
    # The start position must parse: a bad setup is a data error, reported at load time.
    from .notation import parse_fen
    try:
        parse_fen(variant, variant.start)
    except ValueError as exc:
        raise VariantError(f"{where}: bad start position: {exc}") from None
    return variant


def variant_names() -> list[str]:
    """Every variant shipped, sorted."""
    files = resources.files("engine.variants").iterdir()
    return sorted(f.name[:-5] for f in files if f.name.endswith(".toml"))


def user_variants_dir() -> Path:
    """Where users keep their own variant files: ``$CHESSERY_VARIANTS_DIR``, else the
    ``variants`` folder in the platform's config directory for Chessery."""
    override = os.environ.get("CHESSERY_VARIANTS_DIR")
    if override:
        return Path(override)
    import platformdirs

    return Path(platformdirs.user_config_dir("chessery")) / "variants"


def user_variant_names() -> list[str]:
    """Names of the user's variant files (``<name>.toml`` in ``user_variants_dir()``) that do not
    shadow a shipped variant, sorted."""
    folder = user_variants_dir()
    if not folder.is_dir():
        return []
    shipped = set(variant_names())
    return sorted(f.stem for f in folder.glob("*.toml") if f.stem not in shipped)


def variant_from_file(path: str | Path) -> Variant:
    """A variant from a TOML file anywhere (its name is the file's stem); it may inherit from
    a shipped variant. ``VariantError`` names the file and the key at fault."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise VariantError(f"variant file {path}: cannot read: {exc}") from None
    try:
        return variant_from_toml(path.stem, text)
    except VariantError as exc:
        raise VariantError(f"{path}: {exc}") from None


def find_variant(name: str) -> Variant:
    """The variant called ``name``: a shipped variant, a user variant file's name, or a path to a
    TOML file. ``VariantError`` (a ``ValueError``) for anything else, in one line."""
    if name.endswith(".toml") or os.sep in name:
        if not Path(name).is_file():
            raise VariantError(f"variant file {name!r} does not exist")
        return _variant_file_cached(str(Path(name).resolve()), Path(name).stat().st_mtime_ns)
    if not name:
        raise VariantError("empty variant name (see 'chessery variants')")
    if name in variant_names():
        return load_variant(name)
    user = user_variants_dir() / f"{name}.toml"
    if user.is_file():
        return _variant_file_cached(str(user.resolve()), user.stat().st_mtime_ns)
    raise VariantError(f"unsupported variant: {name!r} (see 'chessery variants')")


@cache
def _variant_file_cached(path: str, _mtime: int) -> Variant:
    # keyed on the modification time too: an edited file is read again
    return variant_from_file(path)


# Re-exported for callers that build moves by mode.
__all__ = ["BOTH", "CAPTURE", "MOVE", "PieceKind", "Variant", "VariantError", "find_variant", "load_variant",
           "user_variant_names", "user_variants_dir", "variant_from_file", "variant_from_toml", "variant_names"]
