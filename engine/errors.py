"""Every error class of the engine, with the project's root exception.

Every error class in Chessery derives from ``ChesseryError`` and also from the builtin that says
what kind of error it is (``ValueError`` for bad input, ``ConnectionError`` for a lost link), the
way gpiozero pairs ``GPIOZeroError`` with builtins: callers may catch either. The root lives in
the engine because the engine is the one package every other package may import without
reversing the data flow. The engine's own errors live here too, in a module that imports nothing,
so any engine module can raise any of them without importing the module that usually does.
"""


class ChesseryError(Exception):
    """Base of every error Chessery raises on purpose."""


class GeometryError(ChesseryError, ValueError):
    """A geometry description that cannot be built."""


class NotationError(ChesseryError, ValueError):
    """A piece notation that does not parse."""


class VariantError(ChesseryError, ValueError):
    """A variant definition (or name) that cannot be used."""


class PositionError(ChesseryError, ValueError):
    """A position text that does not describe a position of the variant."""


class IllegalMoveError(ChesseryError, ValueError):
    """A move text that matches no legal move in the position."""


class AgreementError(ChesseryError, ValueError):
    """The players asked to end the game by agreement when the rules do not allow it yet."""
