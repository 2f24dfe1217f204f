"""The wording of the core's questions and messages: what the player is asked and told."""

from __future__ import annotations

from collections.abc import Sequence

from engine import Move, Outcome, Position, Variant

from .core_types import Fix, Option, Prompt, PromptKind, Status, StatusKind
from .hand_rules import put_back, takes_only
from .messages import piece_name, side_name, wanted_text


def article(name: str) -> str:
    return f"an {name}" if name[:1] in "aeiou" else f"a {name}"


def choice_prompt(pos: Position, seqs: Sequence[tuple[Move, ...]], undo: int, force_which: bool = False,
                  still_moving: bool = False) -> Prompt:
    """Which of ``seqs`` was played (after taking back ``undo`` plies): the piece placed, the
    promotion, or the move; ``still_moving`` (or a sequence ending in a removal) adds "None"."""
    v = pos.variant
    text = pos.move_text
    firsts = [seq[0] for seq in seqs]
    single = all(len(seq) == 1 for seq in seqs)
    same_cells = len({(m.frm, m.to) for m in firsts}) == 1
    options: list[Option] = []
    kind = PromptKind.WHICH_MOVE
    question = "Which move did you make?"
    if single and same_cells and not force_which:
        m0 = firsts[0]
        if m0.tag == "drop":
            kind = PromptKind.WHICH_PIECE
            question = f"Which piece did you place on {v.geometry.names[m0.to]}?"
            keys = [v.kinds[v.kind_of(m.promotion or m.piece)].letter for m in firsts]
            labels = [piece_name(v, m.promotion or m.piece) for m in firsts]
        elif all(m.tag == m0.tag for m in firsts):
            kind = PromptKind.PROMOTION
            question = "Promote to which piece?"
            keys = [v.kinds[v.kind_of(m.promotion or m.piece)].letter.lower() for m in firsts]
            labels = [v.kinds[v.kind_of(m.promotion or m.piece)].name for m in firsts]
        else:
            keys = []
        if len(set(keys)) == len(firsts):
            options = [Option(k, lab, seq, undo, tuple(text(m) for m in seq))
                       for k, lab, seq in zip(keys, labels, seqs, strict=True)]
        else:
            kind = PromptKind.WHICH_MOVE
            question = "Which move did you make?"
    if not options:
        for seq in seqs:
            texts = tuple(text(m) for m in seq)
            key = " ".join(texts)
            if any(o.key == key for o in options):
                key = f"{key} #{len(options) + 1}"  # identical effects, different rule meaning
            options.append(Option(key, key, seq, undo, texts))
        if still_moving or any(takes_only(seq[-1]) for seq in seqs):
            options.append(Option("no", "None: still moving"))
    return Prompt(kind, question, tuple(options))


def removal_prompt(pos: Position, move: Move, look: tuple[int, ...] | None) -> Prompt:
    """A move that only takes men off (or changes them where they stand): pieces in the hand look
    the same, so it is confirmed."""
    v = pos.variant
    text = pos.move_text(move)
    if put_back(move, look):
        what = " and ".join(f"the {v.kinds[v.kind_of(b)].name} on {v.geometry.names[c]} "
                            f"{article(v.kinds[v.kind_of(a)].name)}" for c, b, a in move.changes)
        return Prompt(PromptKind.CONFIRM, f"Make {what} ({text})?", (
            Option("yes", f"Yes: {text}", (move,), 0, (text,)),
            Option("no", "No: it stays as it was")))
    what = " and ".join(f"the {piece_name(v, b)} on {v.geometry.names[c]}" for c, b, _a in move.changes)
    return Prompt(PromptKind.REMOVAL, f"Take {what} off for good ({text})?", (
        Option("yes", f"Yes: {text}", (move,), 0, (text,)),
        Option("no", "No: still moving")))


def takeback_prompt(pos: Position, moves: Sequence[Move], plies: int) -> Prompt:
    """Take back ``moves`` (latest first)?"""
    texts = " ".join(pos.move_text(m) for m in reversed(moves))
    return Prompt(PromptKind.TAKEBACK, f"Take back {texts}?", (
        Option("yes", f"Take back {texts}", undo=plies),
        Option("no", "Keep playing")))


def chosen_text(pos: Position, move: Move) -> str:
    """``Black made the pawn on d7 an illusionary pawn``: a silent move in words."""
    v = pos.variant
    cell, before, after = move.changes[0]
    side = side_name(v, v.side_of(before))
    name = v.geometry.names[cell]
    old, new = v.kinds[v.kind_of(before)].name, v.kinds[v.kind_of(after)].name
    if old == new:
        return f"{side} chose {pos.move_text(move)} on {name}"
    return f"{side} made the {old} on {name} {article(new)}"


def idle_status(pos: Position, outcome: Outcome | None) -> Status:
    """The board equals the game: whose move it is, or how the game ended."""
    v = pos.variant
    if outcome is not None:
        result = outcome.result(v.nsides, tuple(v.sides))
        return Status(StatusKind.IDLE, f"Game over: {result} ({outcome.termination})")
    return Status(StatusKind.IDLE, f"{side_name(v, pos.side)} to move")


def fix_message(variant: Variant, head: str, fixes: Sequence[Fix]) -> str:
    """``Board does not match the game: e2: white pawn, e4: empty``."""
    return head + ": " + ", ".join(wanted_text(variant, f.cell, f.want) for f in fixes)
