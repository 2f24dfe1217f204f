"""The decision core's value types: its inputs (``Event``, ``Timing``), its outputs (``Decision``,
``Status``, ``Prompt``, ``Option``, ``Fix``) and what it waits on (``Pending``, with what it noted
on the way there: ``PendingNotes``), with the kinds of
each as enums (``StatusKind``, ``PromptKind``, ``PendingKind``). A kind is a plain ``Enum``, not
a ``StrEnum``: it never equals its word ("idle"), so mypy's strict equality rejects a comparison
with a word anywhere in the project; ``.value`` is the word, for logs and the hall's wire."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from engine import Move, Position, Variant

from .signatures import EMPTY_SIG, Shape, Sig


class StatusKind(Enum):
    """What the player is told (``Status.kind``)."""

    IDLE = "idle"        # the board equals the game
    MOVING = "moving"    # a move is under way, or a provisional reading waits to be final
    ASK = "ask"          # a question is open (``Status.prompt``)
    FIX = "fix"          # wrong cells to put right (``Status.fixes``)
    SETUP = "setup"      # not playing: the board must match the position


class PromptKind(Enum):
    """What a question asks (``Prompt.kind``)."""

    PROMOTION = "promotion"
    WHICH_PIECE = "which_piece"
    WHICH_MOVE = "which_move"
    TAKEBACK = "takeback"
    REMOVAL = "removal"
    CONFIRM = "confirm"
    # The session's own questions (``controller.session``), on the same panel and screen:
    MENU = "menu"                  # start a new game / end by agreement
    NEW_ON_BOARD = "new_on_board"  # the board shows another game's start: start it?
    AGREEMENT = "agreement"        # both agree to end the game?


class PendingKind(Enum):
    """What the core waits on (``Referee.pending_kind``)."""

    CLEAN = "clean"            # nothing: the board equals the game
    MOVE = "move"              # one provisional reading, final at its deadline or the next event
    AMBIGUOUS = "ambiguous"    # several legal moves fit: asked once the board is still
    TAKEBACK = "takeback"      # an earlier position: asked once it stays
    REMOVAL = "removal"        # pieces lifted: asked about if they stay off
    UNMATCHED = "unmatched"    # nothing fits yet: worked out once the board is still
    PARTIAL = "partial"        # a move half made
    WRONG = "wrong"            # the wrong cells are shown
    DISMISSED = "dismissed"    # a takeback declined: the board must go back to the game


#: The reading of an identity board's cell holding a piece it could not identify.
UNKNOWN_PIECE = -1
#: A question offers at most this many moves (or move sequences); more is no question but a
#: board to put right.
MAX_CHOICES = 8
#: On a board that scans its squares in turn: what a report may lag behind the one a scan
#: earlier on the same square (both come over the same line and reader thread).
SCAN_MARGIN_MS = 10
#: After the board was away, how many moves the players may have made meanwhile that the core
#: still works out by itself.
RESYNC_PLIES = 4


@dataclass(frozen=True, slots=True)
class Event:
    """A cell gained (``down``) or lost a piece at ``t`` ms on the core's clock. ``piece`` is the
    engine piece code an identity board read (0 when the board reads occupancy only). ``resync``
    marks a change found by comparing a snapshot after the board was away (not seen happening)."""

    cell: int
    down: bool
    t: int
    piece: int = 0
    resync: bool = False


@dataclass(frozen=True)
class Timing:
    """How long the board must stay still before each decision, in milliseconds."""

    settle_ms: int = 30      # a provisional reading becomes the final move after this much quiet
    #: A reading the mover could still extend (a slide that may go on, a castling's first half,
    #: a victim that may be next) becomes final after this much quiet, unless the clock button
    #: or the next player's action makes it final sooner: the hand has clearly let go.
    hesitate_ms: int = 3000
    #: Once the next player has a hand on a man no extension explains: the quiet the mover's
    #: piece needs ... when the reading may be the first half of a bigger move (castling, a push)
    prefix_ms: int = 600
    drag_ms: int = 200       # ... when its piece may be on its way along a line to another legal cell
    takeback_ms: int = 1000  # the board must show an earlier position this long before we ask
    guide_ms: int = 1000     # an unexplained board is this old before the wrong cells are shown
    #: Unused since final moves are never corrected; kept so configuration files that set it load.
    amend_ms: int = 1000
    #: The board's full scan period (0: it reports each change as it happens, in order). A board
    #: that scans its squares in turn (a DGT board: 200-250 ms) reports the changes of one scan
    #: in square order, not in the hands' order, and keeps a piece resting on a crossed cell on
    #: the board's word until the next scan sees it gone; the service sets it from the board.
    scan_ms: int = 0
    #: The drag wait the board asks for (0: ``drag_ms``): a board that reports every change
    #: within one scan of it (a Millennium board) shows a piece going on from a square within
    #: a scan, so two scans and a margin tell a rest from a pause on the way, and the goal is
    #: the board's own. The service sets it from the board, unless the configuration file sets
    #: ``drag_ms`` (then the owner's wait holds on every board).
    board_drag_ms: int = 0

    def scans_in_turn(self) -> bool:
        """Whether the board's scan is long enough for its reports to come out of the hands'
        order by more than the settle time (a DGT board: 200-250 ms; our own board's scan of a
        few ms is not): then the next player's hand may be reported before the mover's piece
        going on (``controller.scan_guard``)."""
        return self.scan_ms > self.settle_ms

    def settle_wait(self) -> int:
        """How long a reading that cannot be extended waits for quiet: ``settle_ms``, or on a
        board that scans its squares in turn ``SCAN_MARGIN_MS``. Such a board reports each of a
        move's squares when its scan reaches it, a scan's changes spread over the scan, so the
        quiet that guards against a bounce or the rest of a burst elsewhere shows nothing here
        (a bounce under a scan is never reported); what shares the report's time is read anyway
        (``Referee.event``). It is the host's part of the goal of one scan + 50 ms."""
        return min(self.settle_ms, SCAN_MARGIN_MS) if self.scans_in_turn() else self.settle_ms

    def drag_wait(self) -> int:
        """How long a piece that may be on its way along a line must rest, after its report,
        before the move is final."""
        drag = self.board_drag_ms or self.drag_ms
        return max(drag, self.scan_ms + SCAN_MARGIN_MS) if self.scan_ms else drag


@dataclass(slots=True)
class Game:
    """What the hand rules (``controller.hand_reading``) read the board against: the game
    ``position`` (the referee's own: a rule may push a move to look at the replies, and pops it
    before it returns), whether the board reads ``identity``, what it reads for each piece code
    (``look``: ``signatures.looks``) and the ``timing`` (the service sets the board's scan)."""

    position: Position
    identity: bool
    look: tuple[int, ...] | None
    timing: Timing

    @property
    def variant(self) -> Variant:
        return self.position.variant


@dataclass(frozen=True)
class Fix:
    """A cell that is wrong: ``want`` is the piece code that belongs there (0: empty), ``have``
    the sensor's reading (occupancy 0/1, or a code on identity boards)."""

    cell: int
    want: int
    have: int


@dataclass(frozen=True)
class Option:
    """One answer to a prompt: play ``moves`` after taking back ``undo`` plies."""

    key: str
    label: str
    moves: tuple[Move, ...] = ()
    undo: int = 0
    texts: tuple[str, ...] = ()


@dataclass(frozen=True)
class Prompt:
    kind: PromptKind
    question: str
    options: tuple[Option, ...]

    def find(self, answer: str) -> Option | None:
        """The option an answer names: its key, its key in any case, or its move text(s)."""
        answer = answer.strip()
        for opt in self.options:
            if opt.key == answer:
                return opt
        for opt in self.options:
            if " ".join(opt.texts) == answer:
                return opt
        for opt in self.options:
            if opt.key.lower() == answer.lower():
                return opt
        return None


@dataclass(frozen=True)
class Status:
    """What the player is told now. ``kind``: idle (board equals the game), moving (a move is
    under way or waiting to settle), ask (``prompt``), fix (``fixes``: wrong cells), setup (not
    playing: the board must match the position, ``fixes`` lists the differences)."""

    kind: StatusKind
    message: str
    cells: tuple[int, ...] = ()
    fixes: tuple[Fix, ...] = ()
    prompt: Prompt | None = None
    #: The provisional reading (move texts): what the board shows so far, for display only.
    provisional: tuple[str, ...] = ()


@dataclass(frozen=True)
class Decision:
    """The result of one input: take back ``undone`` (latest first: only ever at the player's
    request, a takeback), then play ``accepted`` (final moves: they never change again); then
    show ``status``. ``provisional`` is the reading of the move under way, for display only:
    it may still change or vanish, so it never goes to a record, a clock or a broadcast."""

    status: Status
    accepted: tuple[Move, ...] = ()
    undone: tuple[Move, ...] = ()
    note: str = ""
    provisional: tuple[Move, ...] = ()


@dataclass(frozen=True, slots=True)
class Back:
    """An earlier position, as the readings of the cells the moves since then changed."""

    plies: int
    moves: tuple[Move, ...]  # latest first
    codes: dict[int, int]    # cell -> piece code in that position


@dataclass(frozen=True, slots=True)
class ShownReading:
    """The latest provisional move reading the board showed since the last final move
    (``Referee._reading``): what the next events are read against (the mover's piece going on,
    or the next player's reply on top of it)."""

    shape: Shape
    #: When (ms) the board first showed it: cells handled later are the next player's or the
    #: mover's piece going on (``PendingNotes.since``).
    since: int
    #: The cells the reading's piece may still go on to, and those of the bigger moves it may be
    #: the first part of (``extension``): a man put down there may be the mover's.
    going_on: frozenset[int]
    #: The cells of the bigger moves it may be the first part of (a castling's second piece, a
    #: victim the piece may take next): a hand there may be the mover's, not the next player's.
    extension: frozenset[int]


@dataclass(frozen=True, slots=True)
class ReadingHold:
    """The shown reading held through the next player's hand on a board that scans its squares
    in turn (``Judging._reading_guard``, ``controller.scan_guard``)."""

    #: When (ms) the mover's piece going on would have been reported: nothing is worked out before.
    until: int
    #: When (ms) the next player's first event came: the mover's move began before it.
    started: int


@dataclass(frozen=True, slots=True)
class PendingNotes:
    """What the core noted about a ``Pending`` when it set it, for the decision at its deadline
    or at the next event. Each field's default means "not noted"; a new ``Pending`` starts with
    none unless it is given its predecessor's (``dataclasses.replace`` adds to them)."""

    #: A move reading: when (ms) the board first showed it. Cells handled after that are the
    #: next player's or the mover's piece going on: they stay handled once the move is final,
    #: and a reading shown again keeps its first time. None: not a move reading (0 is a time).
    since: int | None = None
    #: A move reading peeled off the next player's hand: the cells that hand has lifted on top
    #: of it. They stay handled once the move is final (they belong to the next move).
    rest: frozenset[int] = frozenset()
    #: A move reading taken as the move with the rest of the board the next player's reply
    #: (``_take_reply``): final once the rest of the report is read, and a bounce on the
    #: move's own cells is the next player's doing.
    reply: bool = False
    #: A move reading taken with the next player's reply: the move's own cells handled again
    #: that may be either player's (``either_hand``); they stay either's once it is final.
    either_kept: frozenset[int] = frozenset()
    #: Unmatched: the move sequences the last look worked out, looked at again at the deadline
    #: instead of worked out anew. None: not worked out yet (an empty list: nothing explains it).
    seqs: tuple[tuple[Move, ...], ...] | None = None
    #: Unmatched: looked at once, and waiting for the hands (or the guide time) to look again;
    #: the second look asks or shows the wrong cells instead of waiting once more.
    tried: bool = False
    #: Unmatched: waited once for an unseen man's landing to be reported (``landing_unseen_until``);
    #: not waited for again.
    landing: bool = False
    #: A move reading: when (ms) it is final once the next player puts a hand on a man no
    #: extension explains (``Referee.deadline_once_the_next_player_starts``). None: only the
    #: quiet decides (a man some extension takes is lifted).
    short: int | None = None
    #: A move reading that is one of two (``either_hand.needs_either``): the cells of either
    #: player's it counts as its own. A man put down elsewhere gives them to the player before.
    needs_either: frozenset[int] = frozenset()
    #: A move reading the mover could still extend (its piece going on, a bigger move): on a
    #: board that scans its squares in turn a man put down elsewhere does not end it.
    extendable: bool = False


@dataclass(frozen=True, slots=True)
class Pending:
    """What the core waits on: its ``kind``, the board's signature when it was set (``sig``),
    the readings it is about (``shapes``), an earlier position (``back``), when the wait runs
    out (``deadline``) and what the core noted (``notes``). Frozen: the core replaces it, so a
    ``Pending`` looked at earlier (the one before, ``_set_match``) still says what it said."""

    kind: PendingKind
    sig: Sig = EMPTY_SIG
    shapes: tuple[Shape, ...] = ()
    cells: frozenset[int] = frozenset()   # an event outside these ends a unique match early
    back: Back | None = None
    deadline: int | None = None
    notes: PendingNotes = PendingNotes()
