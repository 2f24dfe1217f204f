"""A chess session for the tests: on a real SQLite file, played by lifts and places at a clock
the test advances (controller.session.Session, no board, no service)."""

from __future__ import annotations

from pathlib import Path

import engine
from controller.inference import Event, Timing
from controller.session import Phase, Session
from controller.store import GameStore

CHESS = engine.find_variant("chess")
T = Timing()
START = [1 if c else 0 for c in engine.start_position(CHESS).board]


def cell(name: str) -> int:
    return CHESS.geometry.index(name)


class Clock:
    """The session's time in ms: each call moves it on by ``step``."""

    def __init__(self) -> None:
        self.t = 0

    def __call__(self, step: int = 10) -> int:
        self.t += step
        return self.t


def move(session: Session, clock: Clock, frm: str, to: str, store_path: Path | None = None) -> list[str]:
    """Lift and place, then let it settle; with ``store_path`` also check that every move the
    session reports was already in the file when it reported it."""
    out: list[str] = []
    for name, down in ((frm, False), (to, True)):
        out += session.event(Event(cell(name), down, clock())).accepted
    update = session.tick(clock(T.settle_ms + 5))
    if update.accepted and store_path is not None:
        assert session.game_id is not None
        with GameStore(store_path) as other:  # a second connection sees only what was committed
            assert other.game(session.game_id).moves[-len(update.accepted):] == update.accepted
    return out + list(update.accepted)


def started(tmp_path: Path, clock: Clock) -> tuple[Session, GameStore, Path]:
    path = tmp_path / "games.sqlite3"
    store = GameStore(path)
    session = Session(CHESS, store, now=clock())
    update = session.sync(START, clock())
    assert update.phase == Phase.PLAY and session.phase == Phase.PLAY
    return session, store, path
