"""What the display shows for a session: the display's view model filled from the game, the
core's status (cells to fix with what belongs there, the move under way), the open prompt, and
the live score of variants whose rules keep one.

Nothing here knows a variant by name: a score panel appears when the rules have a ``score``
method (territories with owner and value, totals per side: ``engine.territory_scoring.Score``), and the
counts on a "which piece did you place?" prompt come from the rules' ``remaining`` (else the
position's hands).
"""

from __future__ import annotations

from dataclasses import replace

from display.view import Choice, Fix, Prompt, ScorePanel, Territory, View, piece_view, view_from_position
from engine import IllegalMoveError, Move, Position, parse_fen
from engine.notation import move_text
from engine.san import san

from . import core_types
from .core_types import PromptKind, StatusKind
from .session import Phase, Session

#: The phase as the screen names it.
PHASES: dict[Phase, str] = {Phase.SETUP: "setup", Phase.PLAY: "playing", Phase.OVER: "game over"}


def view_of(session: Session, notice: str = "", synced: bool = True) -> View:
    """The frame for the session now; ``notice`` (e.g. the board is disconnected) goes first in
    the status line. Before the board has been read once (``synced`` false) the session knows
    nothing of it, so the notice is all the status line says (not "Board is set up")."""
    pos = session.position
    variant = pos.variant
    status = session.status
    phase = PHASES[session.phase]
    if status.kind == StatusKind.FIX:
        phase = "fix the board"
    message = f"{notice}. {status.message}" if notice else status.message
    if not synced and notice:
        message = notice
    noter = variant.rules.turn_note
    note = noter.turn_note(pos) if noter is not None and session.phase == Phase.PLAY else ""
    if note and status.kind == StatusKind.IDLE and session.core.touch_cells():
        note += ", or touch it on the screen"  # (Referee.touch)
    if note:
        message = f"{note}. {message}" if message else note
    texts = NOTATION.texts(pos)
    message = readable_status(pos, message, texts)
    view = view_from_position(pos, status=message, scores=score_panel(pos), moves=tuple(texts))
    outcome = session.outcome
    if outcome is not None and not view.result:
        # An ending the position does not show by itself (agreement).
        result = session.result_text(outcome)
        view = replace(view, result=f"{result} {outcome.termination.replace('_', ' ')}",
                       side_to_move=None, phase="game over")
    if session.phase != Phase.OVER:
        view = replace(view, phase=phase, side_to_move=pos.side if session.phase == Phase.PLAY else None)
    fixes = tuple(Fix(f.cell, piece_view(variant, f.want) if f.want else None) for f in status.fixes)
    pending = status.cells if status.kind in (StatusKind.MOVING, StatusKind.ASK) else ()
    highlights = replace(view.highlights, fix=fixes, pending=pending)
    prompt = None
    if status.prompt is not None:
        counts = remaining_counts(pos) if status.prompt.kind == PromptKind.WHICH_PIECE else {}
        choices = []
        for opt in status.prompt.options:
            piece = None
            count = None
            if opt.moves and status.prompt.kind in (PromptKind.PROMOTION, PromptKind.WHICH_PIECE):
                m = opt.moves[-1]
                code = m.promotion or m.piece
                piece = piece_view(variant, code)
                count = counts.get(variant.kind_of(code))
            elif opt.moves and status.prompt.kind == PromptKind.REMOVAL:
                piece = piece_view(variant, opt.moves[-1].piece)
            choices.append(Choice(opt.label, opt.key, piece, count))
        title = readable_question(pos, status.prompt, texts)
        choices = [replace(c, label=readable_label(pos, opt, status.prompt.kind, texts))
                   for c, opt in zip(choices, status.prompt.options, strict=True)]
        prompt = Prompt(title, tuple(choices), min(session.selected, len(choices) - 1))
        if view.status.endswith(status.prompt.question):
            view = replace(view, status=view.status[:-len(status.prompt.question)] + title)
    return replace(view, highlights=highlights, prompt=prompt)


class MoveNotation:
    """The readable notation (``engine.san``) of a game's moves, for the move list and prompts.
    Working one out replays the game, so the texts of the game on screen are kept and only the
    moves played since are added (the service draws after every input)."""

    def __init__(self) -> None:
        self._start = ""
        self._moves: tuple[Move, ...] = ()
        self._texts: list[str] = []

    def texts(self, pos: Position) -> list[str]:
        stack = tuple(pos.move_stack)
        start = _fresh(pos, len(stack))
        key = f"{pos.variant.name} {start.fen()}"
        n = len(self._moves)
        if key != self._start or stack[:n] != self._moves:
            self._start, self._moves, self._texts = key, (), []
            n = 0
        if n < len(stack):
            for move in stack[:n]:
                start.push(move)
            for move in stack[n:]:
                self._texts.append(san(start, move, display=True))
                start.push(move)
        self._moves = stack
        return list(self._texts)


#: One per process: the service shows one game at a time.
NOTATION = MoveNotation()


def _fresh(pos: Position, back: int) -> Position:
    """An independent position ``back`` plies before ``pos``. Built from its position text, not
    by playing on a ``copy()``: a copy shares its undo records (hands, variant state) with the
    live game, and moves pushed on it after popping would change the live game's records."""
    p = pos.copy()
    for _ in range(min(back, len(p.move_stack))):
        p.pop()
    return parse_fen(pos.variant, p.fen())


def _after_undo(pos: Position, undo: int) -> Position:
    return _fresh(pos, undo)


def readable_status(pos: Position, message: str, texts: list[str]) -> str:
    """The status line with its moves in the move list's notation: the core says "White played
    f1b5" and "took back g1f3" in the engine's move text; the screen says "White played Bb5", as
    the list does. Only the latest moves can be named there (the ones just played)."""
    if "played " not in message and "took back " not in message:
        return message
    variant = pos.variant
    recent = {}
    stack = pos.move_stack
    k = min(4, len(stack), len(texts))
    for move, text in zip(stack[len(stack) - k:], texts[len(texts) - k:], strict=True):
        recent[f"played {move_text(variant, move)}"] = f"played {text}"
    for old in sorted(recent, key=len, reverse=True):  # a longer move text first: no prefix eaten
        message = message.replace(old, recent[old])
    start = message.find("took back ")
    if start >= 0:
        word = message[start + 10:].split(";")[0].split(": ")[0].strip()
        try:
            undone = pos.parse_move(word)
        except IllegalMoveError:
            return message
        message = message.replace(f"took back {word}", f"took back {san(_fresh(pos, 0), undone, display=True)}")
    return message


def readable_question(pos: Position, prompt: core_types.Prompt, texts: list[str]) -> str:
    """The question with moves in readable notation ("Take back Nf3?")."""
    if prompt.kind == PromptKind.TAKEBACK:
        back = next((o.undo for o in prompt.options if o.undo), 0)
        if back:
            return f"Take back {' '.join(texts[len(texts) - back:])}?"
    if prompt.kind == PromptKind.REMOVAL:
        opt = next((o for o in prompt.options if o.moves and o.texts), None)
        if opt is not None:
            return prompt.question.replace(f"({opt.texts[0]})", f"({san(_fresh(pos, 0), opt.moves[0])})")
    return prompt.question


def readable_label(pos: Position, opt: core_types.Option, kind: PromptKind, texts: list[str]) -> str:
    """An answer's label with its moves in readable notation."""
    if kind == PromptKind.TAKEBACK and opt.undo:
        return f"Take back {' '.join(texts[len(texts) - opt.undo:])}"
    if kind == PromptKind.REMOVAL and opt.moves and opt.texts:
        return opt.label.replace(opt.texts[0], san(_fresh(pos, 0), opt.moves[0]))
    if kind == PromptKind.WHICH_MOVE and opt.moves and opt.label == opt.key:
        p = _after_undo(pos, opt.undo)
        out = []
        for move in opt.moves:
            out.append(san(p, move, display=True))
            p.push(move)
        suffix = opt.key.rsplit(" #", 1)[1] if " #" in opt.key else ""
        return " ".join(out) + (f" #{suffix}" if suffix else "")
    return opt.label


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
