"""Service commands: ``run`` (the referee service), ``replay`` (an event script straight into the
decision core), ``export`` (a stored game as PGN), ``layouts``.

Output contracts: ``replay`` prints the game's moves, one per line, in the engine's notation (the
moves that stand at the end of the script: a takeback replaces what it undid);
``--trace`` adds what the player would have been told, on stderr (provisional readings marked
``(provisional)``, questions); only final moves ever reach stdout. ``run --headless`` prints
``frame: PATH`` first, then each accepted move alone on a line as it is committed, and
``undo MOVE`` when a move is taken back (final moves are never corrected).
"""

from __future__ import annotations

import argparse
import sys


def cmd_replay(args: argparse.Namespace) -> int:
    import engine
    from firmware_bridge.script import load_script

    from .replay import Replayer, script_uses_identity

    variant = engine.find_variant(args.variant)
    commands = load_script(args.script, variant)
    pos = engine.parse_fen(variant, args.fen) if args.fen else engine.start_position(variant)
    identity = args.identity or script_uses_identity(commands)

    last = [None]

    def trace(t: int, decision) -> None:
        # Provisional readings and questions go to stderr; final moves only ever to stdout.
        status = decision.status
        if decision.note and decision.note not in status.message:
            print(f"{t:>8} ms  {decision.note}", file=sys.stderr)
        if status != last[0]:
            last[0] = status
            print(f"{t:>8} ms  [{status.kind}] {status.message}", file=sys.stderr)

    def warn(message: str) -> None:
        print(f"chessery replay: {message}", file=sys.stderr)

    replayer = Replayer(pos, identity=identity, source=str(args.script),
                        on_decision=trace if args.trace else None, on_warning=warn)
    for text in replayer.run(commands):
        print(text)
    status = replayer.core.status
    if status.kind not in ("idle",):
        print(f"chessery replay: at the end of the script: {status.message}", file=sys.stderr)
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    from .pgn import export_pgn
    from .store import GameStore

    with GameStore(args.db) as store:
        game = store.game(args.game) if args.game is not None else store.latest()
        if game is None:
            raise ValueError(f"{store.path}: no games yet")
        text = export_pgn(game)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


def cmd_layouts(args: argparse.Namespace) -> int:
    from hardware.layout import layout_names, load_layout

    for name in layout_names():
        layout = load_layout(name)
        print(f"{name}\t{layout.sensors} sensors on {len(layout.boards)} board(s)\t{layout.title}")
    return 0


def cmd_run(args: argparse.Namespace) -> int:
    from .service import run_service

    return run_service(args)


def add_commands(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("run", help="the referee service (no --port: a simulated board plays a demo game)",
                       description="Referee games on a sensor board. Without a port (here or in the "
                                   "configuration) the built-in simulated board plays a demo game over a real "
                                   "pseudo-terminal.")
    p.add_argument("--variant", help="variant to play (default: configuration, else chess)")
    p.add_argument("--port", action="append", help="serial URL of the board; repeat for a multi-board set")
    p.add_argument("--layout", help="layout name or file mapping sensors to cells")
    p.add_argument("--orientation", type=int, choices=(0, 180), help="180 when the board is turned round")
    p.add_argument("--headless", action="store_true", help="no screen: print moves, keep the frame in a PNG")
    p.add_argument("--kiosk", action="store_true", help="fullscreen without a desktop (a Pi's own screen)")
    p.add_argument("--db", help="games database file (default: in the user data folder)")
    p.add_argument("--config", help="configuration file (default: in the user config folder, if present)")
    p.add_argument("--frame", help="PNG file for the headless frame")
    p.add_argument("--answers", help="answer prompts from this event script's choose lines, in order, "
                                     "like a player at the screen (demos and tests)")
    p.add_argument("--demo-moves", help="demo game moves, space separated (default: a built-in game)")
    p.add_argument("--exit-when-done", action="store_true",
                   help="end once the demo script is played and the game is over or idle (headless demos)")
    p.add_argument("--no-gpio", action="store_true", help="do not touch GPIO")
    p.set_defaults(handler=cmd_run)

    p = sub.add_parser("replay", help="feed an event script into the decision core; print the accepted moves",
                       description="Replay an event script (lift CELL, place CELL [PIECE], sleep MS, choose "
                                   "ANSWER) on its own clock and print the game's moves, one per line.")
    p.add_argument("variant")
    p.add_argument("script")
    p.add_argument("--fen", help="start position (default: the variant's start)")
    p.add_argument("--identity", action="store_true",
                   help="an identity board (implied when the script names pieces on placements)")
    p.add_argument("--trace", action="store_true", help="also print what the player is told, on stderr")
    p.set_defaults(handler=cmd_replay)

    p = sub.add_parser("export", help="a stored game as PGN (default: the latest)")
    p.add_argument("--db", help="games database file (default: in the user data folder)")
    p.add_argument("--game", type=int, help="game number (default: the latest)")
    p.add_argument("--out", help="write to this file instead of stdout")
    p.set_defaults(handler=cmd_export)

    p = sub.add_parser("layouts", help="the shipped board layouts")
    p.set_defaults(handler=cmd_layouts)
