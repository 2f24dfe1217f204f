"""Variant data is validated with one-line reasons; position text round-trips; notation parses."""

from __future__ import annotations

import pytest

from engine import PositionError, VariantError, find_variant, parse_fen, start_position
from engine.errors import NotationError
from engine.geometry import rectangle, ring, two_boards
from engine.pieces import parse_betza
from engine.variant import variant_from_toml, variant_names

BASE = 'geometry = { type = "rectangle", files = 8, ranks = 8 }\nsides = ["white", "black"]\n'


@pytest.mark.parametrize(("text", "reason"), [
    ('inherits = "chess"\ncolour = "red"', "unknown key 'colour'"),
    ('inherits = "chess"\n[pieces.N]\nbetza = "N"\nspeed = 3', "piece N: unknown key 'speed'"),
    ('inherits = "chess"\n[pieces.N]\nbetza = "N?"', "piece N: cannot read piece notation"),
    ('inherits = "chess"\nstart = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w - - 0 1"', "bad start position"),
    ('inherits = "chess"\nstart = "8/8/8 w - - 0 1"', "board has 3 rows"),
    ('inherits = "nosuch"', "unsupported variant: 'nosuch'"),
    ('inherits = "chess"\ngeometry = { type = "hexagon" }', "unknown geometry type 'hexagon'"),
    ('inherits = "chess"\nroyalty = "sometimes"', "royalty must be one of"),
    ('inherits = "chess"\npromotion = { zones = ["rank9", "rank1"] }', "promotion zones"),
    ('inherits = "chess"\nrules = "nosuch"', "unknown rule component 'nosuch'"),
    (BASE + 'start = "8/8/8/8/8/8/8/8 w - - 0 1"', "missing key 'pieces'"),
    ('inherits = "chess"\ngeometry = { type = "rectangle", files = 8 }', "geometry needs 'ranks'"),
])
def test_bad_variant_data_is_rejected_with_a_one_line_reason(text: str, reason: str) -> None:
    with pytest.raises(VariantError) as err:
        variant_from_toml("bad", text)
    message = str(err.value)
    assert reason in message
    assert "\n" not in message


def test_unknown_variant_name() -> None:
    with pytest.raises(ValueError, match="unsupported variant: 'fischerandom'"):
        find_variant("fischerandom")


def test_child_variant_states_only_differences() -> None:
    v = variant_from_toml("nocastle", 'inherits = "chess"\ncastling = false\n'
                          'start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"')
    assert [k.letter for k in v.kinds] == [k.letter for k in find_variant("chess").kinds]
    pos = parse_fen(v, "r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1")
    assert "e1g1" not in {pos.move_text(m) for m in pos.legal_moves()}


@pytest.mark.parametrize("fen", [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "4k3/8/8/8/8/8/8/R3K2R w K - 12 40",
])
def test_position_text_round_trips(fen: str) -> None:
    assert parse_fen(find_variant("chess"), fen).fen() == fen


@pytest.mark.parametrize(("fen", "reason"), [
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1", "covers 7 of 8"),
    ("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "crosses a hole or edge"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "side to move 'x'"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq z9 0 1", "no cell 'z9'"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1", "not numbers"),
    ("4k3/8/8/8/8/8/8/4K3 w K - 0 1", "without a rook"),
])
def test_malformed_positions(fen: str, reason: str) -> None:
    with pytest.raises(PositionError, match=reason):
        parse_fen(find_variant("chess"), fen)


def test_moves_expose_every_changed_cell() -> None:
    v = find_variant("chess")
    g = v.geometry
    sym = v.parse_symbol
    pos = parse_fen(v, "r3k2r/8/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1")
    castle = pos.parse_move("e1c1")
    assert sorted(castle.changes) == sorted([(g.index("e1"), sym("K"), 0), (g.index("a1"), sym("R"), 0),
                                             (g.index("c1"), 0, sym("K")), (g.index("d1"), 0, sym("R"))])
    ep = pos.parse_move("e5d6")
    assert sorted(ep.changes) == sorted([(g.index("e5"), sym("P"), 0), (g.index("d6"), 0, sym("P")),
                                         (g.index("d5"), sym("p"), 0)])
    promo = parse_fen(v, "1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1").parse_move("a7b8n")
    assert promo.changes == ((g.index("a7"), sym("P"), 0), (g.index("b8"), sym("r"), sym("N")))


def test_piece_identity_follows_pieces() -> None:
    pos = start_position(find_variant("chess"))
    g = pos.variant.geometry
    knight = pos.ids[g.index("g1")]
    for text in ("g1f3", "e7e5", "f3e5"):
        pos.push_text(text)
    assert pos.ids[g.index("e5")] == knight
    pos.pop()
    assert pos.ids[g.index("e5")] != knight and pos.ids[g.index("f3")] == knight


def test_piece_notation_errors_and_images() -> None:
    with pytest.raises(NotationError):
        parse_betza("mQx")
    assert len(parse_betza("Q")) == 2
    g = rectangle(8, 8)
    assert len(g.images((1, 2))) == 8 and len(g.images((1, 1))) == 4
    assert ring(48).images((24, 0)) == ((24, 0), (-24, 0))
    alice = two_boards(g)
    assert alice.size == 128 and alice.other_board[g.index("e4")] == alice.index("e4'")
    assert alice.step((1, 0))[alice.index("h4")] == -1  # a step never crosses to the other board


def test_step_regions_forbid_steps_that_leave_every_region() -> None:
    g = rectangle(4, 4, regions={"low": ["a1", "b1", "a2", "b2"], "high": ["b2", "c2", "b3", "c3"]},
                  step_regions=["low", "high"])
    assert g.step((1, 0))[g.index("a1")] == g.index("b1")
    assert g.step((1, 1))[g.index("a1")] == g.index("b2")
    assert g.step((1, 0))[g.index("b1")] == -1  # c1 is in no region with b1
    assert g.step((1, 1))[g.index("b2")] == g.index("c3")


def test_shipped_variants_all_load() -> None:
    for name in variant_names():
        v = find_variant(name)
        assert start_position(v).fen() == parse_fen(v, v.start).fen()


def test_a_look_ahead_is_taken_back_however_it_is_left() -> None:
    pos = start_position(find_variant("alice"))
    before = (pos.fen(), pos.hash, len(pos.move_stack))
    e4 = pos.parse_move("e2e4")
    with pos.after(e4) as ahead:
        assert ahead.side == 1 and ahead.move_stack[-1] == e4
        ahead.push(ahead.legal_moves()[0])
        assert len(ahead.move_stack) == 2
    assert (pos.fen(), pos.hash, len(pos.move_stack)) == before
    with pytest.raises(RuntimeError), pos.after(e4):
        pos.push(pos.legal_moves()[0])
        raise RuntimeError("left halfway")
    assert (pos.fen(), pos.hash, len(pos.move_stack)) == before
    # Moves played before the look ahead stay played.
    pos.push(e4)
    with pos.after(pos.legal_moves()[0]):
        pass
    assert pos.move_stack == [e4]
