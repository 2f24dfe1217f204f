"""The move-inference core, case by case: what it accepts, when, and what the player is told.

Each case is an event script in the simulator's format replayed on its own clock (``sleep`` lines
advance it, each lift/place 10 ms), so every timing below is exact."""

from __future__ import annotations

from pathlib import Path

import pytest

import engine
from controller.core_types import PromptKind, StatusKind
from controller.inference import SCAN_MARGIN_MS, Event, Referee, Timing
from controller.replay import Replayer
from controller.session import Phase
from firmware_bridge.boards.millennium import MillenniumDriver
from firmware_bridge.script import parse_script
from tests.core_scripts import DGT, play, play_timed, texts

CHESS = engine.find_variant("chess")
T = Timing()


def accepted_at(r: Replayer) -> list[tuple[int, str]]:
    pos = r.core.position
    return [(t, pos.move_text(m)) for t, d in r.log.decisions for m in d.accepted]


def cell(name: str) -> int:
    return CHESS.geometry.index(name)


# -- captures ------------------------------------------------------------------------------------
CAPTURE_FEN = "4k3/8/8/4p3/3P4/8/8/4K3 w - - 0 1"


@pytest.mark.parametrize("script", [
    "lift e5\nlift d4\nplace e5",           # victim first
    "lift d4\nsleep 300\nlift e5\nplace e5",  # attacker first, hand held in the air a while
])
def test_capture_in_either_order(script: str) -> None:
    r = play(script, CAPTURE_FEN)
    assert r.texts() == ["d4e5"]
    assert r.core.status.kind == StatusKind.IDLE
    assert r.core.status.message == "White played d4e5. Black to move"


def test_capture_is_accepted_settle_time_after_the_last_placement() -> None:
    r = play("lift e5\nlift d4\nplace e5", CAPTURE_FEN)
    # events at 10, 20, 30 ms; accepted once the board was still for settle_ms
    assert accepted_at(r) == [(30 + T.settle_ms, "d4e5")]


def test_a_capture_needs_the_victim_handled() -> None:
    # The pawn leaves d4 and nothing else happens: the pawn is in the hand, not a capture.
    r = play("lift d4\nsleep 5000", CAPTURE_FEN)
    assert r.texts() == []
    assert r.core.status.kind == StatusKind.MOVING


def test_rook_touching_two_victims_is_asked_about() -> None:
    fen = "4k3/8/8/8/p2R3p/8/8/4K3 w - - 0 1"  # the rook on d4 can take a4 or h4
    r = play("lift a4\nlift h4\nlift d4\nplace h4\nplace a4\nsleep 100", fen)
    # a4 and h4 were both lifted and both filled after the rook left: either capture fits
    prompt = r.core.status.prompt
    assert prompt is not None and prompt.kind == PromptKind.WHICH_MOVE
    assert r.core.status.message == "Which move did you make?"
    assert sorted(o.key for o in prompt.options) == ["d4a4", "d4h4"]
    r.feed(parse_script("choose d4h4", CHESS)[0])
    assert r.texts() == ["d4h4"]


def test_a_victim_put_back_before_the_attacker_left_is_not_where_it_went() -> None:
    fen = "4k3/8/8/8/p2R3p/8/8/4K3 w - - 0 1"
    # h4 is lifted and put back while the rook still stands on d4: the rook went to a4.
    r = play("lift a4\nlift h4\nplace h4\nlift d4\nplace a4\nsleep 100", fen)
    assert r.texts() == ["d4a4"]
    assert all(d.status.prompt is None for _t, d in r.log.decisions)


def test_en_passant_in_either_order() -> None:
    fen = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2"
    for script in ("lift d5\nlift e5\nplace d6", "lift e5\nplace d6\nsleep 200\nlift d5"):
        r = play(script, fen)
        assert r.texts() == ["e5d6"], script


# -- castling --------------------------------------------------------------------------------------
CASTLE_FEN = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"


@pytest.mark.parametrize("script", [
    "lift e1\nplace g1\nsleep 400\nlift h1\nplace f1",   # king first, a pause between the pieces
    "lift h1\nplace f1\nsleep 400\nlift e1\nplace g1",   # rook first: h1f1 alone is legal too
])
def test_castling_king_or_rook_first(script: str) -> None:
    r = play(script, CASTLE_FEN)
    assert r.texts() == ["e1g1"]
    assert all(not d.undone for _t, d in r.log.decisions)  # no detour through h1f1


def test_rook_move_that_could_start_a_castling_is_final_after_the_hand_let_go() -> None:
    r = play("lift h1\nplace f1", CASTLE_FEN)
    assert accepted_at(r) == [(20 + T.hesitate_ms, "h1f1")]
    # Until then it is a provisional reading: shown, marked, never recorded.
    t, d = next((t, d) for t, d in r.log.decisions if d.provisional)
    assert t == 20 and d.status.provisional == ("h1f1",) and "(provisional)" in d.status.message
    assert not d.accepted


def test_rook_move_is_final_as_soon_as_the_reply_is_put_down() -> None:
    # Black lifting a piece says nothing (hands overlap); black putting one down does.
    r = play("lift h1\nplace f1\nsleep 100\nlift e8\nsleep 100\nplace e7", CASTLE_FEN)
    assert accepted_at(r) == [(240, "h1f1"), (240 + T.settle_ms, "e8e7")]


def test_castling_finished_after_the_rook_move_was_final_is_guided_back() -> None:
    r = play(f"lift h1\nplace f1\nsleep {T.hesitate_ms + 100}\nlift e1\nplace g1", CASTLE_FEN)
    assert r.texts() == ["h1f1"]  # final moves are never amended
    assert all(not d.undone for _t, d in r.log.decisions)
    assert r.core.status.kind == StatusKind.FIX
    assert r.core.status.message == "Board does not match the game: e1: white king, g1: empty"


# -- promotion -----------------------------------------------------------------------------------------
PROMO_FEN = "4k3/1P5p/8/8/8/8/8/4K3 w - - 0 1"


def test_promotion_asks_which_piece() -> None:
    r = play("lift b7\nplace b8", PROMO_FEN)
    status = r.core.status
    assert status.kind == StatusKind.ASK and status.message == "Promote to which piece?"
    assert status.prompt is not None and status.prompt.kind == PromptKind.PROMOTION
    assert [(o.key, o.label) for o in status.prompt.options] == [
        ("q", "queen"), ("r", "rook"), ("b", "bishop"), ("n", "knight")]
    assert r.texts() == []  # nothing recorded before the answer
    r.feed(parse_script("choose n", CHESS)[0])
    assert r.texts() == ["b7b8n"]
    assert r.core.status.message == "White played b7b8n. Black to move"


def test_promotion_answer_by_move_text_and_a_wrong_answer() -> None:
    r = play("lift b7\nplace b8", PROMO_FEN)
    with pytest.raises(ValueError, match="is not an answer"):
        r.core.answer("k", r.t)
    r.feed(parse_script("choose b7b8q", CHESS)[0])
    assert r.texts() == ["b7b8q"]


def test_identity_board_reads_the_promoted_piece() -> None:
    r = play("lift b7\nplace b8 R", PROMO_FEN, identity=True)
    assert r.texts() == ["b7b8r"]
    assert all(d.status.prompt is None for _t, d in r.log.decisions)


def test_promotion_question_survives_swapping_the_pawn_for_a_queen() -> None:
    r = play("lift b7\nplace b8\nsleep 100\nlift b8\nsleep 300\nplace b8", PROMO_FEN)
    assert r.core.status.kind == StatusKind.ASK
    r.feed(parse_script("choose q", CHESS)[0])
    assert r.texts() == ["b7b8q"]


# -- no move, bounce, drags, quick replies ----------------------------------------------------------------
def test_piece_lifted_and_put_back_is_no_move() -> None:
    r = play("lift g1\nsleep 700\nplace g1\nsleep 3000")
    assert r.texts() == []
    assert r.core.status.kind == StatusKind.IDLE and r.core.status.message == "White to move"


def test_bouncing_placement_is_one_move() -> None:
    r = play("lift e2\nplace e4\nsleep 2\nlift e4\nsleep 2\nplace e4\nsleep 3\nlift e4\nsleep 3\nplace e4")
    assert r.texts() == ["e2e4"]
    assert [n for _t, d in r.log.decisions if (n := d.note)] == ["White played e2e4"]


def test_dragged_piece_never_records_a_square_it_crossed() -> None:
    fen = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1"
    script = "lift a1\nplace a2\nsleep 10\nlift a2\nplace a3\nsleep 10\nlift a3\nplace a4"  # rests < settle_ms
    r = play(script, fen)
    assert r.texts() == ["a1a4"]
    assert [m for _t, m in accepted_at(r)] == ["a1a4"]  # a1a2/a1a3 never accepted, even briefly


def test_slow_drag_is_recorded_where_the_piece_landed() -> None:
    fen = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1"
    rest = T.drag_ms - 20
    r = play(f"lift a1\nplace a2\nsleep {rest}\nlift a2\nplace a3\nsleep {rest}\nlift a3\nplace a4", fen)
    assert r.texts() == ["a1a4"]
    assert [m for _t, m in accepted_at(r)] == ["a1a4"]


def test_a_rest_longer_than_hesitate_ms_is_a_move() -> None:
    fen = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1"
    r = play(f"lift a1\nplace a2\nsleep {T.hesitate_ms + 50}\nlift a2\nplace a4", fen)
    assert r.texts() == ["a1a2"]
    assert r.core.status.kind == StatusKind.FIX


def test_a_rest_longer_than_drag_ms_with_the_next_players_hand_on_a_man_is_a_move() -> None:
    # Black's hand on the king (a man the rook cannot take next): the rook's rest of drag_ms
    # on a2 is the move, final at that lift or drag_ms after the rook's last event.
    fen = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1"
    r = play(f"lift a1\nplace a2\nsleep {T.drag_ms + 50}\nlift e8\nsleep 100\nplace d8", fen)
    assert accepted_at(r) == [(20 + T.drag_ms + 50 + 10, "a1a2"), (20 + T.drag_ms + 50 + 120 + T.settle_ms, "e8d8")]
    r = play("lift a1\nplace a2\nsleep 50\nlift e8", fen)
    assert accepted_at(r) == [(20 + T.drag_ms, "a1a2")]


@pytest.mark.parametrize("rest", [500, 1500, T.hesitate_ms - 100])
def test_a_hesitant_slide_resting_on_several_crossed_cells_is_read_where_it_ends(rest: int) -> None:
    fen = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1"
    script = f"lift a1\nplace a2\nsleep {rest}\nlift a2\nplace a3\nsleep {rest}\nlift a3\nplace a5"
    r = play(script + "\nsleep 200\nlift e8\nplace d8", fen)
    assert r.texts() == ["a1a5", "e8d8"]
    assert all(not d.undone for _t, d in r.log.decisions)
    # Shown at once as a provisional reading, never recorded while the hand may go on.
    shown = [d.status.provisional for _t, d in r.log.decisions if d.status.provisional]
    assert ("a1a2",) in shown and ("a1a3",) in shown


def test_a_slide_paused_next_to_its_victim_then_the_victim_lifted_by_the_mover() -> None:
    fen = "r3k3/8/8/8/8/8/8/R3K3 w - - 0 1"
    r = play("lift a1\nplace a5\nsleep 1400\nlift a8\nsleep 800\nlift a5\nplace a8", fen)
    assert r.texts() == ["a1a8"]
    assert all(not d.undone for _t, d in r.log.decisions)


def test_the_next_player_lifting_a_man_the_slider_could_take_keeps_both_readings() -> None:
    # Ra5 with a black rook on a8: Black lifts it. The slide may still go on to take it, or
    # Black is replying: the next event decides.
    fen = "r3k3/8/8/8/8/8/8/R3K3 w - - 0 1"
    r = play("lift a1\nplace a5\nsleep 500\nlift a8\nsleep 700\nplace b8", fen)  # Black's reply
    assert r.texts() == ["a1a5", "a8b8"]
    r = play("lift a1\nplace a5\nsleep 500\nlift a8\nsleep 700\nlift a5\nplace a8", fen)  # the slide went on
    assert r.texts() == ["a1a8"]
    # Nothing more: the reading is final once the hands have been still for hesitate_ms.
    r = play("lift a1\nplace a5\nsleep 500\nlift a8", fen, settle=False)
    assert r.core.status.provisional == ("a1a5",) and r.texts() == []
    r.settle()
    assert accepted_at(r) == [(30 + 500 + T.hesitate_ms, "a1a5")]


@pytest.mark.parametrize("gap", [700, 1500, 2500])
def test_rook_first_castling_with_a_long_pause_before_the_king(gap: int) -> None:
    r = play(f"lift h1\nplace f1\nsleep {gap}\nlift e1\nplace g1", CASTLE_FEN)
    assert r.texts() == ["e1g1"]
    assert all(not d.undone for _t, d in r.log.decisions)


@pytest.mark.parametrize("pause", [400, 1500])
def test_a_king_resting_on_the_cell_it_crosses_castles(pause: int) -> None:
    # King first, resting on f1 (itself a legal move) on the way to g1, then the rook.
    r = play(f"lift e1\nplace f1\nsleep {pause}\nlift f1\nplace g1\nsleep 600\nlift h1\nplace f1", CASTLE_FEN)
    assert r.texts() == ["e1g1"]
    assert all(not d.undone for _t, d in r.log.decisions)


def test_the_clock_button_makes_an_extendable_reading_final_at_once(tmp_path: Path) -> None:
    # Rh1-f1 with the castling open: provisional until the hand lets go, unless the mover says
    # the move is complete with the clock button (the service calls ``clock_button``).
    from controller.game_clock import clock_button
    from controller.session import Session
    from controller.store import GameStore

    pos = engine.parse_fen(CHESS, CASTLE_FEN)
    with GameStore(tmp_path / "games.sqlite3") as store:
        session = Session(CHESS, store, now=0, fen=CASTLE_FEN)
        session.sync([1 if c else 0 for c in pos.board], 10)
        assert session.phase == Phase.PLAY
        session.event(Event(cell("h1"), False, 100))
        session.event(Event(cell("h1") - 2, True, 200))  # f1
        assert session.status.provisional == ("h1f1",) and session.core.deadline == 200 + T.hesitate_ms
        update, note = clock_button(session, 900)
        assert note == "" and update is not None and update.accepted == ("h1f1",)
        assert tuple(store.game(session.game_id or 0).moves) == ("h1f1",)


def test_quick_reply_is_not_merged_into_the_move_before() -> None:
    r = play("lift e2\nplace e4\nlift e7\nplace e5")  # 10 ms apart: faster than the settle time
    assert r.texts() == ["e2e4", "e7e5"]
    # e2e4 is final the moment the reply puts a piece down elsewhere (the reply's lift alone
    # could be a hand overlapping the mover's)
    assert accepted_at(r) == [(40, "e2e4"), (40 + T.settle_ms, "e7e5")]


def test_quick_recapture_of_the_piece_just_moved_still_splits() -> None:
    # Black takes the pawn that just landed, 10 ms later: merged at first, split by the engine.
    r = play("lift e2\nplace e4\nsleep 300\nlift d7\nplace d5\nlift d5\nlift e4\nplace d5")
    assert r.texts() == ["e2e4", "d7d5", "e4d5"]


# -- takebacks ---------------------------------------------------------------------------------------------
def test_takeback_is_asked_before_undoing() -> None:
    base = "lift e2\nplace e4\nsleep 300\nlift e7\nplace e5\nsleep 300\n"
    r = play(base + "lift e5\nplace e7\nsleep 500", settle=False)
    assert r.texts() == ["e2e4", "e7e5"]  # not yet: the board must stay there
    assert r.core.status.kind == StatusKind.MOVING
    r.settle()
    status = r.core.status
    assert status.kind == StatusKind.ASK and status.message == "Take back e7e5?"
    assert status.prompt is not None and [o.key for o in status.prompt.options] == ["yes", "no"]
    r.feed(parse_script("choose yes", CHESS)[0])
    assert r.texts() == ["e2e4"]
    assert r.core.status.message == "took back e7e5. Black to move"


def test_takeback_declined_guides_the_board_back() -> None:
    base = "lift e2\nplace e4\nsleep 300\nlift e7\nplace e5\nsleep 300\nlift e5\nplace e7\nchoose no"
    r = play(base)
    assert r.texts() == ["e2e4", "e7e5"]
    assert r.core.status.kind == StatusKind.FIX
    assert r.core.status.message == "Put the board back: e5: black pawn, e7: empty"
    r.feed(parse_script("lift e7", CHESS)[0])
    r.feed(parse_script("place e5", CHESS)[0])
    r.settle()
    assert r.core.status.kind == StatusKind.IDLE and r.texts() == ["e2e4", "e7e5"]


def test_two_ply_takeback() -> None:
    base = "lift e2\nplace e4\nsleep 300\nlift e7\nplace e5\nsleep 300\n"
    r = play(base + "lift e5\nplace e7\nlift e4\nplace e2")
    assert r.core.status.message == "Take back e2e4 e7e5?"
    r.feed(parse_script("choose yes", CHESS)[0])
    assert r.texts() == []


def test_takeback_of_a_capture_needs_the_victim_back() -> None:
    moves = "lift e2\nplace e4\nsleep 300\nlift d7\nplace d5\nsleep 300\nlift d5\nlift e4\nplace d5\nsleep 300\n"
    # The white pawn goes back to e4 and the black pawn back onto d5: d5 reads occupied all along
    # except for the moment between, which is what tells the takeback from a lifted piece.
    r = play(moves + "lift d5\nplace e4\nplace d5")
    assert r.core.status.message == "Take back e4d5?"


def test_takeback_button_undoes_and_guides_without_re_accepting() -> None:
    r = play("lift e2\nplace e4")
    assert r.texts() == ["e2e4"]
    d = r.core.takeback(r.t)
    assert [r.core.position.move_text(m) for m in d.undone] == ["e2e4"]
    assert d.status.kind == StatusKind.FIX and d.status.message == "Put the board back: e2: white pawn, e4: empty"
    r.advance(r.t + 5000)
    assert r.texts() == [] and r.core.status.kind == StatusKind.FIX  # the board still shows e2e4: not taken again
    r.feed(parse_script("lift e4", CHESS)[0])
    r.feed(parse_script("place e2", CHESS)[0])
    r.settle()
    assert r.core.status.kind == StatusKind.IDLE and r.texts() == []


# -- illegal states ---------------------------------------------------------------------------------------
def test_illegal_move_shows_wrong_cells_then_accepts_the_corrected_move() -> None:
    r = play("lift e2\nplace e5", settle=False)
    r.advance(r.t + T.guide_ms - 1)
    assert r.core.status.kind == StatusKind.MOVING  # not nagging while the hand may still be at work
    r.advance(r.t + 1)
    status = r.core.status
    assert status.kind == StatusKind.FIX
    assert status.message == "Board does not match the game: e2: white pawn, e5: empty"
    assert [(f.cell, f.want, f.have) for f in status.fixes] == [
        (cell("e2"), CHESS.parse_symbol("P"), 0), (cell("e5"), 0, 1)]
    r.feed(parse_script("lift e5", CHESS)[0])
    r.feed(parse_script("place e4", CHESS)[0])
    r.settle()
    assert r.texts() == ["e2e4"]


def test_extra_piece_on_the_board_is_named() -> None:
    r = play("place e4")
    assert r.core.status.kind == StatusKind.FIX
    assert r.core.status.message == "Board does not match the game: e4: empty"


def test_piece_without_a_legal_move_in_the_hand_is_wrong_after_guide_time() -> None:
    r = play("lift c1\nsleep 5000")  # the bishop is blocked by its own pawns
    assert r.core.status.kind == StatusKind.FIX
    assert r.core.status.message == "Board does not match the game: c1: white bishop"


def test_wrong_side_moving_is_shown() -> None:
    r = play("lift e7\nplace e5")
    assert r.core.status.message == "Board does not match the game: e5: empty, e7: black pawn"


def test_identity_board_sees_a_swapped_piece() -> None:
    r = play("lift g1\nlift b1\nplace g1 N\nplace b1 B", identity=True)
    assert r.core.status.kind == StatusKind.FIX
    assert r.core.status.message == "Board does not match the game: b1: white knight"


# -- resynchronising after the board was away --------------------------------------------------------------
def test_snapshot_after_unplugged_capture_asks_which() -> None:
    pos = engine.parse_fen(CHESS, "4k3/8/8/8/p2R3p/8/8/4K3 w - - 0 1")
    core = Referee(pos)
    readings = list(core.observed)
    readings[cell("d4")] = 0  # the rook left d4; both a4 and h4 still read occupied
    core.snapshot(readings, 0)
    d = core.tick(T.guide_ms)
    assert d.status.kind == StatusKind.ASK
    assert d.status.prompt is not None and d.status.prompt.kind == PromptKind.WHICH_MOVE
    assert sorted(o.key for o in d.status.prompt.options) == ["d4a4", "d4h4"]
    d = core.answer("d4a4", T.guide_ms + 1)
    assert [pos.move_text(m) for m in d.accepted] == ["d4a4"]


def test_two_moves_made_while_unplugged_are_both_recorded() -> None:
    core = Referee(engine.start_position(CHESS))
    t = 0
    for name, down in (("e2", False), ("e7", False), ("e4", True), ("e5", True)):  # lifts first
        t += 1
        core.event(Event(cell(name), down, t))
    d = core.tick(t + T.guide_ms)
    assert [m.frm for m in core.position.move_stack] == [cell("e2"), cell("e7")]
    assert [m.to for m in core.position.move_stack] == [cell("e4"), cell("e5")]
    assert d.status.kind == StatusKind.IDLE


# -- setup and game over --------------------------------------------------------------------------------------
def test_setup_phase_lists_what_is_missing_and_never_plays() -> None:
    core = Referee(engine.start_position(CHESS), playing=False, observed=[0] * 64)
    assert core.status.kind == StatusKind.SETUP
    assert core.status.message.startswith("Set up the board: a1: white rook, b1: white knight")
    assert len(core.status.fixes) == 32
    for c, code in enumerate(engine.start_position(CHESS).board):
        if code:
            core.event(Event(c, True, c))
    assert core.status.kind == StatusKind.IDLE and core.status.message == "Board is set up"
    core.event(Event(cell("e2"), False, 100))
    core.event(Event(cell("e4"), True, 110))
    d = core.tick(10_000)
    assert not d.accepted and d.status.kind == StatusKind.SETUP


def test_checkmate_is_game_over() -> None:
    r = play("lift f2\nplace f3\nsleep 300\nlift e7\nplace e5\nsleep 300\nlift g2\nplace g4\nsleep 300\n"
             "lift d8\nplace h4")
    assert r.texts() == ["f2f3", "e7e5", "g2g4", "d8h4"]
    assert r.core.outcome is not None and r.core.outcome.winner == 1
    assert r.core.status.message == "Black played d8h4. Game over: 0-1 (checkmate)"


# -- drops: which piece was placed ----------------------------------------------------------------------------
def test_drop_on_an_occupancy_board_asks_which_piece() -> None:
    v = engine.find_variant("mathematichess")
    r = play("place g7", variant=v)
    prompt = r.core.status.prompt
    assert prompt is not None and prompt.kind == PromptKind.WHICH_PIECE
    assert r.core.status.message == "Which piece did you place on g7?"
    assert [o.key for o in prompt.options] == [k.letter for k in v.kinds]
    r.feed(parse_script("choose T", v)[0])
    assert r.texts() == ["T@g7"]


def test_drop_on_an_identity_board_needs_no_question() -> None:
    v = engine.find_variant("mathematichess")
    r = play("place g7 N", variant=v, identity=True)
    assert r.texts() == ["N@g7"]


# -- determinism --------------------------------------------------------------------------------------------
def test_replay_is_deterministic() -> None:
    script = "lift e2\nplace e3\nsleep 45\nlift e3\nplace e4\nlift e7\nsleep 900\nplace e5\n"
    first = play(script)
    second = play(script)
    assert first.texts() == second.texts() == ["e2e4", "e7e5"]
    assert [(t, d) for t, d in first.log.decisions] == [(t, d) for t, d in second.log.decisions]


# -- overlapping hands, promotions in any order, victims in the guidance ---------------------------------------
def test_the_next_player_lifting_a_piece_before_the_mover_put_theirs_down() -> None:
    # Black's hand is on b8 before white's knight lands: white's move is read (and final)
    # with black's piece in the hand, then black's move.
    r = play("lift g1\nsleep 50\nlift b8\nsleep 50\nplace f3\nsleep 200\nplace c6")
    assert r.texts() == ["g1f3", "b8c6"]
    assert accepted_at(r)[0] == (130 + T.settle_ms, "g1f3")
    assert all(not d.undone for _t, d in r.log.decisions)


def test_a_dragged_slider_is_not_ended_by_the_other_hand() -> None:
    # The rook slides a1-a2-a3 while black lifts its king; the rook goes on to a4.
    fen = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1"
    r = play("lift a1\nplace a2\nsleep 60\nlift e8\nlift a2\nplace a3\nsleep 60\nlift a3\nplace a4\nsleep 100\n"
             "place d8", fen)
    assert r.texts() == ["a1a4", "e8d8"]


def test_a_dragged_capture_rests_next_to_the_victim() -> None:
    fen = "4k3/r7/8/8/8/8/8/R3K3 w - - 0 1"
    r = play("lift a1\nplace a2\nsleep 40\nlift a2\nplace a3\nsleep 40\nlift a3\nplace a4\nsleep 40\nlift a4\n"
             "place a5\nsleep 40\nlift a5\nplace a6\nsleep 150\nlift a7\nsleep 40\nlift a6\nplace a7", fen)
    assert r.texts() == ["a1a7"]


def test_promotion_with_the_new_piece_on_the_victims_cell_before_the_pawn_is_lifted() -> None:
    fen = "r3k3/1P5p/8/8/8/8/8/4K3 w - - 0 1"
    r = play("lift a8\nsleep 200\nplace a8\nsleep 300\nlift b7", fen)
    assert r.core.status.message == "Promote to which piece?"
    r.feed(parse_script("choose q", CHESS)[0])
    assert r.texts() == ["b7a8q"]
    r = play("lift a8\nsleep 200\nplace a8 Q\nsleep 300\nlift b7", fen, identity=True)
    assert r.texts() == ["b7a8q"]


def test_illegal_capture_guidance_names_the_victims_cell() -> None:
    fen = "4k3/8/8/3p4/2P5/8/B7/4K3 w - - 0 1"  # the bishop's way to d5 is blocked
    for script in ("lift d5\nlift a2\nplace d5", "lift a2\nlift d5\nplace d5"):
        r = play(script + "\nsleep 1500", fen)
        assert r.core.status.kind == StatusKind.FIX
        assert r.core.status.message == "Board does not match the game: a2: white bishop, d5: black pawn"
        assert [f.cell for f in r.core.status.fixes] == [cell("a2"), cell("d5")]
        # Put right (the bishop back, the pawn back on d5): the game goes on.
        for line in ("lift d5", "place a2", "place d5"):
            r.feed(parse_script(line, CHESS)[0])
        r.settle()
        assert r.core.status.kind == StatusKind.IDLE and r.texts() == []


# -- three moves interleaved on an occupancy board (from the historical games' hand model) ---------------
def test_lifted_pieces_are_read_as_the_hand_of_the_player_who_can_move_them() -> None:
    # White's king lifts the knight it takes on b4 before black's queen leaves f2; the board then
    # reads f2c2 (b4 in white's hand) as much as Nb4c2 (f2 in a hand): only white can take b4,
    # nobody f2. Black then lifts the queen again for c2xb2 before white's king is down on b4.
    fen = "6k1/ppp5/3p4/3P4/1n2P2R/2K3P1/PP3q2/7Q b - - 7 47"
    script = ("lift b4\nsleep 36\nlift f2\nsleep 184\nplace c2\nlift c3\nsleep 37\nlift c2\nsleep 16\nplace b4\n"
              "sleep 53\nlift b2\nsleep 86\nplace b2")
    for identity in (False, True):
        r = play(script if not identity else script.replace("place c2", "place c2 q").replace(
            "place b4", "place b4 K").replace("place b2", "place b2 q"), fen, identity=identity)
        assert r.texts() == ["f2c2", "c3b4", "c2b2"]
        assert all(not d.undone for _t, d in r.log.decisions)


def test_a_capture_read_with_a_pawn_that_could_take_the_same_victim() -> None:
    # Rf1xf5 with black's hand on e4 (to take it with the queen) reads like exf5 with f1 in a
    # hand; no black piece can take f1, so the rook took.
    fen = "r4rk1/ppp2p1p/5p2/3p1bP1/3qP1Q1/8/P5PP/2R2R1K w - - 0 21"
    r = play("lift f1\nsleep 41\nlift f5\nsleep 157\nlift e4\nsleep 48\nplace f5\nsleep 45\nlift d4\nsleep 226\n"
             "place e4", fen)
    assert r.texts() == ["f1f5", "d4e4"]


def test_a_move_held_back_by_a_lifted_victim_is_final_when_the_reply_is_down() -> None:
    # Rd1d2 could slide on to d7, lifted by black for Bd7e6; white lifts g3 meanwhile. Black's
    # bishop landing on e6 completes the reply: the rook stopped on d2.
    fen = "r2r2k1/1p1bqpb1/2p4p/2n1p1pP/p3P3/2P1BPN1/PPB1Q1P1/2KR3R w - - 0 22"
    r = play("lift d1\nsleep 166\nlift d7\nplace d2\nsleep 68\nlift g3\nsleep 153\nplace e6\nsleep 10\nplace f5", fen)
    assert r.texts() == ["d1d2", "d7e6", "g3f5"]


def test_a_piece_put_down_on_the_line_after_the_slider_left_its_cell_is_the_slide() -> None:
    # The rook takes on d2 (victim lifted first) sliding d8-d7-...-d2: after it has left d7, the
    # placement on d6 is the slide going on, not a white reply d2d6 on top of d8d7.
    fen = "r2r2k1/1p2qpb1/2p4p/2n1pPpP/p7/2P1BP2/PPBRQ1P1/2K4R b - - 0 24"
    r = play("lift d2\nsleep 20\nlift d8\nsleep 70\nplace d7\nsleep 47\nlift d7\nplace d6\nlift d6\nsleep 42\n"
             "place d5\nlift d5\nsleep 36\nplace d4\nsleep 65\nlift d4\nsleep 40\nplace d3\nsleep 51\nlift d3\n"
             "sleep 45\nplace d2", fen)
    assert r.texts() == ["d8d2"]


def test_a_reply_on_the_line_of_a_slider_still_standing_is_the_reply() -> None:
    # Bf8c5 could slide on to a3; white's pawn lands there while the bishop still stands on c5.
    fen = "r1bqkb1r/pp1p1ppp/2n2n2/4p3/2B1P3/5N2/PPP2PPP/RNBQK2R b KQkq - 3 6"
    r = play("lift f8\nsleep 97\nplace c5\nlift a2\nsleep 21\nlift a7\nsleep 67\nplace a3\nsleep 121\nplace a5", fen)
    assert r.texts() == ["f8c5", "a2a3", "a7a5"]


# -- a board that scans its squares in turn (DGT: a full scan 200-250 ms) --------------------------------


def test_a_scanning_board_reports_the_knights_new_square_before_its_old_one() -> None:
    # f3 comes before g1 in the board's scan order: the placement is reported 60 ms before the lift.
    events = [(1000, "f3", True, "N"), (1060, "g1", False, "")]
    assert texts(play_timed(events)) == ["g1f3"]
    # A board that reports changes as they happen does not show that order for a move made by one
    # hand: there it is no reading at the usual settle time, only once the board has stayed so for
    # guide_ms (nothing in the real order explains it; two boards may report so: below).
    core = play_timed(events[:1], timing=T)
    core.event(Event(cell("g1"), False, 1060))
    assert core.tick(1060 + T.settle_ms + 50).accepted == () and texts(core) == []
    while (d := core.deadline) is not None:
        core.tick(d)
    assert texts(core) == ["g1f3"] and core.status.kind == StatusKind.IDLE


def test_a_piece_taken_back_within_one_scan_is_never_seen_but_both_moves_are_read() -> None:
    # exd6 cxd6: the white pawn stood on d6 for less than a scan; the board reports d6 empty, e5
    # empty, c7 empty, then a black pawn on d6.
    fen = "rn1qkbnr/ppp2ppp/3p4/4P3/6b1/8/PPP2PPP/RNBQKB1R w KQkq - 1 5"
    events = [(1000, "d6", False, ""), (1040, "e5", False, ""), (1190, "c7", False, ""), (1440, "d6", True, "p")]
    assert texts(play_timed(events, fen)) == ["e5d6", "c7d6"]
    # With no scan to hide a piece, the same reports may be hands still holding both pawns: asked.
    core = play_timed(events, fen, timing=T)
    assert texts(core) == [] and core.status.message == "Which move did you make?"


def test_a_crossed_cell_a_scanning_board_reports_for_one_whole_scan_is_no_move() -> None:
    # The rook rested on a3 for a moment on its way to a5; the scan saw it there and came round
    # again 220 ms later to find a3 empty and the rook on a5 (one scan's reports, square order).
    fen = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1"
    events = [(1000, "a1", False, ""), (1060, "a3", True, "R"), (1280, "a5", True, "R"), (1282, "a3", False, ""),
              (1700, "e8", False, ""), (1750, "d8", True, "k")]
    assert texts(play_timed(events, fen)) == ["a1a5", "e8d8"]
    # Timed for a board that reports as things happen, a3 stood longer than drag_ms: a hesitant
    # hand, read where it ends (with Black's hand already on a man, a move there).
    assert texts(play_timed(events, fen, timing=T))[0] == "a1a5"
    overlapping = [*events[:2], (1275, "e8", False, ""), *events[2:4], (1750, "d8", True, "k")]
    assert texts(play_timed(overlapping, fen, timing=T))[0] == "a1a3"


# -- a placement reported before its lift (issue 15) ------------------------------------------------------
ALICE = engine.find_variant("alice")


@pytest.mark.parametrize("identity", [False, True])
def test_a_piece_put_down_before_its_lift_is_the_move_once_the_board_is_still(identity: bool) -> None:
    # Nothing comes after (a game's last move): it used to wait for another event for ever.
    r = play(f"place e4 {'P' if identity else ''}\nsleep 100\nlift e2\nsleep 2000", identity=identity)
    assert r.texts() == ["e2e4"] and r.core.status.kind == StatusKind.IDLE
    assert accepted_at(r) == [(120 + T.guide_ms + T.settle_ms, "e2e4")]  # still for guide_ms: no sooner


@pytest.mark.parametrize("timing", [T, DGT], ids=["own-boards", "dgt-boards"])
def test_alice_on_two_boards_the_place_on_one_reported_before_the_lift_on_the_other(timing: Timing) -> None:
    # Two boards, each reporting on its own: board B's e4' before board A's e2 (for DGT boards
    # more than one scan later, beyond what the scan order alone allows). Then Black replies.
    first = [(1000, "e4'", True, "P"), (1300, "e2", False, "")]
    core = play_timed(first, timing=timing, variant=ALICE)
    assert texts(core) == ["e2e4"] and core.status.kind == StatusKind.IDLE
    # The reply on top of such a move before the board was still: both, in the game's order.
    core = play_timed([*first, (1400, "e7", False, ""), (1450, "e5'", True, "p")], timing=timing, variant=ALICE)
    assert texts(core) == ["e2e4", "e7e5"]


def test_a_quick_recapture_on_the_same_cell_is_read_in_order_not_as_a_late_placement() -> None:
    # d4xe5, and Black's d6xe5 on top of it at once; the readings in order explain the board.
    fen = "4k3/8/3p4/4p3/3P4/8/8/4K3 w - - 0 1"
    r = play("lift e5\nlift d4\nplace e5\nlift e5\nlift d6\nplace e5\nsleep 2000", fen)
    assert r.texts() == ["d4e5", "d6e5"]


# -- two captures on one cell in a row (issue 11) ----------------------------------------------------------
MEDDLERS_PAWNS = engine.find_variant("meddlers-pawns")


def meddlers_pawns_before_the_twin_capture() -> str:
    """The Meddlers pawns demo just before Black's h4xg3 (his own man), then his meddle h2-h4."""
    from controller.demo_games import DEMO_GAMES

    pos = engine.start_position(MEDDLERS_PAWNS)
    for text in DEMO_GAMES["meddlers-pawns"][:30]:
        pos.push_text(text)
    return pos.fen()


@pytest.mark.parametrize("order", [("g3", "h4"), ("h4", "g3")])
def test_a_man_put_back_on_the_cell_just_taken_is_no_victim_of_the_next_capture(order: tuple[str, str]) -> None:
    # h4xg3 is final at 1070; the black pawn on g3 bounces (lifted, put back at 1083) and in the
    # same report the meddling hand lifts the white pawn on h2, which could take on g3. The board
    # reports both with one time; the put-back came first, so g3 is no victim: h2-h3-h4 follows.
    first, second = order
    events = [(1000, first, False, ""), (1010, second, False, ""), (1040, "g3", True, ""),
              (1080, "g3", False, ""), (1083, "g3", True, ""), (1083, "h2", False, ""),
              (1088, "h3", True, ""), (1098, "h3", False, ""), (1108, "h4", True, "")]
    core = play_timed(events, meddlers_pawns_before_the_twin_capture(), timing=T, variant=MEDDLERS_PAWNS,
                      identity=False)
    assert texts(core)[-2:] == ["h4g3", "h2h4"]
    assert core.status.kind == StatusKind.IDLE
    # The pawn from h2 held in the hand a long while: still no capture on g3 (its cell was only
    # touched, no piece was seen arriving there).
    core = play_timed([*events[:6], (3500, "e1", False, "")], meddlers_pawns_before_the_twin_capture(), timing=T,
                      variant=MEDDLERS_PAWNS, identity=False)
    assert texts(core)[-1] == "h4g3" and core.status.kind != StatusKind.IDLE


def test_the_decision_that_accepts_a_prepared_reading_does_not_index_the_next_position() -> None:
    # prepare() indexed the legal moves after the provisional reading (to tell a reply); once the
    # reading is the move, that index is the new position's: the accepting decision (the next
    # player's piece lifted at once) asks the engine for no legal moves.
    core = Referee(engine.start_position(CHESS))
    core.event(Event(cell("e2"), False, 0))
    core.event(Event(cell("e4"), True, 100))
    core.prepare()
    calls: list[str] = []
    position = core.position
    real = position.legal_moves

    def counted():  # the engine's own generator, counted
        calls.append(position.fen())
        return real()

    position.legal_moves = counted  # type: ignore[method-assign]
    # The next player's lift of a man the pawn cannot take, once the pawn has rested: final.
    decision = core.event(Event(cell("e7"), False, 400))
    assert len(decision.accepted) == 1 and core.status.message.startswith("Black moving")
    assert calls == []
    decision = core.event(Event(cell("e5"), True, 500))
    assert decision.provisional and calls == []


def test_a_reply_placed_in_the_report_that_shows_the_pawn_going_on_waits_for_the_rest_of_it() -> None:
    # Black's pawn rests on f6 on its way to f5 while White's hand lifts the rook on a1; then
    # one report (one time, a board that reports every change of a scan: a Millennium board)
    # lists f6 lifted, the rook down on b1 and the pawn down on f5. With the pawn in the hand
    # the rook alone reads as a reply completed on top of f7-f6; the rest of the report shows
    # where the pawn went: f7-f5, then a1-b1.
    fen = "4k3/5p2/8/8/8/8/8/R3K3 b - - 0 1"
    events = [(1000, "f7", False, ""), (1030, "f6", True, "p"), (1060, "a1", False, ""),
              (1100, "f6", False, ""), (1100, "b1", True, "R"), (1100, "f5", True, "p")]
    assert texts(play_timed(events, fen, timing=T)) == ["f7f5", "a1b1"]


def test_a_rook_first_castling_whose_rook_came_in_the_report_of_the_move_before_waits_for_the_king() -> None:
    # (Historical game 2 on an emulated Millennium board, bench/board_games.py.) White's hand
    # takes the rook on h1 before Black's king is down on h8; one report lists the rook on f1
    # and the king on h8. Worked out together, Kh8 is final and h1-f1 is read again: the king's
    # placement is the move before's, not the next player's action, so the rook waits for its
    # king (it was made final at once, and the castling lost).
    fen = "r1bq1rk1/ppp1npp1/2n4p/3p4/1bPP4/1QN1BN2/PP2BPPP/R3K2R b KQ - 1 9"
    events = [(17535, "g8", False, ""), (17621, "h1", False, ""), (17745, "f1", True, "R"),
              (17745, "h8", True, "k"), (17786, "e1", False, ""), (17933, "g1", True, "K")]
    assert texts(play_timed(events, fen, timing=MILLENNIUM)) == ["g8h8", "e1g1"]


def test_a_lift_in_the_report_that_shows_the_slide_going_on_is_the_next_players_hand() -> None:
    # The bishop rested on e2 for a while, then went on over d3 to c4 just before Black's hand
    # lifted the queen on d8: one scan sees it all and reports it in square order (d8, c4, e2),
    # so the queen's lift comes first. It does not end Be2 at once: read with the rest of the
    # report, the board is Bc4 with Black's hand on the queen, and Qh4 is Black's move.
    fen = "rnbqkbnr/pppp1ppp/8/8/4P3/8/PPPP2PP/RNBQKBNR w KQkq - 0 4"
    events = [(1000, "f1", False, ""), (1220, "e2", True, "B"),
              (2100, "d8", False, ""), (2100, "c4", True, "B"), (2100, "e2", False, ""),
              (2320, "h4", True, "q")]
    core = play_timed(events, fen)
    assert texts(core)[:1] == ["f1c4"]
    assert texts(core) == ["f1c4", "d8h4"]


def test_a_slide_that_could_go_on_is_final_one_scan_after_its_square_was_reported() -> None:
    # a5 comes 32 squares before a1 in the scan: the rook's new square is reported 125 ms before
    # its old one. Only a5's next scan (at 1250) can show the rook gone on, so the move is final
    # then (plus the margin), not one scan after the lift's report.
    fen = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1"
    events = [(1000, "a5", True, "R"), (1125, "a1", False, "")]
    core = play_timed(events[:1], fen)
    core.event(Event(cell("a1"), False, 1125))
    # Alone, it waits for the hand to let go; with Black's hand on a man, the short wait.
    assert core.deadline == 1125 + DGT.hesitate_ms + DGT.scan_ms
    # (And not before the board has visited a5 again after Black's first event was reported:
    # Black's lift of e8 can be reported before the rook leaving a square that comes later in
    # the scan. a5 is visited a whole scan after it was reported, at 1250, after e8's report:
    # had the rook left before Black's hand, that visit reports it.)
    core.event(Event(cell("e8"), False, 1130))
    wait = max(DGT.drag_ms, DGT.scan_ms + SCAN_MARGIN_MS)
    final = max(1000 + wait, 1000 + DGT.scan_ms + SCAN_MARGIN_MS)
    assert final < 1130 + DGT.scan_ms + SCAN_MARGIN_MS
    assert core.deadline == final
    assert not core.tick(final - 1).accepted and texts(core) == []
    assert [core.position.move_text(m) for m in core.tick(final).accepted] == ["a1a5"]
    # The rook went on to a6 just after the scan passed a6: the next scan finds a5 empty (1250)
    # before the deadline, and a6 (1469) is the move.
    events += [(1130, "e8", False, ""), (1250, "a5", False, ""), (1469, "a6", True, "R")]
    assert texts(play_timed(events, fen)) == ["a1a6"]


#: What a Millennium board at its default 41 ms scan asks for (``MillenniumDriver.drag_ms``).
MILLENNIUM = Timing(board_drag_ms=MillenniumDriver("loop://").drag_ms)


def test_a_millennium_board_asks_for_a_drag_wait_that_covers_a_quick_drag() -> None:
    # A quick drag rests on a crossed square up to 150 ms (docs/controller.md); the board
    # reports its arrival and its leaving by the first scan after each, so the rest may be
    # reported one scan (41 ms) longer. The wait asked for covers that, with a margin.
    assert MILLENNIUM.drag_wait() >= 150 + 41


def test_a_board_that_reports_every_scan_sets_the_drag_wait() -> None:
    # A Millennium board reports a piece gone on from a square by the first scan after it left:
    # a quick drag's rest (150 ms), one scan and a margin (201 ms) after the rook's report tell
    # its rest on a4 from a pause on its way, about the referee's own 200 ms.
    fen = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1"
    wait = MILLENNIUM.drag_wait()
    core = Referee(engine.parse_fen(CHESS, fen), identity=True, timing=MILLENNIUM)
    core.event(Event(cell("a1"), False, 1000, CHESS.parse_symbol("R")))
    core.event(Event(cell("a4"), True, 1000, CHESS.parse_symbol("R")))
    core.event(Event(cell("e8"), False, 1001, CHESS.parse_symbol("k")))  # Black's hand on the king
    assert core.deadline == 1000 + wait
    assert not core.tick(1000 + wait - 1).accepted
    assert [core.position.move_text(m) for m in core.tick(1000 + wait).accepted] == ["a1a4"]
    # A quick drag's rest of 93 ms reported as 123 ms (the scans' phase) is the slide going on
    # (with the two scans and 35 ms asked for before, 117 ms, it was read as a1a4); a pause seen
    # ending after the wait, a move to a4, and the rook going on is the next thing to put right.
    going_on = [(1000, "a1", False, ""), (1000, "a4", True, "R"), (1001, "e8", False, ""), (1123, "a4", False, ""),
                (1123, "a6", True, "R")]
    assert texts(play_timed(going_on, fen, timing=MILLENNIUM)) == ["a1a6"]
    assert texts(play_timed(going_on, fen, timing=Timing(board_drag_ms=117))) == ["a1a4"]
    late = 1000 + wait + 10
    stopped = [(1000, "a1", False, ""), (1000, "a4", True, "R"), (1001, "e8", False, ""), (late, "a4", False, ""),
               (late, "a6", True, "R")]
    core = play_timed(stopped, fen, timing=MILLENNIUM)
    assert texts(core) == ["a1a4"] and core.status.kind == StatusKind.FIX


# -- a question with one possible answer is never asked (issue 29) ------------------------------------
def test_after_a_reconnect_the_one_move_the_board_can_show_is_read_not_asked() -> None:
    # The knight's capture on e4 happened while the board was away: the snapshot shows g5 empty
    # (e4 reads the same). Only one legal move leaves that board: no "Which move did you make?"
    # with a single answer (headless, nobody would answer it).
    fen = "4k3/8/8/6N1/4p3/8/8/4K3 w - - 0 1"
    core = Referee(engine.parse_fen(CHESS, fen))
    readings = list(core.observed)
    readings[cell("g5")] = 0
    core.snapshot(readings, 1000)
    decision = core.tick(core.deadline or 0)
    assert [core.position.move_text(m) for m in decision.accepted] == ["g5e4"]
    assert core.status.prompt is None and core.status.kind == StatusKind.IDLE


def test_every_question_the_core_asks_offers_more_than_one_answer() -> None:
    # Over whole games (the hand model, both board kinds, hesitant hands): each prompt shown
    # has at least two options.
    from tests.hand_model import Hands, game_script
    from tests.historical_games import historical_games

    prompts = 0
    for identity in (False, True):
        for n, moves in enumerate(historical_games()[:20]):
            lines = game_script(engine.start_position(CHESS), moves, Hands(identity=identity, hesitant=0.5), seed=n)
            r = Replayer(engine.start_position(CHESS), identity=identity)
            r.run(parse_script("\n".join(lines), CHESS))
            for _t, d in r.log.decisions:
                if d.status.prompt is not None:
                    prompts += 1
                    assert len(d.status.prompt.options) > 1, d.status.prompt
    assert prompts > 0
