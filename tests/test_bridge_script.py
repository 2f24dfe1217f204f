"""The event-script format (a contract other tools write), the --faults syntax, the flicker
helper, and the simulated board's set-up (start position, identity, layouts)."""

from __future__ import annotations

import types

import pytest

import engine
from engine.geometry import rectangle, two_boards
from firmware_bridge import (
    Choose,
    FaultError,
    Lift,
    Place,
    ScriptError,
    SensorEvent,
    SimBoard,
    Sleep,
    flicker_pairs,
    format_script,
    load_script,
    parse_faults,
    parse_script,
    without_flicker,
)
from firmware_bridge.simboard import matrix_layout

CHESS = engine.find_variant("chess")

# -- scripts ----------------------------------------------------------------------------------------


def test_every_command_parses_with_its_line_number():
    text = "# opening\n\nlift e2\nplace e4   # pawn\nsleep 250\nlift e7\nplace e5 p\nchoose q\n"
    assert parse_script(text, "chess") == [
        Lift(3, 12, "e2"), Place(4, 28, "e4", None), Sleep(5, 250), Lift(6, 52, "e7"),
        Place(7, 36, "e5", "p"), Choose(8, "q")]


def test_format_script_is_the_inverse_of_parse():
    commands = parse_script("lift e2\nplace e4\nsleep 5\nplace d1 Q\nchoose n\n", CHESS)
    text = format_script(commands)
    assert text == "lift e2\nplace e4\nsleep 5\nplace d1 Q\nchoose n\n"
    assert [c.text() for c in parse_script(text, CHESS)] == [c.text() for c in commands]


@pytest.mark.parametrize(("line", "message"), [
    ("lfit e2", "script:2: unknown command 'lfit' (expected one of: lift, place, sleep, choose)"),
    ("lift z9", "script:2: no cell 'z9' on chess"),
    ("lift", "script:2: expected 'lift CELL'"),
    ("lift e2 e4", "script:2: expected 'lift CELL'"),
    ("place e4 X", "script:2: no piece 'X' in chess (letters: P N B R Q K)"),
    ("place e4 Q q", "script:2: expected 'place CELL [PIECE]'"),
    ("sleep soon", "script:2: expected 'sleep MS' with a whole number"),
    ("sleep -5", "script:2: expected 'sleep MS'"),
    ("choose", "script:2: expected 'choose ANSWER'"),
])
def test_bad_lines_name_the_line_and_the_reason(line, message):
    with pytest.raises(ScriptError) as caught:
        parse_script(f"lift e2\n{line}\n", "chess")
    assert str(caught.value).startswith(message)
    assert caught.value.line == 2
    assert "\n" not in str(caught.value)


def test_unknown_variant_and_unreadable_file(tmp_path):
    with pytest.raises(ValueError, match="unsupported variant"):
        parse_script("lift e2\n", "no-such-chess")
    with pytest.raises(ScriptError, match=r"missing\.txt: cannot read script: No such file"):
        load_script(tmp_path / "missing.txt", "chess")
    path = tmp_path / "game.txt"
    path.write_text("lift e2\nplace e9\n")
    with pytest.raises(ScriptError, match=r"game\.txt:2: no cell 'e9' on chess"):
        load_script(path, "chess")


def test_cell_names_come_from_the_variants_geometry():
    alice = types.SimpleNamespace(name="alice", geometry=two_boards(rectangle(8, 8)), kinds=CHESS.kinds,
                                  parse_symbol=CHESS.parse_symbol)
    assert parse_script("lift e2'\nplace e4'\n", alice) == [Lift(1, 64 + 12, "e2'"), Place(2, 64 + 28, "e4'")]


# -- faults ------------------------------------------------------------------------------------------


def test_the_fault_syntax():
    faults = parse_faults("bounce, flip=0.01,drop=0.02,pause=1500@3,pause@4,unplug@12,unplug=200@13,reset@20")
    assert faults.bounce_ms == 0 and faults.flip == 0.01 and faults.drop == 0.02
    assert faults.pauses == {3: 1500, 4: None}
    assert faults.unplugs == {12: 500, 13: 200}
    assert faults.resets == {20}
    assert parse_faults("bounce=30").bounce_ms == 30
    assert parse_faults("reset").resets == {1}
    assert not parse_faults("").any and parse_faults("reset@2").any


@pytest.mark.parametrize(("text", "why"), [
    ("wobble", "unknown fault"),
    ("flip", "needs a probability"),
    ("flip=2", "0 <= P <= 1"),
    ("drop=0.1@3", "no @N"),
    ("pause=soon@2", "whole number of milliseconds"),
    ("unplug@0", "@N needs a whole number from 1"),
    ("reset=5@2", "reset takes no =value"),
    ("bounce@3", "takes no @N"),
])
def test_bad_faults_are_one_line_errors(text, why):
    with pytest.raises(FaultError, match=why) as caught:
        parse_faults(text)
    assert "\n" not in str(caught.value) and repr(text) in str(caught.value)


# -- flicker helper ---------------------------------------------------------------------------------------


def ev(cell: int, action: str, ms: int, piece: str | None = None, synthetic: bool = False) -> SensorEvent:
    return SensorEvent(cell, action, piece, None if synthetic else ms, 0.0, synthetic)


def test_a_wobble_and_a_dragged_piece_are_paired_but_a_fast_reply_is_not():
    events = [
        ev(12, "lift", 0), ev(12, "place", 40), ev(12, "lift", 60),  # e2 wobbles as it is lifted
        ev(20, "place", 200), ev(20, "lift", 260),  # dragged over e3 on the way
        ev(28, "place", 400),  # ... to e4
        ev(52, "lift", 430),  # the opponent replies 30 ms later: a different cell, kept
    ]
    assert flicker_pairs(events) == [(0, 1), (3, 4)]
    assert [(e.cell, e.action) for e in without_flicker(events)] == [(12, "lift"), (28, "place"), (52, "lift")]


def test_slow_pairs_different_pieces_and_synthetic_events_are_not_flicker():
    slow = [ev(12, "lift", 0), ev(12, "place", 500)]  # a piece put back after half a second
    capture = [ev(35, "lift", 0, "p"), ev(35, "place", 50, "P")]  # identity says: not the same piece
    synthetic = [ev(12, "lift", 0, synthetic=True), ev(12, "place", 10, synthetic=True)]
    for events in (slow, capture, synthetic):
        assert without_flicker(events) == events
    assert flicker_pairs(slow, window_ms=600) == [(0, 1)]
    wrapped = [ev(3, "lift", 2**32 - 10), ev(3, "place", 20)]  # the board clock wrapped in between
    assert flicker_pairs(wrapped) == [(0, 1)]


# -- the simulated board's set-up (no host needed) -------------------------------------------------------------


def test_start_position_identity_and_empty_board():
    board = SimBoard("chess", identity=True)
    try:
        assert board.pieces()[:8] == tuple("RNBQKBNR") and board.pieces()[56:] == tuple("rnbqkbnr")
        assert sum(board.occupancy()) == 32
    finally:
        board.stop()
    empty = SimBoard("chess", empty=True)
    try:
        assert not any(empty.occupancy())
        empty.check_script(parse_script("place e4 Q\n", CHESS))
        with pytest.raises(ScriptError, match="lift e2: the cell is empty"):
            empty.check_script(parse_script("place e4\nlift e2\n", CHESS))
    finally:
        empty.stop()


def test_script_is_checked_against_the_board_before_playing():
    board = SimBoard("chess", identity=True)
    try:
        with pytest.raises(ScriptError, match="script:2: place e7: the cell is occupied"):
            board.check_script(parse_script("lift e2\nplace e7\n", CHESS))
        with pytest.raises(ScriptError, match="script:1: place e4: which piece"):
            board.check_script(parse_script("place e4\n", CHESS))
        board.check_script(parse_script("lift e2\nplace e4\n", CHESS))
    finally:
        board.stop()


def test_matrix_layouts_follow_the_geometry():
    alice = types.SimpleNamespace(name="alice", geometry=two_boards(rectangle(8, 8)))
    pins = matrix_layout(alice)
    assert (pins.matrix.boards, pins.matrix.rows, pins.matrix.cols, pins.matrix.cells) == (2, 8, 8, 128)
    big = types.SimpleNamespace(name="big", geometry=rectangle(13, 13))
    pins = matrix_layout(big)
    assert (pins.matrix.boards, pins.matrix.rows, pins.matrix.cols, pins.matrix.cells) == (1, 13, 13, 169)
    dream = types.SimpleNamespace(name="dream", geometry=rectangle(7, 7, holes=["a1", "g7"]))
    assert matrix_layout(dream).matrix.cells == 47
    huge = types.SimpleNamespace(name="huge", geometry=rectangle(17, 16))
    with pytest.raises(ValueError, match="huge has 272 cells; the protocol serves up to 256"):
        matrix_layout(huge)
