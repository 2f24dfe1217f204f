"""Headless renders of every kind of board, with the pixels checked: cell centres show their
colour or a piece, holes show the background, highlights and territories land on the cells asked
for and nowhere else, nothing leaves the window, and every text box lies inside it."""

from __future__ import annotations

from dataclasses import replace
from itertools import combinations

import pygame
import pytest

from display import theme
from display.pieces import sprite
from display.render import Layout, cell_colour, render
from display.view import STANDARD_GLYPHS, Choice, Fix, Highlights, PieceView, Prompt, ScorePanel, Territory, View
from engine.geometry import Geometry, rectangle, ring, two_boards

SIZES = [(800, 480), (1920, 1080)]
SENTINEL = (255, 0, 255)


def piece(side: int, glyph: str) -> PieceView:
    if glyph in STANDARD_GLYPHS:
        return PieceView(side, glyph, glyph[0].upper(), glyph)
    return PieceView(side, "", glyph, f"fairy {glyph}")


def board(title: str, geo: Geometry, placed: dict[str, PieceView], **parts) -> View:
    pieces: list[PieceView | None] = [None] * geo.size
    for name, p in placed.items():
        pieces[geo.index(name)] = p
    return View(title, geo, tuple(pieces), **parts)


def chess_like(geo: Geometry, files: str, top: int) -> dict[str, PieceView]:
    back = ["rook", "knight", "bishop", "queen", "king", "bishop", "knight", "rook"]
    out = {}
    for i, f in enumerate(files):
        out[f"{f}1"] = piece(0, back[i % 8])
        out[f"{f}2"] = piece(0, "pawn")
        out[f"{f}{top - 1}"] = piece(1, "pawn")
        out[f"{f}{top}"] = piece(1, back[i % 8])
    return out


def views() -> dict[str, View]:
    g8 = rectangle(8, 8)
    g10 = rectangle(10, 10)
    p10 = chess_like(g10, "abcdefghij", 10)
    p10["c1"] = piece(0, "A")
    p10["h10"] = piece(1, "C")
    g13 = rectangle(13, 13)
    p13 = {n: piece(i % 2, (*STANDARD_GLYPHS, "T")[i % 7]) for i, n in enumerate(g13.names)}
    empty13 = ["c5", "d9", "g7", "h2", "j11", "k4", "m13"]
    for n in empty13:
        del p13[n]
    terr = tuple(Territory((g13.index(n),), (0, 1, None)[i % 3], 2 * i + 1) for i, n in enumerate(empty13))
    holes = rectangle(8, 8, holes=["d4", "e5", "a1"])
    r48 = ring(48)
    two = two_boards(rectangle(8, 8))
    p2 = chess_like(two, "abcdefgh", 8) | {f"{k}'": v for k, v in chess_like(two, "abcdefgh", 8).items()}
    three = {"a1": piece(0, "king"), "b1": piece(0, "queen"), "h8": piece(1, "king"), "g8": piece(1, "knight"),
             "a8": piece(2, "king"), "b8": piece(2, "rook"), "d4": piece(2, "A"), "e5": piece(1, "pawn")}
    crowded = board(
        "A variant with a rather long title indeed", g10, p10, legend=tuple(piece(0, x) for x in "ACTZ"),
        status="Fix the board: put the black knight back on d5, then clear h8 and press the button",
        phase="fix the board", moves=tuple(f"a{i}b{i}" for i in range(1, 60)),
        sides=("blue", "green", "red"), clocks=(12.0, 3600.0, 75.0), scores=ScorePanel((), (12, 15, 3)),
        hands=(((piece(0, "pawn"), 3), (piece(0, "A"), 1)), ((piece(1, "C"), 2),)))
    return {
        "crowded": crowded,
        "8x8": board("Chess", g8, chess_like(g8, "abcdefgh", 8), moves=("e2e4", "e7e5", "g1f3"),
                     clocks=(300.0, 299.5), status="Lift a piece", phase="playing"),
        "10x10": board("Ten", g10, p10, legend=(piece(0, "A"), piece(0, "C"))),
        "13x13": board("Mathematichess", g13, p13, scores=ScorePanel(terr, (9, 7), "Territory"),
                       phase="scoring"),
        "holes": board("Holes", holes, {"e4": piece(0, "queen"), "d5": piece(1, "knight"), "b2": piece(0, "pawn"),
                                        "g7": piece(1, "pawn")}),
        "ring48": board("Sesqui", r48, {r48.names[i]: piece(i % 2, STANDARD_GLYPHS[i % 6]) for i in range(0, 48, 5)}),
        "two boards": board("Two boards", two, p2, hands=(((piece(0, "pawn"), 2),), ((piece(1, "queen"), 1),))),
        "three sides": board("Triscacia", g8, three, sides=("blue", "green", "red"), side_to_move=2,
                             clocks=(60.0, 70.0, 3700.0), moves=("a2a3", "b7b6", "c2c3", "d2d3")),
    }


VIEWS = views()
CASES = [(name, size) for name in VIEWS for size in SIZES]


def draw(view: View, size: tuple[int, int]) -> tuple[pygame.Surface, Layout]:
    surface = pygame.Surface(size)
    return surface, render(view, surface)


def colours_in(surface: pygame.Surface, rect: pygame.Rect) -> set[tuple[int, int, int]]:
    rect = rect.clip(surface.get_rect())
    pixels = (surface.get_at((x, y)) for x in range(rect.left, rect.right) for y in range(rect.top, rect.bottom))
    return {(c.r, c.g, c.b) for c in pixels}


def has_colour(surface: pygame.Surface, rect: pygame.Rect, colour: tuple[int, int, int], tolerance: int = 9) -> bool:
    """Some pixel within ``tolerance`` (sum of channel differences) of ``colour``: scaled sprites
    may be a step or two off their flat colour."""
    return any(distance(c, colour) <= tolerance for c in colours_in(surface, rect))


def distance(a: tuple[int, ...], b: tuple[int, ...]) -> int:
    return sum(abs(x - y) for x, y in zip(a, b, strict=True))


def centre(layout: Layout, view: View, cell: int) -> tuple[int, int]:
    x, y = layout.to_px(view.geometry.centers[cell])
    return round(x), round(y)


@pytest.mark.parametrize(("name", "size"), CASES)
def test_each_cell_centre_shows_its_colour_or_its_piece(name: str, size: tuple[int, int]) -> None:
    view = VIEWS[name]
    surface, layout = draw(view, size)
    territory_cells = {c for t in view.scores.territories for c in t.cells} if view.scores else set()
    for cell in range(view.geometry.size):
        p = view.pieces[cell]
        if p is None:
            if cell in territory_cells:
                continue  # the value is written there (checked in the territory test)
            assert tuple(surface.get_at(centre(layout, view, cell)))[:3] == cell_colour(view, cell), \
                f"{name}: empty cell {view.geometry.names[cell]}"
        else:
            fill = theme.side_colours(view.sides, p.side)[0]
            box = pygame.Rect(0, 0, layout.piece_size // 2, layout.piece_size // 2)
            box.center = centre(layout, view, cell)
            assert has_colour(surface, box, fill), f"{name}: no {p.glyph or p.letter} on {view.geometry.names[cell]}"


@pytest.mark.parametrize("size", SIZES)
def test_holes_show_the_background(size: tuple[int, int]) -> None:
    view = VIEWS["holes"]
    surface, layout = draw(view, size)
    for x, y in ((3, 3), (4, 4), (0, 0)):  # d4, e5, a1
        px = layout.to_px((x + 0.5, y + 0.5))
        assert tuple(surface.get_at((round(px[0]), round(px[1]))))[:3] == theme.BACKGROUND
    assert layout.cell_at((round(px[0]), round(px[1]))) is None


@pytest.mark.parametrize(("name", "size"), CASES)
def test_nothing_is_drawn_outside_the_window(name: str, size: tuple[int, int]) -> None:
    view = VIEWS[name]
    pad = 40
    big = pygame.Surface((size[0] + 2 * pad, size[1] + 2 * pad))
    big.fill(SENTINEL)
    window = pygame.Rect(pad, pad, *size)
    layout = render(view, big.subsurface(window))
    for strip in (pygame.Rect(0, 0, big.get_width(), pad), pygame.Rect(0, window.bottom, big.get_width(), pad),
                  pygame.Rect(0, 0, pad, big.get_height()), pygame.Rect(window.right, 0, pad, big.get_height())):
        assert colours_in(big, strip) == {SENTINEL}
    # ...and nothing the layout placed was cut off by the window's edge.
    bounds = pygame.Rect(0, 0, *size)
    for cell, rect in enumerate(layout.cells):
        assert bounds.contains(rect), f"{name}: cell {view.geometry.names[cell]} at {rect}"
        assert layout.board.contains(rect)
    assert bounds.contains(layout.panel) and not layout.panel.colliderect(layout.board)


@pytest.mark.parametrize(("name", "size"), CASES)
def test_text_lies_within_bounds_and_does_not_collide(name: str, size: tuple[int, int]) -> None:
    view = VIEWS[name]
    _surface, layout = draw(view, size)
    bounds = pygame.Rect(0, 0, *size)
    assert layout.texts
    for text, rect, role in layout.texts:
        assert bounds.contains(rect), f"{name}: {text!r} at {rect}"
        if role in ("panel", "button"):
            assert layout.panel.contains(rect), f"{name}: {text!r} at {rect} outside the panel {layout.panel}"
            # Legible from a chair on the 7" display: no panel text below 14 px.
            assert rect.h >= 14 * min(size[0] / 800, size[1] / 480)
    panel = [(t, r) for t, r, role in layout.texts if role in ("panel", "button")]
    for (t1, r1), (t2, r2) in combinations(panel, 2):
        assert not r1.colliderect(r2), f"{name}: {t1!r} overlaps {t2!r}"
    labels = [(t, r) for t, r, role in layout.texts if role == "label"]
    for (t1, r1), (t2, r2) in combinations(labels, 2):
        assert not r1.colliderect(r2), f"{name}: labels {t1!r} and {t2!r} overlap"
    for t, r in labels:
        for point in (r.center, r.topleft, r.topright, r.bottomleft, (r.right - 1, r.bottom - 1)):
            assert layout.cell_at(point) is None, f"{name}: label {t!r} covers a cell"


def test_rectangles_carry_their_coordinates_on_the_edges() -> None:
    for name, files, ranks in (("8x8", "abcdefgh", 8), ("13x13", "abcdefghijklm", 13), ("two boards", "abcdefgh", 8)):
        _s, layout = draw(VIEWS[name], (800, 480))
        labels = [t for t, _r, role in layout.texts if role == "label"]
        boards = 2 if name == "two boards" else 1
        assert sorted(labels) == sorted(list(files) * boards + [str(r) for r in range(1, ranks + 1)] * boards)
        # Files under each board's bottom row, ranks left of its first file.
        g = VIEWS[name].geometry
        corners = [layout.cells[g.index(n)] for n in ("a1", "a1'") if g.has_cell(n)]
        a_labels = [r for t, r, role in layout.texts if role == "label" and t == "a"]
        one_labels = [r for t, r, role in layout.texts if role == "label" and t == "1"]
        for a1, a, one in zip(corners, sorted(a_labels, key=lambda r: r.x), sorted(one_labels, key=lambda r: r.x),
                              strict=True):
            assert a.top >= a1.bottom - 1 and abs(a.centerx - a1.centerx) <= 1
            assert one.right <= a1.left and abs(one.centery - a1.centery) <= 1


def test_ring_names_every_cell_and_marks_eight_sectors() -> None:
    view = VIEWS["ring48"]
    _surface, layout = draw(view, (1920, 1080))
    labels = {t for t, _r, role in layout.texts if role == "label"}
    assert labels == set(view.geometry.names)
    sectors = [t for t, _r, role in layout.texts if role == "value"]
    assert sectors == list("ABCDEFGH")
    # Opposite cells lie on opposite sides of the centre, and opposite sectors share a colour.
    a1, e1 = (centre(layout, view, view.geometry.index(n)) for n in ("A1", "E1"))
    mid = layout.to_px((0.0, 0.0))
    assert abs((a1[0] + e1[0]) / 2 - mid[0]) < 2 and abs((a1[1] + e1[1]) / 2 - mid[1]) < 2
    assert view.geometry.colors[0] == view.geometry.colors[24]


def diff_rects(before: pygame.Surface, after: pygame.Surface) -> pygame.Mask:
    """A mask of the pixels that differ between two renders."""
    w, h = before.get_size()
    mask = pygame.Mask((w, h))
    for y in range(h):
        for x in range(w):
            if before.get_at((x, y)) != after.get_at((x, y)):
                mask.set_at((x, y))
    return mask


@pytest.mark.parametrize("name", ["8x8", "holes", "ring48", "two boards", "three sides"])
def test_highlights_appear_where_asked_and_nowhere_else(name: str) -> None:
    base = VIEWS[name]
    g = base.geometry
    empty = [c for c in range(g.size) if base.pieces[c] is None and not (
        base.scores and any(c in t.cells for t in base.scores.territories))]
    full = [c for c in range(g.size) if base.pieces[c] is not None]
    last, pending, check = empty[0], full[0], full[-1]
    fix_cell = next(c for c in full[1:] if base.pieces[c].side == 0)  # type: ignore[union-attr]
    fix_empty = empty[-1]
    lit = replace(base, highlights=Highlights(
        last_move=(last,), pending=(pending,), check=(check,),
        fix=(Fix(fix_cell, piece(1, "rook")), Fix(fix_empty, None))))
    size = (800, 480)
    before, layout = draw(base, size)
    after, _ = draw(lit, size)
    assert tuple(after.get_at(centre(layout, lit, last)))[:3] == cell_colour(lit, last) != cell_colour(base, last)
    changed = diff_rects(before.subsurface(layout.board), after.subsurface(layout.board))
    asked = [last, pending, check, fix_cell, fix_empty]
    for cell in asked:
        rect = layout.cells[cell]
        assert changed.overlap_area(_rect_mask(rect, layout.board.size), (0, 0)) > rect.w * rect.h * 0.05, \
            f"{name}: no highlight on {g.names[cell]}"
    allowed = pygame.Mask(layout.board.size)
    for cell in asked:
        # A pixel of slack: the ring's antialiased cell edges blend with either neighbour.
        allowed.draw(_rect_mask(layout.cells[cell].inflate(2, 2), layout.board.size), (0, 0))
    assert changed.overlap_area(allowed, (0, 0)) == changed.count(), f"{name}: a highlight spilled over"
    # The fix shows what belongs there: a black rook's body on the cell.
    box = layout.cells[fix_cell].inflate(-layout.cells[fix_cell].w // 3, -layout.cells[fix_cell].h // 3)
    assert has_colour(after, box, theme.side_colours(lit.sides, 1)[0])
    assert not has_colour(after, box, theme.side_colours(lit.sides, 0)[0], tolerance=0)  # instead of, not over
    assert theme.FIX in colours_in(after, layout.cells[fix_empty])


def _rect_mask(rect: pygame.Rect, size: tuple[int, int]) -> pygame.Mask:
    mask = pygame.Mask(size)
    part = pygame.Mask(rect.size, fill=True)
    mask.draw(part, rect.topleft)
    return mask


@pytest.mark.parametrize("size", SIZES)
def test_territories_are_tinted_by_owner_with_their_value_written_on_them(size: tuple[int, int]) -> None:
    view = VIEWS["13x13"]
    assert view.scores is not None
    surface, layout = draw(view, size)
    values = [(t, r) for t, r, role in layout.texts if role == "value"]
    assert sorted(t for t, _ in values) == sorted(str(t.value) for t in view.scores.territories)
    for terr in view.scores.territories:
        (cell,) = terr.cells
        rect = layout.cells[cell]
        assert any(t == str(terr.value) and rect.contains(r) for t, r in values)
        tint = cell_colour(view, cell)
        owner = theme.SHARED_TERRITORY if terr.owner is None else theme.side_colours(view.sides, terr.owner)[0]
        square = theme.SQUARES[view.geometry.colors[cell]]
        # Closer to the owner's colour than to the square's own.
        assert distance(tint, owner) < distance(tint, square)
        inside = rect.inflate(-rect.w // 3, -rect.h // 3)
        assert tint in colours_in(surface, inside)
    by_owner = {t.owner: cell_colour(view, t.cells[0]) for t in view.scores.territories}
    for a, b in combinations(by_owner.values(), 2):
        assert distance(a, b) > 90
    totals = [t for t, _r, role in layout.texts if role == "panel"]
    assert "9" in totals and "7" in totals


@pytest.mark.parametrize("size", SIZES)
def test_prompt_choices_are_hit_tested(size: tuple[int, int]) -> None:
    choices = tuple(Choice(g, g[0].upper(), piece(0, g)) for g in ("queen", "rook", "bishop", "knight"))
    view = replace(VIEWS["8x8"], prompt=Prompt("Promote to", choices, selected=2))
    surface, layout = draw(view, size)
    assert len(layout.choices) == 4
    for i, rect in enumerate(layout.choices):
        assert layout.panel.contains(rect)
        assert layout.choice_at(rect.center) == i
        assert layout.choice_at((rect.left + 1, rect.top + 1)) == i
    for a, b in combinations(layout.choices, 2):
        assert not a.colliderect(b)
    # Touch targets: at least ~10 mm on the 7" display (about 52 px at 800x480).
    assert min(r.h for r in layout.choices) >= 52 * min(size[0] / 800, size[1] / 480) - 1
    # The selected choice (the controller's buttons) stands out in the accent colour.
    sel = layout.choices[2]
    assert theme.ACCENT in colours_in(surface, pygame.Rect(sel.left, sel.centery, 6, 1))
    assert theme.ACCENT not in colours_in(surface, pygame.Rect(layout.choices[1].left, layout.choices[1].centery, 6, 1))
    assert layout.choice_at(layout.board.center) is None
    e2 = view.geometry.index("e2")
    assert layout.cell_at(layout.cells[e2].center) == e2
    labels = {t for t, _r, role in layout.texts if role == "button"}
    assert labels == {"queen", "rook", "bishop", "knight"}


def test_prompt_with_many_choices_and_counts_fits_the_small_screen() -> None:
    kinds = ("pawn", "knight", "bishop", "rook", "queen", "king", "A", "C", "T", "Z")
    choices = tuple(Choice(k, k, piece(0, k), count=i + 1) for i, k in enumerate(kinds))
    view = replace(VIEWS["10x10"], prompt=Prompt("Which piece did you place?", choices))
    _surface, layout = draw(view, (800, 480))
    assert len(layout.choices) == len(kinds)
    assert all(layout.panel.contains(r) and r.h >= 52 for r in layout.choices)
    # Pictures and counts: the names would not fit two columns of touch-sized buttons.
    assert [t for t, _r, role in layout.texts if role == "button"] == [f"×{i + 1}" for i in range(len(kinds))]


def test_a_prompt_keeps_touch_sized_buttons_on_a_crowded_panel() -> None:
    kinds = ("pawn", "knight", "bishop", "rook", "queen", "king", "A", "C")
    choices = tuple(Choice(k, k, piece(0, k), count=2) for k in kinds)
    view = replace(VIEWS["crowded"], prompt=Prompt("Which piece did you place on the board just now?", choices))
    _surface, layout = draw(view, (800, 480))
    assert len(layout.choices) == len(kinds)
    assert all(layout.panel.contains(r) and r.h >= 52 for r in layout.choices)
    texts = [t for t, _r, _role in layout.texts]
    assert "Blue to move" in texts and "Which piece did you" in texts and "place on the board just now?" in texts
    # Two columns of pictures: the names give way to the counts.
    assert [t for t, _r, role in layout.texts if role == "button"] == ["×2"] * len(kinds)


def test_takeback_confirmation_and_move_choices() -> None:
    yes_no = Prompt("Take back e7e5?", (Choice("Yes", "yes"), Choice("No", "no")), selected=1)
    _s, layout = draw(replace(VIEWS["8x8"], prompt=yes_no), (800, 480))
    assert [t for t, _r, role in layout.texts if role == "button"] == ["Yes", "No"]
    which = Prompt("Which of these moves did you make?", (Choice("e1g1", "e1g1"), Choice("e1f1", "e1f1")))
    _s, layout = draw(replace(VIEWS["8x8"], prompt=which), (1920, 1080))
    assert layout.choice_at(layout.choices[1].center) == 1


def test_pieces_are_distinguishable_for_three_sides() -> None:
    sides = ("blue", "green", "red")
    size = 48
    shapes = {}
    for glyph in (*STANDARD_GLYPHS, "A", "C"):
        masks = [pygame.mask.from_surface(sprite(piece(s, glyph), sides, size), 128) for s in range(3)]
        # One kind has one shape whatever its side...
        assert masks[0].overlap_area(masks[1], (0, 0)) == masks[0].count() == masks[1].count()
        shapes[glyph] = masks[0]
        fills = [theme.side_colours(sides, s)[0] for s in range(3)]
        for s in range(3):
            assert has_colour(sprite(piece(s, glyph), sides, size), pygame.Rect(0, 0, size, size), fills[s])
        for a, b in combinations(fills, 2):
            assert distance(a, b) > 150
    # ...and every standard kind a shape of its own (at least 8% of the pixels differ).
    for g1, g2 in combinations(STANDARD_GLYPHS, 2):
        m1, m2 = shapes[g1], shapes[g2]
        differ = m1.count() + m2.count() - 2 * m1.overlap_area(m2, (0, 0))
        assert differ > 0.08 * max(m1.count(), m2.count()), f"{g1} and {g2} look alike"
    # Fairy discs differ by their letters: the letter ink (outline colour) covers different pixels.
    ink = theme.side_colours(sides, 0)[1]
    ink_a, ink_c = (pygame.mask.from_threshold(sprite(piece(0, x), sides, size), ink, (30, 30, 30, 255))
                    for x in "AC")
    assert ink_a.count() + ink_c.count() - 2 * ink_a.overlap_area(ink_c, (0, 0)) > 0.15 * ink_a.count()


def test_fairy_pieces_are_explained_in_a_legend() -> None:
    _s, layout = draw(VIEWS["10x10"], (800, 480))
    texts = [t for t, _r, role in layout.texts if role == "panel"]
    assert "fairy A" in texts and "fairy C" in texts


def test_status_clocks_moves_and_result_are_shown() -> None:
    view = VIEWS["8x8"]
    _s, layout = draw(view, (800, 480))
    texts = [t for t, _r, _role in layout.texts]
    for expected in ("Chess", "White to move", "PLAYING", "Lift a piece", "5:00", "5:00", "1.", "e2e4", "e7e5",
                     "2.", "g1f3"):
        assert expected in texts
    three = VIEWS["three sides"]
    _s, layout = draw(three, (800, 480))
    texts = [t for t, _r, _role in layout.texts]
    assert "Red to move" in texts and "1:01:40" in texts and "d2d3" in texts and "2." in texts
    done = replace(view, result="1-0 checkmate", side_to_move=None, phase="game over")
    _s, layout = draw(done, (800, 480))
    texts = [t for t, _r, _role in layout.texts]
    assert "1-0 checkmate" in texts and "White to move" not in texts


def test_long_move_lists_show_their_latest_moves() -> None:
    moves = tuple(f"m{i}" for i in range(300))
    _s, layout = draw(replace(VIEWS["8x8"], moves=moves, clocks=None), (800, 480))
    texts = [t for t, _r, _role in layout.texts]
    assert "m299" in texts and "150." in texts and "m0" not in texts


def test_a_view_must_hold_one_entry_per_cell() -> None:
    with pytest.raises(ValueError, match="3 pieces for 64 cells"):
        View("x", rectangle(8, 8), (None, None, None))


def test_rendering_is_a_pure_function_of_the_view() -> None:
    view = VIEWS["13x13"]
    first, _ = draw(view, (800, 480))
    draw(VIEWS["ring48"], (640, 480))  # something else in between
    again, _ = draw(view, (800, 480))
    assert pygame.image.tobytes(first, "RGB") == pygame.image.tobytes(again, "RGB")
