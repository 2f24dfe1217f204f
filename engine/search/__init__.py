"""The computer opponent's search, for every variant: pure (no I/O), driven through ``Searcher``.

* ``values``: piece values and placement tables derived from the variant data.
* ``evaluation``: the static evaluation (plus the rule components' ``evaluate`` stage).
* ``ordering``: move ordering (table move, MVV-LVA captures, killers, history).
* ``table``: the transposition table on ``Position.hash``.
* ``limits``: depth, nodes, time and the stop signal.
* ``alphabeta``: iterative deepening alpha-beta with quiescence; three sides: see its docstring.
* ``scores``: mate scores, and the band of a mate of one opponent by another.
* ``sides``: the move of an opponent that plays for itself (three sides).
* ``skill``: the skill levels' depth caps, capture depth and noise.
"""

from .alphabeta import MATE, MATE_BOUND, Info, Result, Searcher
from .limits import Limits
from .skill import MAX_SKILL

__all__ = ["MATE", "MATE_BOUND", "MAX_SKILL", "Info", "Limits", "Result", "Searcher"]
