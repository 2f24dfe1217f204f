"""The hall events between two published states: moves, takebacks, a new game, the end."""

from __future__ import annotations

from controller.hall_state import events_of
from tests.hall_rig import sample_state


def kinds(events: list[dict]) -> list[tuple[str, int, str]]:
    return [(e["kind"], e["ply"], e["move"] or e["san"]) for e in events]


def test_moves_since_the_last_state_are_events_in_order() -> None:
    before = sample_state("chess", ["e2e4"])
    after = sample_state("chess", ["e2e4", "e7e5", "g1f3"])
    assert kinds(events_of(before, after)) == [("move", 2, "e7e5"), ("move", 3, "g1f3")]
    assert [e["san"] for e in events_of(before, after)] == ["e5", "Nf3"]
    assert events_of(after, dict(after, status="fix")) == []  # a status alone is no event


def test_a_takeback_then_another_move_is_undo_then_move() -> None:
    before = sample_state("chess", ["e2e4", "e7e5"])
    after = sample_state("chess", ["e2e4", "c7c5"])
    assert kinds(events_of(before, after)) == [("undo", 1, "e7e5"), ("move", 2, "c7c5")]


def test_a_new_game_and_a_game_over() -> None:
    old = sample_state("chess", ["e2e4"], game=1)
    new = sample_state("chess", ["d2d4"], game=2)
    assert kinds(events_of(old, new)) == [("start", 0, ""), ("move", 1, "d2d4")]
    mate = sample_state("chess", ["f2f3", "e7e5", "g2g4", "d8h4"], status="over", result="0-1")
    assert kinds(events_of(sample_state("chess", ["f2f3", "e7e5", "g2g4"]), mate)) == [
        ("move", 4, "d8h4"), ("end", 4, "0-1")]
    assert events_of(mate, mate) == []


def test_a_reader_far_behind_the_hall_redraws_every_board() -> None:
    from controller.hall_model import HallModel
    from controller.hall_wire import dumps

    model = HallModel()
    model.recent = type(model.recent)(maxlen=3)
    for n, name in enumerate(("a", "b", "c", "d", "e")):
        assert model.feed(f"chessery/hall/{name}/state", dumps(sample_state("chess", ["e2e4"][:n % 2])))
    assert model.changed_since(model.version - 1) == ["e"]
    assert model.changed_since(0) == ["a", "b", "c", "d", "e"]
