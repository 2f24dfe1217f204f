"""The operator menu's keyboards and the arbiter's screens as a pure state machine (no service,
no screen): what each keyboard offers, how names capitalise, where Back leads, the list of games
in pages."""

from __future__ import annotations

import pytest

from controller.menu import OperatorMenu
from controller.menu_entry import Entry
from controller.menu_types import Action


def keys(menu: OperatorMenu) -> list[str]:
    prompt = menu.prompt()
    assert prompt is not None
    return [c.key for c in prompt.choices]


def typed(entry: Entry, text: str) -> Entry:
    for ch in text:
        entry = entry.tap("space" if ch == " " else ch.upper() if ch.isalpha() else ch)
    return entry


@pytest.mark.parametrize(("text", "want"), [
    ("jean-paul o'neill", "Jean-Paul O'Neill"),
    ("anna 2nd, jr.", "Anna 2nd, Jr."),
])
def test_names_capitalise_themselves(text: str, want: str) -> None:
    assert typed(Entry.start("name0", "White's name"), text).value == want


def test_aa_types_the_next_letter_the_other_way_and_del_undoes() -> None:
    entry = typed(Entry.start("name1", "Black's name"), "van")
    assert entry.value == "Van"
    entry = Entry.start("name1", "Black's name").tap("shift")
    entry = typed(entry, "van der")
    assert entry.value == "van Der"
    assert entry.tap("del").tap("del").value == "van D"


def test_each_keyboard_has_only_its_keys() -> None:
    _title, round_keys, _cols = Entry.start("round").screen()
    assert [k for k, _l in round_keys] == [*"1234567890", ".", "del", "ok", "back"]
    _title, time_keys, _cols = Entry.start("time").screen()
    assert {"+", "/", ",", "d", "b"} <= {k for k, _l in time_keys} and "A" not in {k for k, _l in time_keys}
    assert Entry.start("board").tap("1").tap("2").value == "12"
    long = Entry.start("round")
    for _ in range(20):
        long = long.tap("9")
    assert len(long.value) == 8  # a round number, not a novel


def test_settings_show_values_and_entries_start_from_them() -> None:
    menu = OperatorMenu(["chess"])
    menu.current = {"variant": "chess", "variant_title": "Chess", "time": "3+2", "name0": "Tal", "round": "4"}
    menu.open()
    menu.tap("settings")
    prompt = menu.prompt()
    assert prompt is not None
    labels = [c.label for c in prompt.choices]
    assert labels[:4] == ["Variant: Chess", "Time control: 3+2", "White's name: Tal", "Black's name"]
    assert "Round: 4" in labels and "Event" in labels
    menu.tap("name0")
    assert menu.prompt().title == "White's name: Tal_"  # type: ignore[union-attr]
    menu.tap("del")
    assert menu.tap("ok") == Action("name", side=0, value="Ta")
    menu.tap("round")
    menu.tap("del")
    menu.tap("5")
    assert menu.tap("ok") == Action("tag", value="5", tag="Round")
    menu.tap("time")
    assert keys(menu)[menu.selected] == "t:3+2"  # the control in force, highlighted
    menu.tap("t:other")
    menu.tap("5")
    menu.tap("b")
    menu.tap("3")
    assert menu.tap("ok") == Action("time_control", value="5b3")
    assert menu.screen == "time"
    menu.tap("t:other")
    menu.tap("back")
    assert menu.screen == "time"  # a typed control abandoned: back among the presets
    menu.tap("back")
    assert menu.screen == "settings"


def test_export_list_in_pages_newest_first_and_the_arbiter_screens() -> None:
    games = [(i, f"Game {i}") for i in range(20, 0, -1)]
    menu = OperatorMenu(["chess"], games=lambda: games)
    menu.open()
    menu.tap("export")
    menu.tap("choose")
    assert keys(menu)[:2] == ["g:20", "g:19"] and keys(menu)[-2:] == ["more", "back"]
    menu.tap("more")
    menu.tap("more")
    assert keys(menu) == ["g:4", "g:3", "g:2", "g:1", "back"]
    menu.tap("back")
    menu.tap("back")
    menu.tap("back")
    assert menu.screen == "export"
    assert menu.tap("event") == Action("export", value="event")
    menu.open()
    menu.tap("clocks")
    assert menu.tap("adj1:-60") == Action("clock_adjust", side=1, value="-60")
    assert menu.tap("pause") == Action("clock_pause") and menu.screen == "clocks"
    menu.tap("back")
    menu.tap("arbiter")
    assert menu.tap("forfeit1") == Action("arbiter", side=1, value="forfeit") and not menu.is_open
    menu.open()
    menu.tap("power")
    menu.tap("restart")
    assert menu.screen == "confirm_power"
    assert menu.tap("yes") == Action("power", value="restart")
