"""The turn note on the screen: Simpletons' menu and Rettah's rule of check are rules the board
cannot show, so the status line says what the side to move may do (a real session on a real
SQLite file, the frame drawn on a real pygame surface)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pygame

import engine
from controller.core_types import StatusKind
from controller.inference import Event
from controller.screen import view_of
from controller.session import Phase, Session
from controller.store import GameStore
from display.render import render

WORKED = "8/8/5q2/8/1k4NR/b7/7N/5K2 w - - 0 1"


def session_at(tmp_path: Path, name: str, fen: str | None = None) -> Session:
    variant = engine.find_variant(name)
    # a fresh store each time: a store with a game in it would resume that game
    db = tmp_path / f"games{len(list(tmp_path.iterdir()))}.sqlite3"
    session = Session(variant, GameStore(db), fen=fen, now=10)
    pos = engine.parse_fen(variant, fen) if fen else engine.start_position(variant)
    assert session.sync([1 if code else 0 for code in pos.board], 20).phase == Phase.PLAY
    return session


def test_rettah_status_names_the_checker_to_take(tmp_path: Path) -> None:
    view = view_of(session_at(tmp_path, "rettah", WORKED))
    assert view.status.startswith("Rule of check: take the checking man on f6. ")
    # the note is drawn: the panel differs from the same frame without it
    with_note, without = pygame.Surface((800, 480)), pygame.Surface((800, 480))
    layout = render(view, with_note)
    render(replace(view, status=view.status.split(". ", 1)[1]), without)
    panel = layout.panel
    assert any(with_note.get_at((x, y)) != without.get_at((x, y))
               for x in range(panel.left, panel.right, 2) for y in range(panel.top, panel.bottom, 2))
    assert not any(with_note.get_at((x, y)) != without.get_at((x, y))
                   for x in range(layout.board.left, layout.board.right, 3)
                   for y in range(layout.board.top, layout.board.bottom, 3))


def test_simpletons_status_says_which_part_of_the_menu_applies(tmp_path: Path) -> None:
    assert view_of(session_at(tmp_path, "duffery-simpletons")).status.startswith("Simpletons: move a pawn. ")
    after = "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w - - 0 2"  # 1.e4 d5: Bb5+ is on
    assert view_of(session_at(tmp_path, "duffery-simpletons", after)).status.startswith("Simpletons: give check. ")
    checked = "1n2k3/2p4r/8/r7/B7/8/8/4K3 b - - 0 1"
    assert view_of(session_at(tmp_path, "duffery-simpletons", checked)).status.startswith("In check: ")


def test_no_note_for_chess_or_rettah_out_of_check(tmp_path: Path) -> None:
    assert not view_of(session_at(tmp_path, "chess")).status.startswith(("Rule", "Simpletons", "In check"))
    assert not view_of(session_at(tmp_path, "rettah")).status.startswith("Rule of check")


def test_a_move_off_the_simpletons_menu_is_not_accepted_and_the_board_is_to_be_fixed(tmp_path: Path) -> None:
    after = "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w - - 0 2"  # 1.e4 d5: only Bb5+
    session = session_at(tmp_path, "duffery-simpletons", after)
    g = session.position.variant.geometry
    t = 100
    for cell, down in (("d5", False), ("e4", False), ("d5", True)):  # exd5, a chess move
        t += 40
        session.event(Event(g.index(cell), down, t))
    update = session.tick(t + 3000)
    assert update.accepted == ()
    assert session.status.kind == StatusKind.FIX
    # the white pawn belongs on e4 and the black pawn it took on d5: the victim is named too
    assert {g.names[f.cell] for f in session.status.fixes} == {"d5", "e4"}
    # Bb5+ from the corrected board is accepted
    for cell, down in (("d5", False), ("e4", True), ("d5", True), ("f1", False), ("b5", True)):
        t += 40
        session.event(Event(g.index(cell), down, t))
    session.tick(t + 3000)
    assert session.position.fen().startswith("rnbqkbnr/ppp1pppp/8/1B1p4/4P3/8/PPPP1PPP/RNBQK1NR b")
