"""Boards a DGT board's reports fit in two ways, where one of them was read as final and was not
the move played (issue 23: "where an event fits both, keep both readings and let the next event
decide"; docs/controller.md, "Boards that scan their squares in turn").

Each case is what the emulated DGT board reports for the hand model's script
(``bench/dgt_offline.py``, the game, seed and scan phase named), from the position before it, at
the times the referee got them."""

from __future__ import annotations

from controller.core_types import PromptKind, StatusKind, Timing
from tests.core_scripts import play_timed, texts

SCAN = Timing(scan_ms=222)


def test_a_flurry_with_the_movers_other_man_off_is_no_move_and_a_reply() -> None:
    # d5xd8, e8xd8, d1-b1 and c6xe5 within a second (seed 2, phase 0.511): the board never
    # showed White's rook on d8. It read d1b1 with c6xe5 on top (d5 and e8 taken for men
    # lifted by the next player): but the white rook on d5 was off its cell long before the
    # queen's move was shown, so White did more than d1b1.
    fen = "3rr2k/bpp2pp1/p1n1q2p/3RP3/P6R/B4N1P/5PP1/3Q2K1 w - - 5 26"
    events = [(38847, "d8", False, ""), (38930, "d5", False, ""), (39511, "e8", False, ""),
              (39693, "b1", True, "Q"), (39700, "d1", False, ""), (39727, "d8", True, "r"),
              (39779, "c6", False, ""), (39813, "e5", False, ""), (39968, "b7", False, ""),
              (40033, "e5", True, "n"), (40106, "b2", True, "Q"), (40133, "b1", False, ""),
              (40298, "b3", True, "Q"), (40326, "b2", False, ""), (40518, "b3", False, ""),
              (40656, "b6", True, "Q"), (40848, "b7", True, "Q"), (40876, "b6", False, ""),
              (40886, "e6", False, "")]
    played = ["d5d8", "e8d8", "d1b1", "c6e5", "b1b7"]
    core = play_timed(events, fen, timing=SCAN)
    got = texts(core)
    assert got == played[:len(got)]
    assert core.status.kind == StatusKind.FIX


def test_a_man_taken_where_the_board_never_showed_it_is_as_likely_in_the_hand() -> None:
    # c2xc3 and h5xh3 (seed 1004, phase 0.913): Black's rook rests on h4 on its way to h3,
    # whose man Black lifted first. h3h4 h5xh4 c2xc3 fits that board too (a pawn that stood on
    # h4 under a scan, never reported, and was taken there); so does c2xc3 with Black's rook on
    # its way to the man lifted: the next event (the rook on h3) decides.
    fen = "8/8/3k4/7r/4P3/2p1K2P/2R5/8 w - - 2 44"
    events = [(72049, "e4", False, ""), (72489, "e4", True, "P"), (72527, "h3", False, ""),
              (72730, "c3", False, ""), (72757, "c2", False, ""), (72912, "h5", False, ""),
              (72940, "h4", True, "r"), (72950, "c3", True, "R"), (73160, "h4", False, ""),
              (73187, "h3", True, "r")]
    assert texts(play_timed(events, fen, timing=SCAN)) == ["c2c3", "h5h3"]


def test_a_bishop_taken_where_it_never_stood_is_as_likely_in_the_hand() -> None:
    # g2-g4, f5-e6, then White's bishop c4-d3 (seed 1008, phase 0.399): with the bishop lifted
    # and not down yet, c4e6 f5xe6 g2g4 fits the board (the bishop put on e6 under a scan and
    # taken there). Where it lands decides.
    fen = "r4rk1/pp1n1ppp/2p3q1/5b2/2BP1Q2/5P2/P4RPP/R3N1K1 w - - 2 22"
    events = [(39658, "g2", False, ""), (39792, "f5", False, ""), (39981, "e6", True, "b"),
              (40029, "c4", False, ""), (40043, "g4", True, "P"), (40280, "d3", True, "B")]
    assert texts(play_timed(events, fen, timing=SCAN)) == ["g2g4", "f5e6", "c4d3"]


def test_a_pawn_taken_back_at_once_is_still_read_at_once() -> None:
    # e4-e5 and d6xe5 within a scan: the pawn never reported on e5. No piece in the hand reads
    # that board otherwise, so it is the two moves, at once.
    fen = "rnbqkbnr/ppp1pppp/3p4/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    core = play_timed([(1000, "e4", False, ""), (1100, "d6", False, ""), (1150, "e5", True, "p")], fen,
                      timing=SCAN)
    assert texts(core) == ["e4e5", "d6e5"]


ROOK = ("r3r2k/bpp2pp1/p1n1q2p/3RP3/P1R5/B4N1P/5PP1/3Q2K1 b - - 2 24",
        [(38136, "a8", False, ""), (38360, "b8", True, "r"), (39133, "c4", False, ""), (39150, "h4", True, "R"),
         (39240, "b8", False, ""), (39245, "c8", True, "r")])


def test_a_slide_going_on_or_the_movers_next_move_is_asked() -> None:
    # Black's a8-b8, White's c4-h4, Black's b8-c8 as its next move (seed 2002): the rook's lift
    # from b8 is reported within a scan of White's lift of c4, so either came first: a8c8 with
    # White's move, or a8b8, c4h4, b8c8. Nothing later tells them apart on the board (both are
    # black rooks); it was read a8c8. Both readings are put to the players.
    fen, events = ROOK
    core = play_timed(events, fen, timing=SCAN)
    assert texts(core) == []
    prompt = core.status.prompt
    assert prompt is not None and prompt.kind == PromptKind.WHICH_MOVE
    assert sorted(o.texts for o in prompt.options if o.moves) == [("a8b8", "c4h4", "b8c8"), ("a8c8", "c4h4")]
    core.answer(next(o.key for o in prompt.options if o.texts == ("a8b8", "c4h4", "b8c8")), 39400)
    assert texts(core) == ["a8b8", "c4h4", "b8c8"]


def test_a_going_on_reported_just_before_the_next_players_hand_is_asked_too() -> None:
    # The same moves in real time (``bench/latency.py --boards dgt``, seed 2002): b8 is early in
    # the scan, so the rook's lift from b8 (Black's next move, 74 ms after White's lift of c4)
    # was reported 113 ms before c4's. Report order within a scan says nothing: asked.
    fen, _events = ROOK
    events = [(36527, "a8", False, ""), (36751, "b8", True, "r"), (37410, "b8", False, ""), (37523, "c4", False, ""),
              (37541, "h4", True, "R"), (37633, "c8", True, "r")]
    core = play_timed(events, fen, timing=SCAN)
    assert texts(core) == []
    prompt = core.status.prompt
    assert prompt is not None
    assert sorted(o.texts for o in prompt.options if o.moves) == [("a8b8", "c4h4", "b8c8"), ("a8c8", "c4h4")]


def test_a_slide_worked_out_between_two_moves_is_asked_too() -> None:
    # The same moves in another run (seed 2): White's rook c1-c3-c4, Black's a8 lifted, White's
    # rook lifted again from c4, Black's rook down on b8 and up again, White's down on h4, then
    # Black's on c8. c1c4 a8c8 c4h4 was worked out (the rook resting on b8 on its way); c1c4
    # a8b8 c4h4 b8c8 fits as well (b8's lift 327 ms after c4's, b8 down 107 ms after it).
    fen = "r3r2k/bpp2pp1/p1n1q2p/3RP3/P7/B4N1P/5PP1/2RQ2K1 w - - 1 24"
    events = [(34086, "c1", False, ""), (34251, "c3", True, "R"), (34884, "c4", True, "R"), (34911, "c3", False, ""),
              (35647, "a8", False, ""), (35763, "c4", False, ""), (35870, "b8", True, "r"), (36090, "b8", False, ""),
              (36221, "h4", True, "R"), (36314, "c8", True, "r")]
    core = play_timed(events, fen, timing=SCAN)
    assert texts(core) == []
    prompt = core.status.prompt
    assert prompt is not None
    assert sorted(o.texts for o in prompt.options if o.moves) == [("c1c4", "a8b8", "c4h4", "b8c8"),
                                                                ("c1c4", "a8c8", "c4h4")]


def test_the_asked_readings_are_asked_again_when_the_rook_goes_on() -> None:
    # The rook goes on from c8 to d8 while the question is open: still either reading.
    fen, events = ROOK
    core = play_timed([*events, (40123, "c8", False, ""), (40128, "d8", True, "r")], fen, timing=SCAN)
    assert texts(core) == []
    prompt = core.status.prompt
    assert prompt is not None
    assert sorted(o.texts for o in prompt.options if o.moves) == [("a8b8", "c4h4", "b8d8"), ("a8d8", "c4h4")]


def test_a_slide_that_went_on_before_the_reply_landed_is_read_at_once() -> None:
    # The rook's going on lands on c8 before White's rook lands on h4 (reported so): Black's
    # next move cannot be put down before White's is; a8c8 it is.
    fen, _events = ROOK
    events = [(38136, "a8", False, ""), (38360, "b8", True, "r"), (39133, "c4", False, ""), (39140, "b8", False, ""),
              (39145, "c8", True, "r"), (39250, "h4", True, "R")]
    core = play_timed(events, fen, timing=SCAN)
    assert texts(core) == ["a8c8", "c4h4"]


def test_the_asked_readings_stand_while_the_next_player_plays_on() -> None:
    # The question open, White's rook goes d5-d6 (its hand first on d6's way): a8b8, c4h4,
    # b8d8, d5d6 fits as well as a8d8, c4h4, d5d6. Neither is taken.
    fen, events = ROOK
    more = [(40123, "c8", False, ""), (40128, "d8", True, "r"), (40622, "d6", True, "R"), (40649, "d5", False, "")]
    core = play_timed(events + more, fen, timing=SCAN)
    assert texts(core) == []
