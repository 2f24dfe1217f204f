"""Rule components: the code behind what variant data cannot say, in small named pieces.

A variant is its data (the TOML file) plus a list of components. Each component is registered by
name and implements one or more *stages*, the way pluggy plugins implement hook specifications.
The rules runner (``engine.rules.Rules``) calls every component that implements a stage, in the
variant's component order, and never needs subclassing:

=================  ============================================================  ===============
stage              what a component does there                                   answers
=================  ============================================================  ===============
board_moves        replaces the piece tables' generation (drops while placing)   first non-None
movers             movement for piece kinds whose ``hook`` names it              per kind
promotion_choices  narrows what a promoting piece may become (captured pool)     all, in order
generate           appends moves (castling, en passant, terminators, chains)     all, in order
transform          turns generated moves into others (transfer, mutation)        all, in order
filter             drops pseudo-legal moves (frozen, forward only, petrified)    all, in order
legality           drops moves that break the royal rule (king left in check)    all, in order
select             chooses among legal moves (checks first, must capture)        all, in order
attacks            coded captures that count as attacks (check detection)        any True
after_push         updates state after a move's changes are on the board         all, in order
next_side          turn order (two moves a turn, three sides)                    first non-None
outcome            ends the game (checkmate, capture of royals, line, score)     first non-None
has_legal_move     a cheap answer to "can the side to move move at all?"         first non-None
validate           rejects positions the variant cannot have                     all
evaluate           adds the game's own terms to a search's per-side scores       all, in order
plays_against      whether a search assumes one side plays against another        first non-None
=================  ============================================================  ===============

Capabilities the controller relies on are declared, not discovered: a component lists them in
``provides`` (``scoring``, ``placement``, ``agreement``) and implements the matching protocol in
``engine.capabilities``; a variant's ``Rules`` exposes the provider (or None) as a typed attribute.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

if TYPE_CHECKING:
    from ..moves import Move
    from ..position import Outcome, Position
    from ..rules import Rules
    from ..variant_data import Variant

Mover = Callable[["Position", int, int, list["Move"]], None]

STAGES = ("board_moves", "promotion_choices", "generate", "transform", "filter", "legality", "select", "attacks",
          "after_push", "next_side", "outcome", "has_legal_move", "validate", "evaluate",
          "plays_against")


class Component:
    """Base of every rule component. Subclasses override only the stages they take part in;
    the runner finds them by comparing with this class."""

    #: Registered name, as variant files list it.
    name: ClassVar[str] = ""
    #: Keys of the variant's ``[options]`` table this component reads, with defaults.
    options: ClassVar[dict[str, Any]] = {}
    #: Keys of position state (``key=value`` in the position text) this component owns.
    state_keys: ClassVar[tuple[str, ...]] = ()
    #: Capabilities implemented (see ``engine.capabilities``).
    provides: ClassVar[tuple[str, ...]] = ()
    #: The position text always shows the hand (placement games).
    shows_hand: ClassVar[bool] = False
    #: Pushes change the hands: ``Position.push`` saves them for ``pop``.
    tracks_hands: ClassVar[bool] = False
    #: More than one move per turn.
    multi_move_turns: ClassVar[bool] = False
    #: Movement hooks (of this component's ``movers``) whose captures are single leaps: this
    #: component's ``attacks`` stage reports them, and they never pin, so the royal rule keeps its
    #: fast path (the runner otherwise tests coded pieces by generating their moves).
    leaper_hooks: ClassVar[tuple[str, ...]] = ()
    #: Standard components this one replaces (its own stages do their work, e.g. a legality
    #: stage that applies the royal rule in a form the game needs).
    supersedes: ClassVar[tuple[str, ...]] = ()

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.v: Variant = rules.v
        self.opts: dict[str, Any] = {**self.options, **{k: rules.v.options[k] for k in self.options
                                                           if k in rules.v.options}}

    # -- stages (overridden selectively) -----------------------------------------------------------
    def board_moves(self, pos: Position) -> list[Move] | None:
        return None

    def movers(self) -> dict[str, Mover]:
        """Movement hooks by the name piece kinds give in their ``hook`` key."""
        return {}

    def promotion_choices(self, pos: Position, code: int, codes: tuple[int, ...]) -> tuple[int, ...]:
        """The codes the piece ``code`` may promote to, from ``codes`` (the data's choices as
        narrowed by the components before this one)."""
        return codes

    def generate(self, pos: Position, out: list[Move]) -> None:
        return None

    def transform(self, pos: Position, moves: list[Move]) -> list[Move]:
        return moves

    def filter(self, pos: Position, moves: list[Move]) -> list[Move]:
        return moves

    def legality(self, pos: Position, moves: list[Move]) -> list[Move]:
        return moves

    def select(self, pos: Position, moves: list[Move]) -> list[Move]:
        return moves

    def attacks(self, pos: Position, cell: int, by: tuple[int, ...]) -> bool:
        return False

    def after_push(self, pos: Position, move: Move) -> None:
        return None

    def next_side(self, pos: Position, move: Move) -> int | None:
        return None

    def outcome(self, pos: Position) -> Outcome | None:
        return None

    def has_legal_move(self, pos: Position) -> bool | None:
        return None

    def validate(self, pos: Position) -> None:
        return None

    def evaluate(self, pos: Position, values: Sequence[int], scores: list[int]) -> None:
        """Add this game's terms, in centipawns, to ``scores[side]`` for each side: what a
        search (``engine.search``) cannot see in material and piece placement. ``values`` is the
        material the search counts per piece code."""
        return None

    def plays_against(self, side: int, searcher: int) -> bool | None:
        """Whether a search for ``searcher`` assumes that ``side`` plays against it (True, the
        default: every opponent) or for itself (False: it cannot threaten the searcher, so it
        makes its own best move; ``engine.search.sides``). Asked with three sides or more."""
        return None


_REGISTRY: dict[str, type[Component]] = {}
C = TypeVar("C", bound=type[Component])


def register(name: str) -> Callable[[C], C]:
    """Class decorator: make a component available to variant files by ``name``."""
    def deco(cls: C) -> C:
        if name in _REGISTRY and _REGISTRY[name] is not cls:
            raise ValueError(f"rule component {name!r} registered twice")
        cls.name = name
        _REGISTRY[name] = cls
        return cls
    return deco


def component_class(name: str) -> type[Component]:
    """The component registered as ``name``; ``KeyError`` if none."""
    _load_builtin()
    return _REGISTRY[name]


def component_names() -> list[str]:
    _load_builtin()
    return sorted(_REGISTRY)


def overrides(component: Component, stage: str) -> bool:
    """Whether the component's class (or a base between it and ``Component``) defines ``stage``."""
    for cls in type(component).__mro__:
        if cls is Component:
            return False
        if stage in vars(cls):
            return True
    return False


_loaded = False


def _load_builtin() -> None:
    # Component modules register themselves on import; loading them all here keeps the registry
    # complete without the variant loader knowing every module.
    global _loaded
    if _loaded:
        return
    _loaded = True
    for info in pkgutil.iter_modules(__path__):
        importlib.import_module(f"{__name__}.{info.name}")
