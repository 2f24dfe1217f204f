"""Choosing a man by touching it on the screen (issue 11): a touched cell chooses the legal move
the board cannot see there -- a move that changes only that cell and keeps what the sensors read
on it, the same move a lift and a put-back selects. Real sessions on real SQLite files: one such
move is final and stored at once, several are asked about, none changes nothing but the status
line, and a touch while a move is under way on the board is ignored. On the screen: the status
line offers the touch, the question is drawn as buttons, and a touch at a man's pixels names
its engine cell with the board turned round and on Alice's two boards."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pygame
import pytest

import engine
from controller.core_types import PendingKind, PromptKind, StatusKind
from controller.inference import Event, Referee
from controller.screen import view_of
from controller.session import Phase, Session
from controller.store import GameStore
from display.render import render
from display.view import view_from_position
from display.window import CellClicked, Window
from engine.components import Component, Mover, register
from engine.moves import SPECIAL, Move, build_move
from engine.position import Position
from engine.variant import variant_from_toml

ILL = engine.find_variant("illusionary")
AT = ILL.geometry.index


def occupancy(pos: Position) -> list[int]:
    return [1 if code else 0 for code in pos.board]


def stored(session: Session) -> tuple[str, ...]:
    """The moves the session's store holds for its game."""
    assert session.game_id is not None
    return session.store.game(session.game_id).moves


def session_at(tmp_path: Path, variant: engine.Variant = ILL, fen: str | None = None) -> Session:
    session = Session(variant, GameStore(tmp_path / "games.sqlite3"), fen=fen, now=10)
    start = engine.parse_fen(variant, fen) if fen else engine.start_position(variant)
    assert session.sync(occupancy(start), 20).phase == Phase.PLAY
    return session


def test_a_touch_chooses_the_one_silent_move_and_it_is_final_and_stored(tmp_path: Path) -> None:
    session = session_at(tmp_path)
    assert [session.position.move_text(m) for m in session.core.silent_moves_on(AT("d7"))] == ["d7d7~p"]
    update = session.touch(AT("d7"), 100)
    assert update.accepted == ("d7d7~p",) and update.undone == ()
    assert session.position.board[AT("d7")] == ILL.parse_symbol("~p")
    assert session.status.kind == StatusKind.IDLE and session.core.deadline is None
    assert session.status.message == "Black made the pawn on d7 an illusionary pawn. White to move"
    assert stored(session) == ("d7d7~p",)
    # the other three choices the same way: the game proper begins
    for name, text in (("e2", "e2e2~p"), ("g1", "g1g1~n"), ("c8", "c8c8~b")):
        assert session.touch(AT(name), 200).accepted == (text,)
    assert "select" not in session.position.fen()
    assert stored(session) == ("d7d7~p", "e2e2~p", "g1g1~n", "c8c8~b")
    # and the board referees the game as before: e2-e4 by the illusionary pawn
    session.event(Event(AT("e2"), False, 1000))
    session.event(Event(AT("e4"), True, 1100))
    assert session.tick(2000).accepted == ("e2e4",)


def test_a_touch_where_nothing_can_be_chosen_changes_nothing(tmp_path: Path) -> None:
    session = session_at(tmp_path)
    fen = session.position.fen()
    for name in ("e4", "e2", "e8"):  # an empty cell, White's pawn while Black chooses, a king
        update = session.touch(AT(name), 100)
        assert update.accepted == () and update.note == f"Nothing to choose on {name}"
        # the reason replaces the last one, it does not pile up
        assert session.status.message == f"Nothing to choose on {name}. Black to move"
        assert session.position.fen() == fen and stored(session) == ()
    # the game is unharmed: the lift and put-back still asks, and the touch still chooses
    session.event(Event(AT("a7"), False, 300))
    session.event(Event(AT("a7"), True, 400))
    session.tick(2000)
    assert session.status.prompt is not None and session.status.prompt.kind == PromptKind.CONFIRM
    assert session.answer("no", 2100).accepted == ()
    assert session.touch(AT("a7"), 2200).accepted == ("a7a7~p",)


def test_a_touch_while_a_man_is_in_the_hand_is_ignored(tmp_path: Path) -> None:
    session = session_at(tmp_path)
    session.event(Event(AT("d7"), False, 100))  # Black holds the d7 pawn
    update = session.touch(AT("e7"), 150)
    assert update.accepted == () and "finish the move on the board first" in update.note
    assert session.status.message.startswith("Touch on e7 ignored: finish the move on the board first")
    assert session.position.move_stack == [] and session.core.observed[AT("d7")] == 0
    # the reading goes on as if nothing had been touched: put back, it is the question about d7
    session.event(Event(AT("d7"), True, 200))
    session.tick(2000)
    prompt = session.status.prompt
    assert prompt is not None and "pawn on d7" in prompt.question
    assert session.touch(AT("d7"), 2050).accepted == ()  # the question is open: answer it first
    assert session.answer("yes", 2100).accepted == ("d7d7~p",)


def test_a_touch_after_a_lift_and_put_back_still_waiting_chooses_at_once(tmp_path: Path) -> None:
    session = session_at(tmp_path)
    session.event(Event(AT("d7"), False, 100))
    session.event(Event(AT("d7"), True, 200))
    assert session.core.pending_kind == PendingKind.REMOVAL  # before the question: the board is at rest
    assert session.touch(AT("d7"), 300).accepted == ("d7d7~p",)
    assert session.core.deadline is None and session.status.prompt is None
    assert session.tick(5000).accepted == ()  # nothing left to ask about


def test_no_touch_outside_a_game_or_under_the_menu(tmp_path: Path) -> None:
    session = Session(ILL, GameStore(tmp_path / "games.sqlite3"), now=10)
    assert session.phase == Phase.SETUP
    update = session.touch(AT("d7"), 20)
    assert update.accepted == () and update.note == "touch on d7 ignored: no game under way"
    session.sync(occupancy(engine.start_position(ILL)), 30)
    session.touch(AT("d7"), 40)
    session.button("menu", 50)  # a move was made: the menu asks about a new game
    assert session.status.prompt is not None and session.status.prompt.kind == PromptKind.MENU
    update = session.touch(AT("e2"), 60)
    assert update.accepted == () and "answer the question first" in update.note
    assert len(session.position.move_stack) == 1


def test_a_cell_the_board_has_not_is_refused() -> None:
    core = Referee(engine.start_position(ILL))
    with pytest.raises(ValueError, match="no cell 64"):
        core.touch(64, 10)


def test_an_identity_board_reads_the_chosen_man_as_the_man_it_is(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "games.sqlite3")
    session = Session(ILL, store, identity=True, now=10)
    start = engine.start_position(ILL)
    assert session.sync(list(start.board), 20).phase == Phase.PLAY
    assert session.touch(AT("d7"), 30).accepted == ("d7d7~p",)
    assert session.status.kind == StatusKind.IDLE  # the board still shows a pawn on d7: that is right


# -- several silent moves on one cell: asked about -------------------------------------------------
@register("test_two_ways")
class TwoWays(Component):
    """A man that turns, where it stands, into one of two kinds (a test of the controller only)."""

    def movers(self) -> dict[str, Mover]:
        return {"turn": self.turn}

    def turn(self, pos: Position, cell: int, code: int, out: list[Move]) -> None:
        v = self.v
        side = v.owner[code]
        for letter in ("A", "B"):
            new = v.code(v.kind_index[letter], side)
            out.append(build_move(pos.board, cell, cell, tag=SPECIAL, become=((cell, new),), promotion=new))


TWO_WAYS = variant_from_toml("two-ways", """
    inherits = "chess"
    start = "4k3/8/8/8/8/8/8/3TK3 w - - 0 1"
    rules = ["test_two_ways"]
    [pieces.T]
    name = "turner"
    betza = "W"
    hook = "turn"
    [pieces.A]
    name = "archer"
    betza = "F"
    [pieces.B]
    name = "bowman"
    betza = "D"
""")


def test_several_silent_moves_on_the_cell_touched_are_asked_about(tmp_path: Path) -> None:
    session = session_at(tmp_path, TWO_WAYS)
    d1 = TWO_WAYS.geometry.index("d1")
    assert len(session.core.silent_moves_on(d1)) == 2
    update = session.touch(d1, 100)
    assert update.accepted == ()
    prompt = session.status.prompt
    assert prompt is not None and prompt.kind == PromptKind.WHICH_MOVE
    assert prompt.question == "Which change of the white turner on d1?"
    assert [o.key for o in prompt.options] == ["d1d1a", "d1d1b", "no"]
    assert session.status.cells == (d1,)
    assert session.answer("d1d1b", 200).accepted == ("d1d1b",)
    assert session.position.board[d1] == TWO_WAYS.parse_symbol("B")
    assert stored(session) == ("d1d1b",)


def test_the_question_is_dropped_when_the_board_changes_and_no_leaves_the_man(tmp_path: Path) -> None:
    session = session_at(tmp_path, TWO_WAYS)
    d1 = TWO_WAYS.geometry.index("d1")
    session.touch(d1, 100)
    assert session.answer("no", 150).accepted == ()
    assert session.status.prompt is None and session.position.move_stack == []
    session.touch(d1, 200)
    assert session.status.prompt is not None
    session.event(Event(TWO_WAYS.geometry.index("e1"), False, 300))  # the king lifted: a move begins
    assert session.status.prompt is None
    session.event(Event(TWO_WAYS.geometry.index("e2"), True, 400))
    assert session.tick(1000).accepted == ("e1e2",)


# -- on the screen ----------------------------------------------------------------------------------
def test_the_status_line_says_a_touch_chooses_while_there_is_something_to_choose(tmp_path: Path) -> None:
    session = session_at(tmp_path)
    assert session.core.touch_cells() == frozenset(AT(f"{f}7") for f in "abcdefgh")  # Black's pawns
    assert view_of(session).status == ("Black chooses a pawn to make illusionary: lift it and put it back, "
                                       "or touch it on the screen. Black to move")
    for name in ("d7", "e2", "g1", "c8"):
        session.touch(AT(name), 100)
    assert session.core.touch_cells() == frozenset()
    assert view_of(session).status == "Black made the bishop on c8 an illusionary bishop. White to move"


def test_the_question_about_several_changes_is_drawn_as_buttons_that_answer_it(tmp_path: Path) -> None:
    session = session_at(tmp_path, TWO_WAYS)
    d1 = TWO_WAYS.geometry.index("d1")
    session.touch(d1, 100)
    view = view_of(session)
    assert view.prompt is not None and view.prompt.title == "Which change of the white turner on d1?"
    assert [c.key for c in view.prompt.choices] == ["d1d1a", "d1d1b", "no"]
    assert view.highlights.pending == (d1,)
    surface = pygame.Surface((800, 480))
    layout = render(view, surface)
    assert len(layout.choices) == 3 and all(r.w > 40 and r.h > 20 for r in layout.choices)
    labels = [text for text, _box, role in layout.texts if role == "button"]
    assert "None: leave it" in labels


@pytest.mark.parametrize(("name", "flipped", "cells"), [
    ("illusionary", True, ("d7", "e2", "a1", "h8")),
    ("alice", False, ("e2", "e2'", "a8'", "h1")),
    ("alice", True, ("e2", "e2'", "a8'", "h1")),
])
def test_a_touch_at_a_man_drawn_on_the_screen_names_its_engine_cell(name: str, flipped: bool,
                                                                     cells: tuple[str, ...]) -> None:
    variant = engine.find_variant(name)
    geo = variant.geometry
    view = replace(view_from_position(engine.start_position(variant)), flipped=flipped)
    window = Window("headless", (800, 480))
    window.open()
    try:
        window.show(view)
        window.step(timeout=0.5)
        layout = window.layout
        assert layout is not None and layout.flip == flipped
        # Where the first rank is drawn: at the bottom, or at the top with the board turned round.
        first, last = layout.cells[geo.index("a1")], layout.cells[geo.index("a8")]
        assert (first.centery < last.centery) == flipped
        for cell_name in cells:
            cell = geo.index(cell_name)
            pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=layout.cells[cell].center, button=1))
            window.step(timeout=0.5)
            assert window.inputs.get(timeout=1) == CellClicked(cell), cell_name
    finally:
        window.close()
