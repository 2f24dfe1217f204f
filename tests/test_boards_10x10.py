"""The 10x10 sensor board (one port, 100 sensors) for every decimal-board game: both shipped
layouts serve each of them, name the cells the way the wiring runs, and turn round; Triscacia's
8x8 form uses the ordinary chess board's layouts."""

from __future__ import annotations

import pytest

import engine
from controller.board_map import SensorMap
from hardware.layout import LayoutError, load_layout

TEN = ("sqchess", "sqchess-extended", "tweedle", "triscacia-10x10", "royal-fury")


def name_of(v, m: SensorMap, sensor: int) -> str:
    return v.geometry.names[m.cell_of[sensor]]


@pytest.mark.parametrize("name", TEN)
@pytest.mark.parametrize("layout", ["square-10x10", "square-10x10-serpentine"])
def test_every_cell_has_one_sensor(name: str, layout: str) -> None:
    v = engine.find_variant(name)
    m = SensorMap(v, load_layout(layout))
    assert load_layout(layout).sensors == 100 == v.geometry.size
    assert sorted(m.cell_of[s] for s in range(100)) == list(range(100))


@pytest.mark.parametrize("name", TEN)
def test_serpentine_wiring_and_a_turned_board(name: str) -> None:
    v = engine.find_variant(name)
    snake = SensorMap(v, load_layout("square-10x10-serpentine"))
    assert [name_of(v, snake, s) for s in (0, 9, 10, 19, 20, 99)] == ["a1", "j1", "j2", "a2", "a3", "a10"]
    turned = SensorMap(v, load_layout("square-10x10"), orientation=180)
    assert [name_of(v, turned, s) for s in (0, 9, 99)] == ["j10", "a10", "a1"]


def test_start_position_read_through_the_serpentine_board() -> None:
    # What the sensors of a serpentine board report for Triscacia's three kings, back on cells.
    v = engine.find_variant("triscacia-10x10")
    m = SensorMap(v, load_layout("square-10x10-serpentine"))
    pos = engine.start_position(v)
    sensor_values = [1 if pos.board[m.cell_of[s]] else 0 for s in range(100)]
    assert [s for s, on in enumerate(sensor_values) if on] == [4, 81, 88]  # e1, b9, i9 (rank 9 runs a..j)
    readings = m.readings(sensor_values)
    assert [v.geometry.names[c] for c, on in enumerate(readings) if on] == ["e1", "b9", "i9"]


def test_triscacia_8x8_on_the_chess_board_and_not_on_the_decimal_one() -> None:
    v = engine.find_variant("triscacia")
    m = SensorMap(v, load_layout("chess-8x8-serpentine"))
    assert name_of(v, m, 8) == "h2"
    with pytest.raises(LayoutError, match=r"^layout square-10x10: board 1 sensor 8: no cell 'i1' on triscacia$"):
        SensorMap(v, load_layout("square-10x10"))
