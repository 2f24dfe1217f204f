"""Per-variant royalty: several kings, king capture, pieces that do not give check, and three
players who may not check their right-hand opponent (the booklet's Triscacia examples)."""

from __future__ import annotations

from engine import parse_fen
from engine.variant import variant_from_toml

THREE = variant_from_toml("three-test", """
    geometry = { type = "rectangle", files = 8, ranks = 8 }
    sides = ["blue", "green", "red"]
    side_letters = ["b", "g", "r"]
    forward = [[0, 1], [0, -1], [0, -1]]
    start = "7gK/8/8/8/8/rK7/8/2bK5 b - - 0 1"
    rules = "three_sides"
    [pieces.K]
    betza = "K"
    royal = true
    [pieces.R]
    betza = "R"
    [pieces.B]
    betza = "B"
    [pieces.N]
    betza = "N"
""")


def texts(pos) -> set[str]:
    return {pos.move_text(m) for m in pos.legal_moves()}


def test_three_sides_knight_pinned_against_the_right_hand_king() -> None:
    # Blue knight d3 stands between the green rook h3 and the red king a3: it may not move.
    pos = parse_fen(THREE, "7gK/8/8/8/8/rK2bN3gR/8/2bK5 b - - 0 1")
    assert not {m for m in texts(pos) if m.startswith("d3")}
    assert {m for m in texts(pos) if m.startswith("c1")}


def test_three_sides_may_not_block_own_check_by_exposing_the_right_hand_king() -> None:
    # Red rook h3 checks the blue king a3; Bd1-b3 would block but expose the red king a1 to the
    # green rook g1, so Blue can only step out of check.
    pos = parse_fen(THREE, "7gK/8/8/8/8/bK6rR/8/rK2bB2gR1 b - - 0 1")
    assert pos.is_check()
    assert texts(pos) == {"a3a4", "a3b4"}


def test_three_sides_checkmate_given_by_the_third_players_rook() -> None:
    # Kd1-d2 leaves the red rook a1 mating the green king h1; Green's knight may not interpose
    # because that would expose Blue (Green's right-hand opponent) to the red rook d8.
    pos = parse_fen(THREE, "3rR4/8/8/8/8/3gN3rK/8/rR2bK3gK b - - 0 1")
    pos.push_text("d1d2")
    assert pos.is_check()
    assert texts(pos) == set()
    outcome = pos.outcome()
    assert outcome is not None and outcome.termination == "checkmate" and outcome.winner == 0
    assert pos.fen().split()[1] == "g"


def test_two_kings_both_must_stay_safe() -> None:
    v = variant_from_toml("twokings", 'inherits = "chess"\ncastling = false\n'
                          'start = "4k3/8/8/8/8/8/8/2K2K2 w - - 0 1"')
    # The rook on f2 is pinned against the f1 king by the f8 rook even though c1 is safe.
    pos = parse_fen(v, "5r1k/8/8/8/8/8/5R2/2K2K2 w - - 0 1")
    assert not {m for m in texts(pos) if m.startswith("f2") and not m.startswith("f2f")}
    assert "f2f8" in texts(pos)


def test_king_capture_variant_allows_moving_into_check_and_ends_on_capture() -> None:
    v = variant_from_toml("kingcap", 'inherits = "chess"\nroyalty = "king_capture"\ncastling = false\n'
                          'start = "4k3/8/8/8/8/8/8/4K3 w - - 0 1"')
    pos = parse_fen(v, "4k3/8/8/8/8/8/3r4/4K3 w - - 0 1")
    assert "e1d1" in texts(pos)  # into the rook's line: allowed, the king is simply lost
    pos.push_text("e1f1")
    pos.push_text("d2d1")
    pos.push_text("f1e1")
    pos.push_text("d1e1")
    outcome = pos.outcome()
    assert outcome is not None and outcome.termination == "king_capture" and outcome.winner == 1


def test_pieces_that_do_not_give_check() -> None:
    v = variant_from_toml("illusion", '''
        inherits = "chess"
        castling = false
        start = "4k3/8/8/8/8/8/8/4K3 w - - 0 1"
        bare_king = true
        [pieces."~N"]
        name = "illusionary knight"
        betza = "N"
        gives_check = false
    ''')
    pos = parse_fen(v, "4k3/8/3~N4/8/8/8/8/4K2R b - - 0 1")
    assert not pos.is_check()  # the illusionary knight on d6 does not attack e8
    assert "e8d8" in texts(pos)
    # a side left with only its king and illusionary pieces loses at once
    bare = parse_fen(v, "r3k3/8/8/8/8/8/8/~N3K3 w - - 0 1")
    outcome = bare.outcome()
    assert outcome is not None and outcome.termination == "bare_king" and outcome.winner == 1


def test_line_of_n_wins() -> None:
    v = variant_from_toml("lines", '''
        geometry = { type = "rectangle", files = 8, ranks = 8 }
        sides = ["white", "black"]
        start = "pppppppp/8/8/8/8/8/8/PPPPPPPP w - - 0 1"
        royalty = "none"
        line_length = 4
        [pieces.P]
        betza = "mQ"
    ''')
    pos = parse_fen(v, "ppp5/8/8/8/1P6/2P5/3P4/8 w - - 0 1")
    assert pos.outcome() is None  # three on a diagonal are not yet four
    pos = parse_fen(v, "ppp5/8/8/P7/1P6/2P5/3P4/8 b - - 0 1")
    outcome = pos.outcome()
    assert outcome is not None and (outcome.termination, outcome.winner) == ("line", 0)


def test_promotion_only_to_captured_pieces_and_optional() -> None:
    v = variant_from_toml("captured-promo", '''
        inherits = "chess"
        castling = false
        start = "4k3/8/8/8/8/8/8/4K3 w - - 0 1"
        promotion = { zones = ["rank8", "rank1"], choices = "qrbn", from_captured = true, optional = true }
    ''')
    pos = parse_fen(v, "7k/P7/8/8/8/8/1r6/R3K3[Q] w - - 0 1")
    assert {m for m in texts(pos) if m.startswith("a7")} == {"a7a8", "a7a8q"}
    pos.push_text("a1a2")  # the rook steps next to the black rook...
    pos.push_text("b2a2")  # ...which takes it: White may now also promote to a rook
    assert {m for m in texts(pos) if m.startswith("a7")} == {"a7a8", "a7a8q", "a7a8r"}
    assert pos.fen().startswith("7k/P7/8/8/8/8/r7/4K3[RQ] w")
    pos.push_text("a7a8r")
    assert pos.fen().startswith("R6k/8/8/8/8/8/r7/4K3[Q] b")
    pos.pop()
    assert pos.fen().startswith("7k/P7/8/8/8/8/r7/4K3[RQ] w")
