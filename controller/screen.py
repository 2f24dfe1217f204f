"""What the display shows for a session: the display's view model filled from the game, the
core's status (cells to fix with what belongs there, the move under way), the open prompt, and
the live score of variants whose rules keep one.

Nothing here knows a variant by name: a score panel appears when the rules have a ``score``
method (territories with owner and value, totals per side: ``engine.territory.Score``), and the
counts on a "which piece did you place?" prompt come from the rules' ``remaining`` (else the
position's hands).
"""

from __future__ import annotations

from dataclasses import replace

from display.view import Choice, Fix, Prompt, ScorePanel, Territory, View, piece_view, view_from_position
from engine import Position

from .session import Session

PHASES = {"setup": "setup", "play": "playing", "over": "game over"}


def view_of(session: Session, notice: str = "") -> View:
    """The frame for the session now; ``notice`` (e.g. the board is disconnected) goes first in
    the status line."""
    pos = session.position
    variant = pos.variant
    status = session.status
    phase = PHASES[session.phase]
    if status.kind == "fix":
        phase = "fix the board"
    message = f"{notice}. {status.message}" if notice else status.message
    view = view_from_position(pos, status=message, scores=score_panel(pos))
    outcome = session.outcome
    if outcome is not None and not view.result:
        # An ending the position does not show by itself (agreement).
        view = replace(view, result=f"{outcome.result(variant.nsides)} {outcome.termination.replace('_', ' ')}",
                       side_to_move=None, phase="game over")
    if session.phase != "over":
        view = replace(view, phase=phase, side_to_move=pos.side if session.phase == "play" else None)
    fixes = tuple(Fix(f.cell, piece_view(variant, f.want) if f.want else None) for f in status.fixes)
    highlights = replace(view.highlights, fix=fixes, pending=status.cells if status.kind in ("moving", "ask") else ())
    prompt = None
    if status.prompt is not None:
        counts = remaining_counts(pos) if status.prompt.kind == "which_piece" else {}
        choices = []
        for opt in status.prompt.options:
            piece = None
            count = None
            if opt.moves and status.prompt.kind in ("promotion", "which_piece"):
                m = opt.moves[-1]
                code = m.promotion or m.piece
                piece = piece_view(variant, code)
                count = counts.get(variant.kind_of(code))
            elif opt.moves and status.prompt.kind == "removal":
                piece = piece_view(variant, opt.moves[-1].piece)
            choices.append(Choice(opt.label, opt.key, piece, count))
        prompt = Prompt(status.prompt.question, tuple(choices), min(session.selected, len(choices) - 1))
    return replace(view, highlights=highlights, prompt=prompt)


def score_panel(pos: Position) -> ScorePanel | None:
    """The live score of a variant with the ``scoring`` capability, else None: every territory
    worth something, tinted by owner, and each side's total with bonuses."""
    scoring = pos.variant.rules.scoring
    if scoring is None:
        return None
    score = scoring.score(pos)
    territories = tuple(Territory(tuple(t.cells), t.owner, t.value) for t in score.territories if t.value)
    bonus: dict[int, int] = {}
    for _name, side, points in score.bonuses:
        bonus[side] = bonus.get(side, 0) + points
    title = "Score"
    if bonus:  # the totals include them; say so, one figure a side, short enough for the panel
        sides = pos.variant.sides
        title += " (bonus " + ", ".join(f"{sides[side]} +{points}" for side, points in sorted(bonus.items())) + ")"
    return ScorePanel(territories, tuple(score.totals), title)


def remaining_counts(pos: Position) -> dict[int, int]:
    """Pieces the side to move still has to place, by kind index: the ``placement``
    capability's (letter, count) where the variant has one, else the position's hand."""
    variant = pos.variant
    placement = variant.rules.placement
    if placement is None:
        return {kind: n for kind, n in pos.hands[pos.side].items() if n}
    index = {k.letter: i for i, k in enumerate(variant.kinds)}
    return {index[letter]: n for letter, n in placement.remaining(pos, pos.side)}
