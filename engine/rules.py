"""Rule hooks: the code behind what variant data cannot say.

``Rules`` implements everything the data does say (moves from the compiled piece tables,
promotion, en passant, castling, royalty, draws). A variant whose rules need more names a
subclass in its ``rules`` key; the subclass overrides only the hooks it needs, the way
python-chess variants override ``is_variant_end``. Piece kinds with a ``hook`` key get their
moves from the method ``moves_<hook>(pos, cell, code, out)``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from .moves import CASTLE, EN_PASSANT, PLAIN, Move
from .pieces import BOTH, CAPTURE, MOVE
from .position import Outcome

if TYPE_CHECKING:
    from .position import Position
    from .variant import Variant

_REGISTRY: dict[str, type[Rules]] = {}


def register(name: str) -> Callable[[type[Rules]], type[Rules]]:
    """Class decorator: make a rule class available to variant files by ``name``."""
    def deco(cls: type[Rules]) -> type[Rules]:
        _REGISTRY[name] = cls
        cls.name = name
        return cls
    return deco


def rules_for(variant: Variant) -> Rules:
    _load_builtin_rules()
    try:
        cls = _REGISTRY[variant.rules_name]
    except KeyError:
        from .variant import VariantError
        raise VariantError(f"variant {variant.name}: unknown rules {variant.rules_name!r}") from None
    return cls(variant)


def _load_builtin_rules() -> None:
    # Rule modules register themselves on import; importing here keeps the registry complete
    # without the variant loader knowing every module.
    import importlib
    import pkgutil

    from . import variant_rules

    for info in pkgutil.iter_modules(variant_rules.__path__):
        importlib.import_module(f"{variant_rules.__name__}.{info.name}")


class Rules:
    """Standard rules driven entirely by the variant's data."""

    name = "standard"
    #: The position notation always shows the hand field (placement games).
    shows_hand = False
    #: Captured pieces change the hands (promotion to captured pieces, drops).
    tracks_hands = False
    #: The variant keeps state in ``pos.extra`` that push must save.
    has_state = False

    def __init__(self, variant: Variant) -> None:
        self.v = variant
        self.tracks_hands = self.tracks_hands or variant.promotion_from_captured
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
        self.ep_capturers = frozenset(variant.code(k, s) for k, kind in enumerate(variant.kinds)
                                      for s in range(variant.nsides) if kind.captures_en_passant)
        self.ep_victims = frozenset(variant.code(k, s) for k, kind in enumerate(variant.kinds)
                                    for s in range(variant.nsides) if kind.en_passant)
        self.hooks = {variant.code(k, s): getattr(self, f"moves_{kind.hook}")
                      for k, kind in enumerate(variant.kinds) if kind.hook for s in range(variant.nsides)}
        self.forward_step = [g.step(f) for f in variant.forward]
        # Per promoting piece and cell: can any of its moves from there end in its zone? Only
        # then does generation need the slower path that checks every target for promotion.
        self.may_promote: list[bytearray] = [bytearray() for _ in range(variant.max_code)]
        for code in variant.all_codes():
            if not variant.is_pawn[code]:
                continue
            zone = self.promo_zone[(code & 3) - 1]
            self.may_promote[code] = bytearray(
                any(zone[t] for t, *_ in variant.leaps[code][c]) or
                any(zone[t] for ray, *_ in variant.rides[code][c] for t in ray)
                for c in range(n))
        self.castle_kings = frozenset(variant.code(k, s) for k, kind in enumerate(variant.kinds)
                                      if kind.castles == "king" for s in range(variant.nsides))
        # castling looks for the king on the rook's own rank of its own board
        self.rank_cells = [tuple(c for c in range(n) if g.coords[c][1] == g.coords[r][1]
                                 and g.board_of[c] == g.board_of[r]) for r in range(n)]

    # -- hooks a subclass may override -------------------------------------------------------------
    def validate(self, pos: Position) -> None:
        """Raise ``PositionError`` for a position the variant cannot have."""

    def on_push(self, pos: Position, move: Move) -> None:
        """Update variant state in ``pos.extra``/``pos.hands`` after a move's changes are applied.
        The base keeps the pool of captured pieces that promotions may draw on."""
        if not self.v.promotion_from_captured:
            return
        mover = move.piece & 3
        for _cell, before, after in move.changes:
            if before and before & 3 != mover and after != before:
                hand = pos.hands[(before & 3) - 1]
                hand[before >> 2] = hand.get(before >> 2, 0) + 1
        if move.promotion and move.promotion != move.piece and move.tag not in ("drop", "remove"):
            hand = pos.hands[(move.piece & 3) - 1]
            hand[move.promotion >> 2] -= 1
            if not hand[move.promotion >> 2]:
                del hand[move.promotion >> 2]

    def extra_moves(self, pos: Position, out: list[Move]) -> None:
        """Moves the piece tables do not produce (drops, pushes, terminators...)."""

    def variant_outcome(self, pos: Position) -> Outcome | None:
        """A variant-specific end checked before the standard ones."""
        return None

    # -- generation ----------------------------------------------------------------------------------
    def pseudo_moves(self, pos: Position) -> list[Move]:
        v = self.v
        board = pos.board
        me = pos.side + 1
        out: list[Move] = []
        append = out.append
        leaps_t = v.leaps
        rides_t = v.rides
        hooks = self.hooks
        promo = self.promo_zone[pos.side]
        is_pawn = v.is_pawn
        for cell, code in enumerate(board):
            if not code or code & 3 != me:
                continue
            if hooks and code in hooks:
                hooks[code](pos, cell, code, out)
                if not leaps_t[code][cell] and not rides_t[code][cell]:
                    continue
            if is_pawn[code] and self.may_promote[code][cell]:
                self._pawn_moves(pos, cell, code, me, promo, out)
                continue
            for t, mode, lame, _initial in leaps_t[code][cell]:
                if lame >= 0 and board[lame]:
                    continue
                c = board[t]
                if c == 0:
                    if mode & MOVE:
                        append(Move(cell, t, code))
                elif c & 3 != me and mode & CAPTURE:
                    append(Move(cell, t, code, c))
            for ray, mode, hop, _initial in rides_t[code][cell]:
                if hop:
                    self._hop_moves(board, cell, code, me, ray, mode, out)
                elif mode == BOTH:
                    for t in ray:
                        c = board[t]
                        if c == 0:
                            append(Move(cell, t, code))
                            continue
                        if c & 3 != me:
                            append(Move(cell, t, code, c))
                        break
                else:
                    for t in ray:
                        c = board[t]
                        if c == 0:
                            if mode & MOVE:
                                append(Move(cell, t, code))
                            continue
                        if c & 3 != me and mode & CAPTURE:
                            append(Move(cell, t, code, c))
                        break
        if pos.ep >= 0 and v.en_passant:
            self._en_passant(pos, out)
        if pos.castling:
            self._castling(pos, out)
        self.extra_moves(pos, out)
        return out

    def _pawn_moves(self, pos: Position, cell: int, code: int, me: int, promo: bytearray,
                    out: list[Move]) -> None:
        """Moves of a promoting piece: like any other, but each arrival in the zone promotes."""
        v = self.v
        board = pos.board

        def arrive(t: int, captured: int) -> None:
            if promo[t]:
                self._promotions(pos, cell, t, code, captured, out)
            else:
                out.append(Move(cell, t, code, captured))

        for t, mode, lame, _initial in v.leaps[code][cell]:
            if lame >= 0 and board[lame]:
                continue
            c = board[t]
            if (c == 0 and mode & MOVE) or (c and c & 3 != me and mode & CAPTURE):
                arrive(t, c)
        for ray, mode, hop, _initial in v.rides[code][cell]:
            if hop:
                self._hop_moves(board, cell, code, me, ray, mode, out)
                continue
            for t in ray:
                c = board[t]
                if c == 0:
                    if mode & MOVE:
                        arrive(t, 0)
                    continue
                if c & 3 != me and mode & CAPTURE:
                    arrive(t, c)
                break

    def _hop_moves(self, board: list[int], cell: int, code: int, me: int, ray: tuple[int, ...], mode: int,
                   out: list[Move]) -> None:
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
            if c & 3 != me and mode & CAPTURE:
                out.append(Move(cell, t, code, c))
            break

    def promotion_codes(self, pos: Position, code: int) -> tuple[int, ...]:
        """What a promoting piece may become; with ``from_captured`` only kinds the side has
        lost (they wait in its hand until used)."""
        side = (code & 3) - 1
        codes = self.promo_codes[side]
        if self.v.promotion_from_captured:
            hand = pos.hands[side]
            codes = tuple(c for c in codes if hand.get(c >> 2, 0) > 0)
        return codes

    def _promotions(self, pos: Position, frm: int, to: int, code: int, captured: int, out: list[Move]) -> None:
        choices = self.promotion_codes(pos, code)
        if not choices or self.v.promotion_optional:
            out.append(Move(frm, to, code, captured))
        for p in choices:
            out.append(Move(frm, to, code, captured, promotion=p))

    def _en_passant(self, pos: Position, out: list[Move]) -> None:
        v = self.v
        board = pos.board
        ep = pos.ep
        prev = (pos.side - 1) % v.nsides
        victim = self.forward_step[prev][ep]
        if victim < 0 or board[victim] not in self.ep_victims or (board[victim] & 3) - 1 != prev:
            return
        me = pos.side + 1
        for cell, code in enumerate(board):
            if code & 3 != me or code not in self.ep_capturers:
                continue
            for t, mode, _lame, _i in v.leaps[code][cell]:
                if t == ep and mode & CAPTURE:
                    changes = ((cell, code, 0), (ep, 0, code), (victim, board[victim], 0))
                    out.append(Move(cell, ep, code, 0, tag=EN_PASSANT, changes=changes, relocations=((cell, ep),)))

    def _castling(self, pos: Position, out: list[Move]) -> None:
        v = self.v
        g = v.geometry
        board = pos.board
        side = pos.side
        enemies = self.enemies[side]
        for rook in sorted(pos.castling):
            rcode = board[rook]
            if not rcode or (rcode & 3) - 1 != side:
                continue
            king = -1
            for c in self.rank_cells[rook]:
                code = board[c]
                if code and (code & 3) - 1 == side and code in self.castle_kings:
                    king = c
                    break
            if king < 0:
                continue
            kcode = board[king]
            kx, rx = g.coords[king][0], g.coords[rook][0]
            d = 1 if rx > kx else -1
            step = g.step((d, 0))
            k1 = step[king]
            k2 = step[k1] if k1 >= 0 else -1
            if k2 < 0:
                continue
            # every cell strictly between king and rook must be empty, and the king's landing too
            c = step[king]
            clear = True
            while c != rook and c >= 0:
                if board[c]:
                    clear = False
                    break
                c = step[c]
            if not clear or (board[k2] and k2 != rook) or (board[k1] and k1 != rook):
                continue
            if any(self.attacked(board, x, enemies) for x in (king, k1, k2)):
                continue
            changes = ((king, kcode, 0), (rook, rcode, 0), (k2, board[k2], kcode), (k1, board[k1], rcode))
            # When the rook stands on k1 or k2 its two entries collapse into one net change.
            net: dict[int, list[int]] = {}
            for cell, before, after in changes:
                if cell in net:
                    net[cell][1] = after
                else:
                    net[cell] = [before, after]
            final = tuple((cell, b, a) for cell, (b, a) in net.items() if b != a)
            out.append(Move(king, k2, kcode, 0, tag=CASTLE, changes=final, relocations=((king, k2), (rook, k1))))

    # -- attacks and legality -----------------------------------------------------------------------
    def attacked(self, board: list[int], cell: int, by: tuple[int, ...]) -> bool:
        """Is ``cell`` attacked by any piece of the sides ``by`` (pieces that give check only)?"""
        v = self.v
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
        enemies = self.enemies[pos.side]
        return any(self.attacked(pos.board, r, enemies) for r in self.royal_cells(pos.board, pos.side))

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
            return not any(attacked(board, r, enemies) for r in after_royals)
        finally:
            for cell, before, _a in changes:
                board[cell] = before

    def legal_moves(self, pos: Position) -> list[Move]:
        moves = self.pseudo_moves(pos)
        v = self.v
        if v.royalty != "checkmate":
            return moves
        side = pos.side
        board = pos.board
        royals = self.royal_cells(board, side)
        if not royals:
            return moves
        if not v.simple or len(royals) > 1:
            return [m for m in moves if self.is_safe_after(pos, m, side, royals)]
        # One royal piece, only leapers and riders: the classic shortcut. A plain move of another
        # piece is legal unless the piece is pinned or it fails to answer a check; the royal
        # piece's own plain moves need only its target cell tested.
        enemies = self.enemies[side]
        king = royals[0]
        answers, pinned = self._king_lines(board, king, side)
        is_royal = v.is_royal
        attacked = self.attacked
        out = []
        for m in moves:
            if m.tag == PLAIN:
                if is_royal[m.piece]:
                    board[m.frm] = 0
                    safe = not attacked(board, m.to, enemies)
                    board[m.frm] = m.piece
                    if safe:
                        out.append(m)
                    continue
                if m.frm not in pinned:
                    if answers is None or m.to in answers:
                        out.append(m)
                    continue
            if self.is_safe_after(pos, m, side, royals):
                out.append(m)
        return out

    def _king_lines(self, board: list[int], king: int, side: int) -> tuple[frozenset[int] | None, set[int]]:
        """One walk along every attack line into ``king``: the cells a non-royal move must reach to
        answer a check (None: no check; empty: double check), and the own pieces pinned to it."""
        v = self.v
        me = side + 1
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
                        if p & 3 != me:
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

    def has_legal_move(self, pos: Position) -> bool:
        """Whether the side to move has any legal move (outcome checks ask this every ply;
        variants with cheap answers override it)."""
        return bool(self.legal_moves(pos))

    def ep_after(self, pos: Position, move: Move) -> int:
        """The en-passant cell a move leaves behind (-1 for none). Only set when an enemy piece
        could take en passant there, so equal positions hash equal (FIDE's repetition rule)."""
        v = self.v
        if not v.en_passant or move.tag != PLAIN or move.captured or move.piece not in self.ep_victims:
            return -1
        g = v.geometry
        (fx, fy), (tx, ty) = g.coords[move.frm], g.coords[move.to]
        dx, dy = tx - fx, ty - fy
        if dx % 2 or dy % 2 or max(abs(dx), abs(dy)) != 2:
            return -1
        mid = g.step((dx // 2, dy // 2))[move.frm]
        if mid < 0:
            return -1
        board = pos.board
        side = (move.piece & 3) - 1
        for enemy in self.enemies[side]:
            for ray, sets in v.attack_rays[enemy][mid]:
                p = board[ray[0]]
                if p in self.ep_capturers and p in sets[0]:
                    return mid
        return -1

    # -- outcomes ------------------------------------------------------------------------------------
    def outcome(self, pos: Position) -> Outcome | None:
        v = self.v
        special = self.variant_outcome(pos)
        if special:
            return special
        prev = (pos.side - 1) % v.nsides
        if v.royalty == "king_capture":
            for side in range(v.nsides):
                if self.royal_codes[side] and not self.royal_cells(pos.board, side):
                    winner = prev if side != prev else None
                    return Outcome("king_capture", winner)
        if v.line_length:
            for side in (prev, pos.side):
                if self.line_cells(pos, side):
                    return Outcome("line", side)
        if v.bare_king:
            for side in (pos.side, prev):
                if self._bare(pos, side):
                    return Outcome("bare_king", (side + 1) % v.nsides if v.nsides == 2 else prev)
        if not self.has_legal_move(pos):
            if v.royalty == "checkmate" and self.in_check(pos):
                return Outcome("checkmate", prev)
            if v.stalemate == "draw":
                return Outcome("stalemate", None)
            return Outcome("stalemate", prev if v.stalemate == "loss" else pos.side)
        if v.fifty_move and pos.halfmove >= v.fifty_move:
            return Outcome("fifty_move", None)
        if v.repetition and pos.history.count(pos.hash) >= v.repetition:
            return Outcome("repetition", None)
        if v.insufficient_material == "fide" and self._insufficient(pos):
            return Outcome("insufficient_material", None)
        return None

    def line_cells(self, pos: Position, side: int) -> tuple[int, ...]:
        """The first run of ``line_length`` pieces of ``side`` along one orthogonal or diagonal
        line that a rule hook accepts (``accepts_line``), or ()."""
        g = self.v.geometry
        n = self.v.line_length
        board = pos.board
        s1 = side + 1
        for vec in ((1, 0), (0, 1), (1, 1), (1, -1)):
            step = g.step(vec)
            back = g.step((-vec[0], -vec[1]))
            for start in range(g.size):
                code = board[start]
                if not code or code & 3 != s1:
                    continue
                prev = back[start]
                if prev >= 0 and board[prev] and board[prev] & 3 == s1:
                    continue  # not the start of a run
                run = [start]
                cur = step[start]
                while cur >= 0 and board[cur] and board[cur] & 3 == s1:
                    run.append(cur)
                    cur = step[cur]
                if len(run) >= n and self.accepts_line(pos, side, tuple(run)):
                    return tuple(run)
        return ()

    def accepts_line(self, pos: Position, side: int, run: tuple[int, ...]) -> bool:
        """Hook: whether a maximal run of a side's pieces wins (Zeta forbids lines of six...)."""
        return True

    def _bare(self, pos: Position, side: int) -> bool:
        kinds = self.v.kinds
        s1 = side + 1
        return all(kinds[c >> 2].royal or not kinds[c >> 2].gives_check
                   for c in pos.board if c and c & 3 == s1)

    def _insufficient(self, pos: Position) -> bool:
        """FIDE dead positions that python-chess also recognises: K v K, K+minor v K, and kings
        with bishops that all stand on one colour."""
        v = self.v
        g = v.geometry
        names = {}
        bishops_colors = set()
        for c, code in enumerate(pos.board):
            if not code:
                continue
            kind = v.kinds[code >> 2]
            if kind.royal:
                continue
            if kind.name not in ("knight", "bishop"):
                return False
            names.setdefault(code & 3, []).append(kind.name)
            if kind.name == "bishop":
                bishops_colors.add(g.colors[c])
        pieces = [n for lst in names.values() for n in lst]
        if len(pieces) <= 1:
            return True
        return all(p == "bishop" for p in pieces) and len(bishops_colors) == 1


register("standard")(Rules)
