"""Royal Fury on a sensor board: a charge or a chain takes several men, lifted in any order; the
screen names the men still to come off (read from the move's own effects, nothing per variant);
a swap moves two men, also dragged across the board, also with the next player's hand at work.
Real pygame surfaces (SDL dummy driver), a real SQLite store, the generic inference core; the
project's hand model plays whole games."""

from __future__ import annotations

import os

from controller.session import Phase

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import re
from functools import cache
from pathlib import Path

import pygame
import pytest

import engine
from controller.core_types import StatusKind
from controller.inference import Decision, Event, Referee
from controller.replay import Replayer
from controller.screen import view_of
from controller.session import Session
from controller.store import GameStore
from display import theme
from display.render import Layout, render
from display.view import View, view_from_position
from firmware_bridge.script import parse_script
from tests.hand_model import Hands, game_script_with_plies
from tests.royal_fury_games import RF, random_game
from tests.session_moves import Clock

G = RF.geometry
#: White's Capricorn on c2 charges e4: the two black men next to e4 (e5, f4) fall; b2 (next to
#: its start only) stays.
SEEDS = range(6)
CHARGE = "10/10/10/10/10/4a5/5a4/10/1aC7/10 w - - 0 1"


def cells(*names: str) -> tuple[int, ...]:
    return tuple(sorted(G.index(n) for n in names))


def referee(fen: str, identity: bool = False) -> Referee:
    return Referee(engine.parse_fen(RF, fen), identity=identity)


def hand(core: Referee, clock: Clock, steps: str) -> None:
    """``steps``: "-c2 +e4" (lift c2, put a piece on e4); on an identity board ``+e4C``."""
    for step in steps.split():
        m = re.fullmatch(r"([+-])([a-j]\d+)([A-Za-z]?)", step)
        assert m is not None, step
        code = RF.parse_symbol(m[3]) if m[3] else 0
        core.event(Event(G.index(m[2]), m[1] == "+", clock(), code))


@pytest.mark.parametrize("identity", [False, True], ids=["occupancy", "identity"])
@pytest.mark.parametrize("order", ["-c2 +e4 -e5 -f4", "-c2 +e4 -f4 -e5", "-e5 -c2 +e4 -f4", "-f4 -e5 -c2 +e4"])
def test_a_charge_is_taken_in_any_order_and_the_screen_names_the_men_left(identity: bool, order: str) -> None:
    core = referee(CHARGE, identity)
    clock = Clock()
    steps = order.split()
    seen: list[str] = []
    for step in steps[:-1]:
        hand(core, clock, step + ("C" if identity and step == "+e4" else ""))
        seen.append(core.status.message)
    if steps[1] == "+e4":  # the Capricorn is down first: the men still standing are named
        assert seen[1] == "White c2e4: take off f4, e5"
        assert core.status.cells == (cells("f4") if steps[2] == "-e5" else cells("e5"))
        assert seen[2] in ("White c2e4: take off f4", "White c2e4: take off e5")
    last = steps[-1]
    hand(core, clock, last + ("C" if identity and last == "+e4" else ""))
    # (The Capricorn put down last may still charge on along its line: final once the hand has
    # let go, or at the next player's action.)
    decision = core.tick(clock(core.timing.hesitate_ms + 50))
    assert [core.position.move_text(m) for m in decision.accepted] == ["c2e4"]
    assert {G.names[c] for c in decision.accepted[0].victims} == {"e5", "f4"}
    assert core.status.kind == StatusKind.IDLE


@pytest.mark.parametrize("identity", [False, True], ids=["occupancy", "identity"])
def test_a_swap_is_two_men_changing_cells(identity: bool) -> None:
    # White's Ximaera on c3 swaps with the black Dragon on f6.
    core = referee("10/10/10/10/5d4/10/10/2X7/10/10 w - - 0 1", identity)
    clock = Clock()
    x, d = ("X", "d") if identity else ("", "")
    for step in ("-c3", "-f6", f"+f6{x}", f"+c3{d}"):
        hand(core, clock, step)
    decision = core.tick(clock(core.timing.prefix_ms + 50))
    accepted = decision.accepted or ()
    if not accepted and core.status.prompt is not None:  # occupancy: the board cannot see a swap
        accepted = core.answer(core.status.prompt.options[0].key, clock()).accepted
    assert [core.position.move_text(m) for m in accepted] == ["c3f6~"]
    assert RF.symbol(core.position.board[G.index("c3")]) == "d"


def timed(fen: str, script: str, identity: bool = False) -> list[tuple[int, str]]:
    """The moves read from ``script``: "0 -i3, 31 -h3, ..." (ms on the core's clock, then a
    ``hand`` step), the core ticked at each deadline on the way as the replayer does; each move
    with the time it was final."""
    core = referee(fen, identity)
    pos = engine.parse_fen(RF, fen)
    out: list[tuple[int, str]] = []

    def note(t: int, decision: Decision) -> None:
        for move in decision.accepted:
            out.append((t, pos.move_text(move)))
            pos.push(move)

    for item in script.split(","):
        t_text, step = item.split()
        t = int(t_text)
        while core.deadline is not None and core.deadline <= t:
            note(core.deadline, core.tick(core.deadline))
        m = re.fullmatch(r"([+-])([a-j]\d+)([A-Za-z]?)", step)
        assert m is not None, step
        note(t, core.event(Event(G.index(m[2]), m[1] == "+", t, RF.parse_symbol(m[3]) if m[3] else 0)))
    while core.deadline is not None:
        note(core.deadline, core.tick(core.deadline))
    return out


def test_a_silent_swap_is_read_while_the_next_player_holds_a_man_the_swapper_could_reach() -> None:
    # Black's Ximaera on i3 swaps with White's h3; White's hand lifts its Ximaera on h2 (which the
    # black Ximaera could also swap with) while Black's men are in the air.
    # The swap's cells are refilled: when its men left is when they were lifted, not put back.
    fen = "1ghcffchg1/1mA3dxm1/1aa1F1aa2/9a/10/10/1A1A3A2/2AA1A1Ax1/1MXDJJDXM1/1GHC1FCHG1 b - - 0 4"
    # (Read when the swap is complete, not asked about once White's hand is back: put back on
    # h2, the Ximaera leaves it open whether Black swapped with h3 or with h2.)
    assert timed(fen, "0 -i3, 31 -h3, 238 -h2, 259 +h3, 557 +i3, 700 +h2") == [(587, "i3h3~")]


def test_a_silent_swap_is_read_while_the_next_player_holds_any_man() -> None:
    # Black's Fury on e8 swaps with White's Advancer on e3 while White's hand lifts its Harpy on
    # h3. Every legal move through e3 and e8 contains the swap's (empty) signature: none of them
    # is the swap going on, so h3 is the next player's hand and the swap is read.
    fen = "1ghcf1c1g1/1mx3dxm1/1aa1f1a1a1/8a1/10/10/3J4A1/1AAAAAAX2/1MXD1JDhM1/1GHC1FCHG1 b - - 1 4"
    assert timed(fen, "0 -e3, 70 -e8, 200 +e3, 260 -h3, 300 +e8, 700 +h3") == [(500, "e8e3~")]


def test_a_charge_of_six_men_is_read_while_the_next_player_holds_a_man() -> None:
    # White's Fury e1-e8 takes six men; Black lifts its Fury on f10 before the last two are off,
    # then swaps it with the white Advancer on f4 (a silent move on an occupancy board).
    fen = "1ghcffchg1/2xdjjdxm1/maaaaaaaa1/10/10/10/5A4/1AAA1AAAA1/1MXDJJDXM1/1GHCFFCHG1 w - - 1 2"
    script = ("0 -e1, 90 -e8, 180 +e8, 300 -d8, 380 -e9, 480 -f8, 560 -f10, 680 -d9, 860 -f9, "
              "900 -f4, 960 +f4, 1080 +f10")
    # Final settle_ms after its last man is off, as any move that cannot go on.
    assert timed(fen, script) == [(890, "e1e8"), (1280, "f10f4~")]


@pytest.mark.parametrize("identity", [False, True], ids=["occupancy", "identity"])
def test_a_swapped_man_dragged_across_the_board_is_no_move_and_capture(identity: bool) -> None:
    # White's Ximaera on h3 swaps with the black Advancer on h7. Both lifted, the Advancer is
    # slid down to h3 resting on h6, h5, h4 (each for under drag_ms), then the Ximaera up to h7.
    # Resting on h6 with h3 and h7 empty, the board would read as h3h6 and the Advancer taking
    # on h6; but the board never showed the Ximaera on h6, nor h6 emptied under it.
    fen = "mghcffc1g1/2xdjjdxm1/1aaaaa2a1/6aa2/10/10/1MA2J4/2AAAAAXA1/2XD1JDhM1/1GHCFFCHG1 w - - 2 5"
    script = ("0 -h7, 28 -h3, 95 +h6a, 173 -h6, 174 +h5a, 251 -h5, 269 +h4a, 346 -h4, 355 +h3a, "
              "414 +h4X, 428 -h4, 446 +h5X, 490 -h5, 518 +h6X, 587 -h6, 595 +h7X")
    assert [text for _t, text in timed(fen, script, identity)] == ["h3h7~"]
    if identity:
        # The Advancer left on h6 for good: no man was taken off h6 (no hand emptied it), so
        # the Ximaera is still in the hand; nothing is read (before round 11: h3h6 and h7h6, a
        # capture of a man the board never showed, wrong when the swap goes on).
        assert timed(fen, "0 -h7, 28 -h3, 95 +h6a", identity) == []


def test_the_other_man_of_a_swap_dragged_home_after_the_mover_is_down_is_no_capture() -> None:
    # White's Fury e1 lands on c3 (the black Ximaera there in the hand: that reads as e1c3, a
    # capture), then the Ximaera is slid home to e1 by way of d2 (crossed by the Fury as well).
    fen = "2hc1a1hg1/2g4fm1/1mAa3FG1/1a5a2/10/7d2/3AA5/1Ax1A1AAA1/1MD1JJDXM1/3CF1CHG1 w - - 3 11"
    script = "0 -e1, 60 -c3, 130 +d2F, 200 -d2, 215 +c3F, 260 +d2x, 400 -d2, 457 +e1x"
    assert [text for _t, text in timed(fen, script, True)] == ["e1c3~"]


@pytest.mark.parametrize("gap", [0, 20, 60, 150])
def test_a_silent_swap_followed_at_once_by_a_reply_with_one_of_its_men(gap: int) -> None:
    # Black's Mimotaur h6 swaps with White's Ximaera on h2 (an occupancy board sees nothing change);
    # ``gap`` ms after the last man is down, White moves the Ximaera on from h6 to h5. Read alone,
    # that is Black's Mimotaur h6-h5 with h2 lifted and put back.
    fen = "1ghcffchg1/1mxdjjdx2/1aaaaaa3/6aa2/7m2/A9/2A3A3/3AAAA1A1/GMXDJJDXM1/2HCFFCHG1 b - - 0 5"
    script = f"0 -h6, 40 -h2, 130 +h2, 220 +h6, {220 + gap} -h6, {300 + gap} +h5"
    assert [text for _t, text in timed(fen, script)] == ["h6h2~", "h6h5"]


#: Readings of swaps and captures on a swapped cell, from the hand model's games (seeds 16, 79,
#: 78, 52 on an occupancy board): (position, script, moves read).
SWAP_READINGS = {
    # White lifts and puts back its Ximaera on c2, then swaps its Mimotaur on b2 with the black
    # Ximaera on b3 (Black lifting its Capricorn on d10 meanwhile). The board reads the same
    # swap c2-b3, but b3's man cannot have reached c2 before it left b3.
    "a man put back before a swap is not the swapped man": (
        "1ghcf1chg1/1m4dAm1/1aaxF3a1/6C3/10/10/10/1xAA1f1AA1/1MXD3XM1/1GHC1F1HG1 w - - 1 5",
        "0 -c2, 189 +c2, 454 -b2, 481 -b3, 508 -d10, 647 +b3, 736 +b2, 756 +e9, 862 -e9, 883 +f8, 1069 -e8, "
        "1340 -g7",
        ["b2b3~", "d10f8"]),
    # Black's Fury e10 swaps with White's Advancer on e3; White's Jumper g4 then takes the Fury
    # on e3 (victim off, Jumper on). That also reads as the swap with White's hand on the Jumper
    # and e3 lifted and put back: the reply uses every cell handled.
    "a capture on the cell a swap refilled is the reply": (
        "1ghcffchg1/1mxd3xm1/1aaa1F1aa1/3j6/10/10/6J3/1AAAAAAAA1/1MXDJ1DXM1/1GHCF1CHG1 b - - 0 2",
        "0 -e3, 60 -e10, 700 +e10, 1320 +e3, 1490 -e3, 1580 -g4, 1690 +e3",
        ["e10e3~", "g4e3"]),
    # White's Dragon g2 lands on f9 (taking h2, i3 and g8); Black lifts its Fury e10 and swaps it
    # with the Dragon. The board shows the chain again when f9 is refilled: f9 handled that late
    # is the swap's, not a bounce of the chain.
    "a silent swap on the cell a chain just landed on": (
        "1ghcffc1g1/1mAdj1dXm1/1aa1aaaaxh/3a2j3/10/10/3A6/1A1AAAAAa1/1MXDJJDx2/1GHCFFCHG1 w - - 2 6",
        "0 -h2, 372 -g8, 468 -i3, 521 -g2, 674 +f9, 1011 -e10, 1057 -f9, 1260 +f9, 1324 +e10",
        ["g2f9:i2:i6", "e10f9~"]),
    # Black swaps its Fury on e2 with White's Ximaera on c2 (c2's man down first) while White's
    # Fury f8 still takes its men; the swap's men handled before the Fury's move was final are
    # kept with when they were lifted (which tells the swap from c2 touched and put back).
    "a silent swap done while the move before was still open": (
        "1ghcA3g1/1mx3F1m1/1ada1F2a1/2X7/10/10/2A7/1A8/1MX1f1DaM1/1GH3CHG1 w - - 0 7",
        "0 -i8, 87 -i9, 282 -e2, 313 -i10, 346 -f8, 464 +h9, 484 -c2, 613 +c2, 789 +e2, 799 -e2, 809 +e2",
        ["f8h9", "e2c2~"]),
}


@pytest.mark.parametrize("case", list(SWAP_READINGS))
def test_swaps_are_read_in_the_hands_order_and_captures_on_their_cells_as_the_reply(case: str) -> None:
    fen, script, moves = SWAP_READINGS[case]
    assert [text for _t, text in timed(fen, script)] == moves


@cache
def scripted(seed: int, identity: bool) -> tuple[list[str], list[str], list[int]]:
    """A random game (``random_game(seed)``) and the hand model's script of it, with its plies."""
    moves = random_game(seed)
    lines, plies = game_script_with_plies(engine.start_position(RF), moves, Hands(identity=identity), seed=seed)
    return moves, lines, plies


def test_the_hand_model_lifts_the_men_of_one_move_in_differing_orders() -> None:
    in_order: list[bool] = []
    for seed in SEEDS:
        moves, lines, plies = scripted(seed, False)
        pos = engine.start_position(RF)
        for ply, text in enumerate(moves):
            move = pos.parse_move(text)
            off = [c for c in move.victims if c != move.to]
            if len(off) > 1:
                lifted = [G.index(line.split()[1]) for line, p in zip(lines, plies, strict=True)
                          if p == ply and line.startswith("lift")]
                order = [c for c in dict.fromkeys(lifted) if c in off]
                assert sorted(order) == sorted(off)
                in_order.append(order == sorted(order))
            pos.push(move)
    assert len(in_order) >= 10
    assert True in in_order and False in in_order  # in board order, and in others


def test_the_hand_models_games_swap_and_drag_swapped_men_across_the_board() -> None:
    swapped = dragged = 0
    for seed in SEEDS:
        moves, lines, plies = scripted(seed, True)
        pos = engine.start_position(RF)
        for ply, text in enumerate(moves):
            move = pos.parse_move(text)
            if len(move.relocations) == 2:
                swapped += 1
                placed = {G.index(line.split()[1]) for line, p in zip(lines, plies, strict=True)
                          if p == ply and line.startswith("place")}
                dragged += bool(placed - {c for c, _b, _a in move.changes})  # resting on a crossed cell
            pos.push(move)
    assert swapped >= 15 and dragged >= 5


@pytest.mark.parametrize("identity", [False, True], ids=["occupancy", "identity"])
@pytest.mark.parametrize("seed", SEEDS)
def test_whole_games_of_multi_captures_are_read_move_for_move(seed: int, identity: bool) -> None:
    moves, lines, _plies = scripted(seed, identity)
    end = engine.start_position(RF)
    for text in moves:
        end.push_text(text)
    assert len(moves) >= 10 and end.outcome() is not None  # played to the game's end
    r = Replayer(engine.start_position(RF), identity=identity)
    r.run(parse_script("\n".join(lines), RF))
    assert r.texts() == moves
    assert not any(d.undone for _t, d in r.log.decisions)


@pytest.mark.parametrize("identity", [False, True], ids=["occupancy", "identity"])
@pytest.mark.parametrize("seed", [21, 31])
def test_a_charge_resting_next_to_its_victim_goes_on_when_the_mover_lifts_the_victim(seed: int,
                                                                                    identity: bool) -> None:
    # The hand model's Fury slides e10 down to e4 (seed 21; e1 up to e7, seed 31), rests on the
    # cell before its victim, lifts the victim and goes on onto its cell. Resting there with the
    # victim off is also a complete shorter charge that takes it: the reading waits for the
    # hand (the piece may still go on to the cell just emptied), and the longer charge is read.
    moves = random_game(seed, swap=0.0)
    lines, _plies = game_script_with_plies(engine.start_position(RF), moves, Hands(identity=identity), seed=seed)
    r = Replayer(engine.start_position(RF), identity=identity)
    r.run(parse_script("\n".join(lines), RF))
    assert r.texts() == moves


@pytest.mark.parametrize("seed", [44, 76])
def test_a_capture_on_the_cell_a_charge_just_took_is_the_reply_not_a_swap_under_way(seed: int) -> None:
    # Black's Fury charges e10-e4 taking three white men (seed 44); White's Harpy lifts the Fury
    # and lands on e4 while the charge is still provisional (the Fury might go on). A black swap
    # through e4 could also read the Harpy as a swapped man resting on its way, but for that the
    # three white men off the board would all be in White's hand: a hand holds at most two.
    moves = random_game(seed, swap=0.0)
    lines, _plies = game_script_with_plies(engine.start_position(RF), moves, Hands(identity=False), seed=seed)
    r = Replayer(engine.start_position(RF), identity=False)
    r.run(parse_script("\n".join(lines), RF))
    assert r.texts() == moves


# -- the screen --------------------------------------------------------------------------------------

def draw(view: View) -> tuple[pygame.Surface, Layout]:
    surface = pygame.Surface((800, 480))
    return surface, render(view, surface)


def test_the_screen_lists_the_men_still_to_remove_and_marks_their_cells(tmp_path: Path) -> None:
    clock = Clock()
    store = GameStore(tmp_path / "games.sqlite3")
    session = Session(RF, store, fen=CHARGE, now=clock())
    pos = engine.parse_fen(RF, CHARGE)
    assert session.sync([1 if c else 0 for c in pos.board], clock()).phase == Phase.PLAY
    for name, down in (("c2", False), ("e4", True), ("e5", False)):
        session.event(Event(G.index(name), down, clock()))
    view = view_of(session)
    assert view.status.endswith("White c2e4: take off f4")
    assert view.highlights.pending == cells("f4")
    surface, layout = draw(view)
    assert any("take off f4" in text for text, _rect, _role in layout.texts)
    # f4's cell carries the pending border; e5's (already off) does not.
    f4, e5 = layout.cells[G.index("f4")], layout.cells[G.index("e5")]
    blue = theme.PENDING[0]
    assert surface.get_at((f4.left + 1, f4.centery))[:3] == blue
    assert surface.get_at((e5.left + 1, e5.centery))[:3] != blue
    session.event(Event(G.index("f4"), False, clock()))
    session.tick(clock(500))
    record = store.latest()
    assert record is not None and record.moves == ("c2e4",)


def test_every_man_is_drawn_as_its_letter_in_its_sides_colours() -> None:
    pos = engine.start_position(RF)
    view = view_from_position(pos)
    surface, layout = draw(view)
    sides = tuple(RF.sides)
    sprites: dict[str, bytes] = {}
    for name, letter in (("b3", "A"), ("e2", "J"), ("b1", "G"), ("c2", "X"), ("d2", "D"), ("d1", "C"),
                         ("c1", "H"), ("b2", "M"), ("e1", "F"), ("b10", "g"), ("e10", "f")):
        piece = view.pieces[G.index(name)]
        assert piece is not None and piece.letter == letter.upper() and not piece.standard
        side = 0 if letter.isupper() else 1
        fill, outline = theme.side_colours(sides, side)
        rect = layout.cells[G.index(name)]
        colours = {tuple(surface.get_at((x, y))[:3]) for x in range(rect.left, rect.right)
                   for y in range(rect.top, rect.bottom)}
        assert fill in colours and outline in colours, name
        sprites[letter] = pygame.image.tobytes(surface.subsurface(rect).copy(), "RGB")
    # Nine kinds, nine different pictures for White.
    assert len({sprites[k] for k in "AJGXDCHMF"}) == 9
    # The panel's legend names the nine men, each next to its disc.
    texts = [text for text, _rect, _role in layout.texts]
    assert texts[-9:] == ["advancer", "jumper", "gorgon", "ximaera", "dragon", "capricorn", "harpy", "mimotaur",
                          "fury"]
