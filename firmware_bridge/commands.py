"""The ``sim-board`` command: a simulated sensor board on a pseudo-terminal.

Output contract: the first line of stdout is the path the host opens (flushed at once; it is a
stable symlink to the pty, so it survives a simulated unplug), then the script plays. A game on
two boards played as two boards on two ports (``--split``, and always with ``--protocol
dgt|millennium``, whose boards have 64 squares) prints one path a line, board A's first
(``--link PATH``: ``PATH.1``, ``PATH.2``). When the
script is done, a line ``done`` follows; the board keeps serving (heartbeats, snapshots, lights)
until interrupted or, with ``--linger MS``, for that long; with ``--while-stdin-open`` it also
stops (at any point) when its standard input reaches its end, so a board started by a process
that dies, even by ``kill -9``, does not outlive it.

``--protocol dgt|millennium`` plays the script as a DGT or Millennium board instead
(``firmware_bridge.boards.emulators``, docs/boards.md), with the same output contract.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import threading
from typing import Any


def _nonnegative(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"bad number {text!r}: not a whole number") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"bad number {text!r}: must be 0 or more")
    return value


def cmd_sim_board(args: argparse.Namespace) -> int:
    import engine

    from .faults import parse_faults
    from .script import load_script
    from .simboard import SimBoard

    # Everything that can be wrong with the arguments fails before the path is printed.
    faults = parse_faults(args.faults)
    variant = engine.find_variant(args.variant)
    commands = load_script(args.script, variant)
    boards = len(set(variant.geometry.board_of))
    # A maker's board has 64 squares: a game on two boards needs two of them.
    split = boards > 1 and (args.split or args.protocol != "chessery")

    def make(link: str | None, cells: list[int] | None = None) -> Any:
        if args.protocol == "chessery":
            return SimBoard(variant, identity=args.identity, empty=args.empty, faults=faults, seed=args.seed,
                            link_path=link, debounce_ms=args.debounce_ms, heartbeat_ms=args.heartbeat_ms,
                            cells=cells)
        from .boards.emulators import EMULATORS

        options: dict[str, Any] = {}
        if args.protocol == "dgt":
            options = {"revelation": args.revelation, "clock": (2, 2) if args.dgt_clock else None}
        return EMULATORS[args.protocol](args.variant, faults=faults, seed=args.seed, link_path=link,
                                        scan_ms=args.scan_ms, turned=args.turned, empty=args.empty, cells=cells,
                                        **options)

    board: Any
    if split:
        from .board_set import BoardSet, check_set_faults

        check_set_faults(faults)
        board = BoardSet(variant, lambda i, cells: make(args.link and f"{args.link}.{i + 1}", cells))
    else:
        board = make(args.link)
    board.check_script(commands, source=str(args.script))
    stop = threading.Event()

    def on_signal(signum: int, frame: object) -> None:
        stop.set()

    previous = signal.signal(signal.SIGTERM, on_signal)
    if args.while_stdin_open:
        # The process that started this board may die without a word (kill -9): the OS closes
        # its end of our stdin then, which is the one notice that always comes.
        threading.Thread(target=_stop_at_eof, args=(stop,), name="stdin watch", daemon=True).start()
    board.start()
    try:
        print("\n".join(board.paths) if split else board.path, flush=True)
        board.start_script(commands, wait_for_host=not args.no_wait)
        while not stop.is_set() and not board.done.wait(0.1):
            pass
        if board.error is not None:
            raise board.error
        if board.done.is_set():
            print("done", flush=True)
        stop.wait(None if args.linger is None else args.linger / 1000)
    finally:
        board.stop()
        signal.signal(signal.SIGTERM, previous)
        sys.stdout.flush()
    return 0


def _stop_at_eof(stop: threading.Event) -> None:
    # The raw descriptor, not sys.stdin: a daemon thread blocked inside a buffered reader makes
    # the interpreter's shutdown fail loudly ("could not acquire lock ... <stdin>").
    try:
        while os.read(0, 4096):
            pass
    except OSError:
        pass
    stop.set()


def add_commands(sub: argparse._SubParsersAction) -> None:
    from .faults import FAULT_HELP

    p = sub.add_parser(
        "sim-board",
        help="simulated sensor board on a pty: prints the port path on its first line, then plays a script",
        description="Open a pseudo-terminal that speaks the sensor-board protocol (docs/protocol.md), print "
                    "its path on the first line, wait for a host to connect, then play the event script "
                    "(lines: lift CELL, place CELL [PIECE], sleep MS, choose ANSWER, # comment).",
    )
    p.add_argument("--variant", required=True, help="variant whose cell names the script uses")
    p.add_argument("--protocol", choices=("chessery", "dgt", "millennium"), default="chessery",
                   help="speak as our own firmware (default), a DGT e-board or a Millennium ChessLink "
                        "(8x8 games; docs/boards.md)")
    p.add_argument("--split", action="store_true",
                   help="a game on several boards (Alice): one pty per board, each path on its own line "
                        "(always so with --protocol dgt/millennium; without it our own protocol serves all "
                        "cells on one pty)")
    p.add_argument("--scan-ms", type=float, help="dgt/millennium: full scan period (default 220 / 41)")
    p.add_argument("--turned", action="store_true", help="dgt/millennium: the board stands turned round")
    p.add_argument("--revelation", action="store_true", help="dgt: a Revelation II (square lights)")
    p.add_argument("--dgt-clock", action="store_true", help="dgt: a DGT 3000 clock plugged into the board")
    p.add_argument("--script", required=True, help="event script file")
    p.add_argument("--identity", action="store_true", help="report which piece stands on a cell (FEN letters)")
    p.add_argument("--faults", default="", help=FAULT_HELP)
    p.add_argument("--seed", type=int, default=0, help="seed for every random fault (default 0)")
    p.add_argument("--empty", action="store_true", help="start with an empty board instead of the start position")
    p.add_argument("--link", help="path of the stable symlink to create (default: in a new temporary directory)")
    p.add_argument("--no-wait", action="store_true", help="play at once instead of waiting for a host")
    p.add_argument("--linger", type=_nonnegative, help="after the script, keep serving this many ms (default: "
                                                       "until interrupted)")
    p.add_argument("--while-stdin-open", action="store_true",
                   help="stop when standard input reaches its end (the process that started the board is gone)")
    p.add_argument("--debounce-ms", type=_nonnegative, default=10, help="firmware debounce time (default 10)")
    p.add_argument("--heartbeat-ms", type=_nonnegative, default=250, help="heartbeat interval (default 250)")
    p.set_defaults(handler=cmd_sim_board)
