"""Boards a DGT board's reports fit in two ways, where one of them was read as final and was not
the move played (issue 23: "where an event fits both, keep both readings and let the next event
decide"; docs/controller.md, "Boards that scan their squares in turn").

Each case is what the emulated DGT board reports for the hand model's script
(``bench/dgt_offline.py``, the game, seed and scan phase named), from the position before it, at
the times the referee got them."""

from __future__ import annotations

import engine
from controller.core_types import SCAN_MARGIN_MS, Event, PromptKind, StatusKind, Timing
from controller.inference import Referee
from controller.next_hand import with_the_next_hand_at_work
from controller.question_wait import resting_until
from controller.readings import Readings
from controller.signatures import Budget, explain, looks, seen
from controller.two_readings import SEARCH_NODES, landed_in_turn, next_move_too, played_on
from tests.core_scripts import CHESS, play_timed, texts

SCAN = Timing(scan_ms=222)


def test_a_flurry_with_the_movers_other_man_off_is_no_move_and_a_reply() -> None:
    # d5xd8, e8xd8, d1-b1 and c6xe5 within a second (seed 2, phase 0.511): the board never
    # showed White's rook on d8. It read d1b1 with c6xe5 on top (d5 and e8 taken for men
    # lifted by the next player): but the white rook on d5 was off its cell long before the
    # queen's move was shown, so White did more than d1b1. That reading shown is none of the
    # moves, so the one sequence that reads the board is taken even though it does not follow
    # on from it (``Deadlines._resolve_unmatched``): the whole flurry is read as played.
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
    assert texts(core) == played
    assert core.status.kind == StatusKind.MOVING  # (Black's e6 lifted: the next move under way)


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


def test_a_man_taken_where_never_shown_may_be_on_its_way_elsewhere() -> None:
    # g2-g3 and Black's bishop e6-h3, resting on g4 (seed 3009, phase 0.902): the pawn's landing
    # on g3 was missed by the visit (put down, straightened, put down) and reported 27 ms after
    # the bishop on g4. g2g4 e6xg4 fits the board before it (a pawn under a scan on g4), and so
    # does the pawn still in the hand on its way to g3, with the bishop resting on g4: the
    # pawn landed before Black's bishop was put down, so its landing comes within a scan.
    fen = "2kr3r/1pp2ppp/1b2bqn1/pP2p3/P3P3/B1PB4/3NQPPP/R4RK1 w - - 3 16"
    events = [(29209, "g2", False, ""), (29312, "e6", False, ""), (29594, "g4", True, "b"), (29608, "c3", False, ""),
              (29621, "g3", True, "P"), (29814, "g4", False, ""), (29845, "h3", True, "b")]
    assert texts(play_timed(events, fen, timing=SCAN)) == ["g2g3", "e6h3"]


def test_a_knight_taken_where_never_shown_may_be_on_its_way_elsewhere() -> None:
    # Nf6-g4 and White's rook d4-d8 resting on d5 (seed 5006, phase 0.451): f6d5 d4xd5 fits the
    # board until the knight's landing on g4 is reported, 10 ms after d4's lift.
    fen = "5r1k/1p4pp/p4n2/5q2/1P1Rp3/P6P/2r3p1/B2RK1Q1 b - - 3 31"
    events = [(44616, "f6", False, ""), (44637, "d5", True, "R"), (44664, "d4", False, ""), (44674, "g4", True, "n"),
              (44802, "d7", True, "R"), (44857, "d5", False, ""), (45654, "d8", True, "R"), (45682, "d7", False, "")]
    assert texts(play_timed(events, fen, timing=SCAN)) == ["f6g4", "d4d8"]


def test_a_man_taken_unseen_is_read_once_its_landing_is_overdue() -> None:
    # The same board with the knight's landing never reported: it was taken on d5 after all.
    # Held one scan (and the margin) after the rook's report on d5, then read as before.
    fen = "5r1k/1p4pp/p4n2/5q2/1P1Rp3/P6P/2r3p1/B2RK1Q1 b - - 3 31"
    core = Referee(engine.parse_fen(CHESS, fen), identity=True, timing=SCAN)
    for t, name, down in ((44616, "f6", False), (44637, "d5", True), (44664, "d4", False)):
        core.event(Event(CHESS.geometry.index(name), down, t, CHESS.parse_symbol("R") if down else 0))
    while (d := core.deadline) is not None and d < 44637 + SCAN.scan_ms + SCAN_MARGIN_MS:
        core.tick(d)
    assert texts(core) == []
    assert core.deadline == 44637 + SCAN.scan_ms + SCAN_MARGIN_MS
    core.tick(core.deadline)
    assert texts(core) == ["f6d5"]
    assert core.status.provisional == ("d4d5",)  # (a rook that may go on)


def test_a_man_of_the_movers_off_before_the_move_began_is_no_reply_hand() -> None:
    # e4xd5 (the victim lifted first) and e6xd5 at once (seed 5005, phase 0.950): White's pawn
    # never reported on d5. Then White's bishop c4-b5 and Black's hand on a7: c4b5 with e4, e6
    # and a7 in Black's hand fits that board, but White's pawn left e4 1.3 s before the
    # bishop's move began, and the next player does not take hold of the mover's man before
    # the move it answers has begun: White did more than c4b5, which is not read. With
    # Black's man on a7 put back in thought (``next_hand``), the board is e4xd5 e6xd5 c4b5:
    # the moves played, a7 Black's next move under way (a7-a6).
    fen = "r1bqkb1r/pp2nppp/2n1p3/2pp4/2B1PP2/2N2N2/PPPP2PP/R1BQK2R w KQkq - 0 6"
    events = [(8886, "d5", False, ""), (8917, "e4", False, ""), (9082, "e6", False, ""), (9326, "d5", True, "p"),
              (10231, "c4", False, ""), (10420, "b5", True, "B"), (10581, "a7", False, "")]
    core = play_timed(events, fen, timing=SCAN)
    assert texts(core) == ["e4d5", "e6d5", "c4b5"]
    assert core.status.kind == StatusKind.MOVING


def test_a_man_resting_on_its_way_is_read_before_a_man_standing_unseen() -> None:
    # Qd1-b3 (check) and Black's queen d8-d5 to block, resting 1.3 s on d7 and on d6 (seed 5017,
    # phase 0.534). d1b3 d8d7 is illegal (Black in check), so d1a4 d8d7 a4b3 was read: White's
    # queen on a4 never shown. The board reads in fewer moves with Black's queen resting on d7
    # on its way (d8d5 crosses it): where it lands decides.
    fen = "r2q1rk1/p1p3pp/1bp2p2/4P3/3Pp1b1/4BN2/PP3PPP/R2Q1RK1 w - - 0 14"
    events = [(22105, "d1", False, ""), (22353, "d8", False, ""), (22380, "d7", True, "q"), (22483, "b3", True, "Q"),
              (23700, "d7", False, ""), (23948, "d6", True, "q"), (24608, "d6", False, ""), (24635, "d5", True, "q")]
    # (In the game d3 and c2 had been handled long before, so the moves begun in turn left only
    # d1a4; here all three are: asked before.)
    core = Referee(engine.parse_fen(CHESS, fen), identity=True, timing=SCAN)
    for t, name, down, piece in events[:4]:
        while (d := core.deadline) is not None and d <= t:
            core.tick(d)
        core.event(Event(CHESS.geometry.index(name), down, t, CHESS.parse_symbol(piece) if piece else 0))
    while (d := core.deadline) is not None and d < events[4][0]:
        core.tick(d)
    assert texts(core) == [] and core.status.kind == StatusKind.MOVING  # (until the queen goes on)
    assert texts(play_timed(events, fen, timing=SCAN)) == ["d1b3", "d8d5"]


def test_a_man_taken_unseen_where_the_mover_left_may_be_on_its_way_too() -> None:
    # Rd1-c1, Bc2-d3 (shown on d3), Rc1-d1 back, Bd3-c4 in a flurry (seed 4019, phase 0.923):
    # with the bishop lifted from d3, d1c1 c2d1 c1xd1 fits the board (the bishop under a scan on
    # the square the rook had left), and so does the bishop in the hand on its way elsewhere.
    # Its landing on c4 comes 134 ms after the rook's on d1; nothing reads the four moves
    # together, so nothing wrong is read.
    fen = "r4rk1/pp4pp/1bp5/3pP3/7N/2P2PBP/P1b3PK/R2R4 w - - 1 23"
    events = [(33851, "d1", False, ""), (34287, "c1", True, "R"), (34480, "c2", False, ""), (34507, "c1", False, ""),
              (34676, "d3", True, "b"), (34896, "d3", False, ""), (34951, "d1", True, "R"), (35085, "c4", True, "b")]
    played = ["d1c1", "c2d3", "c1d1", "d3c4"]
    got = texts(play_timed(events, fen, timing=SCAN))
    assert got == played[:len(got)]


def test_a_slide_going_on_with_the_next_players_next_man_in_hand_is_asked() -> None:
    # Black's bishop f5-e4 (shown 0.7 s), White's f2-f3, Black's bishop on to c2 as its next
    # move, White's rook lifted from d1 for its next move before the bishop landed (seed 3019,
    # phase 0.668). f5c2 f2f3 was read: f5e4, f2f3, e4c2 fits too once d1 is taken as in
    # White's hand (a player takes hold of a man before the other's move is complete).
    fen = "r4rk1/pp4pp/1bp5/3pPb2/7N/2P3BP/P4PPK/R2R4 b - - 0 21"
    events = [(40291, "f5", False, ""), (40535, "e4", True, "b"), (41226, "f3", True, "P"), (41254, "f2", False, ""),
              (41275, "d1", False, ""), (41415, "e4", False, ""), (41464, "c2", True, "b")]
    core = play_timed(events, fen, timing=SCAN)
    assert texts(core) == []
    prompt = core.status.prompt
    assert prompt is not None and prompt.kind == PromptKind.WHICH_MOVE
    assert ("f5e4", "f2f3", "e4c2") in [o.texts for o in prompt.options]


def test_the_search_kept_to_handled_cells_finds_what_explain_finds_in_fewer_moves() -> None:
    # The moves of the question above, from the position after Black's f5e4: f2f3, e4c2, d1c1.
    # ``explain(handled_only=True)`` pushes only moves that change differing or handled cells, so it
    # finds ``explain(strict=True)``'s sequences while trying a fraction of its moves: it runs
    # at each board change while the players are asked (``SEARCH_NODES`` for them all).
    pos = engine.parse_fen(CHESS, "r4rk1/pp4pp/1bp5/3pP3/4b2N/2P3BP/P4PPK/R2R4 w - - 1 22")
    start = [seen(code, True, looks(CHESS)) for code in pos.board]
    moves = []
    for text in ("f2f3", "e4c2", "d1c1"):
        moves.append(pos.parse_move(text))
        pos.push(moves[-1])
    observed = [seen(code, True, looks(CHESS)) for code in pos.board]
    for _ in moves:
        pos.pop()
    diff = {c for c, v in enumerate(observed) if v != start[c]}
    touched = diff | {CHESS.geometry.index("e4")}
    wide = explain(pos, observed, diff, touched, True, strict=True, max_plies=4, max_nodes=10**6)
    budget = Budget(10**6)
    narrow = explain(pos, observed, diff, touched, True, strict=True, max_plies=4, handled_only=True, budget=budget)
    assert sorted([pos.move_text(m) for m in seq] for seq in wide) == [["d1c1", "e4c2", "f2f3"],
                                                                     ["f2f3", "e4c2", "d1c1"]]
    assert narrow == wide
    assert 10**6 - budget.nodes < 1000 < SEARCH_NODES


def test_a_question_stays_while_the_players_play_on_from_either_reading() -> None:
    # The question above, the players playing on unanswered (seed 3019, phase 0.668): Rd1-c1,
    # Bc2-d3, Rc1-d1, Bd3-c4, f3-f4. Read from f5e4 alone, the other reading soon needs more
    # moves than the search reaches; followed on from where they were asked (``played_on``),
    # it fits at each board change, and f5d3 f2f3 (read with the rook back on d1) is no final.
    fen = "r4rk1/pp4pp/1bp5/3pPb2/7N/2P3BP/P4PPK/R2R4 b - - 0 21"
    events = [(40291, "f5", False, ""), (40535, "e4", True, "b"), (41226, "f3", True, "P"), (41254, "f2", False, ""),
              (41275, "d1", False, ""), (41415, "e4", False, ""), (41464, "c2", True, "b"), (41711, "c1", True, "R"),
              (42124, "c2", False, ""), (42320, "d3", True, "b"), (43251, "c1", False, ""), (43475, "d1", True, "R"),
              (44080, "d3", False, ""), (44269, "c4", True, "b"), (46506, "f3", False, ""), (46699, "f4", True, "P")]
    core = play_timed(events, fen, timing=SCAN)
    assert texts(core) == []
    prompt = core.status.prompt
    assert prompt is not None and prompt.kind == PromptKind.WHICH_MOVE
    assert ("f5e4", "f2f3", "e4c2", "d1c1", "c2d3", "c1d1", "d3c4", "f3f4") in [o.texts for o in prompt.options]


def test_a_question_ends_when_the_board_no_longer_follows_on_from_the_other_reading() -> None:
    # Bf1 shown on d3, going on to b5 within a scan of Black's Ng8-f6 (seed 5014, phase 0.101):
    # f1d3 g8f6 d3b5 fits as well as f1b5 g8f6 while White's d-pawn is in the hand, and is
    # asked. The pawn put down on d3 is White's move again after d3b5: the board no longer
    # follows on from that reading, and the bishop's going on was the move.
    fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
    events = [(2657, "f1", False, ""), (2815, "d3", True, "B"), (3035, "d3", False, ""), (3127, "g8", False, ""),
              (3179, "f6", True, "n"), (3193, "b5", True, "B"), (3282, "d2", False, ""), (3475, "d3", True, "P"),
              (3564, "f8", False, ""), (3588, "e7", True, "b")]
    assert texts(play_timed(events, fen, timing=SCAN))[:3] == ["f1b5", "g8f6", "d2d3"]


def _hands(fen: str, events: list[tuple[int, str, bool, str]]) -> tuple[engine.Position, Readings]:
    """The position and the referee's record of the board after ``events`` (no move final)."""
    pos = engine.parse_fen(CHESS, fen)
    look = looks(CHESS)
    hands = Readings([seen(code, True, look) for code in pos.board])
    for t, name, down, piece in events:
        cell = CHESS.geometry.index(name)
        hands.read(cell, seen(CHESS.parse_symbol(piece), True, look) if down else 0)
        hands.record(cell, down, t)
        hands.touched.add(cell)
    return pos, hands


def _seq(pos: engine.Position, *moves: str) -> tuple[engine.Move, ...]:
    out = []
    with pos.after():
        for text in moves:
            out.append(pos.parse_move(text))
            pos.push(out[-1])
    return tuple(out)


def test_a_try_read_only_out_of_turn_does_not_stop_the_next_try() -> None:
    # Seed 3019 (phase 0.668) as the players play on: Black's bishop f5, shown on e4, on to c2
    # and d3; White's f2-f3, and its rook d1-c1, lifted again. With nothing in the hand the
    # board reads f5e4 d1d3 e4xd3 f2f3, out of turn (f3 reported down long before d3); with
    # the rook from d1 in the hand, f5e4 f2f3 e4d3, in turn. Each try is weighed by its own
    # readings in turn: the first one's out-of-turn readings do not end the search.
    fen = "r4rk1/pp4pp/1bp5/3pPb2/7N/2P3BP/P4PPK/R2R4 b - - 0 21"
    events = [(40291, "f5", False, ""), (40535, "e4", True, "b"), (41226, "f3", True, "P"), (41254, "f2", False, ""),
              (41275, "d1", False, ""), (41415, "e4", False, ""), (41464, "c2", True, "b"), (41711, "c1", True, "R"),
              (42124, "c2", False, ""), (42320, "d3", True, "b"), (43251, "c1", False, "")]
    pos, hands = _hands(fen, events)
    assert not landed_in_turn(hands, _seq(pos, "f5e4", "d1d3", "e4d3", "f2f3"))
    reading, went_on = _seq(pos, "f5e4")[0], _seq(pos, "f5d3")[0]
    found = next_move_too(hands, pos, True, SCAN.scan_ms, reading, went_on, 41226)
    assert found == [_seq(pos, "f5e4", "f2f3", "e4d3")]


def test_a_landing_left_again_by_a_later_move_is_the_put_down_not_the_lift() -> None:
    # Black's a8-b8, White's c4-h4, Black's b8-c8, then White's rook on from h4 to h5: h4's
    # latest event is that lift (39700), after the rook's landing on c8 (39245). White's c4h4
    # landed on h4 at 39150, before it: the moves landed in turn, and the reading with the
    # mover's next move stands beside a8c8's.
    fen, events = ROOK
    pos, hands = _hands(fen, [*events, (39700, "h4", False, ""), (39800, "h5", True, "R")])
    seq = _seq(pos, "a8b8", "c4h4", "b8c8", "h4h5")
    assert landed_in_turn(hands, seq)
    reading, went_on = _seq(pos, "a8b8")[0], _seq(pos, "a8c8")[0]
    assert seq in next_move_too(hands, pos, True, SCAN.scan_ms, reading, went_on, 39133)
    # (Landed out of turn it is not: White's rook put down on h4 after Black's on c8.)
    pos, hands = _hands(fen, [*events[:3], (39240, "b8", False, ""), (39245, "c8", True, "r"),
                              (39250, "h4", True, "R"), (39700, "h4", False, ""), (39800, "h5", True, "R")])
    assert not landed_in_turn(hands, seq)


def test_the_question_stands_while_a_capture_is_under_way() -> None:
    # Real time, emulated DGT board (seed 2, game 3): Black's a8-b8 shown, White's c4 lifted,
    # then b8 lifted within a scan of it: a8d8 c4h4 and a8b8 c4h4 b8d8 are asked about. The
    # players play on unanswered: White's rook lifted from d5 and Black's from d8 (d5xd8 under
    # way). Neither reading is the board now, but it follows on from the second with those
    # men in a hand: the question stands (it used to give way to "Board does not match").
    fen, _events = ROOK
    events = [(35645, "a8", False, ""), (35872, "b8", True, "r"), (35982, "c4", False, ""),
              (36091, "b8", False, ""), (36219, "h4", True, "R"), (36312, "c8", True, "r"),
              (36752, "c8", False, ""), (36759, "d8", True, "r"), (37343, "d5", False, ""),
              (37417, "d8", False, "")]
    core = play_timed(events, fen, timing=SCAN)
    assert texts(core) == []
    assert core.status.kind == StatusKind.ASK
    prompt = core.status.prompt
    assert prompt is not None
    assert [o.texts for o in prompt.options if o.moves] == [("a8b8", "c4h4", "b8d8")]
    assert any(not o.moves for o in prompt.options)  # "None: still moving"
    core.answer("a8b8 c4h4 b8d8", 37900)
    assert texts(core) == ["a8b8", "c4h4", "b8d8"]


def _prompts_seen(events: list[tuple[int, str, bool, str]],
                  fen: str | None) -> tuple[Referee, list[list[tuple[str, ...]]]]:
    """``play_timed``, noting the options of every question put to the players on the way."""
    pos = engine.parse_fen(CHESS, fen) if fen else engine.start_position(CHESS)
    core = Referee(pos, identity=True, timing=SCAN)
    seen_: list[list[tuple[str, ...]]] = []

    def note() -> None:
        prompt = core.status.prompt
        if prompt is not None and prompt.kind == PromptKind.WHICH_MOVE:
            seen_.append([o.texts for o in prompt.options if o.moves])

    for t, name, placed, piece in events:
        while (d := core.deadline) is not None and d <= t:
            core.tick(d)
            note()
        core.event(Event(CHESS.geometry.index(name), placed, t, CHESS.parse_symbol(piece) if piece else 0))
        note()
    for _ in range(20):
        if (d := core.deadline) is None:
            break
        core.tick(d)
        note()
    return core, seen_


def test_no_question_while_the_replys_pawn_rests_on_its_way() -> None:
    # e2-e3-e4 and e7-e6-e5 (seed 5003, phase 0.812): the board reported e6 (Black's pawn
    # resting on its way) before e4, then e3 and e4 in the same scan. Asked then, "e2e4 e7e6 or
    # e2e3 e7e6 e3e4" had no option the hands were playing; a scan later the pawn went on to e5
    # and the board read e2e4 e7e5 alone. A question over moves whose last may be a slide
    # paused on its way waits for that slide as a single reading does.
    events = [(555, "e3", True, "P"), (582, "e2", False, ""), (1875, "e3", False, ""), (1985, "e7", False, ""),
              (2012, "e6", True, "p"), (2067, "e4", True, "P"), (2232, "e6", False, ""), (2260, "e5", True, "p")]
    core, asked = _prompts_seen(events, None)
    assert asked == []
    assert texts(core) == ["e2e4", "e7e5"]


BISHOP = ("rnbqkbnr/pppp1ppp/8/8/4Pp2/8/PPPP2PP/RNBQKBNR w KQkq - 0 3",
          [(3473, "f1", False, ""), (3663, "e2", True, "B"), (4103, "e2", False, ""), (4175, "b7", False, ""),
           (4202, "b6", True, "p"), (4261, "c4", True, "B")])


def test_no_question_while_the_replys_pawn_rests_long_on_its_way() -> None:
    # Bf1-c4 (shown on e2) and b7-b5, the pawn resting 0.74 s on b6 with no white man lifted
    # (seed 4010, phase 0.814): "f1c4 b7b6 or f1e2 b7b6 e2c4" was asked while the pawn rested,
    # and neither was played. Until the next player's hand is at work, the pawn may go on for
    # as long as a single reading may (``hesitate_ms``): it lands on b5, and f1c4 b7b5 is read.
    fen, events = BISHOP
    core, asked = _prompts_seen([*events, (5082, "b6", False, ""), (5110, "b5", True, "p")], fen)
    assert asked == []
    assert texts(core) == ["f1c4", "b7b5"]


def test_the_question_comes_once_the_resting_pawn_stays() -> None:
    # The same, the pawn staying on b6: after the quiet both readings are asked.
    fen, events = BISHOP
    core, asked = _prompts_seen(events, fen)
    assert texts(core) == []
    assert asked and sorted(asked[-1]) == [("f1c4", "b7b6"), ("f1e2", "b7b6", "e2c4")]


def test_a_resting_slide_waits_a_scan_once_the_next_hand_is_at_work() -> None:
    # f1c4 b7b6 with the pawn on b6 (seed 4010's board): with no white man off its square the
    # pawn may go on for as long as a single reading may (the quiet, and a scan); with White's
    # knight lifted from g1 (the next player's hand at work), a scan after b6's report.
    fen, events = BISHOP
    option = [_seq(engine.parse_fen(CHESS, fen), "f1c4", "b7b6")]
    pos, hands = _hands(fen, events)
    assert resting_until(hands, pos, True, SCAN, option) == 4261 + SCAN.hesitate_ms + SCAN.scan_ms
    pos, hands = _hands(fen, [*events, (4300, "g1", False, "")])
    assert resting_until(hands, pos, True, SCAN, option) == 4202 + SCAN.drag_wait()


def test_moves_worked_out_with_the_next_players_man_already_lifted() -> None:
    # Seed 3012 (phase 0.472): Bf1-b5, shown on d3 on its way and held a scan as it could go on
    # to a6; c7-c6, Bb5-a4 and Black's bishop lifted from f8 within 300 ms. No sequence leaves
    # the board as observed, f8 being empty; with Black's bishop put back in thought, one does:
    # f1b5 c7c6 b5a4, and the bishop is Black's next move. It used to wait for the hand, and the
    # bishop down on e7 (on its way to c5) put the board four moves ahead: the game stopped.
    fen = "rnbqkb1r/ppp2ppp/8/3p4/4n3/2N2N2/PPPP1PPP/R1BQKB1R w KQkq - 0 6"
    events = [(7296, "d3", True, "B"), (7358, "f1", False, ""), (7516, "d3", False, ""), (7674, "b5", True, "B"),
              (8283, "c7", False, ""), (8334, "b5", False, ""), (8486, "f8", False, ""), (8530, "c6", True, "p"),
              (8579, "a4", True, "B")]
    core = play_timed(events, fen, timing=SCAN)
    assert texts(core) == ["f1b5", "c7c6", "b5a4"]
    assert core.status.kind != StatusKind.FIX
    # Then the bishop rests on e7 and d6 on its way to c5: Black's move, read as usual.
    later = [(8730, "e7", True, "b"), (9830, "e7", False, ""), (9854, "d6", True, "b"), (10734, "d6", False, ""),
             (10758, "c5", True, "b")]
    assert texts(play_timed(events + later, fen, timing=SCAN)) == ["f1b5", "c7c6", "b5a4", "f8c5"]


def test_a_castlings_rook_is_no_move_of_its_own_with_the_king_in_the_hand() -> None:
    # Black's h8-f8 and White's a2-a3 on top, with a Black man lifted: read with that man put
    # back in thought, h8f8 a2a3 -- unless the man is the king of a castling whose rook is
    # down: the king may yet come to g8 (a castling rook first, its king in the hand).
    fen = "rnbqk2r/ppp2ppp/3b4/3p4/4n3/2N2N2/PPPP1PPP/R1BQKB1R b KQkq - 1 6"
    moves = [(100, "h8", False, ""), (150, "f8", True, "r"), (400, "a2", False, ""), (450, "a3", True, "P")]
    pos, hands = _hands(fen, sorted([*moves, (300, "b8", False, "")]))
    b8 = CHESS.geometry.index("b8")
    assert with_the_next_hand_at_work(hands, pos, True, SCAN.scan_ms, 3) == [(_seq(pos, "h8f8", "a2a3"), b8)]
    pos, hands = _hands(fen, sorted([*moves, (300, "e8", False, "")]))
    assert with_the_next_hand_at_work(hands, pos, True, SCAN.scan_ms, 3) == []


def test_of_the_moves_with_the_next_mans_lift_those_the_board_showed_and_began_in_turn() -> None:
    # Seed 4008 (phase 0.109): White's queen f1-d3 (resting on e2 on its way), Black's a8-d8,
    # the queen on to e3 and Black's rook lifted from f8 (for f8-e8), within half a second.
    # With one rook put back in thought, four sequences fit: f1d3 or f1e2 (then d3e3 or e2e3),
    # a8d8 with f8 lifted or f8d8 with a8 lifted. The board showed the queen on d3 (f1e2 e2e3
    # never puts it there), and a8 was lifted more than a scan before f8 (a man of the next move
    # is not lifted before the move before it began): f1d3 a8d8 d3e3, then f8e8.
    fen = "r4r1k/pp4qp/2p1b1n1/5p2/3P2P1/5P2/P1B3NR/3R1QK1 w - - 2 36"
    events = [(49487, "e2", True, "Q"), (49518, "f1", False, ""), (50337, "d3", True, "Q"), (50367, "e2", False, ""),
              (51069, "a8", False, ""), (51217, "d3", False, ""), (51299, "d8", True, "r"), (51306, "f8", False, ""),
              (51440, "e3", True, "Q"), (51522, "e8", True, "r")]
    assert texts(play_timed(events, fen, timing=SCAN)) == ["f1d3", "a8d8", "d3e3", "f8e8"]


def test_moves_worked_out_with_the_next_players_man_resting_on_its_way() -> None:
    # Seed 3001 (phase 0.421): Be2-c4 (it could go on), c7-c6, Nf3-e5, then Black's rook a8 on
    # its way to d8, resting on b8, within half a second; White's f3 reported lifted before
    # Black's c7 (square order). e2c4 c7c6 f3e5 was held a scan for the bishop going on, and
    # then the rook was down on b8: four moves, past the three worked out at once. With the rook
    # put back in thought (a8-b8 a legal move of Black's after them, begun after each of them
    # as reported), the three are the moves; the rook's move is read as usual.
    fen = "r4r1k/1pp1n1p1/p2bbq1p/3n1p2/3P4/P1N2N2/1PQ1BPPP/2BRR1K1 w - - 2 17"
    events = [(31296, "e2", False, ""), (31454, "c4", True, "B"), (31492, "f3", False, ""), (31592, "c7", False, ""),
              (31619, "c6", True, "p"), (31654, "e5", True, "N"), (31777, "a8", False, ""), (31783, "b8", True, "r")]
    core = play_timed(events, fen, timing=SCAN)
    assert texts(core)[:3] == ["e2c4", "c7c6", "f3e5"]
    # (A man moved on top counts only if lifted after each of the moves began, as reported, with
    # no scan's give: else c7-c6 on top of e2c4 a8b8 f3e5 would fit too, and nothing be read.)
    later = [(33321, "b8", False, ""), (33326, "c8", True, "r"), (34204, "c8", False, ""), (34209, "d8", True, "r")]
    assert texts(play_timed(events + later, fen, timing=SCAN)) == ["e2c4", "c7c6", "f3e5", "a8d8"]


def test_the_same_moves_with_the_next_mans_lift_are_read_in_the_order_begun() -> None:
    # Seed 4012 (phase 0.588): g2-g4, Bf5-e6 (e6 reported before f5, square order), Bc4-d3 and
    # Black's queen lifted from g6, within 400 ms. With the queen put back in thought, g2g4 f5e6
    # c4d3 and c4d3 f5e6 g2g4 both fit, each in turn give or take a scan: the same moves, so
    # the order begun as reported (g2 37720, f5 37854, c4 37871) is the one read.
    fen = "r4rk1/pp1n1ppp/2p3q1/5b2/2BP1Q2/5P2/P4RPP/R3N1K1 w - - 2 22"
    events = [(37720, "g2", False, ""), (37823, "e6", True, "b"), (37854, "f5", False, ""), (37871, "c4", False, ""),
              (37885, "g4", True, "P"), (38050, "g6", False, ""), (38122, "d3", True, "B")]
    assert texts(play_timed(events, fen, timing=SCAN)) == ["g2g4", "f5e6", "c4d3"]
    assert texts(play_timed([*events, (38266, "f6", True, "q")], fen, timing=SCAN)) == ["g2g4", "f5e6", "c4d3", "g6f6"]


def test_the_next_mans_lift_is_its_latest_after_a_touch() -> None:
    # Seed 4007 (phase 0.508): Black touched the knight on h5 and put it back, played c7-c6 (it
    # could go on to c5); White's g2-g4 (resting on g3, reported before g2's lift), and Black's
    # knight lifted again (for h5-f6) before g4 was reported. The knight is at work from its
    # second lift: c7c6 g2g4 are the moves.
    fen = "rnb1kb1r/p1pp1ppp/8/1B3Nqn/4Pp2/3P4/PPP3PP/RNBQ1K1R b kq - 4 9"
    events = [(13643, "h5", False, ""), (14083, "h5", True, "n"), (14231, "c7", False, ""), (14258, "c6", True, "p"),
              (15015, "g3", True, "P"), (15042, "g2", False, ""), (15183, "h5", False, ""), (15207, "g4", True, "P"),
              (15235, "g3", False, "")]
    assert texts(play_timed(events, fen, timing=SCAN)) == ["c7c6", "g2g4"]


def test_a_reading_shown_with_the_movers_other_man_long_off_is_none_of_the_moves() -> None:
    # Seed 4007 (phase 0.933): Qf3-f6, Black's knight g8 takes it there (the
    # queen lifted first), White's Bd6-e7; e7 reported 31 ms before f6 (square order). With the
    # queen off f3 and f6 and Black's knight in the hand, the board was shown as d6e7, and the
    # board read only as moves following on from it: none. White's queen was off f3 long before
    # the bishop moved, so that reading was none of the moves; the one sequence that reads the
    # board is taken.
    fen = "r1bk2nr/p2p1pNp/n2B4/1p1NP2P/6P1/3P1Q2/P1P1K3/q5b1 w - - 1 22"
    events = [(34465, "f3", False, ""), (34602, "f6", True, "Q"), (35042, "f6", False, ""), (35211, "g8", False, ""),
              (35255, "d6", False, ""), (35451, "e7", True, "B"), (35482, "f6", True, "n")]
    assert texts(play_timed(events, fen, timing=SCAN)) == ["f3f6", "g8f6", "d6e7"]


def test_the_going_on_is_read_once_the_other_asked_reading_no_longer_follows() -> None:
    # Seed 4019 (phase 0.842): Bc1 shown on d2 and e3, then on g5 after Black's c7-c6 (lifted
    # within a scan of e3's lift); c1e3 c7c6 e3g5 is asked about against c1g5. Unanswered, the
    # players play on: Bg5-h4 and Qd8-e8. No move of the bishop from g5 follows e3g5 with Black's
    # queen moved first, so the bishop went on to g5 before Black moved: the going on and the
    # moves after it are read (before, the referee stayed at "White moving" for the rest of
    # the game).
    fen = "r1bq1rk1/ppp1n1pp/1b6/3pP3/8/1BP2N1P/P4PP1/R1BQ1RK1 w - - 1 14"
    events = [(18185, "d2", True, "B"), (18209, "c1", False, ""), (18381, "e3", True, "B"), (18405, "d2", False, ""),
              (18601, "e3", False, ""), (18704, "c7", False, ""), (18732, "c6", True, "p"), (18773, "g5", True, "B"),
              (19560, "d8", False, ""), (19653, "g5", False, ""), (19684, "h4", True, "B"), (19784, "e8", True, "q")]
    assert texts(play_timed(events, fen, timing=SCAN)) == ["c1g5", "c7c6", "g5h4", "d8e8"]


def test_the_other_asked_reading_is_followed_on_with_its_last_slide_gone_on() -> None:
    # The board of the test above, the bishop going on from g5 to h6 (on e3's line) before
    # Black's Qd8-e8: c1e3 c7c6 e3g5 asked, then e3g5's going on and the queen's move follow on
    # from it. (e3g5 d8e8 g5h6 would land the bishop after the queen: not in turn.)
    fen = "r1bq1rk1/ppp1n1pp/1b6/3pP3/8/1BP2N1P/P4PP1/R1BQ1RK1 w - - 1 14"
    events = [(18185, "d2", True, "B"), (18209, "c1", False, ""), (18381, "e3", True, "B"), (18405, "d2", False, ""),
              (18601, "e3", False, ""), (18704, "c7", False, ""), (18732, "c6", True, "p"), (18773, "g5", True, "B"),
              (19653, "g5", False, ""), (19684, "h6", True, "B"), (19700, "d8", False, ""), (19784, "e8", True, "q")]
    pos, hands = _hands(fen, events)
    assert played_on(hands, pos, True, [_seq(pos, "c1e3", "c7c6", "e3g5")]) == [
        _seq(pos, "c1e3", "c7c6", "e3h6", "d8e8")]


def test_a_pawn_taken_back_unseen_is_read_with_the_next_hand_at_work() -> None:
    # Seed 5003 (phase 0.812): f2-f4 (on f4 under a scan, never reported), e5xf4, and White's
    # knight lifted from g1 before Black's pawn was reported on f4. With the knight put back in
    # thought, f2f4 e5f4 is the one reading: no board with White's pawn in the hand reads as
    # well (e5-f4 takes nothing without it), so it is no man "that may as well be in a hand".
    fen = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2"
    events = [(2566, "f2", False, ""), (3140, "e5", False, ""), (3256, "g1", False, ""), (3391, "f4", True, "p"),
              (3531, "g7", False, ""), (3559, "g6", True, "p"), (3638, "f3", True, "N"), (3779, "g6", False, ""),
              (3806, "g5", True, "p")]
    assert texts(play_timed(events, fen, timing=SCAN)) == ["f2f4", "e5f4", "g1f3", "g7g5"]


def test_a_man_in_the_hand_is_no_reading_when_the_rest_is_out_of_turn() -> None:
    # Seed 4001 (phase 0.244): a8-d8 held, then f2-f4 (never reported on f4), Nd5xf4 and
    # Re1-f1. With White's pawn back on f2, Re1-f1 and Nd5-f4 read the rest, but Black's knight
    # was lifted 334 ms before White's rook: not in turn, so no reading with the pawn in the
    # hand, and f2f4 d5f4 e1f1 is read before Black's bishop takes on e5.
    fen = "r4r1k/1p2n1p1/p1pbbq1p/3nNp2/2BP4/P1N5/1PQ2PPP/2BRR1K1 b - - 1 18"
    events = [(21618, "a8", False, ""), (21842, "b8", True, "r"), (22502, "b8", False, ""), (22507, "c8", True, "r"),
              (23385, "c8", False, ""), (23390, "d8", True, "r"), (24221, "f2", False, ""), (24351, "d5", False, ""),
              (24685, "e1", False, ""), (24826, "f4", True, "n"), (24908, "f1", True, "R"), (25455, "e5", False, ""),
              (25644, "d6", False, ""), (25675, "e5", True, "b")]
    assert texts(play_timed(events, fen, timing=SCAN)) == ["a8d8", "f2f4", "d5f4", "e1f1", "d6e5"]


def test_moves_asked_about_stay_asked_while_the_players_play_on() -> None:
    # Seed 5003 (phase 0.849): Qc4 shown on d4 and e4, Black's queen shown on g5, then Nd5xf4
    # with Black's knight lifted from f5: c4f4 h6f4 d5f4 is asked about against the queens
    # resting on e4 and g5 (c4e4 h6g5 e4f4 g5f4 d5f4). Unanswered, the players play on: Nf5-h6
    # and Rh1-g1. Each option followed on by those moves, the question stands (before, it gave
    # way to "Board does not match the game"), and the answer makes them final.
    fen = "r4r1k/pp3p2/4bN1q/3N1n2/2Q3pP/5pP1/PPP2K2/R6R w - - 3 24"
    events = [(35068, "c4", False, ""), (35292, "d4", True, "Q"), (35952, "d4", False, ""), (35957, "e4", True, "Q"),
              (36835, "e4", False, ""), (37011, "h6", False, ""), (37035, "g5", True, "q"), (37059, "f4", True, "Q"),
              (37279, "f4", False, ""), (37464, "d5", False, ""), (37475, "g5", False, ""), (37691, "f5", False, ""),
              (37719, "f4", True, "N"), (37808, "h1", False, ""), (37891, "h6", True, "n"), (38025, "g1", True, "R")]
    core = play_timed(events, fen, timing=SCAN)
    prompt = core.status.prompt
    assert texts(core) == [] and prompt is not None and prompt.kind == PromptKind.WHICH_MOVE
    played = ("c4f4", "h6f4", "d5f4", "f5h6", "h1g1")
    assert played in [o.texts for o in prompt.options]
    core.answer(next(o.key for o in prompt.options if o.texts == played), 39300)
    assert texts(core) == list(played)


def test_four_moves_in_a_flurry_are_read() -> None:
    # Seed 4019 (phase 0.923): after f5e4 f2f3 e4c2 (the bishop crossing d3), White's Rd1-c1,
    # Black's Bc2-d3, White's Rc1-d1 (back where it began) and Bd3-c4, within 800 ms. Nothing
    # within three moves reads the board, nor with a man at work; the four moves do
    # (``four_moves``), each begun in turn: Bd3-c4 begins with d3's lift after Bc2-d3 put it
    # there, not with the lift of the bishop that crossed d3 before (``scan_guard.began_in``).
    fen = "r4rk1/pp4pp/1bp5/3pPb2/7N/2P3BP/P4PPK/R2R4 b - - 0 21"
    events = [(30887, "f5", False, ""), (31132, "e4", True, "b"), (32070, "f2", False, ""), (32262, "f3", True, "P"),
              (32892, "e4", False, ""), (32916, "d3", True, "b"), (33136, "d3", False, ""), (33160, "c2", True, "b"),
              (33851, "d1", False, ""), (34287, "c1", True, "R"), (34480, "c2", False, ""), (34507, "c1", False, ""),
              (34676, "d3", True, "b"), (34896, "d3", False, ""), (34951, "d1", True, "R"), (35085, "c4", True, "b"),
              (35782, "f3", False, ""), (35975, "f4", True, "P")]
    assert texts(play_timed(events, fen, timing=SCAN)) == [
        "f5e4", "f2f3", "e4c2", "d1c1", "c2d3", "c1d1", "d3c4", "f3f4"]


def test_four_moves_are_none_that_take_a_man_one_of_them_put_down() -> None:
    # Seed 4004 (phase 0.239): Bc1 shown on d2 and e3, lifted from e3 as the victim of Black's
    # bishop b6, which rests on c5 and d4 before taking on e3. With the victim in the hand and
    # the bishop on d4, c1e3 b6c5 e3d4 c5xd4 reads the board in four moves, White's bishop never
    # shown on d4: no such reading is taken (the man may as well be in a hand), and the moves
    # played are read once the bishop lands.
    fen = "r1b1k2r/ppp2pp1/1bn4p/4P3/2B1n3/5N1P/PP3PP1/RNBR2K1 w kq - 1 12"
    events = [(18053, "d2", True, "B"), (18077, "c1", False, ""), (19129, "e3", True, "B"), (19153, "d2", False, ""),
              (19569, "e3", False, ""), (19696, "b6", False, ""), (19727, "c5", True, "b"), (21047, "c5", False, ""),
              (21078, "d4", True, "b"), (21298, "d4", False, ""), (21329, "e3", True, "b"), (21549, "e3", False, ""),
              (21579, "f2", False, ""), (21769, "e3", True, "P")]
    assert texts(play_timed(events, fen, timing=SCAN)) == ["c1e3", "b6e3", "f2e3"]


def test_readings_apart_only_where_the_board_never_showed_a_piece_are_asked_at_once() -> None:
    # Seed 5018 (phase 0.681): Nc6 to f3 by way of e5, under a scan there, Be3-f4 between:
    # c6e5 e3f4 e5xf3 and c6d4 e3f4 d4xf3 read the board alike, and no later report can tell
    # them apart. The players are asked at once (before, the referee waited the guide time,
    # and the next move, Ng5xf3, came first); the question stands as they play on.
    fen = "4rrnk/p3qpbp/1pn3p1/2p3N1/8/N1PPBR1P/PP4P1/R1Q3K1 b - - 0 17"
    events = [(22876, "c6", False, ""), (22966, "e3", False, ""), (23162, "f4", True, "B"), (23189, "f3", False, ""),
              (23409, "f3", True, "n"), (23849, "f3", False, ""), (24018, "g5", False, ""), (24289, "f3", True, "N")]
    core = play_timed(events, fen, timing=SCAN)
    prompt = core.status.prompt
    assert texts(core) == [] and prompt is not None and prompt.kind == PromptKind.WHICH_MOVE
    options = {o.texts for o in prompt.options}
    assert {("c6e5", "e3f4", "e5f3", "g5f3"), ("c6d4", "e3f4", "d4f3", "g5f3")} <= options
    core.answer(next(o.key for o in prompt.options if o.texts == ("c6e5", "e3f4", "e5f3", "g5f3")), 24900)
    assert texts(core) == ["c6e5", "e3f4", "e5f3", "g5f3"]


def test_the_reading_s_piece_back_short_of_where_it_was_shown_is_its_next_move() -> None:
    # Seed 4019 (phase 0.923): Ra1 slid to b1, c1 and d1, shown on d1 for 0.8 s; White's king
    # lifted from d4, and the rook back on c1 (reported before d1 emptied, within a scan of the
    # king's lift). Read as a1c1 with White's hand on the king, it was a1d1, Kd4-c5 and d1c1:
    # once the next player started on top of the reading, the same piece moved short of where
    # the board showed it is no going on of it.
    fen = "8/8/4k1p1/1p2P2p/2bK1P1P/6P1/2N5/r3B3 b - - 5 53"
    events = [(73220, "a1", False, ""), (73225, "b1", True, "r"), (74544, "b1", False, ""), (74549, "c1", True, "r"),
              (74767, "c1", False, ""), (74772, "d1", True, "r"), (75568, "d4", False, ""), (75647, "c1", True, "r"),
              (75652, "d1", False, ""), (75757, "c5", True, "K"), (76060, "c2", False, ""), (76228, "d4", True, "N")]
    assert texts(play_timed(events, fen, timing=SCAN)) == ["a1d1", "d4c5", "d1c1", "c2d4"]


def test_a_man_touched_and_put_back_began_no_move() -> None:
    # Seed 4014 (phase 0.290, hands without hesitation): White's bishop on b5 lifted and put
    # back (touched, not moved), then Bg5-h4, Black's c7-c6 and Bb5-c4, all within half a
    # second. Timed from b5's first lift, b5c4 looked begun before g5h4 and was read first
    # (b5c4, c7c6, g5h4: the same board, the moves out of order); its move began at its lift
    # after the man was put back.
    fen = "r1bqk2r/pppp1ppp/1b3n2/1B2p1B1/4P3/2PP4/PP3PPP/RN1Q1RK1 b kq - 2 8"
    events = [(8480, "h7", False, ""), (8728, "h6", True, "p"), (8734, "b5", False, ""), (8954, "b5", True, "B"),
              (9192, "g5", False, ""), (9343, "c7", False, ""), (9394, "b5", False, ""), (9443, "h4", True, "B"),
              (9577, "g7", False, ""), (9590, "c6", True, "p"), (9645, "c4", True, "B"), (9852, "g5", True, "p")]
    assert texts(play_timed(events, fen, timing=SCAN)) == ["h7h6", "g5h4", "c7c6", "b5c4", "g7g5"]


#: Real time on the emulated DGT board (``bench/latency.py --boards dgt --answer-ms 1500``, seed
#: 2, ply 47), as the service handed the events to the referee: c1c4 (the rook resting on c3),
#: a8b8, c4h4, b8d8 (the rook resting on c8): asked about against c1c4 a8d8 c4h4. Unanswered, the
#: hands play on: d5xd8 (the victim lifted first), e8xd8 (White's rook on d8 never reported),
#: the queen lifted for d1b1 before Black's rook landed, then the victim on e5 lifted (c6xe5)
#: before the queen landed on b1.
FLURRY = ("r3r2k/bpp2pp1/p1n1q2p/3RP3/P7/B4N1P/5PP1/2RQ2K1 w - - 1 24",
          [(34085, "c1", False, ""), (34251, "c3", True, "R"), (34883, "c4", True, "R"), (34911, "c3", False, ""),
           (35647, "a8", False, ""), (35763, "c4", False, ""), (35870, "b8", True, "r"), (36090, "b8", False, ""),
           (36221, "h4", True, "R"), (36314, "c8", True, "r"), (36754, "c8", False, ""), (36759, "d8", True, "r"),
           (37196, "d8", False, ""), (37279, "d5", False, ""), (37829, "d1", False, ""), (37870, "d8", True, "r"),
           (37876, "e8", False, ""), (37943, "e5", False, ""), (38043, "b1", True, "Q")])


def test_the_question_stands_with_men_taken_hold_of_before_the_last_landing() -> None:
    # The board follows on from a8b8 c4h4 b8d8 only with the man on e5 in a hand (lifted before
    # the queen landed on b1, so not since the last put-down): the question stands, the moves
    # played since among its options. It used to give way to "Board does not match the game".
    fen, events = FLURRY
    core = play_timed(events, fen, timing=SCAN)
    assert texts(core) == []
    prompt = core.status.prompt
    assert prompt is not None, core.status.message
    assert ("c1c4", "a8b8", "c4h4", "b8d8", "d5d8", "e8d8", "d1b1") in [o.texts for o in prompt.options]
