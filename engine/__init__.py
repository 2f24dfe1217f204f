"""Chessery's rules engine: geometries, pieces as data, positions, legal moves, outcomes.

Pure: no I/O beyond reading its own variant data files, no pygame, no serial.
"""

from .errors import ChesseryError
from .geometry import Geometry
from .moves import Move
from .notation import PositionError, format_fen, move_text, parse_fen, parse_game_fen
from .position import IllegalMoveError, Outcome, Position, start_position
from .variant import Variant, VariantError, find_variant, variant_names

__all__ = [
    "ChesseryError", "Geometry", "IllegalMoveError", "Move", "Outcome", "Position", "PositionError", "Variant",
    "VariantError",
    "find_variant", "format_fen", "move_text", "parse_fen", "parse_game_fen", "start_position", "variant_names",
]
