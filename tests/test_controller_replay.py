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


@pytest.mark.xfail(strict=True, reason="known misread, found by the test above (seed 3153): see docs/controller.md")
def test_the_piece_just_moved_taken_victim_first_while_it_could_go_on() -> None:
    """White's rook a1-b1 could still go on along the first rank when Black lifts it (the
    victim first), then the bishop from f5, and puts the bishop on b1. On an occupancy board the
    man put on b1 may as well be the rook put back, with the bishop still in hand: the core
    takes that reading, makes a1b1 final with b1's touches, and then reads White's e2-d3 as the
    bishop landing (f5d3). Black's next move c7-e5 decides between the two; the core has
    already made f5d3 final by then. Lifting the bishop first, or after a quiet, reads right."""
    fen = "1B3k1r/1pq1pP2/r5P1/pPp2b1p/1np2NnP/N1b5/PQ1PB3/R3KR2 w Q - 2 33"
    script = ("lift a1\nplace b1\nsleep 275\nlift b1\nlift f5\nplace b1\nsleep 1010\n"
              "lift e2\nplace d3\nsleep 1010\nlift c7\nplace e5\n")
    got = Replayer(engine.parse_fen(CHESS, fen)).run(parse_script(script, CHESS))
    assert got == ["a1b1", "f5b1", "e2d3", "c7e5"]


def test_generated_promotion_and_drop_scripts_answer_the_questions() -> None:
    lines = script_for_moves(CHESS, ["b7a8q"], fen="r3k3/1P5p/8/8/8/8/8/4K3 w - - 0 1")
    assert lines[-1] == "choose q"
    v = engine.find_variant("mathematichess")
    lines = script_for_moves(v, ["T@g7", "K@a1"])  # white's treasurer, black's king
    assert [line for line in lines if line.startswith(("place", "choose"))] == [
        "place g7", "choose T", "place a1", "choose K"]
