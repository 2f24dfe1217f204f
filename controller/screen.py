"""What the display shows for a session: the display's view model filled from the game, the
core's status (cells to fix with what belongs there, the move under way) and the open prompt."""

from __future__ import annotations

from dataclasses import replace

from display.view import Choice, Fix, Prompt, View, piece_view, view_from_position

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
    view = view_from_position(pos, status=message)
    if session.phase != "over":
        view = replace(view, phase=phase, side_to_move=pos.side if session.phase == "play" else None)
    fixes = tuple(Fix(f.cell, piece_view(variant, f.want) if f.want else None) for f in status.fixes)
    highlights = replace(view.highlights, fix=fixes, pending=status.cells if status.kind in ("moving", "ask") else ())
    prompt = None
    if status.prompt is not None:
        choices = []
        for opt in status.prompt.options:
            piece = None
            if status.prompt.kind in ("promotion", "which_piece") and opt.moves:
                m = opt.moves[-1]
                piece = piece_view(variant, m.promotion or m.piece)
            choices.append(Choice(opt.label, opt.key, piece))
        prompt = Prompt(status.prompt.question, tuple(choices), min(session.selected, len(choices) - 1))
    return replace(view, highlights=highlights, prompt=prompt)
