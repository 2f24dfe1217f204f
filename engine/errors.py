"""The project's root exception.

Every error class in Chessery derives from ``ChesseryError`` and also from the builtin that says
what kind of error it is (``ValueError`` for bad input, ``ConnectionError`` for a lost link), the
way gpiozero pairs ``GPIOZeroError`` with builtins: callers may catch either. It lives in the
engine because the engine is the one package every other package may import without reversing
the data flow.
"""


class ChesseryError(Exception):
    """Base of every error Chessery raises on purpose."""
