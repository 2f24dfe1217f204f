"""The rules runner: everything the variant data says, plus its rule components at each stage.

``Rules`` compiles what the data says (piece move tables, promotion zones, royal pieces) and runs
the variant's components (``engine.components``) at their stages. It is never subclassed: a game
that needs a new kind of rule adds a component. The component list comes from the variant data:
flags imply the standard components (``castling = true`` adds ``castling``, ``royalty =
"checkmate"`` adds ``royal_safety`` and ``no_moves``...) and ``rules = [...]`` names the others.

Move generation: ``board_moves`` (first component that answers, else the piece tables) ->
``generate`` -> ``transform`` = pseudo-legal moves; then ``filter`` -> ``legality`` ->
``select`` = legal moves. Attack detection uses the same tables the generator walks, plus the
moves of pieces whose captures are coded (a hook), so a piece that captures by leaping over or by
charging also gives check.

The two walkers live beside it: ``table_moves`` (the piece tables, the movement hooks and the
promotions) and ``attacks`` (attacks, royal cells, pins and the lines into a royal). ``Rules``
builds one of each and exposes their methods under its own names (``rules.piece_moves``,
``rules.attacked``, ``rules.royal_cells``...), which is what the components call.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar, cast

from .attacks import Attacks
from .capabilities import Agreement, Placement, Scoring, TurnNote
from .components import Component, Mover, component_class, overrides
from .errors import PositionError, VariantError
from .moves import Move
from .position import Outcome
from .table_moves import TableMoves

if TYPE_CHECKING:
    from .position import Position
    from .variant_data import Variant


C = TypeVar("C", bound=Component)


class Rules:
    """Standard rules driven by the data, with the variant's components plugged in."""

    def __init__(self, variant: Variant) -> None:
        self.v = variant
        g = variant.geometry
        n = g.size
        self.enemies = [tuple(s for s in range(variant.nsides) if s != side) for side in range(variant.nsides)]
        self.promo_zone = [bytearray(n) for _ in range(variant.nsides)]
        for side, zone in enumerate(variant.promotion_zones[: variant.nsides]):
            for c in zone:
                self.promo_zone[side][c] = 1
        self.promo_codes = [tuple(variant.code(k, s) for k in variant.promotion_choices)
                            for s in range(variant.nsides)]
        self.royal_codes = [frozenset(variant.code(k, s) for k, kind in enumerate(variant.kinds) if kind.royal)
                            for s in range(variant.nsides)]
        self.forward_step = [g.step(f) for f in variant.forward]

        # -- components ----------------------------------------------------------------------------
        comps: list[Component] = []
        # Components may look up the ones listed before them while they are built.
        self.components: tuple[Component, ...] | list[Component] = comps
        for name in variant.component_names:
            try:
                cls = component_class(name)
            except KeyError:
                raise VariantError(f"variant {variant.name}: unknown rule component {name!r}") from None
            comps.append(cls(self))
        self.components = tuple(comps)
        known_options = {k for c in comps for k in c.options}
        unknown = set(variant.options) - known_options
        if unknown:
            raise VariantError(f"variant {variant.name}: unknown option {sorted(unknown)[0]!r}: read by none of its "
                               f"rule components ({', '.join(c.name for c in comps) or 'none'})")

        def at(stage: str) -> list[Component]:
            """The components that take part in ``stage``, in order."""
            return [c for c in comps if overrides(c, stage)]

        self._board_moves = [c.board_moves for c in at("board_moves")]
        self._generate = [c.generate for c in at("generate")]
        self._transform = [c.transform for c in at("transform")]
        self._filter = [c.filter for c in at("filter")]
        self._legality = [c.legality for c in at("legality")]
        self._select = [c.select for c in at("select")]
        self.after_push_stage = [c.after_push for c in at("after_push")]
        self.next_side_stage = [c.next_side for c in at("next_side")]
        self._outcome = [c.outcome for c in at("outcome")]
        self._has_legal = [c.has_legal_move for c in at("has_legal_move")]
        self._validate = [c.validate for c in at("validate")]
        self._evaluate = [c.evaluate for c in at("evaluate")]
        self._plays_against = [c.plays_against for c in at("plays_against")]
        #: The hash of the position whose outcome ``playable_moves`` asks, having found moves.
        self._moving_hash: int | None = None
        #: The legal moves ``has_legal_move`` generated, kept for the next ``legal_moves`` call of
        #: the same position unchanged (``_Spare``): a search node asks its outcome (no moves?)
        #: and then its moves, which would generate them twice.
        self._spare: _Spare | None = None
        movers: dict[str, Mover] = {}
        for comp in comps:
            movers.update(comp.movers())
        self.hooks: dict[int, Mover] = {}
        for k, kind in enumerate(variant.kinds):
            if not kind.hook:
                continue
            if kind.hook not in movers:
                raise VariantError(f"variant {variant.name}: piece {kind.letter}: no rule component moves "
                                   f"hook {kind.hook!r}")
            for s in range(variant.nsides):
                self.hooks[variant.code(k, s)] = movers[kind.hook]
        leapers = {h for comp in comps for h in comp.leaper_hooks}
        # -- the walkers: the piece tables (``table_moves``) and the attack lines (``attacks``);
        # their methods are this runner's, bound once (no extra call at every node of a search).
        self.table_moves = TableMoves(variant, self.promo_zone, self.promo_codes, self.hooks,
                                      [c.promotion_choices for c in at("promotion_choices")])
        self.piece_moves = self.table_moves.piece_moves
        self.promotion_codes = self.table_moves.promotion_codes
        self.promotions = self.table_moves.promotions
        self.attacks = Attacks(variant, self.enemies, self.royal_codes, self.hooks, leapers,
                               [c.attacks for c in at("attacks")])
        self.attacked = self.attacks.attacked
        self.royal_cells = self.attacks.royal_cells
        self.royal_attacked = self.attacks.royal_attacked
        self.is_safe_after = self.attacks.is_safe_after
        self.king_lines = self.attacks.king_lines
        self.open_lines = self.attacks.open_lines
        #: Every attack is a table piece's along the reverse attack rays (no hoppers, no coded
        #: captures): one walk along the lines into a cell then tells what attacks it.
        self.attacks_from_tables = not variant.hoppers and not self.attacks.coded
        #: Only table pieces and leaping coded pieces: pins come from table riders alone, so the
        #: royal rule may use its one-walk shortcut whenever the side to move is not in check.
        self.pins_from_tables = not variant.hoppers and all(kind.hook in leapers for kind in variant.kinds
                                                            if kind.hook)
        self.state_keys = frozenset(k for c in comps for k in c.state_keys)
        self.shows_hand = any(c.shows_hand for c in comps)
        self.tracks_hands = any(c.tracks_hands for c in comps)
        self.has_state = bool(self.state_keys)
        self.multi_move_turns = any(c.multi_move_turns for c in comps)
        # Declared capabilities: the first component providing each.
        provided = {cap: c for c in reversed(comps) for cap in c.provides}
        self.scoring = cast("Scoring | None", provided.get("scoring"))
        self.placement = cast("Placement | None", provided.get("placement"))
        self.agreement = cast("Agreement | None", provided.get("agreement"))
        self.turn_note = cast("TurnNote | None", provided.get("turn_note"))
        self.capabilities = frozenset(provided) | ({"multi_move_turns"} if self.multi_move_turns else set())

    def component(self, name: str) -> Component | None:
        """The variant's component called ``name`` (for tests and tools), or None."""
        return next((c for c in self.components if c.name == name), None)

    def get(self, cls: type[C]) -> C:
        """The variant's component of class ``cls``, typed (``KeyError`` when it has none)."""
        for c in self.components:
            if isinstance(c, cls):
                return c
        raise KeyError(f"variant {self.v.name} has no {cls.__name__} component")

    # -- generation ----------------------------------------------------------------------------------
    def pseudo_moves(self, pos: Position) -> list[Move]:
        """Generated moves: the first ``board_moves`` answer (else the piece tables), then the
        ``generate`` and ``transform`` stages."""
        for answer in self._board_moves:
            out = answer(pos)
            if out is not None:
                break
        else:
            out = self.piece_moves(pos)
        for generate in self._generate:
            generate(pos, out)
        for transform in self._transform:
            out = transform(pos, out)
        return out

    def legal_moves(self, pos: Position) -> list[Move]:
        """Generated moves through the ``filter``, ``legality`` and ``select`` stages."""
        spare = self._spare
        if spare is not None and spare.pos is pos:
            self._spare = None  # handed out once: the caller may change the list
            if spare.fits(pos):
                return spare.moves
        moves = self.pseudo_moves(pos)
        for keep in self._filter:
            moves = keep(pos, moves)
        for legal in self._legality:
            moves = legal(pos, moves)
        for select in self._select:
            moves = select(pos, moves)
        return moves

    def playable_moves(self, pos: Position) -> list[Move]:
        """The moves of the game: none in a finished position (``outcome`` names its end: a bare
        king, a captured royal, a line, a repetition...), else ``legal_moves``. The commands
        (``moves``, ``perft``, ``play``) answer with this; ``legal_moves`` stays what the men
        can do, the end not asked, as python-chess and Fairy-Stockfish list them and as studies of
        part positions (men without their royals) need (docs/notation.md, "Finished positions")."""
        moves = self.legal_moves(pos)
        if moves:
            self._moving_hash = pos.hash  # the outcome's "can the side move?" is answered: yes
            try:
                over = self.outcome(pos) is not None
            finally:
                self._moving_hash = None
            if over:
                return []
        return moves

    def has_legal_move(self, pos: Position) -> bool:
        """Whether the side to move has any legal move (outcome checks ask this every ply)."""
        if pos.hash == self._moving_hash:
            return True
        for answer in self._has_legal:
            known = answer(pos)
            if known is not None:
                return known
        moves = self.legal_moves(pos)
        self._spare = _Spare(pos, pos.version, pos.side, pos.hash, pos.board[:], dict(pos.extra), moves)
        return bool(moves)

    # -- attacks ------------------------------------------------------------------------------------
    def in_check(self, pos: Position) -> bool:
        """Is a royal piece of the side to move attacked?"""
        return self.royal_attacked(pos, pos.side)

    # -- after a move, turn order, outcome -----------------------------------------------------------
    def outcome(self, pos: Position) -> Outcome | None:
        for answer in self._outcome:
            result = answer(pos)
            if result is not None:
                return result
        return None

    def evaluate(self, pos: Position, values: Sequence[int], scores: list[int]) -> None:
        """The ``evaluate`` stage: every component adds its game's terms to the per-side
        ``scores`` (centipawns) a search computed from material and placement."""
        for term in self._evaluate:
            term(pos, values, scores)

    def plays_against(self, side: int, searcher: int) -> bool:
        """The ``plays_against`` stage: whether a search for ``searcher`` assumes ``side`` plays
        against it (every opponent, unless a component says otherwise)."""
        for stage in self._plays_against:
            answer = stage(side, searcher)
            if answer is not None:
                return answer
        return side != searcher

    def validate(self, pos: Position) -> None:
        """Raise ``PositionError`` for a position the variant cannot have."""
        for key in pos.extra:
            if key not in self.state_keys:
                raise PositionError(f"{self.v.name}: unknown state {key}={pos.extra[key]}")
        for check in self._validate:
            check(pos)


@dataclass(frozen=True, slots=True)
class _Spare:
    """Legal moves generated for ``pos`` as it stood: they are its moves while it stands so.
    ``version`` changes with every push and pop (and while one is under way); the rest guards
    against a position changed by hand (tests set cells and sides directly)."""

    pos: Position
    version: int
    side: int
    hash: int
    board: list[int]
    extra: dict[str, str]
    moves: list[Move]

    def fits(self, pos: Position) -> bool:
        return (self.version == pos.version and self.side == pos.side and self.hash == pos.hash
                and self.board == pos.board and self.extra == pos.extra)

