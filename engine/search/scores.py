"""What a search score means: centipawns, a mate, or (three sides and more) a game another side
wins by mating a third.

All scores are the root side's. A win of the root side is ``MATE - ply``, its loss
``-(MATE - ply)``. A checkmate of one opponent by another is a loss for the root side too, but it
is scored apart, in a band of its own per mated side (``lost_to_another``): an opponent playing
against the root side must not choose a line in which it is mated itself while it has another (it
would be playing for the root side's loss at the price of its own, which nobody does), and the
search can only tell that line from the others by its score.
"""

from __future__ import annotations

MATE = 1_000_000
#: Scores beyond this are mates (won or lost in ``MATE - |score|`` plies).
MATE_BOUND = MATE - 10_000
INF = 10 * MATE
#: A game won by another side mating a third: ``-(OTHER_WIN - ply) - BAND * mated_side``.
OTHER_WIN = MATE // 2
BAND = 20_000
#: How many plies a band (and a mate score) keeps apart.
PLY_ROOM = 10_000
#: Scores at or below this are the root side's losses: its own mate or a band (no evaluation
#: comes near it).
LOSS_BOUND = -(OTHER_WIN - PLY_ROOM)


def lost_to_another(mated: int, ply: int) -> int:
    """The root side's score when, ``ply`` plies from the root, another side mates ``mated``."""
    return -(OTHER_WIN - ply) - BAND * mated


def mated_in_band(score: int) -> int | None:
    """The mated side of a ``lost_to_another`` score (from a node or from the table), else None."""
    if score > LOSS_BOUND or score <= -MATE_BOUND:
        return None
    side, rest = divmod(LOSS_BOUND - score, BAND)
    return side if rest <= PLY_ROOM else None


def to_table(score: int, ply: int) -> int:
    """A mate or band score relative to this node (so it holds at any ply the position recurs)."""
    if score >= MATE_BOUND:
        return score + ply
    if score <= LOSS_BOUND:
        return score - ply
    return score


def from_table(score: int, ply: int) -> int:
    if score >= MATE_BOUND:
        return score - ply
    if score <= LOSS_BOUND:
        return score + ply
    return score


def loss_plies(score: int) -> int | None:
    """Plies to the root side's loss, by its own mate or by another side mating a third, or
    None."""
    if score <= -MATE_BOUND:
        return MATE + score
    mated = mated_in_band(score)
    if mated is not None:
        return OTHER_WIN + score + BAND * mated
    return None
