"""The view model: everything the display draws, as plain frozen dataclasses.

The controller builds a :class:`View` and hands it to the window (``Window.show(view)``); the
renderer draws it with ``display.render.render(view, surface)`` and nothing else. A view never
needs a :class:`engine.Variant`: it holds the geometry and one :class:`PieceView` per cell, so a
board that has no variant file yet can still be drawn. :func:`view_from_position` fills one from
an engine :class:`~engine.Position`; the controller then adds its own parts with
``dataclasses.replace``::

    view = view_from_position(pos, phase="playing", status="Lift a piece")
    view = replace(view, highlights=Highlights(pending=(lifted_cell,)),
                   prompt=Prompt("Promote to", tuple(Choice(k.name, piece=...) for k in ...)))

Parts of a view:

``View``
    ``title`` (variant title), ``geometry`` (engine ``Geometry``), ``pieces`` (one ``PieceView``
    or ``None`` per cell), ``sides`` (side names in turn order; ``white``/``black``/``blue``/
    ``green``/``red`` pick the colours), ``side_to_move`` (index or ``None``), ``phase`` (one word
    or two: ``setup``, ``playing``, ``fix the board``, ``game over``), ``status`` (a sentence for
    the player), ``clocks`` (seconds left per side, or ``None`` when untimed), ``moves`` (move
    texts, one per ply) numbered from ``first_move_number`` with ``moves[0]`` made by
    ``first_side``, ``result`` (empty while playing, else e.g. ``"1-0 checkmate"``),
    ``highlights``, ``prompt``, ``scores``, ``legend`` (fairy pieces explained in the panel) and
    ``hands`` (per side: pieces in hand with counts), ``menu`` (the operator menu's screen: a
    :class:`Prompt` drawn over the whole window), ``menu_button`` (a touch button that opens it)
    and ``flipped`` (the board drawn turned round).
``PieceView(side, glyph, letter, name, mark)``
    ``glyph`` is one of :data:`STANDARD_GLYPHS` for pieces drawn as chess pieces; anything else is
    drawn as a disc with ``letter`` on it and should appear in the view's ``legend``. ``mark``
    (one of :data:`MARKS`, or empty) is drawn over the picture: ``ring``, a coloured band round
    the piece, tells apart pieces that look alike but are different men (Meddlers' queen-side
    men); a variant asks for it by a word after the glyph (``glyph = "rook ring"``).
``Highlights(last_move, check, fix, pending, line)``
    Cell tuples; ``fix`` holds :class:`Fix` entries (a cell and what belongs there, ``None`` for
    "this cell must be empty"); ``line`` is the winning line of a line game (the engine's ``line``
    component finds it).
``Prompt(title, choices, selected)``
    A question answered by touching a :class:`Choice` or by the controller's buttons moving
    ``selected`` (an index into ``choices``). ``Choice(label, key, piece, count)``: ``key`` is
    whatever the controller wants back (a move text, a piece letter, ``"yes"``); ``piece`` draws a
    piece on the button, ``count`` a remaining count (``x3``).
``ScorePanel(territories, totals)``
    ``Territory(cells, owner, value)``: cells tinted by owner (``None``: shared, grey) with the
    value written on one of them; ``totals`` per side. The engine computes the numbers.

Equal views draw equal pixels; the window redraws only when the new view differs (``!=``) from
the one on screen, so the controller may send the same view as often as it likes.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from engine import Geometry, Position
from engine.components.line import Line

#: Piece pictures drawn as chess pieces (from the font's chess glyphs); others get a disc.
STANDARD_GLYPHS = ("king", "queen", "rook", "bishop", "knight", "pawn")
#: Marks drawn over a piece's picture.
MARKS = ("ring",)


@dataclass(frozen=True)
class PieceView:
    side: int
    glyph: str = ""
    letter: str = ""
    name: str = ""
    mark: str = ""
    #: Legend entries: the piece's letters in the move list where its picture does not show them
    #: (Meddlers' ringed rook is ``T``: "T  queen-side rook").
    san: str = ""

    @property
    def standard(self) -> bool:
        return self.glyph in STANDARD_GLYPHS

    @property
    def plain(self) -> bool:
        """A standard chess piece with no mark: needs no legend."""
        return self.standard and not self.mark


@dataclass(frozen=True)
class Fix:
    """A cell whose physical contents are wrong: ``piece`` belongs there (``None``: empty it)."""

    cell: int
    piece: PieceView | None = None


@dataclass(frozen=True)
class Highlights:
    last_move: tuple[int, ...] = ()
    check: tuple[int, ...] = ()
    fix: tuple[Fix, ...] = ()
    pending: tuple[int, ...] = ()
    #: The cells of a winning line (Zeta), drawn framed.
    line: tuple[int, ...] = ()
    #: Where the side to move may place a man (Triscacia's own area), tinted in its colour.
    area: tuple[int, ...] = ()
    area_side: int | None = None


@dataclass(frozen=True)
class Choice:
    label: str
    key: str = ""
    piece: PieceView | None = None
    count: int | None = None


@dataclass(frozen=True)
class Prompt:
    title: str
    choices: tuple[Choice, ...]
    selected: int | None = None
    #: Button columns (0: as many as the labels allow, up to 4); a menu keyboard asks for more. A
    #: minimum: the display adds columns when the rows would be too short for their labels.
    columns: int = 0


@dataclass(frozen=True)
class Territory:
    cells: tuple[int, ...]
    owner: int | None
    value: int | float


@dataclass(frozen=True)
class ScorePanel:
    territories: tuple[Territory, ...] = ()
    totals: tuple[int | float, ...] = ()
    title: str = "Score"


@dataclass(frozen=True)
class View:
    title: str
    geometry: Geometry
    pieces: tuple[PieceView | None, ...]
    sides: tuple[str, ...] = ("white", "black")
    side_to_move: int | None = 0
    phase: str = ""
    status: str = ""
    clocks: tuple[float, ...] | None = None
    moves: tuple[str, ...] = ()
    first_move_number: int = 1
    first_side: int = 0
    result: str = ""
    highlights: Highlights = field(default_factory=Highlights)
    prompt: Prompt | None = None
    scores: ScorePanel | None = None
    legend: tuple[PieceView, ...] = ()
    hands: tuple[tuple[tuple[PieceView, int], ...], ...] = ()
    #: The operator menu's current screen, drawn over the whole window while it is open.
    menu: Prompt | None = None
    #: A "Menu" button at the bottom of the panel (touch screens with an operator menu).
    menu_button: bool = False
    #: The board turned round: the second side's home at the bottom.
    flipped: bool = False
    #: Three-sided games: per side (side, the opponent it may check, the one it must never check).
    check_rules: tuple[tuple[int, int, int], ...] = ()
    #: The players ("Tal - Bob Player"), drawn under the title; "" when nobody is named.
    players: str = ""
    #: Lines that explain the move list's notation where pieces or cells are lettered unusually.
    notes: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if len(self.pieces) != self.geometry.size:
            raise ValueError(f"view of {self.geometry.name}: {len(self.pieces)} pieces for "
                             f"{self.geometry.size} cells")


def piece_view(variant, code: int) -> PieceView:
    """The picture of an engine piece code (``variant`` is an ``engine.Variant``)."""
    kind = variant.kinds[variant.kind_of(code)]
    picture, *words = kind.glyph.split() or [""]
    mark = next((w for w in words if w in MARKS), "")
    glyph = picture if picture in STANDARD_GLYPHS else ""
    # A variant may name a one-letter glyph for a fairy piece; otherwise its symbol is the letter.
    letter = picture if picture and not glyph else kind.letter
    return PieceView(side=variant.side_of(code), glyph=glyph, letter=letter, name=kind.name, mark=mark)


def _legend_entry(variant, kind_index: int) -> PieceView:
    """A legend entry: the piece's picture, name and, where the picture does not show them, the
    letters the move list writes it with."""
    p = piece_view(variant, variant.code(kind_index, 0))
    kind = variant.kinds[kind_index]
    letters = kind.san if kind.san is not None else ("" if kind.pawn else kind.letter)
    return replace(p, san=letters) if letters and (p.standard or letters != p.letter) else p


def _notation_notes(variant) -> tuple[str, ...]:
    """How to read the move list where its cells are not files and ranks: a ring's cells are a
    sector letter and a place, and a pawn move names what tells two pawns apart first."""
    geo = variant.geometry
    if geo.dimensions == 1 and geo.wrap_x > 0:
        return ("Cells: sector letter and place (B3). A pawn move may start with the pawn's sector or "
                "place, to tell two pawns apart (1B3: the pawn on place 1 to B3)",)
    return ()


def _placing_area(pos: Position) -> tuple[int, ...]:
    """The cells the side to move may place on, when its placement keeps to an area."""
    placement = pos.variant.rules.placement
    area = placement.area(pos.side) if placement is not None else None
    if area is None or not any(pos.hands[pos.side].values()):
        return ()
    return tuple(area)


def _check_rules(v) -> tuple[tuple[int, int, int], ...]:
    """Who may check whom, for a game with the ``three_sides`` rule (asked by name: the display
    only reads what the engine declares)."""
    rule = v.rules.component("three_sides")
    if rule is None:
        return ()
    return tuple((s, rule.left_of(s), rule.right_of(s)) for s in range(v.nsides))


def view_from_position(pos: Position, **parts) -> View:
    """A view of an engine position: pieces, side to move, move list from the position's move
    stack, last move and check highlights, the result when the game is over, and a legend of the
    variant's fairy pieces. Keyword ``parts`` override or add any :class:`View` field."""
    v = pos.variant
    pieces = tuple(piece_view(v, code) if code else None for code in pos.board)
    start = pos.copy()
    while start.move_stack:
        start.pop()
    last = pos.move_stack[-1].changes if pos.move_stack else ()
    check: tuple[int, ...] = ()
    outcome = pos.outcome()
    if pos.is_check():
        check = tuple(v.rules.royal_cells(pos.board, pos.side))
    result = ""
    if outcome is not None:
        result = f"{outcome.result(v.nsides, tuple(v.sides))} {outcome.termination.replace('_', ' ')}"
    line: tuple[int, ...] = ()
    if outcome is not None and outcome.termination == "line" and outcome.winner is not None:
        line = v.rules.get(Line).line_cells(pos, outcome.winner)
    legend = tuple(_legend_entry(v, k) for k in range(len(v.kinds)) if not piece_view(v, v.code(k, 0)).plain)
    hands = tuple(tuple((piece_view(v, v.code(kind, side)), n) for kind, n in sorted(hand.items()) if n)
                  for side, hand in enumerate(pos.hands))
    area = () if outcome else _placing_area(pos)
    fields: dict[str, Any] = dict(
        title=v.title, geometry=v.geometry, pieces=pieces, sides=tuple(v.sides),
        side_to_move=None if outcome else pos.side,
        phase="game over" if outcome else "",
        moves=tuple(pos.move_text(m) for m in pos.move_stack),
        first_move_number=start.fullmove, first_side=start.side, result=result,
        highlights=Highlights(last_move=tuple(dict.fromkeys(c for c, _b, _a in last)), check=check,
                              line=line, area=area, area_side=pos.side if area else None),
        legend=legend, hands=hands if any(hands) else (),
        check_rules=_check_rules(v),
        notes=_notation_notes(v),
    )
    fields.update(parts)
    return View(**fields)
