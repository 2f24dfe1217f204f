"""Legal moves are generated once per search node: the outcome's "can the side move?" keeps the
moves it generated for the next ``legal_moves`` of the same position (``Rules``' memo), and only
while that position stands unchanged."""

from __future__ import annotations

from engine import find_variant, parse_fen, start_position
from engine.components import Component, register
from engine.moves import Move
from engine.position import Position
from engine.variant import variant_from_toml


@register("test_generation_counter")
class GenerationCounter(Component):
    """Counts the ``generate`` stage's calls: one per generation of the variant's moves."""

    calls = 0

    def generate(self, pos: Position, out: list[Move]) -> None:
        GenerationCounter.calls += 1


def counted_chess() -> tuple[Position, int]:
    v = variant_from_toml("counted-chess", 'inherits = "chess"\nrules = ["test_generation_counter"]\n')
    return start_position(v), GenerationCounter.calls


def test_a_node_asking_its_outcome_then_its_moves_generates_once() -> None:
    pos, before = counted_chess()
    assert pos.outcome() is None
    moves = pos.legal_moves()
    assert GenerationCounter.calls == before + 1
    assert len(moves) == 20
    # handed out once: the next ask generates again (the caller may have changed the list)
    moves.clear()
    assert len(pos.legal_moves()) == 20
    assert GenerationCounter.calls == before + 2


def test_the_kept_moves_are_not_given_to_a_changed_position() -> None:
    pos, before = counted_chess()
    assert pos.outcome() is None
    pos.push_text("e2e4")  # push_text generates (parse_move), then the push changes the position
    after_push = GenerationCounter.calls
    assert {pos.move_text(m) for m in pos.legal_moves()} >= {"e7e5", "g8f6"}
    assert GenerationCounter.calls == after_push + 1
    pos.pop()
    assert pos.outcome() is None
    pos.push_text("d2d4")
    pos.pop()
    assert len(pos.legal_moves()) == 20  # the moves kept before the push and pop are not reused
    # a cell set by hand (as tests do) is a changed position too
    assert pos.outcome() is None
    g = pos.variant.geometry
    pos.board[g.names.index("e2")] = 0
    texts = {pos.move_text(m) for m in pos.legal_moves()}
    assert "f1c4" in texts and "e2e4" not in texts
    assert GenerationCounter.calls > before


def test_a_search_finds_the_same_moves_with_the_memo_as_without() -> None:
    # The meddlers' turn order asks "can the side move?" in the middle of a push: the moves
    # generated there belong to neither position, and a game played out must match a fresh
    # generation at every ply.
    for name in ("meddlers", "chess", "royal-fury"):
        v = find_variant(name)
        pos = start_position(v)
        for ply in range(24):
            over = pos.outcome() is not None
            moves = pos.legal_moves()
            fresh = parse_fen(v, pos.fen()).legal_moves()
            assert [m.changes for m in moves] == [m.changes for m in fresh], (name, ply)
            if over or not moves:
                break
            pos.push(moves[(7 * ply) % len(moves)])
