"""Alice Chess (engine/variants/alice.toml, docs/rules/alice.md): the booklet's examples move by
move, and the readings we chose for what the booklet leaves open (castling, en passant, blocking a
check from the other board). Cells of the second board carry a prime: e4'."""

from __future__ import annotations

import pytest

from engine import IllegalMoveError, Position, find_variant, parse_fen, start_position

ALICE = find_variant("alice")
G = ALICE.geometry
EMPTY_B = "/8/8/8/8/8/8/8/8"


def texts(pos: Position) -> set[str]:
    return {pos.move_text(m) for m in pos.legal_moves()}


def at(pos: Position, cell: str) -> str:
    code = pos.board[G.index(cell)]
    return ALICE.symbol(code) if code else ""


def play(*moves: str) -> Position:
    pos = start_position(ALICE)
    for text in moves:
        pos.push_text(text)
    return pos


def test_every_moved_piece_crosses_to_the_other_board() -> None:
    # 1. P-K4 P-K4 leaves the kings facing on an open file of board A, the pawns on board B
    pos = play("e2e4", "e7e5")
    assert (at(pos, "e4'"), at(pos, "e5'"), at(pos, "e4"), at(pos, "e2"), at(pos, "e7")) == ("P", "p", "", "", "")
    assert not pos.is_check()


def test_queen_takes_queen_and_is_out_of_reach_on_the_other_board() -> None:
    # 1. P-Q4 P-Q4 2. QxQ: the queen lands on d8' and neither checks the king nor can be taken
    pos = play("d2d4", "d7d5", "d1d8")
    assert at(pos, "d8'") == "Q" and at(pos, "d8") == "" and at(pos, "e8") == "k"
    assert not pos.is_check()
    assert "e8d8" not in texts(pos)  # d8 is free on board A, but the king would cross onto the queen


def test_h_file_rook_takes_and_the_rook_behind_is_an_illusion() -> None:
    # 1. P-KR4 P-K4 2. RxP: the black rook on h8 cannot retake, the white rook is on board B
    pos = play("h2h4", "e7e5", "h1h7")
    assert at(pos, "h7'") == "R" and at(pos, "h7") == ""
    assert "h8h7" not in texts(pos) and "h8h6" in texts(pos)  # h7 would cross onto the white rook
    # 1. P-KR4 Kt-KB3 2. RxP KtxR: the knight on f6' guards h7' where the rook lands
    pos = play("h2h4", "g8f6", "h1h7")
    assert "f6'h7'" in texts(pos)
    pos.push_text("f6'h7'")
    assert at(pos, "h7") == "n" and at(pos, "h7'") == ""


def test_fools_mate_alice_style() -> None:
    pos = play("e2e4", "d7d5", "f1e2", "d5'e4'")
    assert at(pos, "e4") == "p" and at(pos, "e2'") == "B"
    pos.push_text("e2'b5'")  # 3. B-QKt5: the bishop arrives on b5 of board A
    assert at(pos, "b5") == "B" and pos.is_check()
    # Q-Q2 and B-Q2 would cross to board B and leave the check; K-Q2 walks into the bishop on A
    assert texts(pos) == set()
    for text in ("d8d7", "c8d7", "e8d7"):
        with pytest.raises(IllegalMoveError):
            pos.parse_move(text)
    outcome = pos.outcome()
    assert outcome is not None and (outcome.termination, outcome.winner) == ("checkmate", 0)


def test_king_may_not_step_onto_a_checked_cell_of_its_board_even_if_safe_after_crossing() -> None:
    # black rook on d8 of board A covers d1 there; d1' on board B is safe, but the step is illegal
    pos = parse_fen(ALICE, "3r3k/8/8/8/8/8/8/4K3" + EMPTY_B + " w - - 0 1")
    assert "e1d1" not in texts(pos) and "e1f1" in texts(pos)


def test_occupied_cell_on_the_other_board_forbids_the_move_even_if_an_enemy_stands_there() -> None:
    pos = parse_fen(ALICE, "7k/8/8/8/8/8/8/R3K3/8/8/8/n7/8/8/8/8 w - - 0 1")
    mine = {t for t in texts(pos) if t.startswith("a1")}
    assert "a1a5" not in mine and {"a1a4", "a1a6", "a1a8"} <= mine


def test_a_piece_from_the_other_board_may_block_a_check() -> None:
    # the rook on e8 of board A checks the king on e1; the bishop on b5' moves to e2' on board B
    # and arrives on e2 of board A, between them. The knight on c1 (board A) reaches e2 but would
    # cross to e2' and leave the check.
    pos = parse_fen(ALICE, "4r2k/8/8/8/8/8/8/2N1K3/8/8/8/1B6/8/8/8/8 w - - 0 1")
    assert pos.is_check()
    assert texts(pos) == {"b5'e2'", "e1d1", "e1d2", "e1f1", "e1f2"}
    pos.push_text("b5'e2'")
    assert at(pos, "e2") == "B"
    pos.pop()
    pos.push_text("e1f2")
    assert at(pos, "f2'") == "K"


def test_castling_on_one_board_lands_king_and_rook_on_the_other() -> None:
    pos = parse_fen(ALICE, "4k3/8/8/8/8/8/8/R3K2R" + EMPTY_B + " w KQ - 0 1")
    assert {"e1g1", "e1c1"} <= texts(pos)
    move = pos.parse_move("e1g1")
    names = {(G.names[c], ALICE.symbol(b) if b else "", ALICE.symbol(a) if a else "") for c, b, a in move.changes}
    assert names == {("e1", "K", ""), ("h1", "R", ""), ("g1'", "", "K"), ("f1'", "", "R")}
    pos.push(move)
    assert pos.fen() == "4k3/8/8/8/8/8/8/R7/8/8/8/8/8/8/8/5RK1 b - - 1 1"


@pytest.mark.parametrize(("fen", "allowed"), [
    # a piece (even an enemy) on g1' where the king would land: no short castling
    ("4k3/8/8/8/8/8/8/R3K2R/8/8/8/8/8/8/8/6n1 w KQ - 0 1", False),
    # a piece on the rook's landing cell f1'
    ("4k3/8/8/8/8/8/8/R3K2R/8/8/8/8/8/8/8/5N2 w KQ - 0 1", False),
    # f1 attacked on the king's own board: the king may not cross it
    ("4kr2/8/8/8/8/8/8/R3K2R" + EMPTY_B + " w KQ - 0 1", False),
    # the same rook on board B attacks f1' only, which the king never crosses: allowed
    ("4k3/8/8/8/8/8/8/R3K2R/5r2/8/8/8/8/8/8/8 w KQ - 0 1", True),
    # a rook on g8' would check the king on g1' after the crossing
    ("4k3/8/8/8/8/8/8/R3K2R/6r1/8/8/8/8/8/8/8 w KQ - 0 1", False),
    # in check on its own board
    ("4r2k/8/8/8/8/8/8/R3K2R" + EMPTY_B + " w KQ - 0 1", False),
])
def test_castling_conditions_on_both_boards(fen: str, allowed: bool) -> None:
    pos = parse_fen(ALICE, fen)
    assert ("e1g1" in texts(pos)) is allowed


def test_en_passant_on_the_board_where_the_double_stepped_pawn_landed() -> None:
    # the white pawn's double step e2-e4 lands it on e4'; the black pawn on d4' takes it en passant
    # by moving to e3' and crosses to e3 on board A
    pos = parse_fen(ALICE, "4k3/8/8/8/8/8/4P3/4K3/8/8/8/8/3p4/8/8/8 w - - 0 1")
    pos.push_text("e2e4")
    assert pos.fen().split()[3] == "e3'"
    move = pos.parse_move("d4'e3'")
    assert {G.names[c] for c, _b, _a in move.changes} == {"d4'", "e4'", "e3"}
    pos.push(move)
    assert (at(pos, "e3"), at(pos, "e4'"), at(pos, "d4'")) == ("p", "", "")
    assert pos.halfmove == 0
    # only right after the double step
    pos = parse_fen(ALICE, "4k3/8/8/8/8/8/4P3/4K3/8/8/8/8/3p4/8/8/8 w - - 0 1")
    for text in ("e2e4", "e8d8", "e1d1"):
        pos.push_text(text)
    assert "d4'e3'" not in texts(pos)


def test_no_en_passant_when_the_passed_cell_is_taken_on_the_pawns_new_board() -> None:
    # a black knight on e3' fills the capturing pawn's landing cell on board B
    pos = parse_fen(ALICE, "4k3/8/8/8/8/8/4P3/4K3/8/8/8/8/3p4/4n3/8/8 w - - 0 1")
    pos.push_text("e2e4")
    assert pos.fen().split()[3] == "-" and "d4'e3'" not in texts(pos)


def test_promotion_crosses_as_the_new_piece() -> None:
    pos = parse_fen(ALICE, "7k/P7/8/8/8/8/8/K7" + EMPTY_B + " w - - 0 1")
    pos.push_text("a7a8q")
    assert at(pos, "a8'") == "Q" and at(pos, "a7") == ""


def test_king_and_bishop_mate_a_lone_king_with_help_from_the_other_board() -> None:
    # why Alice keeps no FIDE dead-position list: bishop e4 checks a8 on board A, the white king on
    # b7' covers a7' and b8', so neither escape may be completed by crossing
    pos = parse_fen(ALICE, "k7/8/8/8/4B3/8/8/8/8/1K6/8/8/8/8/8/8 b - - 0 1")
    outcome = pos.outcome()
    assert outcome is not None and (outcome.termination, outcome.winner) == ("checkmate", 0)


def test_the_referee_reads_alice_castling_and_en_passant_from_sensor_events() -> None:
    # the controller's generic inference, fed lifts and placements on both boards
    from controller.replay import Replayer
    from firmware_bridge.script import parse_script

    def replay(fen: str, script: str) -> list[str]:
        r = Replayer(parse_fen(ALICE, fen), identity=False)
        for command in parse_script(script, ALICE):
            r.feed(command)
        r.settle()
        return r.texts()

    castle = "4k3/8/8/8/8/8/8/R3K2R" + EMPTY_B + " w KQ - 0 1"
    assert replay(castle, "lift e1\nlift h1\nplace g1'\nplace f1'") == ["e1g1"]
    ep = "4k3/8/8/8/8/8/8/4K3/8/8/8/8/3pP3/8/8/8 b - e3' 0 1"
    assert replay(ep, "lift d4'\nlift e4'\nplace e3") == ["d4'e3'"]


def test_a_capture_that_lifts_a_blocker_off_the_kings_board_is_illegal() -> None:
    # The black bishop on c8 takes the white pawn on f5 and crosses to f5'. The pawn was shielding
    # f8 from the white rook on f1; the bishop does not stay on f5 to shield it, so the capture
    # would leave Black's king in check (the pin walk sees only own pieces: it once let it through).
    pos = parse_fen(ALICE, "2b2knr/7p/1r6/5P2/pp2p3/8/PP2P3/5RNR/8/3Pq3/2p2p1b/6p1/5B2/6PP/3N1K2/8 b - - 0 21")
    assert "c8f5" not in texts(pos)
    assert "c8e6" in texts(pos)


def test_legal_moves_equal_the_definition_on_random_games() -> None:
    # The definition, move by move: a king's step is safe on its own board before it crosses, and
    # after any move (with its transfer) no royal of the mover is attacked. The fast path (one walk
    # along the lines into the king) must give exactly these moves.
    import random

    from engine.moves import CASTLE, Move

    rules = ALICE.rules
    rng = random.Random(7)
    checked = 0
    for _ in range(60):
        pos = start_position(ALICE)
        for _ply in range(80):
            side = pos.side
            expected = {
                m for m in rules.pseudo_moves(pos)
                if (not ALICE.is_royal[m.piece] or m.tag == CASTLE
                    or rules.is_safe_after(pos, Move(m.frm, m.to, m.piece, m.captured, m.promotion), side))
                and rules.is_safe_after(pos, m, side)
            }
            legal = pos.legal_moves()
            assert set(legal) == expected, pos.fen()
            checked += 1
            if not legal or pos.outcome():
                break
            pos.push(rng.choice(legal))
    assert checked > 2000
