"""PGN export of a stored game: the seven standard tags, ``Variant``, the start position when
it is not the variant's own, and the moves in the variant's notation (the engine's move text)."""

from __future__ import annotations

import textwrap

import engine

from .store import GameRecord


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def export_pgn(game: GameRecord, *, event: str = "Chessery game", site: str = "?", white: str = "?",
               black: str = "?") -> str:
    """The game as PGN text. Raises ``ValueError`` if a stored move is not legal for the variant
    (a store written by a different rule set)."""
    variant = engine.find_variant(game.variant)
    pos = engine.parse_fen(variant, game.start_fen)
    first_side, first_number = pos.side, pos.fullmove
    for ply, text in enumerate(game.moves, 1):
        try:
            pos.push_text(text)
        except ValueError as exc:
            raise ValueError(f"game {game.id}, ply {ply}: {exc}") from None
    tags = [
        ("Event", event), ("Site", site), ("Date", game.started[:10].replace("-", ".")), ("Round", "-"),
        ("White", white), ("Black", black), ("Result", game.result), ("Variant", variant.name),
    ]
    if game.start_fen != variant.start:
        tags += [("SetUp", "1"), ("FEN", game.start_fen)]
    if game.termination:
        tags.append(("Termination", game.termination.replace("_", " ")))
    if variant.nsides != 2:
        tags.append(("Players", " ".join(variant.sides)))
    head = "".join(f'[{name} "{_escape(value)}"]\n' for name, value in tags)
    tokens: list[str] = []
    side, number = first_side, first_number
    for n, text in enumerate(game.moves):
        if side == 0:
            tokens.append(f"{number}.")
        elif n == 0:
            tokens.append(f"{number}...")
        tokens.append(text)
        side = (side + 1) % variant.nsides
        if side == 0:
            number += 1
    tokens.append(game.result)
    body = textwrap.fill(" ".join(tokens), width=79, break_long_words=False, break_on_hyphens=False)
    return f"{head}\n{body}\n"
