"""Meddlers Chess and its pawns form (Parton, "Meddlers Chess Game"; readings in
docs/rules/meddlers.md and docs/rules/meddlers-pawns.md): the text's rules, each pinned on the
shipped variants -- the two half-moves of a turn, the opening counts they give, check lifted by
the first half, a meddled man taking the player's own man, a meddled pawn queening on the
player's back rank, the enemy king exposed by a meddle, the pawns form's fallback to the enemy
king; the position text of the half-turn; the inference core reading a meddle (a man of the
other colour lifted) on occupancy and identity boards; the screen's half-turn note and the ring
on queen-side men in real pygame pixels; ``chessery play``."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pygame
import pytest

import engine
from controller.core_types import StatusKind
from controller.demo_games import DEMO_GAMES
from controller.screen import view_of
from controller.session import Phase, Session
from controller.store import GameStore
from display import theme
from display.pieces import sprite
from display.render import render
from display.view import PieceView, view_from_position
from engine import parse_fen, start_position
from engine.errors import PositionError
from engine.perft import perft
from tests.child import REPO
from tests.core_scripts import play
from tests.demo_game_runs import played_demo

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

MEDDLERS = engine.find_variant("meddlers")
PAWNS = engine.find_variant("meddlers-pawns")


def texts(pos: engine.Position) -> set[str]:
    return {pos.move_text(m) for m in pos.legal_moves()}


def letter_at(pos: engine.Position, name: str) -> str:
    code = pos.board[pos.variant.geometry.index(name)]
    return pos.variant.symbol(code) if code else ""


# -- the set-up and the two halves of a turn ------------------------------------------------------
def test_queen_side_and_king_side_men_are_different_pieces() -> None:
    pos = start_position(MEDDLERS)
    assert pos.fen() == "tsldkbnr/oooopppp/8/8/8/8/OOOOPPPP/TSLDKBNR w Kk - 0 1"
    names = {MEDDLERS.kinds[MEDDLERS.kind_at[pos.board[MEDDLERS.geometry.index(c)]]].name for c in ("a1", "d2")}
    assert names == {"queen-side rook", "queen-side pawn"}
    assert letter_at(pos, "h1") == "R" and letter_at(pos, "a1") == "T"  # both rooks, not the same piece


def test_opening_counts_from_the_text() -> None:
    # First half: only king-side men, of which the four pawns (one or two steps) and the g1 knight
    # can move: 10. Second half: Black's queen-side men, likewise four pawns and the b8 knight: 10.
    pos = start_position(MEDDLERS)
    assert texts(pos) == {"e2e3", "e2e4", "f2f3", "f2f4", "g2g3", "g2g4", "h2h3", "h2h4", "g1f3", "g1h3"}
    pos.push_text("e2e4")
    assert texts(pos) == {"a7a6", "a7a5", "b7b6", "b7b5", "c7c6", "c7c5", "d7d6", "d7d5", "b8a6", "b8c6"}
    assert perft(start_position(MEDDLERS), 2) == 100  # 10 first halves x 10 meddles
    # pawns form: the meddle is any of Black's eight pawns, one or two steps: 16
    assert perft(start_position(PAWNS), 2) == 10 * 16
    # not from the text: regression counts of our reading (Black's king can step to d7 once it is free)
    assert perft(start_position(MEDDLERS), 3) == 1020


def test_position_text_shows_the_half_turn_and_the_move_number_counts_turns() -> None:
    pos = start_position(MEDDLERS)
    pos.push_text("e2e4")
    assert pos.fen() == "tsldkbnr/oooopppp/8/8/4P3/8/OOOO1PPP/TSLDKBNR w Kk - 0 1 half=2"
    assert pos.side == 0  # White still: the second half is his too
    pos.push_text("d7d5")
    assert pos.fen().split()[1:] == ["b", "Kk", "-", "0", "1"]
    pos.push_text("g8f6")
    pos.push_text("b2b3")
    assert pos.fen().split()[1:] == ["w", "Kk", "-", "0", "2"]  # b2b3 is a pawn move
    again = parse_fen(MEDDLERS, "4k3/8/8/8/8/8/1o6/3K4 w - - 0 1 half=2")
    assert again.fen().endswith("half=2")
    with pytest.raises(PositionError):
        parse_fen(MEDDLERS, "4k3/8/8/8/8/8/1o6/3K4 w - - 0 1 half=1")
    with pytest.raises(PositionError):  # the first half lifts every check
        parse_fen(MEDDLERS, "3tk3/8/8/8/8/8/8/3K4 w - - 0 1 half=2")


def test_a_checked_player_lifts_the_check_with_the_king_or_a_king_side_man() -> None:
    # The black queen-side rook checks down the e-file. The white queen-side bishop on d1 could
    # block on e2, but its owner never moves it: the king steps aside or the king-side bishop takes.
    pos = parse_fen(MEDDLERS, "k3t3/8/8/7B/8/8/3O4/3LK3 w - - 0 1")
    assert pos.is_check()
    assert texts(pos) == {"e1f1", "e1f2", "h5e8", "h5e2"}  # step aside, take, or block with a king-side man
    assert "lifts the check" in MEDDLERS.rules.turn_note.turn_note(pos)  # type: ignore[union-attr]


def test_meddling_may_take_the_players_own_man_and_expose_the_enemy_king() -> None:
    # "A player can capture one of his own men when moving an enemy Queenside piece"
    pos = parse_fen(MEDDLERS, "4k3/1l6/8/8/8/8/6P1/K7 w - - 0 1 half=2")
    assert "b7g2" in texts(pos)
    pos.push_text("b7g2")
    assert letter_at(pos, "g2") == "l" and pos.side == 1 and "half" not in pos.extra
    # "he can expose the enemy king to check": the black bishop leaves the e-file
    pos = parse_fen(MEDDLERS, "4k3/4l3/8/8/8/8/8/K3R3 w - - 0 1 half=2")
    pos.push_text("e7d6")
    assert pos.is_check() and pos.side == 1
    assert texts(pos) == {"e8d8", "e8f8", "e8d7", "e8f7"}  # Black lifts it on his first half


def test_meddling_may_not_leave_the_players_own_king_attacked() -> None:
    # The black knight shields White's king from the black rook: it may not be moved away.
    pos = parse_fen(MEDDLERS, "t3k3/8/8/8/s7/8/8/K7 w - - 0 1 half=2")
    moved = {t[:2] for t in texts(pos)}
    assert moved == {"a8"}


def test_an_enemy_pawn_pushed_to_the_players_back_rank_becomes_a_queen() -> None:
    pos = parse_fen(MEDDLERS, "4k3/8/8/8/8/8/1o6/3K4 w - - 0 1")
    pos.push_text("d1d2")
    assert texts(pos) == {"b2b1d"}  # a queen, no choice
    pos.push_text("b2b1d")
    assert letter_at(pos, "b1") == "d"  # Black's queen-side queen
    # From d1 to e1 instead, the new queen would check White's own king along the first rank:
    # the meddle is illegal, no other black queen-side man can move, and the half is skipped.
    pos = parse_fen(MEDDLERS, "4k3/8/8/8/8/8/1o6/3K4 w - - 0 1")
    pos.push_text("d1e1")
    assert pos.side == 1 and "half" not in pos.extra
    # the player's own king-side pawn promotes as he chooses, to a king-side piece
    own = parse_fen(MEDDLERS, "k7/6P1/8/8/8/8/8/K7 w - - 0 1")
    assert {t for t in texts(own) if t.startswith("g7")} == {"g7g8q", "g7g8r", "g7g8b", "g7g8n"}


def test_checkmate_is_judged_when_the_turn_is_over() -> None:
    pos = parse_fen(MEDDLERS, "k7/6t1/1K6/8/8/8/8/7R w - - 0 1")
    pos.push_text("h1h8")  # mate, were it Black's turn -- but White still meddles
    assert pos.outcome() is None
    assert "g7g8" in texts(pos)  # the meddle could block
    assert "g7g6" not in texts(pos)  # the rook on g6 would check White's own king
    pos.push_text("g7g1")
    outcome = pos.outcome()
    assert outcome is not None and (outcome.termination, outcome.winner) == ("checkmate", 0)


def test_castling_king_side_only_and_no_en_passant() -> None:
    pos = parse_fen(MEDDLERS, "4k3/8/8/8/8/8/8/T3K2R w K - 0 1")
    assert "e1g1" in texts(pos) and "e1c1" not in texts(pos)
    # a black queen-side pawn beside White's double step: the meddle cannot take it en passant
    pos = parse_fen(MEDDLERS, "4k3/8/8/8/3o4/8/4P3/K7 w - - 0 1")
    pos.push_text("e2e4")
    assert texts(pos) == {"d4d3"}


def test_pawns_form_meddles_any_pawn_else_the_enemy_king() -> None:
    pos = start_position(PAWNS)
    pos.push_text("g1f3")
    assert {t[:2] for t in texts(pos)} == {f"{f}7" for f in "abcdefgh"}
    note = PAWNS.rules.turn_note.turn_note(pos)  # type: ignore[union-attr]
    assert note == "White, second half: move a black pawn"
    # Black's only pawn is stuck behind White's king: White moves the black king, never onto a
    # cell White's men attack (the rook on f1 covers f8).
    pos = parse_fen(PAWNS, "4k3/4p3/4K3/8/8/8/8/5R2 w - - 0 1 half=2")
    assert texts(pos) == {"e8d8"}
    assert "move the black king" in PAWNS.rules.turn_note.turn_note(pos)  # type: ignore[union-attr]
    # in the full game the king is no queen-side man: the half is skipped
    full = parse_fen(MEDDLERS, "4k3/4o3/4K3/8/8/8/8/5R2 w - - 0 1")
    full.push_text("f1f2")
    assert full.side == 1 and "half" not in full.extra


def test_turn_notes_say_the_half_and_whose_men_move() -> None:
    pos = start_position(MEDDLERS)
    note = MEDDLERS.rules.turn_note
    assert note is not None and MEDDLERS.rules.multi_move_turns
    assert note.turn_note(pos) == "White, first half: move a white king-side man"
    pos.push_text("e2e4")
    assert note.turn_note(pos) == "White, second half: move a black queen-side man"
    pos.push_text("d7d5")
    assert note.turn_note(pos) == "Black, first half: move a black king-side man"


# -- the demo games and chessery play -------------------------------------------------------------
RESULTS = {"meddlers": "1-0 checkmate", "meddlers-pawns": "0-1 checkmate"}


@pytest.mark.parametrize("name", sorted(RESULTS))
def test_demo_game_is_legal_and_chessery_run_plays_it(name: str) -> None:
    played_demo(name)


def chessery(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "controller.cli", *args], capture_output=True, text=True,
                          cwd=REPO, timeout=60)


@pytest.mark.parametrize("name", sorted(RESULTS))
def test_chessery_play_gives_the_outcome(name: str) -> None:
    done = chessery("play", name, *DEMO_GAMES[name])
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == RESULTS[name]


def test_chessery_play_refuses_the_players_own_queen_side_man() -> None:
    bad = chessery("play", "meddlers", "e2e4", "d7d5", "d2d4")
    assert bad.returncode == 2 and bad.stdout == ""
    assert "move 3 'd2d4' is not legal" in bad.stderr
    ok = chessery("play", "meddlers", "e2e4", "d7d5")
    assert ok.stdout.splitlines() == ["tsldkbnr/ooo1pppp/8/3o4/4P3/8/OOOO1PPP/TSLDKBNR b Kk - 0 1", "*"]


# -- the board: a meddle lifts a man of the other colour -------------------------------------------
@pytest.mark.parametrize("identity", [False, True])
def test_inference_reads_both_halves_of_a_turn(identity: bool) -> None:
    # An identity board reads a queen-side man as the man he physically is (a pawn with a band).
    white, black = ("P", "p") if identity else ("", "")
    script = (f"lift e2\nplace e4 {white}\nsleep 1500\nlift d7\nplace d5 {black}\nsleep 1500\n"
              f"lift g8\nplace f6 {'n' if identity else ''}\nsleep 1500\nlift d2\nplace d4 {'P' if identity else ''}")
    r = play(script, variant=MEDDLERS, identity=identity)
    assert r.texts() == ["e2e4", "d7d5", "g8f6", "d2d4"]
    assert r.core.status.kind == StatusKind.IDLE
    assert r.core.position.fen() == "tsldkb1r/ooo1pppp/5n2/3o4/3OP3/8/OOO2PPP/TSLDKBNR w Kk - 0 2"


def test_identity_board_refuses_a_king_side_man_of_the_enemy_in_the_second_half() -> None:
    r = play("lift e2\nplace e4 P\nsleep 1500\nlift e7\nplace e5 p\nsleep 3000", variant=MEDDLERS, identity=True)
    assert r.texts() == ["e2e4"]
    assert r.core.status.kind == StatusKind.FIX


# -- the screen ------------------------------------------------------------------------------------
def test_marked_sprite_has_the_band_and_the_plain_one_none() -> None:
    pygame.init()
    marked = sprite(PieceView(0, "rook", "T", "queen-side rook", "ring"), ("white", "black"), 60)
    plain = sprite(PieceView(0, "rook", "R", "king-side rook"), ("white", "black"), 60)

    def band(s: pygame.Surface) -> int:
        return sum(1 for x in range(60) for y in range(60) if s.get_at((x, y))[:3] == theme.MARK)

    assert band(marked) > 60 and band(plain) == 0


def test_screen_shows_the_half_turn_and_rings_the_queen_side_men(tmp_path: Path) -> None:
    pygame.init()
    store = GameStore(tmp_path / "games.sqlite3")
    start = start_position(MEDDLERS)
    session = Session(MEDDLERS, store, now=0)
    assert session.sync([1 if c else 0 for c in start.board], 10).phase == Phase.PLAY
    geo = MEDDLERS.geometry
    from controller.inference import Event

    for t, (name, down) in enumerate((("e2", False), ("e4", True)), start=1):
        session.event(Event(geo.index(name), down, 20 * t))
    session.tick(5000)
    assert [session.position.move_text(m) for m in session.position.move_stack] == ["e2e4"]
    view = view_of(session)
    assert view.status.startswith("White, second half: move a black queen-side man")
    surface = pygame.Surface((800, 480))
    layout = render(view, surface)
    drawn = " ".join(text for text, _box, _role in layout.texts)
    assert "second half" in drawn and "black queen-side man" in drawn

    def band(cell: str) -> int:
        rect = layout.cells[geo.index(cell)]
        return sum(1 for x in range(rect.left, rect.right) for y in range(rect.top, rect.bottom)
                   if surface.get_at((x, y))[:3] == theme.MARK)

    assert all(band(c) > 40 for c in ("a1", "d1", "c2", "b8", "d7"))  # queen-side men, both colours
    assert all(band(c) == 0 for c in ("e1", "h1", "g2", "e4", "g8", "e7"))  # king-side men
    store.close()


def test_plain_view_legend_lists_the_ringed_men_only() -> None:
    view = view_from_position(start_position(MEDDLERS))
    assert sorted(p.name for p in view.legend) == ["queen-side bishop", "queen-side knight", "queen-side pawn",
                                                   "queen-side queen", "queen-side rook"]
    assert all(p.mark == "ring" and p.standard for p in view.legend)


@pytest.mark.parametrize("identity", [False, True])
def test_inference_reads_a_meddled_pawn_queening_without_a_question(identity: bool) -> None:
    # White's king steps, then White pushes Black's queen-side pawn to b1: one legal move, no choice
    script = ("lift d1\nplace d2 K\nsleep 1500\nlift b2\nplace b1 q\nsleep 3000" if identity else
              "lift d1\nplace d2\nsleep 1500\nlift b2\nplace b1\nsleep 3000")
    r = play(script, "4k3/8/8/8/8/8/1o6/3K4 w - - 0 1", variant=MEDDLERS, identity=identity)
    assert r.texts() == ["d1d2", "b2b1d"]
    assert r.core.status.kind == StatusKind.IDLE and r.core.position.side == 1
