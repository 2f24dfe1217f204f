"""The tournament options of ``chessery run`` (notation on stdout, time control, the demo guard),
kept apart from the service's own options so that the service module stays about the service."""

from __future__ import annotations

import argparse
from typing import Any


def add_run_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--notation", choices=("uci", "san"),
                   help="how accepted moves are printed on stdout (default: uci, the engine's move text)")
    p.add_argument("--time-control", metavar="TC",
                   help='chess clock, e.g. "5+3", "90+30", "40/90+30,30+30", "5d3" (delay); "none" for no clock')
    p.add_argument("--demo", action="store_true",
                   help="with --kiosk: play the demo on the simulated board when no port is configured")


def kiosk_overrides(args: argparse.Namespace) -> dict[str, Any]:
    """Config keys the tournament options set."""
    over: dict[str, Any] = {}
    notation = args.notation
    if notation:
        over["notation"] = notation
    tc = args.time_control
    if tc:
        from .clock import parse_time_control

        over["time_control"] = "" if tc == "none" else parse_time_control(tc).text
    return over
