"""The engine's rule components, move builder, piece codes, royalty and turn order (issue 10)."""

from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path

import chess
import pytest

from engine import ChesseryError, find_variant, parse_fen, start_position
from engine.codes import MAX_SIDES, kind_of, make, side_of
from engine.components import Component, register
from engine.errors import VariantError
from engine.moves import Move, build_move
from engine.perft import perft
from engine.position import Position
from engine.variant import variant_from_toml

ROOT = Path(__file__).resolve().parent.parent


# -- piece codes -------------------------------------------------------------------------------------
def test_piece_codes_round_trip_for_every_side_and_many_kinds() -> None:
    for side in range(MAX_SIDES):
        for kind in range(60):
            code = make(kind, side)
            assert code and side_of(code) == side and kind_of(code) == kind
    with pytest.raises(ValueError, match="at most"):
        make(0, MAX_SIDES)


def test_no_bit_operations_on_piece_codes_outside_the_codes_module() -> None:
    offenders = []
    for path in [*ROOT.glob("engine/**/*.py"), *ROOT.glob("controller/*.py"), *ROOT.glob("display/*.py"),
                 *ROOT.glob("tests/*.py"), *ROOT.glob("tools/*.py"), *ROOT.glob("bench/*.py")]:
        if path.name in ("codes.py", "test_engine_components.py"):
            continue
        for n, line in enumerate(path.read_text().splitlines(), 1):
            if re.search(r"(&\s*3|>>\s*2|<<\s*2)\b", line):
                offenders.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    assert not offenders, "\n".join(offenders)


# -- each legal move once ------------------------------------------------------------------------------
OVERLAP = """
    geometry = {{ type = "rectangle", files = 8, ranks = 8 }}
    sides = ["white", "black"]
    start = "{start} w - - 0 1"
    royalty = "none"
    [pieces.X]
    betza = "{betza}"
    [pieces.K]
    betza = "K"
"""


@pytest.mark.parametrize(("betza", "count"), [("QK", 27), ("mBF", 13), ("WR", 14), ("KQ", 27), ("RW2", 14)])
def test_overlapping_components_list_each_move_once(betza: str, count: int) -> None:
    v = variant_from_toml(f"overlap-{betza}", OVERLAP.format(start="8/8/8/8/3X4/8/8/8", betza=betza))
    pos = start_position(v)
    texts = [pos.move_text(m) for m in pos.legal_moves()]
    assert len(texts) == len(set(texts)) == count


def test_a_rook_on_the_ring_lists_each_cell_once() -> None:
    v = variant_from_toml("ring-rook", """
        geometry = { type = "ring", cells = 48 }
        sides = ["white", "black"]
        forward = [[1, 0], [-1, 0]]
        start = "R5/6/6/6/6/6/6/6 w - - 0 1"
        royalty = "none"
        [pieces.R]
        betza = "RW(24,0)"
    """)
    pos = start_position(v)
    texts = [pos.move_text(m) for m in pos.legal_moves()]
    assert len(texts) == len(set(texts)) == 47


# -- en passant field -----------------------------------------------------------------------------------
def test_en_passant_field_only_when_the_capture_is_legal() -> None:
    chess_v = find_variant("chess")
    # d7-d5 passes d6 next to the white pawn on e5, but that pawn is pinned to its king by the
    # rook on e8: the capture e5xd6 is illegal, so the field is "-" (as python-chess writes it).
    pos = parse_fen(chess_v, "4r1k1/3p4/8/4P3/8/8/8/4K3 b - - 0 1")
    pos.push_text("d7d5")
    board = chess.Board("4r1k1/3p4/8/4P3/8/8/8/4K3 b - - 0 1")
    board.push_uci("d7d5")
    assert pos.fen() == board.fen() and " - " in pos.fen()
    free = parse_fen(chess_v, "6k1/3p4/8/4P3/8/8/8/4K3 b - - 0 1")
    free.push_text("d7d5")
    assert " d6 " in free.fen()


@pytest.mark.parametrize("seed", range(4))
def test_fen_equals_python_chess_after_random_games(seed: int) -> None:
    rng = random.Random(seed)
    v = find_variant("chess")
    pos, board = start_position(v), chess.Board()
    for _ in range(300):
        moves = pos.legal_moves()
        if not moves or board.is_game_over():
            break
        move = rng.choice(moves)
        board.push_uci(pos.move_text(move))
        pos.push(move)
        assert pos.fen() == board.fen()


# -- several royals -------------------------------------------------------------------------------------
TWO_KINGS = """
    inherits = "chess"
    geometry = { type = "rectangle", files = 10, ranks = 10 }
    start = "rnbqkkqbnr/pppppppppp/10/10/10/10/10/10/PPPPPPPPPP/RNBQKKQBNR w - - 0 1"
    castling = false
    promotion = { zones = ["rank10", "rank1"], choices = "qrbn" }
    royalty = "%s"
"""


def test_several_royals_fast_legality_equals_the_slow_test_on_random_games() -> None:
    v = variant_from_toml("two-kings", TWO_KINGS % "checkmate")
    rng = random.Random(7)
    rules = v.rules
    checked = 0
    for _game in range(12):
        pos = start_position(v)
        for _ in range(120):
            legal = pos.legal_moves()
            slow = [m for m in rules.pseudo_moves(pos) if rules.is_safe_after(pos, m, pos.side)]
            assert set(legal) == set(slow) and len(legal) == len(slow), pos.fen()
            checked += 1
            if not legal or pos.outcome():
                break
            pos.push(rng.choice(legal))
    assert checked > 500


def test_checkmate_of_either_king_loses() -> None:
    v = variant_from_toml("two-kings", TWO_KINGS % "checkmate")
    # White's king on j1 is mated by the queen on i2, guarded by the rook on i10; its partner on
    # a10 could move, but no move of it answers the check.
    pos = parse_fen(v, "K3k3r1/10/10/10/10/10/10/10/8q1/9K w - - 0 1")
    assert pos.is_check()
    outcome = pos.outcome()
    assert outcome is not None and outcome.termination == "checkmate" and outcome.winner == 1


def test_capture_any_and_capture_all_royals() -> None:
    any_v = variant_from_toml("two-kings-any", TWO_KINGS % "capture_any")
    all_v = variant_from_toml("two-kings-all", TWO_KINGS % "capture_all")
    fen = "rnbqk1qbnr/pppppppppp/10/10/10/10/10/10/PPPPPPPPPP/RNBQKKQBNR w - - 0 1"
    one_lost_any = parse_fen(any_v, fen).outcome()
    assert one_lost_any is not None and one_lost_any.winner == 0  # black has lost one of its two
    assert parse_fen(all_v, fen).outcome() is None
    none_left = parse_fen(all_v, fen.replace("rnbqk1qbnr", "rnbq2qbnr")).outcome()
    assert none_left is not None and none_left.termination == "king_capture" and none_left.winner == 0


# -- four sides and turn order ------------------------------------------------------------------------
FOUR = """
    geometry = { type = "rectangle", files = 8, ranks = 8 }
    sides = ["red", "blue", "yellow", "green"]
    side_letters = ["r", "b", "y", "g"]
    forward = [[0, 1], [1, 0], [0, -1], [-1, 0]]
    start = "3yK4/8/8/gK7/7bK/8/8/4rK3 r - - 0 1"
    royalty = "king_capture"
    [pieces.K]
    betza = "K"
    royal = true
"""


def test_four_sides_rotate_and_the_position_text_round_trips() -> None:
    v = variant_from_toml("four", FOUR)
    pos = start_position(v)
    assert pos.fen() == "3yK4/8/8/gK7/7bK/8/8/4rK3 r - - 0 1"
    for _ in range(4):
        pos.push(pos.legal_moves()[0])
    assert pos.side == 0 and pos.fullmove == 2
    assert parse_fen(v, pos.fen()).fen() == pos.fen()
    while pos.move_stack:
        pos.pop()
    assert pos.fen() == "3yK4/8/8/gK7/7bK/8/8/4rK3 r - - 0 1"


@register("test_two_moves_a_turn")
class TwoMovesATurn(Component):
    """Each side makes two moves in a row (Marseillais chess), white only one on its first turn:
    the ``next_side`` stage, with the half-turn kept in the position state."""

    state_keys = ("half",)
    multi_move_turns = True

    def next_side(self, pos: Position, move: Move) -> int | None:
        first_move = pos.fullmove == 1 and pos.side == 0
        if pos.extra.get("half") or first_move:
            pos.extra.pop("half", None)
            return None  # the standard rotation
        pos.extra["half"] = "1"
        return pos.side


def test_a_turn_order_component_gives_two_moves_a_turn() -> None:
    v = variant_from_toml("marseillais", 'inherits = "chess"\nrules = ["test_two_moves_a_turn"]\n')
    assert v.rules.multi_move_turns and "multi_move_turns" in v.rules.capabilities
    pos = start_position(v)
    sides = []
    for text in ["e2e4", "e7e5", "d7d5", "g1f3", "b1c3", "g8f6"]:
        sides.append(pos.side)
        pos.push_text(text)
    assert sides == [0, 1, 1, 0, 0, 1]
    assert pos.fen().split()[1] == "b" and pos.fen().endswith("half=1")
    for _ in range(6):
        pos.pop()
    assert pos.fen() == start_position(v).fen()



@register("test_minor_promotions_only")
class MinorPromotionsOnly(Component):
    """Promotion to a knight or a bishop only: the ``promotion_choices`` stage narrows the data's
    choices after the components before it (here ``captured_pool``) have narrowed them."""

    def promotion_choices(self, pos: Position, code: int, codes: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(c for c in codes if self.v.kinds[self.v.kind_at[c]].name in ("knight", "bishop"))


def test_promotion_choices_are_a_stage_the_components_narrow_in_order() -> None:
    plain = variant_from_toml("minor-promotions", 'inherits = "chess"\nrules = ["test_minor_promotions_only"]\n')
    pos = parse_fen(plain, "7k/P7/8/8/8/8/8/4K3 w - - 0 1")
    assert {pos.move_text(m) for m in pos.legal_moves() if m.frm == pos.variant.geometry.index("a7")} == {
        "a7a8b", "a7a8n"}
    pooled = variant_from_toml("minor-promotions-pooled", """
        inherits = "chess"
        rules = ["test_minor_promotions_only"]
        promotion = { zones = ["rank8", "rank1"], choices = "qrbn", from_captured = true }
    """)
    assert pooled.component_names.index("captured_pool") < pooled.component_names.index("test_minor_promotions_only")
    pos = parse_fen(pooled, "7k/P7/8/8/8/8/8/4K3[QN] w - - 0 1")
    assert {pos.move_text(m) for m in pos.legal_moves() if m.frm == pooled.geometry.index("a7")} == {"a7a8n"}


# -- capabilities and errors ----------------------------------------------------------------------------
def test_capabilities_are_declared() -> None:
    chess_rules = find_variant("chess").rules
    math_rules = find_variant("mathematichess").rules
    assert chess_rules.scoring is None and chess_rules.placement is None and chess_rules.agreement is None
    assert math_rules.capabilities == {"scoring", "placement", "agreement"}
    pos = start_position(find_variant("mathematichess"))
    assert math_rules.scoring is not None and math_rules.scoring.score(pos).totals == (0, 0)
    assert math_rules.placement is not None and math_rules.placement.remaining(pos, 0)[0] == ("K", 9)


def test_controller_and_display_do_not_probe_the_rules_with_getattr() -> None:
    for path in [*ROOT.glob("controller/*.py"), *ROOT.glob("display/*.py")]:
        assert not re.search(r"getattr\([^)]*rules", path.read_text()), path


def test_every_error_class_derives_from_chessery_error() -> None:
    import importlib
    import inspect
    import pkgutil

    found = 0
    for pkg in ("engine", "controller", "display", "hardware", "firmware_bridge"):
        module = importlib.import_module(pkg)
        for info in pkgutil.walk_packages(module.__path__, f"{pkg}."):
            if ".firmware" in info.name:  # the microcontroller's own program (MicroPython)
                continue
            mod = importlib.import_module(info.name)
            for _name, cls in inspect.getmembers(mod, inspect.isclass):
                if issubclass(cls, Exception) and cls.__module__ == mod.__name__:
                    assert issubclass(cls, ChesseryError), f"{mod.__name__}.{cls.__name__}"
                    found += 1
    assert found >= 15


def test_unknown_components_and_options_are_one_line_errors() -> None:
    with pytest.raises(VariantError, match="unknown rule component 'nosuch'"):
        variant_from_toml("bad", 'inherits = "chess"\nrules = ["nosuch"]\n')
    with pytest.raises(VariantError, match="unknown option 'speed': read by none"):
        variant_from_toml("bad", 'inherits = "chess"\n[options]\nspeed = 3\n')
    with pytest.raises(VariantError, match="no rule component moves hook 'fly'"):
        variant_from_toml("bad", 'inherits = "chess"\n[pieces.X]\nhook = "fly"\n')


# -- the move builder --------------------------------------------------------------------------------------
def test_builder_derives_changes_relocations_and_victims() -> None:
    board = [0] * 8
    board[0], board[1], board[2], board[5] = 5, 9, 9, 10
    push = build_move(board, 0, 1, relocate=((0, 1), (1, 2), (2, 3)))
    assert push.changes == ((0, 5, 0), (1, 9, 5), (2, 9, 9), (3, 0, 9))  # the equal pieces count too
    assert push.victims == () and push.captured == 0
    assert push.changed_cells == {0, 1, 3}  # (cell 2 holds a like piece before and after)
    swap = build_move(board, 0, 5, relocate=((0, 5), (5, 0)))
    assert swap.changes == ((0, 5, 10), (5, 10, 5)) and swap.victims == ()
    leap = build_move(board, 0, 3, relocate=((0, 3),), remove=(1, 2))
    assert leap.victims == (1, 2) and leap.captured == 9
    grow = build_move(board, 5, 5, become=((5, 14),))
    assert grow.changes == ((5, 10, 14),) and grow.victims == ()


@pytest.mark.parametrize("seed", range(3))
def test_builder_fast_paths_give_what_the_general_path_gives(seed: int) -> None:
    # A no-op ``become`` (the piece that arrives anyway) sends a move down the general path.
    rng = random.Random(seed)
    for _ in range(5000):
        board = [rng.choice([0, 0, 9, 10, 13, 14]) for _ in range(9)]
        k = rng.choice([1, 1, 2, 3])
        srcs, dsts = rng.sample(range(8), k), rng.sample(range(8), k)
        board[srcs[0]] = rng.choice([9, 10, 13])
        remove = tuple(c for c in rng.sample(range(8), rng.choice([0, 1])) if c not in srcs) if k == 1 else ()
        reloc = tuple(zip(srcs, dsts, strict=True))
        fast = build_move(board, srcs[0], dsts[0], relocate=reloc, remove=remove)
        slow = build_move(board, srcs[0], dsts[0], relocate=reloc, remove=remove,
                          become=((dsts[0], board[srcs[0]]),))
        assert (fast.changes, fast.victims, fast.captured) == (slow.changes, slow.victims, slow.captured)


# -- commands: play and user variants --------------------------------------------------------------------
def chessery(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    import os
    return subprocess.run([sys.executable, "-m", "controller.cli", *args], capture_output=True, text=True,
                          cwd=ROOT, env={**os.environ, **(env or {})}, timeout=60)


def test_play_prints_the_position_then_the_outcome() -> None:
    done = chessery("play", "chess", "e2e4", "e7e5", "d1h5", "b8c6", "f1c4", "g8f6", "h5f7")
    assert done.returncode == 0
    assert done.stdout.splitlines() == ["r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4",
                                        "1-0 checkmate"]
    going = chessery("play", "chess", "e2e4")
    assert going.stdout.splitlines()[1] == "*"
    draw = chessery("play", "chess", "--fen", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    assert draw.stdout.splitlines()[1] == "1/2-1/2 stalemate"


def test_play_names_an_illegal_move_and_its_index() -> None:
    bad = chessery("play", "chess", "e2e4", "e7e5", "e4e5")
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.strip().splitlines() == [
        "chessery play: move 3 'e4e5' is not legal in "
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"]


def _doc_blocks() -> list[str]:
    return re.findall(r"```toml\n(.*?)```", (ROOT / "docs/variants.md").read_text(), re.S)


def test_the_documented_user_variant_works_as_the_docs_say(tmp_path: Path) -> None:
    bad, good = _doc_blocks()
    (tmp_path / "centaur.toml").write_text(good)
    path = str(tmp_path / "centaur.toml")
    assert chessery("perft", path, "1").stdout.strip() == "20"
    played = chessery("play", path, "b1c3", "g8f6", "c3d4").stdout.splitlines()
    assert played == ["rcbqkb1r/pppppppp/5n2/8/3C4/8/PPPPPPPP/R1BQKBNR b KQkq - 3 2", "*"]
    env = {"CHESSERY_VARIANTS_DIR": str(tmp_path)}
    listed = chessery("variants", env=env).stdout.splitlines()
    assert listed[-1] == "centaur" and "chess" in listed
    assert chessery("perft", "centaur", "2", env=env).stdout.strip() == "400"
    (tmp_path / "broken.toml").write_text(bad)
    err = chessery("moves", str(tmp_path / "broken.toml"))
    assert err.returncode == 2 and len(err.stderr.strip().splitlines()) == 1
    assert "piece C: unknown key 'promotion'" in err.stderr and "broken.toml" in err.stderr


def test_perft_of_the_user_variant_matches_a_direct_load(tmp_path: Path) -> None:
    _bad, good = _doc_blocks()
    (tmp_path / "centaur.toml").write_text(good)
    v = find_variant(str(tmp_path / "centaur.toml"))
    assert perft(start_position(v), 3) == 9182
