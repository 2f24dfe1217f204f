"""``chessery replay`` and the event-script generator: scripts of whole games in any hand style
replay to exactly their moves, the same every time; bad scripts fail with one line."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from controller.cli import main
from controller.event_scripts import OPERA_GAME, Style, random_game, script_for_moves
from controller.inference import Timing
from controller.replay import Replayer
from firmware_bridge.script import parse_script
from firmware_bridge.simboard import SimBoard

CHESS = engine.find_variant("chess")


def write(tmp_path: Path, lines: list[str] | str) -> Path:
    path = tmp_path / "game.txt"
    path.write_text(lines if isinstance(lines, str) else "\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_replay_prints_the_moves_the_same_every_time(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = write(tmp_path, script_for_moves(CHESS, OPERA_GAME, Style(capture="alternate", slide=True,
                                                                      bounce=True)))
    outputs = []
    for _ in range(2):
        assert main(["replay", "chess", str(script)]) == 0
        outputs.append(capsys.readouterr())
    assert outputs[0].out == outputs[1].out == "".join(m + "\n" for m in OPERA_GAME)
    assert outputs[0].err == ""


def test_trace_tells_what_the_player_saw(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = write(tmp_path, "lift b7\nplace b8\nchoose n\n")
    assert main(["replay", "chess", str(script), "--fen", "4k3/1P5p/8/8/8/8/8/4K3 w - - 0 1", "--trace"]) == 0
    out, err = capsys.readouterr()
    assert out == "b7b8n\n"
    assert "[ask] Promote to which piece?" in err
    assert "White played b7b8n" in err


def test_identity_is_taken_from_the_script(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = write(tmp_path, "lift b7\nplace b8 R\n")
    assert main(["replay", "chess", str(script), "--fen", "4k3/1P5p/8/8/8/8/8/4K3 w - - 0 1"]) == 0
    assert capsys.readouterr().out == "b7b8r\n"


def test_script_ending_on_a_wrong_board_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = write(tmp_path, "lift e2\nplace e4\nsleep 500\nlift d7\nplace d4\nsleep 2000\n")
    assert main(["replay", "chess", str(script)]) == 0
    out, err = capsys.readouterr()
    assert out == "e2e4\n"
    assert err == ("chessery replay: at the end of the script: Board does not match the game: d4: empty, "
                   "d7: black pawn\n")


@pytest.mark.parametrize(("text", "message"), [
    ("lift e2\nplace z9\n", "game.txt:2: no cell 'z9' on chess"),
    ("lift b7\nplace b8\nchoose k\n", "game.txt:3: 'k' is not an answer to 'Promote to which piece?' "
                                     "(choose q, r, b, n)"),
])
def test_bad_scripts_fail_with_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str,
                                        message: str) -> None:
    script = write(tmp_path, text)
    fen = ["--fen", "4k3/1P5p/8/8/8/8/8/4K3 w - - 0 1"] if "b7" in text else []
    assert main(["replay", "chess", str(script), *fen]) == 2
    err = capsys.readouterr().err
    assert err == f"chessery replay: {script.parent}/{message}\n"


def test_choose_with_nothing_asked_is_reported_and_the_game_goes_on(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    script = write(tmp_path, "lift e2\nplace e4\nchoose q\nsleep 300\nlift e7\nplace e5\n")
    assert main(["replay", "chess", str(script)]) == 0
    out, err = capsys.readouterr()
    assert out == "e2e4\ne7e5\n"
    assert err == (f"chessery replay: {script.parent}/game.txt:3: choose q: nothing is being asked "
                   "(White played e2e4. Black to move); ignored\n")


def test_trace_marks_provisional_readings_and_prints_only_final_moves(tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    # The rook may be the first half of a castling: a provisional reading until prefix_ms.
    script = write(tmp_path, "lift h1\nplace f1\nsleep 2000\n")
    assert main(["replay", "chess", str(script), "--fen", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "--trace"]) == 0
    out, err = capsys.readouterr()
    assert out == "h1f1\n"
    assert "[moving] White moving: h1f1 (provisional)" in err
    assert err.index("(provisional)") < err.index("White played h1f1")


def test_unknown_variant_fails_with_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", "checkers", str(write(tmp_path, "lift e2\n"))]) == 2
    assert capsys.readouterr().err.count("\n") == 1


STYLES = st.builds(
    Style,
    capture=st.sampled_from(["victim", "attacker", "alternate"]),
    castle=st.sampled_from(["king", "rook", "alternate"]),
    slide=st.booleans(),
    bounce=st.booleans(),
    think_ms=st.sampled_from([0, 35, 400]),
    hand_ms=st.sampled_from([0, 20, 150]),
    identity=st.booleans(),
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), style=STYLES)
def test_any_game_in_any_hand_style_replays_to_its_moves(seed: int, style: Style) -> None:
    """Random legal games (promotions, castling, en passant, captures) played by hands of any
    style: the replayed game is the game, and the sim board can play the script physically."""
    moves = random_game(CHESS, 120, seed)
    lines = script_for_moves(CHESS, moves, style)  # raises if the replay disagrees
    commands = parse_script("\n".join(lines), CHESS)
    assert Replayer(engine.start_position(CHESS), identity=style.identity).run(commands) == moves
    board = SimBoard(CHESS, identity=style.identity)
    try:
        board.check_script(commands)  # every lift from an occupied cell, every place onto an empty one
    finally:
        board.stop()


#: The position of seed 3153 of the test above (the black bishop on f5 sees b1), with White's
#: long castling (the rook's way to d1 crosses b1) and without it.
VICTIM_FIRST_FENS = ["1B3k1r/1pq1pP2/r5P1/pPp2b1p/1np2NnP/N1b5/PQ1PB3/R3KR2 w Q - 2 33",
                     "1B3k1r/1pq1pP2/r5P1/pPp2b1p/1np2NnP/N1b5/PQ1PB3/R3KR2 w - - 2 33"]


def replay_from(fen: str, script: str, identity: bool = False) -> list[str]:
    return Replayer(engine.parse_fen(CHESS, fen), identity=identity).run(parse_script(script, CHESS))


@pytest.mark.parametrize("fen", VICTIM_FIRST_FENS, ids=["castling", "no-castling"])
@pytest.mark.parametrize("gap", [20, 1010, 3500])
def test_the_piece_just_moved_taken_victim_first_while_it_could_go_on(fen: str, gap: int) -> None:
    """White's rook a1-b1 could still go on along the first rank when Black lifts it (the
    victim first), then the bishop from f5, and puts the bishop on b1 (seed 3153 of the test
    above). On an occupancy board the man put on b1 may as well be the rook put back with the
    bishop still in hand: a1b1 is the move either way, and White's hand starting its reply
    (the lift of e2, after ``gap`` ms) decides for the capture. (Before, a1b1 was made final
    without b1's touches and e2-d3 read as the bishop landing.)"""
    script = ("lift a1\nplace b1\nsleep 275\nlift b1\nlift f5\nplace b1\n"
              f"sleep {gap}\nlift e2\nplace d3\nsleep 1010\nlift c7\nplace e5\n")
    assert replay_from(fen, script) == ["a1b1", "f5b1", "e2d3", "c7e5"]


def test_the_capture_on_the_cell_handled_by_either_player_waits_for_the_next_event() -> None:
    """Both readings stand until an event decides: a1b1 is final at once (both readings agree
    on it), the capture f5xb1 is only shown (provisional) through a long quiet under
    ``hesitate_ms``, and final at the quiet's end, never before."""
    replayer = Replayer(engine.parse_fen(CHESS, VICTIM_FIRST_FENS[0]))
    hesitate = replayer.core.timing.hesitate_ms
    for command in parse_script("lift a1\nplace b1\nsleep 275\nlift b1\nlift f5\nplace b1\n", CHESS):
        replayer.feed(command)
    placed = replayer.t
    replayer.advance(placed + 100)
    assert replayer.texts() == ["a1b1"]
    replayer.advance(placed + hesitate - 10)
    assert replayer.texts() == ["a1b1"]
    assert replayer.core.status.provisional == ("f5b1",)
    replayer.advance(placed + hesitate + 10)
    assert replayer.texts() == ["a1b1", "f5b1"]


@pytest.mark.parametrize("fen", VICTIM_FIRST_FENS, ids=["castling", "no-castling"])
def test_the_piece_just_moved_put_back_while_the_next_player_holds_a_man(fen: str) -> None:
    """The mirror of the case above, the same events up to the bishop: White lifts the rook
    from b1 again, Black lifts the bishop from f5, White puts the rook back on b1. The bishop
    then landing on d3 (a man put down: only a hand holding one brings it) decides: the touch
    on b1 was White's, and Black's move is f5-d3."""
    script = ("lift a1\nplace b1\nsleep 275\nlift b1\nlift f5\nplace b1\nsleep 1010\nplace d3\n"
              "sleep 1010\nlift a3\nplace c2\nsleep 1010\nlift c7\nplace e5\n")
    assert replay_from(fen, script) == ["a1b1", "f5d3", "a3c2", "c7e5"]


@pytest.mark.parametrize("fen", VICTIM_FIRST_FENS, ids=["castling", "no-castling"])
@pytest.mark.parametrize(("hands", "moves"), [
    # the bishop lifted first: a1b1 is final at that lift (the rook rested past drag_ms)
    ("lift a1\nplace b1\nsleep 275\nlift f5\nlift b1\nplace b1\nsleep 1010\nlift e2\nplace d3\n",
     ["a1b1", "f5b1", "e2d3"]),
    # a quiet between: a1b1 is final by the quiet, the rest is Black's capture
    ("lift a1\nplace b1\nsleep 3100\nlift b1\nlift f5\nplace b1\nsleep 1010\nlift e2\nplace d3\n",
     ["a1b1", "f5b1", "e2d3"]),
    # the rook going on to c1 while the bishop is in the hand
    ("lift a1\nplace b1\nsleep 275\nlift b1\nlift f5\nplace c1\nsleep 1010\nplace d3\n",
     ["a1c1", "f5d3"]),
    # the capture victim first, then White's recapture victim first
    ("lift a1\nplace b1\nsleep 275\nlift b1\nlift f5\nplace b1\nsleep 300\nlift b1\nlift b2\nplace b1\n",
     ["a1b1", "f5b1", "b2b1"]),
    # the mover's rook put back, then the bishop in the hand taking it victim first after all
    ("lift a1\nplace b1\nsleep 275\nlift b1\nlift f5\nplace b1\nsleep 500\nlift b1\nplace b1\n"
     "sleep 1010\nlift e2\nplace d3\n", ["a1b1", "f5b1", "e2d3"]),
], ids=["bishop-first", "quiet-between", "rook-going-on", "recapture", "put-back-then-taken"])
def test_the_piece_just_moved_handled_again_in_other_orders(fen: str, hands: str, moves: list[str]) -> None:
    assert replay_from(fen, hands) == moves


@pytest.mark.parametrize(("hands", "moves"), [
    ("lift a1\nplace b1\nsleep 275\nlift b1\nlift f5\nplace b1\nsleep 1010\nlift e2\nplace d3\n",
     ["a1b1", "f5b1", "e2d3"]),
    # White's hand starts within the scan that held a1b1 for the rook going on
    ("lift a1\nplace b1\nsleep 275\nlift b1\nlift f5\nplace b1\nlift e2\nsleep 150\nplace d3\n",
     ["a1b1", "f5b1", "e2d3"]),
    ("lift a1\nplace b1\nsleep 275\nlift b1\nlift f5\nplace b1\nsleep 1010\nplace d3\n",
     ["a1b1", "f5d3"]),
], ids=["taken", "taken-reply-within-a-scan", "put-back"])
def test_the_piece_just_moved_handled_again_on_a_board_that_scans_in_turn(hands: str, moves: list[str]) -> None:
    """The same on an occupancy board that scans its squares in turn (41 ms, a Millennium
    board's scan): a reading that could go on is held a scan for its piece's going on, and a
    man lifted meanwhile keeps the cell either player's."""
    replayer = Replayer(engine.parse_fen(CHESS, VICTIM_FIRST_FENS[0]), timing=Timing(scan_ms=41))
    assert replayer.run(parse_script(hands, CHESS)) == moves


def test_on_an_identity_board_the_man_put_back_is_read() -> None:
    """An identity board reads which man is put on b1: the bishop (the capture) or the rook."""
    taken = ("lift a1\nplace b1 R\nsleep 275\nlift b1\nlift f5\nplace b1 b\nsleep 1010\n"
             "lift e2\nplace d3 B\n")
    assert replay_from(VICTIM_FIRST_FENS[0], taken, identity=True) == ["a1b1", "f5b1", "e2d3"]
    put_back = "lift a1\nplace b1 R\nsleep 275\nlift b1\nlift f5\nplace b1 R\nsleep 1010\nplace d3 b\n"
    assert replay_from(VICTIM_FIRST_FENS[0], put_back, identity=True) == ["a1b1", "f5d3"]


def test_generated_promotion_and_drop_scripts_answer_the_questions() -> None:
    lines = script_for_moves(CHESS, ["b7a8q"], fen="r3k3/1P5p/8/8/8/8/8/4K3 w - - 0 1")
    assert lines[-1] == "choose q"
    v = engine.find_variant("mathematichess")
    lines = script_for_moves(v, ["T@g7", "K@a1"])  # white's treasurer, black's king
    assert [line for line in lines if line.startswith(("place", "choose"))] == [
        "place g7", "choose T", "place a1", "choose K"]


def test_a_man_is_never_read_taken_off_a_cell_no_hand_emptied() -> None:
    """Seed 1008 of the stress run, ply 30: White lifts the queen from f3, Black's hand takes
    the bishop on f4 (victim first) before the queen lands on g3, then lifts its own bishop from
    d6 and puts it on f4; White takes back on f4. With the queen down and Black's two men in the
    hand, the board also reads as three whole moves, f4-g3, d6xg3, f3xg3, each taking the last
    one's man off g3: but g3 was never lifted. (That reading was made final: three wrong moves.)"""
    fen = "rn3rk1/pp3ppp/2pb2q1/3p4/3PbB2/1BP2Q2/P1P2PPP/R3NRK1 w - - 7 16"
    script = ("lift f3\nsleep 40\nlift f4\nplace g3\nsleep 40\nlift d6\nsleep 120\nplace f4\n"
              "sleep 400\nlift g3\nsleep 50\nlift f4\nsleep 250\nplace f4\n")
    assert replay_from(fen, script) == ["f3g3", "d6f4", "g3f4"]


def test_a_reading_with_a_lifted_man_that_could_not_move_is_no_reading() -> None:
    """Seed 2011 of the stress run, ply 20: White's bishop c1-g5 (it could go on to h6), Black's
    hand on h7, White's hand on the bishop again before Black's pawn lands on h6, then the
    bishop down on h4. With the pawn of h7 in the hand the board read as c1-h6; but after
    c1-h6 that pawn has no move, so no hand would hold it: the man on h6 is that pawn, and the
    bishop put down on h4 reads the three moves. (c1h6 was made final: a wrong move.)"""
    fen = "r1bq1rk1/ppp2ppp/1bnp1n2/8/2BPP3/2N2N1P/P4PP1/R1BQ1RK1 w - - 3 11"
    script = "lift c1\nsleep 280\nplace g5\nlift h7\nsleep 120\nlift g5\nsleep 30\nplace h6\nsleep 20\nplace h4\n"
    assert replay_from(fen, script) == ["c1g5", "h7h6", "g5h4"]


def test_a_slide_gone_on_to_its_victim_is_no_reply_on_top() -> None:
    """Seed 3001 of the stress run, ply 66: White lifts the pawn of f5 (victim first) and the
    bishop of c2, Black's hand takes the knight on e3 (victim first), the bishop rests on d3
    and e4 and lands on f5, then Black's knight from c4 lands on e3. With the bishop lifted
    from e4, c2-e4 and the knight's capture read the board too, e4 "lifted again"; but the
    man put down on f5 since, further along the bishop's line, is that bishop gone on. (c2e4
    was made final: a wrong move.)"""
    fen = "8/1p6/p1p2k1B/5p2/2n5/P3N1K1/1PBr2PP/8 w - - 3 34"
    script = ("lift f5\nsleep 20\nlift c2\nlift e3\nsleep 40\nplace d3\nsleep 130\nlift d3\nsleep 15\n"
              "place e4\nsleep 125\nlift e4\nsleep 35\nplace f5\nlift c4\nsleep 275\nplace e3\n")
    assert replay_from(fen, script) == ["c2f5", "c4e3"]


def test_a_man_touched_as_the_move_lands_with_check_keeps_the_reading() -> None:
    """Seed 7030 of the stress run, ply 48: Black touches the bishop on g4 as White's queen
    rests on f5 on its way to take on f6, with check. After Qxf6+ that bishop has no move, but
    it could not go to f6 before either: the hand merely touched it, and the reading stands
    (the rule of the test above took it for a hand reaching to move it there)."""
    fen = "7r/p3rpk1/5n2/3P3q/2B1NQbp/8/PPP5/5K1R w - - 0 25"
    script = ("lift f4\nsleep 37\nlift g4\nplace f5\nsleep 40\nlift f6\nsleep 57\nlift f5\nsleep 22\nplace f6\n"
              "sleep 27\nplace g4\nsleep 524\nlift g7\nsleep 232\nplace f8\n")
    assert replay_from(fen, script) == ["f4f6", "g7f8"]
