"""What the player must do on the board to carry out a move the computer chose: the lines the
screen shows ("take off", "lift ... put it on", "put", "exchange") and the cells to mark (boards
with lights light them).

Pure and driven by the move's own effects (``Move.changes``, ``relocations``, ``victims``), so a
capture, castling, a promotion, a Gryphon mutation, an Alice transfer, a Royal Fury charge or
chain, a Mathematichess push, placement or removal need no case of their own. The order is the
order hands would follow: pieces taken off first, then each piece moved, then pieces put on from
outside the board or changed where they stand.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine import Move, Variant


@dataclass(frozen=True)
class BoardSteps:
    """The physical steps of one move. ``lift``: cells a piece is lifted from; ``put``: cells a
    piece is put on; ``remove``: cells whose piece leaves the board."""

    steps: tuple[str, ...]
    lift: frozenset[int]
    put: frozenset[int]
    remove: frozenset[int]

    @property
    def cells(self) -> frozenset[int]:
        """Every cell the move touches (to mark on the screen and light on the board)."""
        return self.lift | self.put | self.remove


def piece_name(v: Variant, code: int) -> str:
    """``white knight``: the side's name and the kind's."""
    return f"{v.sides[v.owner[code]]} {v.kinds[v.kind_at[code]].name}"


def board_steps(v: Variant, move: Move) -> BoardSteps:
    names = v.geometry.names
    changes = {cell: (before, after) for cell, before, after in move.changes}
    moved = [(src, dst) for src, dst in move.relocations if src != dst]
    sources = {src for src, _dst in moved}
    arrivals = {dst for _src, dst in moved}
    steps: list[str] = []
    remove: set[int] = set()
    # taken for good: the victims, and pieces their owner takes off (Mathematichess's removal)
    for cell, (before, after) in changes.items():
        if before and cell not in sources and (cell in move.victims or (not after and cell not in arrivals)):
            steps.append(f"take off the {piece_name(v, before)} on {names[cell]}")
            remove.add(cell)
    for src, dst in moved:
        code = changes[src][0] if src in changes else 0
        if not code:
            continue
        line = f"lift the {piece_name(v, code)} on {names[src]}, put it on {names[dst]}"
        after = changes.get(dst, (0, code))[1]
        if after and after != code:
            line += f" as a {piece_name(v, after)}"  # promotion or mutation: the other piece goes there
        steps.append(line)
    for cell, (before, after) in changes.items():
        if not after or cell in arrivals:
            continue
        if not before:
            steps.append(f"put a {piece_name(v, after)} on {names[cell]}")
        elif before != after and cell not in sources:
            steps.append(f"exchange the {piece_name(v, before)} on {names[cell]} for a {piece_name(v, after)}")
    put = {cell for cell, (_b, after) in changes.items() if after and (cell in arrivals or changes[cell][0] != after)}
    return BoardSteps(tuple(steps), frozenset(sources), frozenset(put), frozenset(remove))
