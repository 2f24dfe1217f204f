"""The ``score`` command: territory scores of a position. The output format is an interface
(scripts and testers parse it); it is described in the command's help and in
docs/rules/mathematichess.md."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine import Variant
    from engine.territory_scoring import Score

FORMAT = """\
output, one line each, fields separated by single spaces:
  CELLS OWNER WHITE BLACK FLAGS   one line per territory, ordered by its first cell;
                                  CELLS comma-separated (a1 first), OWNER white|black|shared,
                                  WHITE/BLACK the points it gives each side, FLAGS a comma-
                                  separated subset of secured,homogeneous,royal or '-'
  bonus NAME SIDE POINTS          one line per bonus won (four_sovereign, homogeneous, two_royal)
  total WHITE BLACK               always the last line: each side's total, bonuses included"""


def score_lines(variant: Variant, score: Score) -> list[str]:
    """The ``score`` command's lines for a computed score."""
    names = variant.geometry.names
    sides = variant.sides
    lines = []
    for t in score.territories:
        flags = [name for name, on in (("secured", t.secured), ("homogeneous", t.homogeneous >= 0),
                                       ("royal", t.royal)) if on]
        owner = "shared" if t.owner is None else sides[t.owner]
        lines.append(f"{','.join(names[c] for c in t.cells)} {owner} {t.points[0]} {t.points[1]} "
                     f"{','.join(flags) or '-'}")
    for name, side, points in score.bonuses:
        lines.append(f"bonus {name} {sides[side]} {points}")
    lines.append(f"total {score.totals[0]} {score.totals[1]}")
    return lines


def cmd_score(args: argparse.Namespace) -> int:
    from engine import find_variant, parse_game_fen, start_position

    variant = find_variant(args.variant)
    scoring = variant.rules.scoring
    if scoring is None:
        raise ValueError(f"variant {variant.name} has no territory scores")
    pos = parse_game_fen(variant, args.fen) if args.fen else start_position(variant)
    for line in score_lines(variant, scoring.score(pos)):
        print(line)
    return 0


def add_commands(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("score", help="territory scores of a position; the last line is the totals",
                       description="Territory scores of a position (Mathematichess).", epilog=FORMAT,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("variant")
    p.add_argument("--fen", help="position (default: the variant's start)")
    p.set_defaults(handler=cmd_score)
