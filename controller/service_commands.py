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

    from .core_types import StatusKind
    from .replay import Replayer, script_uses_identity

    variant = engine.find_variant(args.variant)
    commands = load_script(args.script, variant)
    pos = engine.parse_game_fen(variant, args.fen) if args.fen else engine.start_position(variant)
    identity = args.identity or script_uses_identity(commands)

    last = [None]

    def trace(t: int, decision) -> None:
        # Provisional readings and questions go to stderr; final moves only ever to stdout.
        status = decision.status
        if decision.note and decision.note not in status.message:
            print(f"{t:>8} ms  {decision.note}", file=sys.stderr)
        if status != last[0]:
            last[0] = status
            print(f"{t:>8} ms  [{status.kind.value}] {status.message}", file=sys.stderr)

    def warn(message: str) -> None:
        print(f"chessery replay: {message}", file=sys.stderr)

    replayer = Replayer(pos, identity=identity, source=str(args.script),
                        on_decision=trace if args.trace else None, on_warning=warn)
    for text in replayer.run(commands):
        print(text)
    status = replayer.core.status
    if status.kind != StatusKind.IDLE:
        print(f"chessery replay: at the end of the script: {status.message}", file=sys.stderr)
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    from .config import load_config
    from .export import event_pgn, export_name, export_to_usb, game_pgn
    from .store import GameStore

    config = load_config(args.config)
    db = args.db or config.db or None
    with GameStore(db, readonly=True) as store:
        game = None
        if args.all:
            demo = None if args.demo == "with" else args.demo == "only"
            if not store.game_ids(args.variant, demo):
                raise ValueError(f"{store.path}: no games{f' of {args.variant}' if args.variant else ''} yet"
                                 + (" (demo games are left out: --demo with)" if demo is False and
                                    store.game_ids(args.variant, True) else ""))
            text = event_pgn(store, config, variant=args.variant, demo=demo)
        else:
            game = store.game(args.game) if args.game is not None else store.latest()
            if game is None:
                raise ValueError(f"{store.path}: no games yet")
            text = game_pgn(store, game, config)
    if args.usb:
        path = export_to_usb(text, export_name(game), args.root)
        print(f"chessery export: written to {path}", file=sys.stderr)
    elif args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


def cmd_status(args: argparse.Namespace) -> int:
    import json

    from .config import load_config
    from .status import ServiceState, StatusError, find_path, format_status, read_status, service_state

    path = args.status_file or load_config(args.config).status_file or find_path()
    from pathlib import Path

    try:
        data = read_status(Path(path))
    except StatusError as exc:
        print(f"chessery status: {exc}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(data, indent=1))
    else:
        print("\n".join(format_status(data)))
    return 0 if service_state(data) is ServiceState.RUNNING else 1


def cmd_layouts(args: argparse.Namespace) -> int:
    from hardware.layout import layout_names, load_layout

    for name in layout_names():
        layout = load_layout(name)
        print(f"{name}\t{layout.sensors} sensors on {len(layout.boards)} board(s)\t{layout.title}")
    return 0


def cmd_run(args: argparse.Namespace) -> int:
    from .unattended import run_guarded

    return run_guarded(args)


def add_commands(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("run", help="the referee service (no --port: a simulated board plays a demo game)",
                       description="Referee games on a sensor board. Without a port (here or in the "
                                   "configuration) the built-in simulated board plays a demo game over a real "
                                   "pseudo-terminal.")
    p.add_argument("--variant", help="variant to play (default: configuration, else chess)")
    p.add_argument("--port", action="append", help="serial URL of the board; repeat for a multi-board set")
    p.add_argument("--board", choices=("chessery", "dgt", "millennium"),
                   help="kind of board on the port (default: configuration, else chessery; docs/boards.md)")
    p.add_argument("--layout", help="layout name or file mapping sensors to cells")
    p.add_argument("--orientation", type=int, choices=(0, 180), help="180 when the board is turned round")
    p.add_argument("--headless", action="store_true", help="no screen: print moves, keep the frame in a PNG")
    p.add_argument("--kiosk", action="store_true", help="fullscreen without a desktop (a Pi's own screen)")
    p.add_argument("--db", help="games database file (default: in the user data folder)")
    p.add_argument("--config", help="configuration file (default: in the user config folder, if present)")
    p.add_argument("--frame", help="PNG file for the headless frame")
    p.add_argument("--status-file", help="file to keep the service's status in, for chessery status "
                                         "(default: in the user runtime folder)")
    p.add_argument("--answers", help="answer prompts from this event script's choose lines, in order, "
                                     "like a player at the screen (demos and tests)")
    p.add_argument("--demo-moves", help="demo game moves, space separated (default: a built-in game)")
    p.add_argument("--exit-when-done", action="store_true",
                   help="end once the demo script is played and the game is over or idle (headless demos)")
    p.add_argument("--no-gpio", action="store_true", help="do not touch GPIO")
    from .players import add_player_options
    from .run_options import add_run_options

    add_run_options(p)
    add_player_options(p)
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
    p.add_argument("--all", action="store_true", help="every stored game (a whole event), oldest first")
    p.add_argument("--variant", help="with --all: only games of this variant")
    p.add_argument("--demo", choices=("without", "with", "only"), default="without",
                   help="with --all: the built-in demo's games (default: without)")
    p.add_argument("--usb", action="store_true", help="write to the first mounted USB stick")
    p.add_argument("--root", default="/", help=argparse.SUPPRESS)  # tests: a fake /proc and /sys
    p.add_argument("--config", help="configuration file (event tags; default: in the user config folder)")
    p.set_defaults(handler=cmd_export)

    p = sub.add_parser("status", help="the running service: link state, error counters, boot id, last snapshot",
                       description="Show the state of the running service from the status file it rewrites "
                                   "every few seconds. Exit status 0 while it runs, 1 when it is stopped, stale "
                                   "or not found.")
    p.add_argument("--status-file", help="the service's status file (default: configuration, else the user "
                                         "runtime folder)")
    p.add_argument("--config", help="configuration file whose status_file to read")
    p.add_argument("--json", action="store_true", help="the status file as it is (JSON)")
    p.set_defaults(handler=cmd_status)

    p = sub.add_parser("layouts", help="the shipped board layouts")
    p.set_defaults(handler=cmd_layouts)
