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
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar, cast

from .capabilities import Agreement, Placement, Scoring, TurnNote
from .components import Component, Mover, component_class, overrides
from .errors import PositionError, VariantError
from .moves import Move
from .pieces import BOTH, CAPTURE, MOVE
from .position import Outcome

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
        owner = variant.owner
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
        # Per promoting piece and cell: can any of its moves from there end in its zone? Only
        # then does generation need the slower path that checks every target for promotion.
        self.may_promote: list[bytearray] = [bytearray() for _ in range(variant.max_code)]
        for code in variant.all_codes():
            if not variant.is_pawn[code]:
                continue
            cells_in_zone = self.promo_zone[owner[code]]
            self.may_promote[code] = bytearray(
                any(cells_in_zone[t] for t, *_ in variant.leaps[code][c]) or
                any(cells_in_zone[t] for ray, *_ in variant.rides[code][c] for t in ray)
                for c in range(n))

        # Plain moves are interned: the same piece going from one cell to another (taking the same
        # code) is always the same immutable Move, built once. Generation then appends a table
        # entry instead of constructing an object per move: a Move() call costs about 15 list
        # lookups, and move objects are most of what a search node makes. Built per piece code and
        # cell on first use, so big boards only pay for the cells their pieces visit.
        self._plain: list[list[dict[int, Move] | None]] = [[None] * n for _ in range(variant.max_code)]
        self._capture_key = n

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
        self._attacks = [c.attacks for c in at("attacks")]
        self.after_push_stage = [c.after_push for c in at("after_push")]
        self.next_side_stage = [c.next_side for c in at("next_side")]
        self._outcome = [c.outcome for c in at("outcome")]
        self._has_legal = [c.has_legal_move for c in at("has_legal_move")]
        self._validate = [c.validate for c in at("validate")]
        self._evaluate = [c.evaluate for c in at("evaluate")]
        self._promotion_choices = [c.promotion_choices for c in at("promotion_choices")]
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
        # Pieces whose captures are coded give check through their generated moves, unless a
        # component reports their (leaping) attacks itself.
        leapers = {h for comp in comps for h in comp.leaper_hooks}
        self.hook_attackers = [frozenset(code for code in self.hooks if owner[code] == s
                                         and variant.kinds[variant.kind_at[code]].gives_check
                                         and variant.kinds[variant.kind_at[code]].hook not in leapers)
                               for s in range(variant.nsides)]
        self._coded_attacks = any(self.hook_attackers) or bool(self._attacks)
        #: Every attack is a table piece's along the reverse attack rays (no hoppers, no coded
        #: captures): one walk along the lines into a cell then tells what attacks it.
        self.attacks_from_tables = not variant.hoppers and not self._coded_attacks
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

    def piece_moves(self, pos: Position) -> list[Move]:
        """Every move the piece tables (and the movement hooks) give the side to move."""
        v = self.v
        board = pos.board
        side = pos.side
        owner = v.owner
        out: list[Move] = []
        append = out.append
        leaps_t = v.leaps
        rides_t = v.rides
        hooks = self.hooks
        overlaps = v.overlaps
        promo = self.promo_zone[side]
        is_pawn = v.is_pawn
        plain_rows = self._plain
        # a capture's key, target + cells * victim, sits above every quiet move's (its target)
        ck = self._capture_key
        start = 0
        for cell, code in enumerate(board):
            if owner[code] != side:
                continue
            if overlaps[code]:
                start = len(out)
            if hooks and code in hooks:
                hooks[code](pos, cell, code, out)
                if not leaps_t[code][cell] and not rides_t[code][cell]:
                    continue
            if is_pawn[code] and self.may_promote[code][cell]:
                self._pawn_moves(pos, cell, code, side, promo, out)
            else:
                plain = plain_rows[code][cell]
                if plain is None:
                    plain = self._plain_row(code, cell)
                for t, mode, lame, _initial in leaps_t[code][cell]:
                    if lame >= 0 and board[lame]:
                        continue
                    c = board[t]
                    if c == 0:
                        if mode & MOVE:
                            append(plain[t])
                    elif owner[c] != side and mode & CAPTURE:
                        append(plain.get(t + ck * c) or self._capture(plain, cell, t, code, c))
                for ray, mode, hop, _initial in rides_t[code][cell]:
                    if hop:
                        self._hop_moves(board, cell, code, side, ray, mode, out)
                    elif mode == BOTH:
                        for t in ray:
                            c = board[t]
                            if c == 0:
                                append(plain[t])
                                continue
                            if owner[c] != side:
                                append(plain.get(t + ck * c) or self._capture(plain, cell, t, code, c))
                            break
                    else:
                        for t in ray:
                            c = board[t]
                            if c == 0:
                                if mode & MOVE:
                                    append(plain[t])
                                continue
                            if owner[c] != side and mode & CAPTURE:
                                append(plain.get(t + ck * c) or self._capture(plain, cell, t, code, c))
                            break
            if overlaps[code]:
                _dedupe(out, start)
        return out

    def _plain_row(self, code: int, cell: int) -> dict[int, Move]:
        """The interned quiet moves of ``code`` from ``cell``, by target (captures are added by
        ``_capture`` as they are met)."""
        v = self.v
        row: dict[int, Move] = {}
        for t, *_ in v.leaps[code][cell]:
            row[t] = Move(cell, t, code)
        for ray, *_ in v.rides[code][cell]:
            for t in ray:
                row.setdefault(t, Move(cell, t, code))
        self._plain[code][cell] = row
        return row

    def _capture(self, row: dict[int, Move], cell: int, t: int, code: int, captured: int) -> Move:
        move = row[t + self._capture_key * captured] = Move(cell, t, code, captured)
        return move

    def _pawn_moves(self, pos: Position, cell: int, code: int, side: int, promo: bytearray,
                    out: list[Move]) -> None:
        """Moves of a promoting piece: like any other, but each arrival in the zone promotes."""
        v = self.v
        board = pos.board
        owner = v.owner

        def arrive(t: int, captured: int) -> None:
            if promo[t]:
                self.promotions(pos, cell, t, code, captured, out)
            else:
                out.append(Move(cell, t, code, captured))

        for t, mode, lame, _initial in v.leaps[code][cell]:
            if lame >= 0 and board[lame]:
                continue
            c = board[t]
            if (c == 0 and mode & MOVE) or (c and owner[c] != side and mode & CAPTURE):
                arrive(t, c)
        for ray, mode, hop, _initial in v.rides[code][cell]:
            if hop:
                self._hop_moves(board, cell, code, side, ray, mode, out)
                continue
            for t in ray:
                c = board[t]
                if c == 0:
                    if mode & MOVE:
                        arrive(t, 0)
                    continue
                if owner[c] != side and mode & CAPTURE:
                    arrive(t, c)
                break

    def _hop_moves(self, board: list[int], cell: int, code: int, side: int, ray: tuple[int, ...], mode: int,
                   out: list[Move]) -> None:
        owner = self.v.owner
        screen = False
        for t in ray:
            c = board[t]
            if not screen:
                if c:
                    screen = True
                continue
            if c == 0:
                if mode & MOVE:
                    out.append(Move(cell, t, code))
                continue
            if owner[c] != side and mode & CAPTURE:
                out.append(Move(cell, t, code, c))
            break

    def promotion_codes(self, pos: Position, code: int) -> tuple[int, ...]:
        """What a promoting piece may become: the data's choices, narrowed by the components'
        ``promotion_choices`` stage (``captured_pool``: only kinds waiting in the hand)."""
        codes = self.promo_codes[self.v.owner[code]]
        for narrow in self._promotion_choices:
            codes = narrow(pos, code, codes)
        return codes

    def promotions(self, pos: Position, frm: int, to: int, code: int, captured: int, out: list[Move]) -> None:
        """Append the move arriving in the promotion zone, once per choice (and unpromoted when optional)."""
        choices = self.promotion_codes(pos, code)
        if not choices or self.v.promotion_optional:
            out.append(Move(frm, to, code, captured))
        for p in choices:
            out.append(Move(frm, to, code, captured, promotion=p))

    # -- attacks and legality -----------------------------------------------------------------------
    def attacked(self, pos: Position, cell: int, by: tuple[int, ...]) -> bool:
        """Is ``cell`` attacked by any piece of the sides ``by`` (pieces that give check only)?
        Table pieces through the reverse attack rays; coded captures through their moves."""
        v = self.v
        board = pos.board
        for side in by:
            for ray, sets in v.attack_rays[side][cell]:
                for i, c in enumerate(ray):
                    p = board[c]
                    if p:
                        if p in sets[i]:
                            return True
                        break
            for ray, codes in v.hop_rays[side][cell]:
                screen = False
                for c in ray:
                    p = board[c]
                    if p:
                        if screen:
                            if p in codes:
                                return True
                            break
                        screen = True
        return self._coded_attacks and self._coded_attacked(pos, cell, by)

    def _coded_attacked(self, pos: Position, cell: int, by: tuple[int, ...]) -> bool:
        for side in by:
            if self.hook_attackers[side] and self._hook_attacks(pos, cell, side):
                return True
        return any(attacks(pos, cell, by) for attacks in self._attacks)

    def _hook_attacks(self, pos: Position, cell: int, side: int) -> bool:
        codes = self.hook_attackers[side]
        board = pos.board
        saved = pos.side
        # A mover generates for the side to move; ask it as that side, then restore.
        pos.side = side
        try:
            for c, code in enumerate(board):
                if code in codes:
                    out: list[Move] = []
                    self.hooks[code](pos, c, code, out)
                    if any(cell in m.victims for m in out):
                        return True
        finally:
            pos.side = saved
        return False

    def royal_cells(self, board: list[int], side: int) -> list[int]:
        # list.index scans in C: much faster than a Python loop over every cell
        out: list[int] = []
        for code in self.royal_codes[side]:
            i = -1
            try:
                while True:
                    i = board.index(code, i + 1)
                    out.append(i)
            except ValueError:
                pass
        return out

    def in_check(self, pos: Position) -> bool:
        """Is a royal piece of the side to move attacked?"""
        return self.royal_attacked(pos, pos.side)

    def royal_attacked(self, pos: Position, side: int) -> bool:
        """Is a royal piece of ``side`` attacked by any other side?"""
        enemies = self.enemies[side]
        return any(self.attacked(pos, r, enemies) for r in self.royal_cells(pos.board, side))

    def is_safe_after(self, pos: Position, move: Move, side: int, royals: list[int] | None = None) -> bool:
        """Play the move's board changes, test every royal piece of ``side``, undo. ``royals``:
        the royal cells before the move, when the caller knows them (saves a board scan)."""
        board = pos.board
        changes = move.changes
        for cell, _b, after in changes:
            board[cell] = after
        try:
            rc = self.royal_codes[side]
            if royals is None:
                after_royals = self.royal_cells(board, side)
            else:
                moved = {cell for cell, b, a in changes if b in rc or a in rc}
                after_royals = [r for r in royals if r not in moved] + [c for c in moved if board[c] in rc]
            enemies = self.enemies[side]
            attacked = self.attacked
            return not any(attacked(pos, r, enemies) for r in after_royals)
        finally:
            for cell, before, _a in changes:
                board[cell] = before

    def king_lines(self, board: list[int], king: int, side: int) -> tuple[frozenset[int] | None, set[int]]:
        """One walk along every attack line into ``king``: the cells a non-royal move must reach to
        answer a check (None: no check; empty: double check), and the own pieces pinned to it."""
        v = self.v
        owner = v.owner
        found: list[frozenset[int]] = []
        pinned: set[int] = set()
        for enemy in self.enemies[side]:
            for ray, sets in v.attack_rays[enemy][king]:
                first = -1
                for i, c in enumerate(ray):
                    p = board[c]
                    if not p:
                        continue
                    if first < 0:
                        if owner[p] != side:
                            if p in sets[i]:
                                found.append(frozenset(ray[: i + 1]))
                            break
                        first = c
                        continue
                    if p in sets[i]:
                        pinned.add(first)
                    break
        if not found:
            return None, pinned
        return (found[0] if len(found) == 1 else frozenset()), pinned

    def open_lines(self, board: list[int], targets: list[int], by: tuple[int, ...]
                   ) -> tuple[set[int], dict[int, frozenset[int]]] | None:
        """One walk along every attack line of the sides ``by`` into the cells ``targets``: the
        first piece on each line (moving it may open the line) and, per cell up to that piece,
        the codes that would attack a target from there. None when a target is attacked
        already. For variants whose attacks all come from the tables (``attacks_from_tables``)."""
        first: set[int] = set()
        open_codes: dict[int, frozenset[int]] = {}
        get = open_codes.get
        attack_rays = self.v.attack_rays
        for r in targets:
            for side in by:
                for ray, sets in attack_rays[side][r]:
                    for c, codes in zip(ray, sets):  # noqa: B905 (one set per cell of the ray)
                        known = get(c)
                        open_codes[c] = codes if known is None else known | codes
                        p = board[c]
                        if p:
                            if p in codes:
                                return None
                            first.add(c)
                            break
        return first, open_codes

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


def _dedupe(out: list[Move], start: int) -> None:
    """Keep one move per target and promotion among a piece's moves from ``start`` on: a piece
    whose components overlap (``QK``, ``mBF``, a rider going both ways round a ring) reaches some
    cells twice."""
    seen: set[tuple[int, int]] = set()
    kept: list[Move] = []
    for m in out[start:]:
        if m.tag:  # coded moves with the same target may differ in their effects
            kept.append(m)
            continue
        key = (m.to, m.promotion)
        if key not in seen:
            seen.add(key)
            kept.append(m)
    out[start:] = kept
