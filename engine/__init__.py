"""Chessery's rules engine: geometries, pieces as data, positions, legal moves, outcomes.

Pure: no I/O beyond reading its own variant data files, no pygame, no serial.
"""

from .errors import ChesseryError, IllegalMoveError, PositionError, VariantError
from .geometry import Geometry
from .moves import Move, MoveTag
from .notation import format_fen, move_text
from .position import Outcome, Position, Termination, parse_fen, parse_game_fen, start_position
from .variant import Variant, find_variant, variant_names

__all__ = [
    "ChesseryError", "Geometry", "IllegalMoveError", "Move", "MoveTag", "Outcome", "Position", "PositionError",
    "Termination", "Variant", "VariantError",
    "find_variant", "format_fen", "move_text", "parse_fen", "parse_game_fen", "start_position", "variant_names",
]
