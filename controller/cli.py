"""The ``chessery`` command. Each package contributes its subcommands through an
``add_commands(subparsers)`` function; heavy imports happen inside the handlers so that
``chessery variants`` stays instant."""

from __future__ import annotations

import argparse
import importlib
import sys

from engine.errors import ChesseryError

#: Modules that contribute subcommands, in help order.
COMMAND_MODULES = (
    "controller.engine_commands",
    "controller.uci_commands",
    "firmware_bridge.commands",
    "display.commands",
    "controller.score_commands",
    "controller.service_commands",
)


class UsageError(ChesseryError):
    """A bad argument: printed as one line on stderr, exit status 2."""


class _Parser(argparse.ArgumentParser):
    """argparse with a one-line error (no usage dump): scripts read stderr."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="chessery", description="Referee for a physical chess board.")
    sub = parser.add_subparsers(dest="command", required=True)
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name == name:
                continue  # a package whose commands are not written yet
            raise
        module.add_commands(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.handler(args) or 0)
    except (ChesseryError, ValueError, OSError) as exc:
        print(f"chessery {args.command}: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # `chessery moves ... | head`: the reader left; that is not an error worth a traceback.
        import os
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(main())
