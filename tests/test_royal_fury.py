"""Royal Fury: the text's own examples to the letter, and every reading docs/rules/royal-fury.md
takes where the text is silent, one test each."""

from __future__ import annotations

import pytest

import engine
from engine import parse_fen, start_position
from engine.components.petrification import Petrification
from engine.position import Position

RF = engine.find_variant("royal-fury")
G = RF.geometry
#: The text's setup line, as printed.
TEXT_ROW = "A A A A A A A A M X D J J D X M G H C F F C H G"


def board(pieces: str, side: str = "w") -> Position:
    """A position with ``pieces`` ("Fa1 hb3": upper case White, lower case Black) and nothing
    else (the moves of a position do not depend on the Furies being there)."""
    at: dict[str, str] = {}
    for item in pieces.split():
        at[item[1:]] = item[0]
    rows = []
    for rank in range(10, 0, -1):
        text, run = "", 0
        for f in "abcdefghij":
            p = at.get(f"{f}{rank}")
            if p:
                text += (str(run) if run else "") + p
                run = 0
            else:
                run += 1
        rows.append(text + (str(run) if run else ""))
    return parse_fen(RF, "/".join(rows) + f" {side} - - 0 1")


def texts(pos: Position, frm: str | None = None) -> set[str]:
    return {pos.move_text(m) for m in pos.legal_moves() if frm is None or G.names[m.frm] == frm}


def victims(pos: Position, text: str) -> set[str]:
    return {G.names[c] for c in pos.parse_move(text).victims}


def frozen(pos: Position) -> set[str]:
    pet = RF.rules.get(Petrification)
    return {G.names[c] for c, f in enumerate(pet.frozen(pos.board)) if f}


# -- the setup and the opening ----------------------------------------------------------------------

def test_setup_follows_the_texts_rows_on_the_inner_eight_files() -> None:
    pos = start_position(RF)
    row = TEXT_ROW.split()
    front, middle, back = row[:8], row[8:16], row[16:]
    files = "bcdefghi"
    for rank, letters in ((3, front), (2, middle), (1, back)):
        assert [RF.symbol(pos.board[G.index(f"{f}{rank}")]) for f in files] == letters
        assert [RF.symbol(pos.board[G.index(f"{f}{11 - rank}")]) for f in files] == [x.lower() for x in letters]
    for rank in range(1, 11):
        assert not pos.board[G.index(f"a{rank}")] and not pos.board[G.index(f"j{rank}")]
    for side in (0, 1):
        assert len(pos.cells_of(side)) == 24
        assert len(RF.rules.royal_cells(pos.board, side)) == 2


def test_opening_has_38_moves_for_either_side() -> None:
    # 8 Advancers x 3 steps, 2 Jumpers x 2, the corner Mimotaurs 3 each into the empty outer
    # file, the Gorgons 2 each: 24 + 4 + 6 + 4 = 38. Nothing else can get out.
    pos = start_position(RF)
    moves = texts(pos)
    assert len(moves) == 38
    assert {m for m in moves if m[:2] in ("b1", "i1", "b2", "i2", "e2", "f2")} == {
        "b1a1", "b1a2", "i1j1", "i1j2", "b2a1", "b2a2", "b2a3", "i2j1", "i2j2", "i2j3",
        "e2d4", "e2f4", "f2e4", "f2g4"}
    pos.push_text("e3e4")
    assert len(texts(pos)) == 38


# -- the text's examples ----------------------------------------------------------------------------

@pytest.mark.parametrize(("between", "takes"), [
    ("", False),          # nothing between: no attack
    ("Ja2", True),        # one man between (a friend)
    ("ja3", True),        # one man between (a foe): immaterial
    ("Ja2 ja3", False),   # two men between: no capture
])
def test_harpy_on_a1_takes_a4_over_exactly_one_man(between: str, takes: bool) -> None:
    pos = board(f"Ha1 xa4 {between}", "w")
    assert ("a1a4" in texts(pos, "a1")) is takes


def test_mimotaur_takes_an_advancer_only_from_the_advancers_front() -> None:
    # Black's Advancer on e6 takes forward (downwards): d5, e5, f5. A White Mimotaur there
    # takes it; beside or behind it, it cannot (the Advancer has no take it could mimic).
    for at in ("d5", "e5", "f5"):
        pos = board(f"M{at} ae6")
        assert victims(pos, f"{at}e6") == {"e6"}
    for at in ("d6", "f6", "e7", "d7"):
        pos = board(f"M{at} ae6")
        assert f"{at}e6" not in texts(pos)


def test_advancer_steps_and_takes_forward_and_becomes_a_jumper_in_the_enemy_half() -> None:
    pos = board("Ae4 xd5 Af5")
    assert texts(pos, "e4") == {"e4d5", "e4e5"}  # f5 is a friend; rank 5 is still White's half
    pos = board("Ae5 xd6")
    assert texts(pos, "e5") == {"e5d6j", "e5e6j", "e5f6j"}
    pos = board("Ae4 xe3 xd4")
    assert "e4e3" not in texts(pos) and "e4d4" not in texts(pos)  # no take backwards or sideways
    pos.push_text("e4e5")
    assert RF.symbol(pos.board[G.index("e5")]) == "A"  # rank 5 is still White's half
    pos.push_text("e3e2")
    pos.push_text("e5e6j")
    assert RF.symbol(pos.board[G.index("e6")]) == "J"


# -- petrification ----------------------------------------------------------------------------------

def test_gorgon_petrifies_in_open_line_and_adjacent_until_something_comes_between() -> None:
    pos = board("ge8 Je2 Dd7 Hh5", "w")
    assert {"e2", "d7", "h5"} <= frozen(pos)
    assert not texts(pos, "e2") and not texts(pos, "d7") and not texts(pos, "h5")
    blocked = board("ge8 Je2 Xe5 Dd7", "w")
    assert "e2" not in frozen(blocked)  # the Ximaera on e5 breaks the gaze (and is petrified)
    assert texts(blocked, "e2") and "e5" in frozen(blocked)


def test_facing_gorgons_freeze_each_other_and_still_freeze_the_rest() -> None:
    pos = board("Ge2 ge8 jf3 Jd7")
    assert {"e2", "e8", "f3", "d7"} <= frozen(pos)
    assert not texts(pos, "e2")
    black = board("Ge2 ge8 jf3 Jd7", "b")
    assert not texts(black, "e8") and not texts(black, "f3")


def test_a_jumper_takes_the_gorgon_from_outside_her_gaze() -> None:
    pos = board("Jd4 ge6")
    assert victims(pos, "d4e6") == {"e6"}


def test_a_petrified_fury_can_neither_move_nor_take_nor_swap_but_still_gazes() -> None:
    men = "Fe1 ge5 jd3 xh4 ab1"
    pos = board(men, "w")
    # The Fury on e1 faces the Gorgon: no move, no knight take on d3, no swap with the Ximaera
    # on h4, no Gorgon take on b1.
    assert "e1" in frozen(pos) and not texts(pos, "e1")
    free = board("Fe1 ge6 Ae5 jd3 xh4 ab1", "w")
    assert {"e1d3", "e1h4~", "e1b1"} <= texts(free, "e1")
    # ...and she still gazes: the Gorgon on e5 and the Advancer on b1 are petrified by her.
    assert {"e5", "b1"} <= frozen(pos)
    black = board(men, "b")
    assert not texts(black, "e5") and not texts(black, "b1")


# -- Ximaera ----------------------------------------------------------------------------------------

def test_ximaera_swaps_with_the_foe_she_faces_two_pieces_change_cells() -> None:
    pos = board("Xc3 df6 xc8")
    move = pos.parse_move("c3f6~")
    assert move.victims == ()
    assert sorted((G.names[a], G.names[b]) for a, b in move.relocations) == [("c3", "f6"), ("f6", "c3")]
    pos.push(move)
    assert RF.symbol(pos.board[G.index("f6")]) == "X" and RF.symbol(pos.board[G.index("c3")]) == "d"
    pos.pop()
    assert "c3c8~" in texts(pos)  # Ximaeras swap with each other


# -- Dragon -----------------------------------------------------------------------------------------

def test_dragon_leaps_a_lone_foe_to_any_empty_cell_beyond_and_may_stop_or_go_on() -> None:
    pos = board("Dc1 ae3 ag3 Hi1")
    moves = texts(pos, "c1")
    # c1 over e3 (d2 empty before it) lands on f4, g5, h6 (any empty cell beyond)...
    assert {"c1f4", "c1g5", "c1h6"} <= moves
    assert victims(pos, "c1g5") == {"e3"}
    # ...and from f4 it may go on over g3 to h2 (chain; the text names the landing on the way).
    assert "c1h2:f4" in moves and victims(pos, "c1h2:f4") == {"e3", "g3"}
    assert "c1e3" not in moves  # a Dragon never lands on its victim


def test_dragon_cannot_leap_two_men_in_a_row_or_a_gorgon() -> None:
    assert not any(t.startswith("c1") and t[2:] in ("f4", "g5") for t in texts(board("Dc1 ae3 af4")))
    assert not {"c3e3", "c3f3"} & texts(board("Dc3 gd3", "w"))  # frozen anyway
    # A Gorgon seen past a blocker is out of her gaze, yet the Dragon cannot leap her either.
    pos = board("Dc1 Xd1 ge1", "w")
    assert not any(t.startswith("c1") and G.names[pos.parse_move(t).to] in ("f1", "g1") for t in texts(pos, "c1"))


def test_dragon_chain_stops_where_she_lands_petrified() -> None:
    # After leaping e3 to f4 the Dragon faces the Gorgon on f10 (open file): no further leap
    # over g3, though stopping on f4 is fine.
    pos = board("Dc1 ae3 ag3 gf10 Fb1")
    moves = texts(pos, "c1")
    assert "c1f4" in moves and "c1h2:f4" not in moves


def test_dragon_chain_may_end_next_to_foes_and_takes_only_what_it_leapt() -> None:
    pos = board("Dc1 ae3 ag5 ah5")
    assert victims(pos, "c1f4") == {"e3"}  # g5 is next to f4: no charge for a Dragon


# -- Capricorn --------------------------------------------------------------------------------------

def test_capricorn_charge_takes_every_foe_next_to_where_it_stops_only() -> None:
    pos = board("Cc2 ab2 ae5 af4 ad6")
    assert victims(pos, "c2e4") == {"e5", "f4"}  # not b2, which was next to its start only
    assert "c2b2" not in texts(pos)  # moves only to empty cells
    assert victims(pos, "c2d2") == set()


def test_capricorn_charges_a_gorgon_only_from_a_neighbouring_line() -> None:
    # c1 is in none of e5's lines: the Capricorn is free, and f4 (up the c1-f4 diagonal) is next
    # to the Gorgon.
    pos = board("Cc1 ge5", "w")
    assert victims(pos, "c1f4") == {"e5"}
    on_file = board("Ce1 ge5", "w")
    assert "e1" in frozen(on_file) and not texts(on_file, "e1")


# -- Mimotaur ---------------------------------------------------------------------------------------

def test_mimotaur_mimics_each_kind() -> None:
    assert victims(board("Md4 je6"), "d4e6") == {"e6"}            # a Jumper by the knight's take
    assert "d4e6" not in texts(board("Md4 xe6"))                  # nobody else by it
    assert victims(board("Mc1 de3"), "c1f4") == {"e3"}            # a Dragon by leaping
    assert not any(t.startswith("c1f4") for t in texts(board("Mc1 xe3 Fj1")))
    assert victims(board("Mb4 cf5"), "b4e4") == {"f5"}            # a Capricorn by charging
    assert victims(board("Mb4 cf5 xf4"), "b4e4") == {"f5"}        # ...and only the Capricorn
    assert victims(board("Ma1 Ja3 ha5"), "a1a5") == {"a5"}        # a Harpy over one man
    assert "a1a5" not in texts(board("Ma1 Ja3 xa5"))
    swap = board("Mc3 xf6").parse_move("c3f6~")                    # a Ximaera by swapping
    assert swap.victims == () and len(swap.relocations) == 2
    # Mimotaurs cannot touch each other: facing one, a Mimotaur has only its plain moves.
    assert not any(m.victims or len(m.relocations) > 1 for m in board("Mc3 mf6 me1").legal_moves())


def test_mimotaur_and_gorgon_petrify_each_other() -> None:
    pos = board("Mc3 gc7")
    assert {"c3", "c7"} <= frozen(pos)
    assert not texts(pos, "c3")


def test_mimotaur_against_a_fury() -> None:
    # In open line each petrifies the other; the Mimotaur takes a Fury only with her own
    # Capricorn, Harpy and Jumper takes.
    line = board("Mc3 fc7")
    assert {"c3", "c7"} <= frozen(line)
    assert victims(board("Md4 fe6"), "d4e6") == {"e6"}              # knight
    assert victims(board("Ma1 Ja3 fa5"), "a1a5") == {"a5"}          # harpy
    assert victims(board("Mb4 ff5"), "b4e4") == {"f5"}              # charge
    assert not board("Mc1 fe3").legal_moves()                        # in her line: frozen


# -- Fury -------------------------------------------------------------------------------------------

def test_fury_charges_after_taking_by_occupying() -> None:
    # The Fury takes the Ximaera on e4 (Gorgon take) and charges the two foes next to e4.
    pos = board("Fe1 xe4 ad5 af3 Fa1")
    assert victims(pos, "e1e4") == {"e4", "d5", "f3"}


def test_fury_charges_after_a_plain_or_knight_move() -> None:
    pos = board("Fe1 ad4 Fa1")
    assert victims(pos, "e1e3") == {"d4"}       # queen move
    assert victims(pos, "e1d3") == {"d4"}       # knight move
    assert victims(pos, "e1f1") == set()


def test_fury_leaps_like_a_dragon_charging_at_each_landing_and_chaining() -> None:
    pos = board("Fc1 xe3 ag5 xg3 Fa1")
    # Over e3 to f4: g5 and g3 are next to f4 and fall to the charge.
    assert victims(pos, "c1f4") == {"e3", "g5", "g3"}
    pos2 = board("Fc1 xe3 xg3 Fa1")
    # Landing on h6 (beyond f4) charges nothing; the chain from f4 over g3 goes on to h2.
    assert victims(pos2, "c1h6") == {"e3"}
    assert "c1h2:f4" in texts(pos2) or victims(pos2, "c1f4") == {"e3", "g3"}


def test_fury_harpy_and_knight_takes_and_swap() -> None:
    assert victims(board("Fa2 Ja4 xa6"), "a2a6") == {"a6"}
    assert victims(board("Fd4 xe6"), "d4e6") == {"e6"}
    pos = board("Fc3 xf6 ag7")
    assert victims(pos, "c3f6") == {"f6", "g7"}                 # the Gorgon take, then the charge
    swap = pos.parse_move("c3f6~")
    assert swap.victims == () and len(swap.relocations) == 2   # a swap never charges


def test_furies_freeze_each_other_in_line_but_take_each_other_by_knight_harpy_or_charge() -> None:
    line = board("Fc3 fc7")
    assert {"c3", "c7"} <= frozen(line) and not texts(line, "c3")
    assert victims(board("Fd4 fe6"), "d4e6") == {"e6"}
    assert victims(board("Fa2 Ja4 fa6"), "a2a6") == {"a6"}
    assert victims(board("Fb4 ff5"), "b4e4") == {"f5"}


# -- attacks on a Fury (shown as check; never a rule) -----------------------------------------------

@pytest.mark.parametrize(("men", "attacked"), [
    ("cc1 Fe5", True),         # Capricorn charge lands next to her (d4)
    ("ha1 Ja3 Fa5", True),     # Harpy over one man
    ("jd3 Fe5", True),         # Jumper
    ("mc1 Ff5", True),         # Mimotaur's charge
    ("fa5 Ja3 Fa1", True),     # a Fury's Harpy take (the other White Fury on j1 is safe)
    ("dc3 Fe5", False),        # in her line the Dragon is petrified: no Dragon ever takes a Fury
    ("xc3 Fe5", False),        # a swap is no capture
    ("jd3 Fe5 Gd8", False),    # a petrified Jumper attacks nothing
])
def test_which_men_attack_a_fury(men: str, attacked: bool) -> None:
    pos = board(men, "w")
    assert pos.is_check() is attacked


def test_a_move_may_leave_a_fury_attacked_there_is_no_check_rule() -> None:
    pos = board("Fe1 jd3 Ab2", "w")
    assert pos.is_check()  # the Jumper on d3 attacks the Fury on e1
    assert "b2b3" in texts(pos)  # White may leave her there


# -- the end ----------------------------------------------------------------------------------------

def test_taking_both_enemy_furies_while_keeping_yours_wins() -> None:
    pos = board("Jd4 fe6 fi10 Fa1 Fj1")
    pos.push_text("d4e6")
    assert pos.outcome() is None  # one Black Fury left
    pos = board("Jd4 fe6 Fa1 Fj1")  # Black has lost one already
    assert pos.outcome() is None
    pos.push_text("d4e6")
    out = pos.outcome()
    assert out is not None and out.winner == 0 and out.termination == "furies_captured"


def test_one_fury_lost_on_each_side_is_a_draw() -> None:
    pos = board("fa10 fe6 Jd4 Fa1")  # White has lost one Fury already
    assert pos.outcome() is None
    pos.push_text("d4e6")
    out = pos.outcome()
    assert out is not None and out.winner is None and out.termination == "one_fury_each"
    assert out.result() == "1/2-1/2"


def test_no_legal_move_is_a_draw() -> None:
    # White's only men are petrified: Fury a1 faces the Gorgon on a9, Fury j1 the Gorgon on j9.
    pos = parse_fen(RF, "f8f/g8g/10/10/10/10/10/10/10/F8F w - - 0 1")
    assert not pos.legal_moves()
    out = pos.outcome()
    assert out is not None and out.winner is None and out.termination == "stalemate"


def test_one_charge_taking_both_enemy_furies_wins_and_a_late_double_is_still_a_draw() -> None:
    pos = board("Cf1 fe6 fg6 Fa1 Fj1")
    assert victims(pos, "f1f5") == {"e6", "g6"}
    pos.push_text("f1f5")
    out = pos.outcome()
    assert out is not None and out.winner == 0 and out.termination == "furies_captured"
    late = board("Cf1 fe6 fg6 Fa1")  # White lost a Fury earlier: losing one each draws
    late.push_text("f1f5")
    out = late.outcome()
    assert out is not None and out.winner is None and out.termination == "one_fury_each"


def test_capricorn_charge_spares_friends_and_mimotaur_chains_only_over_dragons() -> None:
    assert victims(board("Cc2 Ae5 af4"), "c2e4") == {"f4"}
    pos = board("Mc1 de3 dg3 xg5")
    assert victims(pos, "c1h2:f4") == {"e3", "g3"}
    assert not any(t.startswith("c1") and "g5" in victims(pos, t) for t in texts(pos, "c1"))


def test_every_chain_move_lists_all_its_victims_and_undoes() -> None:
    pos = board("Fc1 xe3 xg3 ab5 Fj1")
    before = pos.fen()
    for move in pos.legal_moves():
        gone = {c for c, b, a in move.changes if b and not a} - {move.frm}
        swapped = len(move.relocations) > 1
        assert swapped or gone == set(move.victims) - {move.to}, pos.move_text(move)
        pos.push(move)
        pos.pop()
        assert pos.fen() == before


def test_perft_from_the_start() -> None:
    # Derived, not from the text: the sides' first moves do not touch each other (38 x 38).
    from engine.perft import perft

    pos = start_position(RF)
    assert [perft(pos, d) for d in (1, 2, 3)] == [38, 1444, 65084]


def test_dragon_leaps_capricorn_harpy_and_mimotaur_and_crosses_cells_it_emptied() -> None:
    for victim in "chm":
        assert victims(board(f"Dc1 {victim}e3"), "c1f4") == {"e3"}
    # c5 over d5 to e5, then back left across d5 (emptied) and c5 (left) over b5 to a5.
    pos = board("Dc5 ad5 ab5")
    assert victims(pos, "c5a5:e5") == {"d5", "b5"}
    assert victims(pos, "c5a5") == {"b5"}  # the single leap to the same cell is another move


def test_repetition_and_fifty_quiet_plies_draw() -> None:
    pos = board("Jd1 jd10 Fa3 Fj3 fa8 fj8")
    for _ in range(2):
        for text in ("d1c3", "d10c8", "c3d1", "c8d10"):
            pos.push_text(text)
    out = pos.outcome()
    assert out is not None and out.winner is None and out.termination == "repetition"
    quiet = parse_fen(RF, board("Jd1 jd10 Fa3 Fj3 fa8 fj8").fen().replace(" 0 1", " 99 60"))
    quiet.push_text("d1c3")
    out = quiet.outcome()
    assert out is not None and out.termination == "fifty_move"
