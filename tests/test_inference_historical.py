"""Every one of 60 real games, played by the hand model of ``tests/hand_model.py`` (drags,
bounces, captures both ways, castling both ways, en passant, promotions in every order, fast
replies, overlapping hands; seeded), goes through ``chessery replay`` on both board kinds and
comes out move for move -- final moves only, none ever taken back. The same with hesitant hands
(half the moves made with pauses: up to 1.5 s on each crossed cell, up to 2.5 s between a
castling's pieces, the king resting on the cell it crosses, the victim lifted after a pause)."""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path

import pytest

import engine
from controller.cli import main
from controller.replay import Replayer
from firmware_bridge.script import parse_script
from firmware_bridge.simboard import SimBoard
from tests.hand_model import Hands, game_script
from tests.historical_games import historical_games

CHESS = engine.find_variant("chess")
GAMES = historical_games()

def test_the_games_cover_every_kind_of_move() -> None:
    assert len(GAMES) == 60 and sum(map(len, GAMES)) == 4460
    kinds = {"castle": 0, "promotion": 0, "en passant": 0, "capture": 0}
    for moves in GAMES:
        pos = engine.start_position(CHESS)
        for text in moves:
            move = pos.parse_move(text)
            kinds["castle"] += len([r for r in move.relocations if r[0] != r[1]]) == 2
            kinds["promotion"] += bool(move.promotion)
            kinds["en passant"] += len(move.changes) == 3
            kinds["capture"] += any(b and a and c not in {s for s, _d in move.relocations}
                                    for c, b, a in move.changes) or len(move.changes) == 3
            pos.push(move)
    assert kinds["castle"] >= 90 and kinds["promotion"] >= 5 and kinds["en passant"] >= 1
    assert kinds["capture"] >= 900

#: Hesitant hands: half the moves made with pauses.
HESITANT = 0.5


@pytest.mark.slow
@pytest.mark.parametrize("hesitant", [0.0, HESITANT], ids=["quick", "hesitant"])
@pytest.mark.parametrize("identity", [False, True], ids=["occupancy", "identity"])
@pytest.mark.parametrize("n", range(len(GAMES)))
def test_a_real_game_replays_move_for_move(n: int, identity: bool, hesitant: float, tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    moves = GAMES[n]
    lines = game_script(engine.start_position(CHESS), moves, Hands(identity=identity, hesitant=hesitant), seed=n)
    commands = parse_script("\n".join(lines), CHESS)
    board = SimBoard(CHESS, identity=identity)
    try:
        board.check_script(commands)  # hands that a real board allows: no piece onto a piece
    finally:
        board.stop()
    script = tmp_path / f"game{n}.txt"
    script.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["replay", "chess", str(script)]) == 0
    out, err = capsys.readouterr()
    assert out.split() == list(moves)
    assert err == ""
    # Final moves only: nothing recorded was ever taken back.
    r = Replayer(engine.start_position(CHESS), identity=identity)
    r.run(commands)
    assert not any(d.undone for _t, d in r.log.decisions)

def test_the_hand_model_makes_every_habit_it_claims() -> None:
    """Over the 60 games: overlapping hands, fast replies, drags, bounces, both capture orders,
    both castling orders, and promotions in all three orders do occur (seeded, so always)."""
    from tests.hand_model import game_script_with_plies

    seen = {"overlap": 0, "fast": 0, "drag": 0, "bounce": 0, "victim first": 0, "attacker first": 0,
            "rook first": 0, "king first": 0, "promotion piece first": 0, "promotion pawn first": 0,
            "promotion pawn then piece": 0}
    for n, moves in enumerate(GAMES):
        lines, plies = game_script_with_plies(engine.start_position(CHESS), moves, Hands(), seed=n)
        by_ply: dict[int, list[str]] = {}
        last_line: dict[int, int] = {}
        first_line: dict[int, int] = {}
        for i, (line, ply) in enumerate(zip(lines, plies, strict=True)):
            if ply >= 0:
                by_ply.setdefault(ply, []).append(line)
                last_line[ply] = i
                first_line.setdefault(ply, i)
        pos = engine.start_position(CHESS)
        names = CHESS.geometry.names
        for ply, text in enumerate(moves):
            move = pos.parse_move(text)
            events = by_ply[ply]
            if ply + 1 in first_line and first_line[ply + 1] < last_line[ply]:
                seen["overlap"] += 1
            gap = [line for line in lines[last_line[ply] + 1:first_line.get(ply + 1, 0)] if line.startswith("sleep")]
            if ply + 1 in first_line and first_line[ply + 1] > last_line[ply] and sum(
                    int(g.split()[1]) for g in gap) < 60:
                seen["fast"] += 1
            cells = {names[c] for c, _b, _a in move.changes}
            if any(e.split()[1] not in cells for e in events if e.startswith("place")):
                seen["drag"] += 1
            if any(a.startswith("place") and b.startswith("lift") and a.split()[1] == b.split()[1] and
                   c.startswith("place") and c.split()[1] == a.split()[1]
                   for a, b, c in zip(events, events[1:], events[2:], strict=False)):
                seen["bounce"] += 1
            relocs = [(s, d) for s, d in move.relocations if s != d]
            victims = [c for c, b, _a in move.changes if b and c not in {s for s, _d in relocs}]
            first_lift = next(e.split()[1] for e in events if e.startswith("lift"))
            if victims and not move.promotion:
                seen["victim first" if first_lift == names[victims[0]] else "attacker first"] += 1
            if len(relocs) == 2:
                king = names[move.frm]
                seen["king first" if first_lift == king else "rook first"] += 1
            if move.promotion:
                target = names[relocs[0][1]]
                places = [e for e in events if e.startswith("place")]
                pawn_lift = events.index(f"lift {names[relocs[0][0]]}")
                if len(places) > 1:
                    seen["promotion pawn then piece"] += 1
                elif events.index(f"place {target}") < pawn_lift:
                    seen["promotion piece first"] += 1
                else:
                    seen["promotion pawn first"] += 1
            pos.push(move)
    assert all(count > 0 for count in seen.values()), seen
    assert seen["overlap"] > 300 and seen["fast"] > 300


def test_the_hesitant_hands_make_every_pause_they_claim() -> None:
    """Over the 60 games with hesitant hands: slides pausing over a second on crossed cells
    (several in one move, too), rook-first castlings with over two seconds before the king, the
    king resting on the cell it crosses, and the victim lifted after a pause next to it."""
    from tests.hand_model import MAX_PAUSE_MS, MAX_PIECE_PAUSE_MS, game_script_with_plies

    names = CHESS.geometry.names
    seen = {"long rest on a crossed cell": 0, "several long rests": 0, "rook first, long pause": 0,
            "king rests on its crossed cell": 0, "victim lifted after a pause": 0}
    longest = {"rest": 0, "castling gap": 0}
    for n, moves in enumerate(GAMES):
        lines, plies = game_script_with_plies(engine.start_position(CHESS), moves, Hands(hesitant=HESITANT), seed=n)
        timed: dict[int, list[tuple[int, str]]] = {}
        t = 0
        for line, ply in zip(lines, plies, strict=True):
            t += int(line.split()[1]) if line.startswith("sleep") else 10
            if ply >= 0:
                timed.setdefault(ply, []).append((t, line))
        pos = engine.start_position(CHESS)
        for ply, text in enumerate(moves):
            move = pos.parse_move(text)
            events = timed[ply]
            cells = {names[c] for c, _b, _a in move.changes}
            rests = [(b[0] - a[0], a[1].split()[1]) for a, b in pairwise(events)
                     if a[1].startswith("place") and b[1] == f"lift {a[1].split()[1]}" and a[1].split()[1] not in cells]
            long_rests = [r for r in rests if r[0] > 1000]
            seen["long rest on a crossed cell"] += bool(long_rests)
            seen["several long rests"] += len([r for r in rests if r[0] > 400]) > 1
            longest["rest"] = max([longest["rest"], *(r for r, _c in rests)])
            relocs = [(s, d) for s, d in move.relocations if s != d]
            if len(relocs) == 2:
                king, rook = names[move.frm], names[next(s for s, _d in relocs if s != move.frm)]
                king_lift = next(e for e in events if e[1] == f"lift {king}")
                rook_down = next((e for e in reversed(events[:events.index(king_lift)]) if e[1].startswith("place")),
                                 None)
                if rook_down is not None and events[0][1] == f"lift {rook}":
                    gap = king_lift[0] - rook_down[0]
                    longest["castling gap"] = max(longest["castling gap"], gap)
                    seen["rook first, long pause"] += gap > 2000
                crossed = names[(move.frm + move.to) // 2]  # (f1 or d1, f8 or d8)
                king_rests = [b[0] - a[0] for a, b in pairwise(events)
                              if a[1] == f"place {crossed}" and b[1] == f"lift {crossed}"]
                seen["king rests on its crossed cell"] += any(r > 400 for r in king_rests)
            victims = [names[c] for c, b, _a in move.changes if b and c not in {s for s, _d in relocs}]
            if victims and rests:
                lift_victim = next((e for e in events if e[1] == f"lift {victims[0]}"), None)
                rest_end = [e for e in events if e[1].startswith("place") and e[1].split()[1] not in cells]
                if lift_victim is not None and rest_end and lift_victim[0] - rest_end[-1][0] > 200 and \
                        lift_victim[0] > rest_end[-1][0]:
                    seen["victim lifted after a pause"] += 1
            pos.push(move)
    assert all(count > 0 for count in seen.values()), seen
    assert 1000 < longest["rest"] <= MAX_PAUSE_MS and 2000 < longest["castling gap"] <= MAX_PIECE_PAUSE_MS, longest
