"""How a search of three sides or more sees an opponent that plays for itself.

The rules say which opponents can threaten the searching side (``Rules.plays_against``); the
others are not assumed to play against it, as paranoid search would have them. In Triscacia the
left-hand opponent may never check us: in a paranoid search it would spend its moves shielding
our right-hand opponent and setting up that player's attacks, and the more time the search had,
the more such help it found. Measured in 20 games of 1 s against 0.25 s a move, the longer time
scored 27.5 % that way, under the third that three equal players share (docs/search.md).

Such an opponent makes the move ``OwnChoices.choose`` gives: a move that wins the game if it has
one, else the move after which its own static evaluation (its score less the mean of the
others') is best. A one-ply look, so the search spends its time on its own moves and on those of
the opponent who can hurt it; the choice is kept by position for the rest of the game.
"""

from __future__ import annotations

from ..moves import Move
from ..position import Position
from ..variant import Variant
from .evaluation import Evaluator

#: Positions whose choice is kept; past this the memory starts again. A 2 s search keeps some
#: 1,600; 50,000 with their moves stay under about 20 MB beside the table ``Hash`` bounds.
KEPT = 50_000


class OwnChoices:
    """The moves of opponents that play for themselves, per position."""

    def __init__(self, variant: Variant, evaluator: Evaluator) -> None:
        self.rules = variant.rules
        self.evaluator = evaluator
        self.kept: dict[int, Move | None] = {}

    def clear(self) -> None:
        self.kept.clear()

    def choose(self, pos: Position) -> Move | None:
        """The move the side to move makes for itself (None: it has none)."""
        kept = self.kept
        key = pos.hash
        if key in kept:
            return kept[key]
        if len(kept) >= KEPT:
            kept.clear()
        choice = kept[key] = self._choose(pos)
        return choice

    def _choose(self, pos: Position) -> Move | None:
        side = pos.side
        relative = self.evaluator.relative
        best: Move | None = None
        best_score = 0
        for move in self.rules.legal_moves(pos):
            with pos.after(move):
                outcome = pos.outcome()
                if outcome is not None and outcome.winner == side:
                    return move
                score = relative(pos, side)
            if best is None or score > best_score:
                best, best_score = move, score
        return best
