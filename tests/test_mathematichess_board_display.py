"""Mathematichess sessions on a real SQLite file, drawn on real pygame surfaces: the placement
question with the pieces left to place, answered by touch or by the buttons; the live score
panel; ending by agreement (both players confirm, never during placement or before both
terminators)."""

from __future__ import annotations

from pathlib import Path

import pygame

import engine
from controller.core_types import PromptKind, StatusKind
from controller.event_scripts import placement_game
from controller.inference import Event, Timing
from controller.screen import score_panel, view_of
from controller.session import Phase, Session, Update
from controller.store import GameStore
from display.render import Layout, cell_colour, render
from display.view import View, view_from_position
from engine.components.placement import Placement
from engine.components.territory import TerritoryRules
from tests.session_moves import Clock

MATH = engine.find_variant("mathematichess")
RULES = MATH.rules.get(TerritoryRules)
PLACEMENT = MATH.rules.get(Placement)
G = MATH.geometry
T = Timing()
GAME = placement_game(MATH, seed=5, board_plies=2)


def fen_after(plies: int) -> str:
    pos = engine.start_position(MATH)
    for text in GAME[:plies]:
        pos.push_text(text)
    return pos.fen()


def started(tmp_path: Path, clock: Clock, fen: str | None = None, identity: bool = False) -> Session:
    store = GameStore(tmp_path / "games.sqlite3")
    session = Session(MATH, store, identity=identity, fen=fen, now=clock())
    pos = engine.parse_fen(MATH, fen) if fen else engine.start_position(MATH)
    readings = [(code if identity else 1) if code else 0 for code in pos.board]
    assert session.sync(readings, clock()).phase == Phase.PLAY
    return session


def place(session: Session, clock: Clock, name: str, piece: int = 0) -> Update:
    session.event(Event(G.index(name), True, clock(), piece))
    return session.tick(clock(T.settle_ms + 5))


def draw(view: View) -> tuple[pygame.Surface, Layout]:
    surface = pygame.Surface((800, 480))
    return surface, render(view, surface)


def touch(session: Session, clock: Clock, key: str) -> Update:
    """Touch the button for ``key`` on the rendered frame, as the window reports it."""
    view = view_of(session)
    _surface, layout = draw(view)
    assert view.prompt is not None
    index = [c.key for c in view.prompt.choices].index(key)
    point = layout.choices[index].center
    hit = layout.choice_at(point)
    assert hit == index
    return session.answer(view.prompt.choices[hit].key, clock())


# -- placement -------------------------------------------------------------------------------------
def test_placement_asks_which_piece_with_the_counts_left_and_takes_a_touch(tmp_path: Path) -> None:
    clock = Clock()
    session = started(tmp_path, clock)
    update = place(session, clock, "c1")
    assert update.status.message == "Which piece did you place on c1?"
    view = view_of(session)
    assert view.prompt is not None
    assert [(c.key, c.count) for c in view.prompt.choices] == [(k.letter, 9) for k in MATH.kinds]
    assert all(c.piece is not None and c.piece.side == 0 for c in view.prompt.choices)
    assert touch(session, clock, "Q").accepted == ("Q@c1",)
    assert place(session, clock, "d1").status.kind == StatusKind.ASK
    assert touch(session, clock, "Q").accepted == ("Q@d1",)  # black's queen: black still has 9
    place(session, clock, "e1")
    view = view_of(session)
    assert view.prompt is not None
    counts = {c.key: c.count for c in view.prompt.choices}
    assert counts == {**{k.letter: 9 for k in MATH.kinds}, "Q": 8}  # white has placed one queen
    _surface, layout = draw(view)
    queen = [c.key for c in view.prompt.choices].index("Q")
    labels = [text for text, rect, role in layout.texts if role == "button" and rect.colliderect(layout.choices[queen])]
    assert any("×8" in text for text in labels), labels
    record = session.store.latest()
    assert record is not None
    assert record.moves == ("Q@c1", "Q@d1")


def test_placement_answered_with_the_buttons(tmp_path: Path) -> None:
    clock = Clock()
    session = started(tmp_path, clock)
    place(session, clock, "g7")
    for _ in range(3):
        session.button("next", clock())
    prompt = view_of(session).prompt
    assert prompt is not None
    assert prompt.selected == 3
    assert session.button("confirm", clock()).accepted == ("R@g7",)
    record = session.store.latest()
    assert record is not None
    assert record.moves == ("R@g7",)


def test_a_kind_placed_nine_times_is_no_longer_offered(tmp_path: Path) -> None:
    pos = engine.start_position(MATH)
    for n in range(18):
        pos.push_text(f"Q@{G.names[n]}" if n % 2 == 0 else f"P@{G.names[n]}")
    clock = Clock()
    session = started(tmp_path, clock, fen=pos.fen())
    place(session, clock, "m13")
    prompt = view_of(session).prompt
    assert prompt is not None
    choices = prompt.choices
    assert "Q" not in [c.key for c in choices]
    assert {c.key: c.count for c in choices}["P"] == 9  # black's pawns are black's business
    assert dict(PLACEMENT.remaining(session.position, 0)) == {c.key: c.count for c in choices}


def test_identity_board_reads_the_placed_piece(tmp_path: Path) -> None:
    clock = Clock()
    session = started(tmp_path, clock, identity=True)
    update = place(session, clock, "c1", MATH.parse_symbol("N"))
    assert update.accepted == ("N@c1",) and view_of(session).prompt is None


# -- score panel ------------------------------------------------------------------------------------
def test_view_shows_the_live_score_with_tinted_territories(tmp_path: Path) -> None:
    clock = Clock()
    session = started(tmp_path, clock, fen=fen_after(162))
    pos = session.position
    score = RULES.score(pos)
    view = view_of(session)
    assert view.scores is not None and view.scores.totals == score.totals
    shown = {t.cells: (t.owner, t.value) for t in view.scores.territories}
    assert shown == {t.cells: (t.owner, t.value) for t in score.territories if t.value}
    assert len(shown) >= 3
    surface, layout = draw(view)
    plain = view_from_position(pos)
    for terr in view.scores.territories:
        cell = terr.cells[0]
        assert cell_colour(view, cell) != cell_colour(plain, cell)  # tinted by owner
        # The pixel near the corner (no piece, no number there) shows the tint.
        corner = layout.cells[cell].inflate(-layout.cells[cell].w // 3, -layout.cells[cell].h // 3).topleft
        assert tuple(surface.get_at(corner))[:3] == cell_colour(view, cell)
    texts = [text for text, _rect, role in layout.texts]
    for total in score.totals:
        assert str(total) in texts
    values = [text for text, _rect, role in layout.texts if role == "value"]
    assert sorted(values) == sorted(str(v) for _o, v in shown.values())


def test_no_score_panel_for_chess() -> None:
    assert score_panel(engine.start_position(engine.find_variant("chess"))) is None


# -- ending by agreement -----------------------------------------------------------------------------
def one_step(session: Session, clock: Clock) -> str:
    """Play a one-cell step of the side to move on the board (events, then the settle time)."""
    pos = session.position
    move = next(m for m in pos.legal_moves() if m.tag == "" and len(m.changes) == 2)
    session.event(Event(move.frm, False, clock()))
    session.event(Event(move.to, True, clock()))
    update = session.tick(clock(T.settle_ms + 5))
    assert update.accepted == (pos.move_text(move),) or session.position.move_stack[-1] == move
    return session.position.move_text(move)


def test_no_agreement_during_placement(tmp_path: Path) -> None:
    clock = Clock()
    session = started(tmp_path, clock)
    place(session, clock, "a1")
    session.answer("K", clock())
    session.button("menu", clock())
    prompt = session.status.prompt
    assert prompt is not None
    assert prompt.question == "Start a new game? (No ending by agreement: the game cannot end during placement)"
    assert [o.key for o in prompt.options] == ["yes", "no"]
    session.answer("no", clock())
    assert session.phase == Phase.PLAY


def test_no_agreement_before_both_terminators(tmp_path: Path) -> None:
    clock = Clock()
    session = started(tmp_path, clock, fen=fen_after(162))
    one_step(session, clock)
    session.button("menu", clock())
    prompt = session.status.prompt
    assert prompt is not None
    assert prompt.question == ("Start a new game? (No ending by agreement: white and black must play "
                                              "the terminator first)")


def test_both_players_confirm_the_agreement_and_the_result_is_stored(tmp_path: Path) -> None:
    clock = Clock()
    session = started(tmp_path, clock, fen=fen_after(164))
    one_step(session, clock)
    session.button("menu", clock())
    menu = session.status.prompt
    assert menu is not None
    assert [o.key for o in menu.options] == ["agree", "yes", "no"]
    update = session.button("confirm", clock())  # the first player: "End the game by agreement"
    question = update.status.prompt
    assert question is not None
    totals = RULES.score(session.position).totals
    outcome = RULES.agreement_outcome(session.position)
    result = outcome.result(2)
    assert question.kind == PromptKind.AGREEMENT
    assert question.question == f"Both agree to end? {result}, {totals[0]} to {totals[1]}"
    record = session.store.latest()
    assert record is not None
    assert session.phase == Phase.PLAY and record.result == "*"
    update = touch(session, clock, "yes")  # the second player confirms on the screen
    assert session.phase == Phase.OVER and update.status.message.startswith(f"Game over: {result} (agreement)")
    record = session.store.latest()
    assert record is not None
    assert (record.result, record.termination) == (result, "agreement")
    assert record.finished is not None
    view = view_of(session)
    assert view.result == f"{result} agreement" and view.side_to_move is None
    assert view.scores is not None
    assert view.scores.totals == totals
    # The takeback button reopens the game (and takes back the last move, as after any ending).
    session.takeback(clock())
    assert session.phase == Phase.PLAY and session.outcome is None
    record = session.store.latest()
    assert record is not None
    assert record.result == "*"


def test_declining_the_agreement_keeps_playing(tmp_path: Path) -> None:
    clock = Clock()
    session = started(tmp_path, clock, fen=fen_after(164))
    one_step(session, clock)
    session.button("menu", clock())
    session.answer("agree", clock())
    session.answer("no", clock())
    assert session.phase == Phase.PLAY and session.status.prompt is None
    record = session.store.latest()
    assert record is not None
    assert record.finished is None
    one_step(session, clock)
    record = session.store.latest()
    assert record is not None
    assert len(record.moves) == 2


def test_bonuses_won_are_named_over_the_totals() -> None:
    pos = engine.start_position(MATH)
    for text in placement_game(MATH, seed=5, board_plies=10):
        pos.push_text(text)
    score = RULES.score(pos)
    assert score.bonuses  # black owns four sovereign territories and a homogeneous one by now
    panel = score_panel(pos)
    assert panel is not None
    per_side: dict[int, int] = {}
    for _name, side, points in score.bonuses:
        per_side[side] = per_side.get(side, 0) + points
    named = ", ".join(f"{MATH.sides[side]} +{points}" for side, points in sorted(per_side.items()))
    assert panel.title == f"Score (bonus {named})"
    assert panel.totals == score.totals
    assert sum(t.points[1] for t in score.territories) + per_side.get(1, 0) == score.totals[1]
    _surface, layout = draw(view_from_position(pos, scores=panel))
    shown = [(text, rect) for text, rect, role in layout.texts if role == "panel" and text.startswith("Score")]
    assert shown and shown[0][0] == panel.title  # fits the panel uncut
