"""Board layouts: shipped files, sensors to engine cells, boards turned 180 degrees, sets of
boards on several ports, and one-line errors for layouts that cannot serve a variant."""

from __future__ import annotations

from pathlib import Path

import pytest

import engine
from controller.board_map import SensorMap, rotated_cells
from engine.variant import variant_from_toml
from hardware.layout import LayoutError, layout_names, load_layout, parse_layout
from tests.unshipped_variants import ALICE

CHESS = engine.find_variant("chess")
RING = variant_from_toml("ring-layout-test", """
    geometry = { type = "ring", cells = 48 }
    sides = ["white", "black"]
    forward = [[1, 0], [-1, 0]]
    start = "6/6/6/6/6/6/6/6 w - - 0 1"
    royalty = "none"
    [pieces.R]
    betza = "W"
""")


def names(variant, sensor_map: SensorMap, sensors) -> list[str]:
    return [variant.geometry.names[sensor_map.cell_of[s]] for s in sensors]


def test_shipped_layouts_load() -> None:
    assert {"chess-8x8", "chess-8x8-serpentine", "square-10x10", "square-13x13", "alice-2x8x8",
            "alice-128"} <= set(layout_names())
    for name in layout_names():
        layout = load_layout(name)
        assert layout.sensors in (48, 49, 64, 100, 128, 169)


def test_chess_layout_rank_by_rank() -> None:
    m = SensorMap(CHESS, load_layout("chess-8x8"))
    assert names(CHESS, m, (0, 7, 8, 63)) == ["a1", "h1", "a2", "h8"]
    assert m.sensor_of[CHESS.geometry.index("e4")] == 28


def test_board_turned_round() -> None:
    m = SensorMap(CHESS, load_layout("chess-8x8"), orientation=180)
    assert names(CHESS, m, (0, 7, 9, 63)) == ["h8", "a8", "g7", "a1"]
    # What a turned board reads at the start position: its sensor 0 (now under h8) sees a rook.
    sensor_values = [0] * 64
    sensor_values[0] = 1
    readings = m.readings(sensor_values)
    assert readings[CHESS.geometry.index("h8")] == 1 and sum(readings) == 1


def test_serpentine_chain() -> None:
    m = SensorMap(CHESS, load_layout("chess-8x8-serpentine"))
    assert names(CHESS, m, (7, 8, 15, 16)) == ["h1", "h2", "a2", "a3"]


def test_grid_from_another_corner_by_files() -> None:
    layout = parse_layout('[[boards]]\ngrid = { files = 8, ranks = 8, first = "h8", order = "files" }', "t")
    m = SensorMap(CHESS, layout)
    assert names(CHESS, m, (0, 1, 8)) == ["h8", "h7", "g8"]


def test_thirteen_by_thirteen() -> None:
    v = engine.find_variant("mathematichess")
    m = SensorMap(v, load_layout("square-13x13"), orientation=180)
    assert names(v, m, (0, 168, 13)) == ["m13", "a1", "m12"]


def test_alice_on_two_ports() -> None:
    m = SensorMap(ALICE, load_layout("alice-2x8x8"), boards=2)
    assert m.board_sizes == (64, 64) and m.offsets() == [0, 64]
    assert names(ALICE, m, (0, 63, 64, 127)) == ["a1", "h8", "a1'", "h8'"]
    turned = SensorMap(ALICE, load_layout("alice-2x8x8"), orientation=180, boards=2)
    # each board turns about its own centre: nothing crosses to the other board
    assert names(ALICE, turned, (0, 63, 64, 127)) == ["h8", "a1", "h8'", "a1'"]


def test_alice_on_one_controller_and_without_a_layout() -> None:
    one = SensorMap(ALICE, load_layout("alice-128"))
    assert names(ALICE, one, (0, 64, 127)) == ["a1", "a1'", "h8'"]
    split = SensorMap(ALICE, None, boards=2)
    assert split.board_sizes == (64, 64) and names(ALICE, split, (64,)) == ["a1'"]


def test_ring_turns_to_the_opposite_cell() -> None:
    turn = rotated_cells(RING)
    assert all(turn[c] == (c + 24) % 48 for c in range(48))


def test_layout_naming_a_cell_the_variant_lacks(tmp_path: Path) -> None:
    with pytest.raises(LayoutError, match=r"^layout square-10x10: board 1 sensor 8: no cell 'i1' on chess$"):
        SensorMap(CHESS, load_layout("square-10x10"))


def test_layout_missing_cells() -> None:
    layout = parse_layout('[[boards]]\ncells = ["a1", "b1", ""]', "tiny")
    with pytest.raises(LayoutError, match=r"^layout tiny: 62 cell\(s\) of chess have no sensor \(c1, d1, e1, f1, g1, "
                                          r"\.\.\.\)$"):
        SensorMap(CHESS, layout)


def test_ports_and_boards_must_agree() -> None:
    with pytest.raises(LayoutError, match="layout chess-8x8 has 1 board\\(s\\) but 2 port\\(s\\) are configured"):
        SensorMap(CHESS, load_layout("chess-8x8"), boards=2)


@pytest.mark.parametrize(("text", "message"), [
    ("[[boards]]\ncells = ['a1', 'a1']", "layout bad: boards[0]: cell 'a1' is under two sensors"),
    ("[[boards]]\ngrid = { files = 8, ranks = 8, first = 'c3' }",
     "layout bad: boards[0].grid: first: expected a corner (a1, a8, h1, h8), got 'c3'"),
    ("[[boards]]\ngrid = { files = 8, ranks = 0 }",
     "layout bad: boards[0].grid: ranks: expected a whole number from 1 to 26, got 0"),
    ("[[boards]]\ngrid = { files = 8, ranks = 8, colour = 'red' }", "layout bad: boards[0].grid: unknown key 'colour'"),
    ("[[boards]]\ncells = ['a1']\ngrid = { files = 1, ranks = 1 }",
     "layout bad: boards[0]: give either 'grid' or 'cells'"),
    ("title = 'x'", "layout bad: boards: expected at least one [[boards]] table"),
    ("boards = 3\nwires = 2", "layout bad: unknown key 'wires'"),
])
def test_bad_layouts(text: str, message: str) -> None:
    with pytest.raises(LayoutError) as info:
        parse_layout(text, "bad")
    assert str(info.value) == message


def test_unknown_layout_name_lists_the_shipped_ones() -> None:
    with pytest.raises(LayoutError, match="unknown layout 'chess-9x9' \\(shipped: alice-128, "):
        load_layout("chess-9x9")
