"""The ``chessery`` command. Each package contributes its subcommands through an
``add_commands(subparsers)`` function; heavy imports happen inside the handlers so that
``chessery variants`` stays instant."""

from __future__ import annotations

import argparse
import importlib
import os
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
    "controller.hall_server",
)


class UsageError(ChesseryError):
    """A bad argument: printed as one line on stderr, exit status 2."""


class _Parser(argparse.ArgumentParser):
    """argparse with a one-line error (no usage dump): scripts read stderr."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: {message}\n")


class _CommandParser(_Parser):
    """A subcommand's parser: its positionals and options may come in any order, as the README
    writes them (`chessery play VARIANT --fen F MOVE...`): plain argparse gives a ``nargs="*"``
    positional its (empty) share before ``--fen`` and then calls the moves unrecognized. A command
    with a positional argparse cannot intermix (nested subcommands, REMAINDER) parses the plain way."""

    _parsing = False

    def parse_known_args(self, args=None, namespace=None):  # type: ignore[no-untyped-def]
        # parse_known_intermixed_args calls back here twice (positionals off, then options off).
        if self._parsing or any(a.nargs in (argparse.PARSER, argparse.REMAINDER)
                                for a in self._get_positional_actions()):
            return super().parse_known_args(args, namespace)
        self._parsing = True
        try:
            return self.parse_known_intermixed_args(args, namespace)
        finally:
            self._parsing = False


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="chessery", description="Referee for a physical chess board.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_CommandParser)
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
        status = int(args.handler(args) or 0)
        sys.stdout.flush()  # a reader that left shows here, inside the handling below
        return status
    except BrokenPipeError:
        # `chessery perft ... --divide | head -1`: the reader left, which is how a Unix tool is
        # used, not an error. (Caught before OSError, its base.) Point stdout at devnull so the
        # interpreter's own flush at exit does not fail again (Python's documented recipe).
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except (ChesseryError, ValueError, OSError) as exc:
        print(f"chessery {args.command}: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
