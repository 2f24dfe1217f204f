"""Variants as data: the loader.

Each variant is a TOML file in ``engine/variants/``. A file may name another in ``inherits`` and
then states only what differs (Fairy-Stockfish's ``[child:parent]`` idea). ``load_variant``
merges the chain, validates every key, builds the ``Variant`` (which compiles the piece notation
into per-cell move tables: ``engine.variant_data``), derives its rule components and builds the
runner that calls them (``engine.rules.Rules``). Errors are ``VariantError`` with a one-line
reason naming the key.
"""

from __future__ import annotations

import os
import tomllib
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import platformdirs

from . import codes
from . import geometry as geo
from .components import component_class, component_names
from .errors import GeometryError, NotationError, VariantError
from .geometry import Geometry
from .pieces import parse_betza
from .position import parse_fen
from .rules import Rules
from .variant_data import PieceKind, Variant

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



def component_order(v: Variant) -> tuple[str, ...]:
    """The rule components in stage order: what the data flags imply around the ones the
    ``rules`` key names (generation helpers first, then the named ones, then royalty and the
    standard ends of a game, so a named component's outcome is asked first)."""
    first = [name for name, on in (("castling", v.castling), ("en_passant", v.en_passant),
                                   ("captured_pool", v.promotion_from_captured)) if on]
    royal = {"checkmate": ["royal_safety"], "king_capture": ["royal_capture"],
             "capture_any": ["royal_capture"], "capture_all": ["royal_capture"]}.get(v.royalty, [])
    last = [name for name, on in (("line", v.line_length > 0), ("bare_king", v.bare_king),
                                  ("no_moves", True), ("fifty_move", v.fifty_move > 0),
                                  ("repetition", v.repetition > 0),
                                  ("insufficient_material", v.insufficient_material == "fide")) if on]
    named = [n for n in v.rule_components if n not in first + royal + last]
    superseded = {s for n in named for s in component_class(n).supersedes}
    return tuple(n for n in dict.fromkeys([*first, *named, *royal, *last]) if n not in superseded)



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
    variant.component_names = component_order(variant)
    variant.rules = Rules(variant)
    # The start position must parse: a bad setup is a data error, reported at load time.
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


__all__ = ["PieceKind", "Variant", "VariantError", "find_variant", "load_variant", "user_variant_names",
           "user_variants_dir", "variant_from_file", "variant_from_toml", "variant_names"]
