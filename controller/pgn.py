"""PGN export of a stored game, for PGN readers such as python-chess, ChessBase or lichess.

Tags: the Seven Tag Roster (Event, Site, Date, Round, White, Black, Result) from the game's own
tags (set at the board through the operator menu) over the configuration's ``[event]`` section,
then ``Variant`` for anything but chess, ``SetUp``/``FEN`` when the game did not start from
chess's start (a variant's own start included: a reader that does not know the variant sets up
chess), ``TimeControl`` for a timed game, ``Termination``; with more than two sides ``Players`` and,
for a win, ``Result "*"`` with a ``Winner`` tag naming the side (:func:`pgn_result`). Movetext is SAN for chess
(``engine.san``; plain ``exd6`` for en passant, as PGN readers expect) and each variant's
readable notation otherwise; after each move of a timed game a ``{[%clk H:MM:SS]}`` comment
holds the time the mover had left.
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence

import engine
from engine.san import san

from .store import GameRecord

#: Chess's starting position: a game that starts anywhere else gets ``SetUp``/``FEN``.
CHESS_START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

#: The Seven Tag Roster, in its order.
ROSTER = ("Event", "Site", "Date", "Round", "White", "Black", "Result")


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def pgn_result(variant: engine.Variant, stored: str) -> tuple[str, str]:
    """The PGN ``Result`` of a stored result, and the winner's side name when PGN cannot say it.

    PGN's results are for two players. With more sides the store holds the winner's name
    (``blue``); PGN gets ``*`` (the only result that claims nothing about White and Black) and a
    ``Winner`` tag. A draw stays ``1/2-1/2``. Stores written before names were stored hold
    ``N-wins`` (side N, from 1): read as that side's name."""
    if variant.nsides == 2 or stored in ("*", "1/2-1/2"):
        return stored, ""
    number = stored.removesuffix("-wins")
    if number != stored and number.isdigit() and 1 <= int(number) <= variant.nsides:
        return "*", variant.sides[int(number) - 1]
    return "*", stored


def export_pgn(game: GameRecord, *, event: str = "Chessery game", site: str = "?", white: str = "?",
               black: str = "?", round: str = "?", tags: Mapping[str, str] | None = None,
               time_control: str = "", clocks: Sequence[int | None] = ()) -> str:
    """The game as PGN text. ``tags`` (e.g. names from the menu) override the keyword values;
    ``clocks`` holds per ply the mover's time left in ms (None: not known). Raises
    ``ValueError`` if a stored move is not legal for the variant (a store written by a different
    rule set)."""
    variant = engine.find_variant(game.variant)
    pos = engine.parse_fen(variant, game.start_fen)
    texts: list[str] = []
    # Who moved at which move number, as the position says (not by counting plies): a turn
    # order may repeat a side (Illusionary Piece Chess's choices: White chooses twice).
    turns: list[tuple[int, int]] = []
    for ply, text in enumerate(game.moves, 1):
        try:
            move = pos.parse_move(text)
        except ValueError as exc:
            raise ValueError(f"game {game.id}, ply {ply}: {exc}") from None
        texts.append(san(pos, move))
        turns.append((pos.side, pos.fullmove))
        pos.push(move)
    values = {"Event": event, "Site": site, "Date": game.started[:10].replace("-", "."), "Round": round,
              "White": white, "Black": black, "Result": game.result}
    for name, value in (tags or {}).items():
        if value:
            values[name] = value
    result, winner = pgn_result(variant, game.result)
    values["Result"] = result
    out = [(name, values.pop(name)) for name in ROSTER]
    if variant.name != "chess":
        out.append(("Variant", variant.name))
    if game.start_fen != CHESS_START:  # a reader that does not know the variant starts from chess's
        out += [("SetUp", "1"), ("FEN", game.start_fen)]
    if time_control:
        out.append(("TimeControl", time_control))
    if game.termination:
        out.append(("Termination", game.termination.replace("_", " ")))
    if variant.nsides != 2:
        out.append(("Players", " ".join(variant.sides)))
        if winner:
            out.append(("Winner", winner))
    out += sorted(values.items())
    head = "".join(f'[{name} "{_escape(value)}"]\n' for name, value in out)
    tokens: list[str] = []
    from .clock import pgn_clock

    for n, text in enumerate(texts):
        side, number = turns[n]
        if side == 0:
            tokens.append(f"{number}.")
        elif (n == 0 or (n < len(clocks) and clocks[n - 1] is not None)
              or turns[n - 1][0] != (side - 1) % variant.nsides):
            # after a comment, or when the turn order was not the plain rotation (a side
            # moving twice), a reader needs the number again
            tokens.append(f"{number}...")
        tokens.append(text)
        if n < len(clocks) and clocks[n] is not None:
            tokens.append("{[%clk " + pgn_clock(int(clocks[n])) + "]}")  # type: ignore[arg-type]
    tokens.append(result)
    body = textwrap.fill(" ".join(tokens), width=79, break_long_words=False, break_on_hyphens=False)
    return f"{head}\n{body}\n\n"  # a blank line ends a game: files can be concatenated
