"""The boards as the service sees them: one :class:`~firmware_bridge.board_link.BoardLink` per
port, a forwarder thread per link moving its events and state changes onto the input bus in the
order they happened, and on the controller thread each board's picture (kept from the latest
CONNECTED status with the events after it applied: syncing against the link's live model would
count events still on their way twice), the board clocks' offsets, what the screen says about
the links, and the readings the session syncs to."""

from __future__ import annotations

import contextlib
import logging
import queue
from typing import TYPE_CHECKING

from firmware_bridge.board_link import BoardLink, LinkError
from firmware_bridge.boards import open_board
from firmware_bridge.events import LinkState, LinkStatus, Mark, SensorEvent, code_for_piece

from ..board_orientation import expect_resumed_position
from ..inference import Event
from ..link_notice import never_connected
from ..session_endings import Phase
from .bus import Button, Drained, LinkChange, Sensor

if TYPE_CHECKING:
    from .service import Service

log = logging.getLogger("chessery")

#: Put on a link's event queue behind everything its board sent: see Boards.finish_when_at_rest.
DRAINED = Mark("drained")
#: A board's report of a change reaches the port this soon after the change (the line).
LINE_MS = 5
#: The serial link's read timeout (s): see Boards.open.
IDLE_READ_S = 0.25
#: Beyond a scanning board's scan, for its last report to be on the line (a DGT dump takes 70 ms).
SCAN_REPORT_MARGIN_MS = 100


class Boards:
    def __init__(self, service: Service) -> None:
        self.service = service
        self.links: list[BoardLink] = []
        #: What the screen says about the links ("" when every board is connected and well).
        self.notice = "Waiting for the board"
        #: Whether the session has been synced to the boards (every port connected once).
        self.synced = False
        #: Per link: items its forwarder has put on the input bus (see ``read_past``).
        self._forwarded: dict[int, int] = {}
        self._connected: set[int] = set()
        # Per port, the board as of the inputs handled so far: (occupancy, pieces) per board cell.
        self._pictures: dict[int, tuple[list[bool], list[str | None]]] = {}
        self._drained: set[int] = set()

    # -- life cycle (main thread) -------------------------------------------------------------------
    def open(self) -> None:
        """One link per configured port (none: a screen without a board; the menu still works)."""
        service = self.service
        config = service.config
        for i, (url, offset) in enumerate(zip(config.port, service.map.offsets()[:len(config.port)], strict=True)):
            options: dict = {}
            if config.board == "chessery":
                # A read returns as soon as a byte arrives; the timeout only sets how often an idle
                # link wakes up (the board's heartbeat wakes it anyway): 50 times a second was 0.7 %
                # of a core for nothing. The DGT and Millennium drivers keep their own timing.
                options = {"read_timeout": IDLE_READ_S, "expected_cells": service.map.board_sizes[i]}
            elif config.board == "dgt":
                # The DGT clock's lever is the clock button (controller/board_clocks.py).
                options = {**config.dgt.driver_options(),
                           "on_button": lambda word: service.inputs.put(Button(word))}
            link = open_board(config.board, url, cell_offset=offset, states_in_events=True,
                              name=f"board {i + 1} ({url})" if len(config.port) > 1 else url, **options)
            self.links.append(link)
        expect_resumed_position(self.links, service.map.offsets(), service.session, config.orientation)

    def start(self) -> None:
        for i, link in enumerate(self.links):
            link.start()
            self.service.spawn(f"forward {link.name}", self._forward, i, link)

    def close(self) -> None:
        for link in self.links:
            link.close()

    def _forward(self, index: int, link: BoardLink) -> None:
        """One path per port for events and state changes, so they reach the controller in the
        order the link produced them."""
        service = self.service
        while not service.stopping.is_set():
            try:
                item = link.events.get(timeout=1.0)  # only to notice ``stopping``
            except queue.Empty:
                continue
            if isinstance(item, LinkStatus):
                service.inputs.put(LinkChange(index, item))
            elif isinstance(item, Mark):
                service.inputs.put(Drained(index))
            else:
                service.inputs.put(Sensor(index, item))
            self._forwarded[index] = self._forwarded.get(index, 0) + 1

    def finish_when_at_rest(self) -> None:
        """Put a marker on each link's queue behind everything its board has sent so far; for a
        scripted board that has played its script. Blocks until each link has answered a ping
        and a snapshot: every frame sent before them has then been handled, and the marker
        comes out after all their events (the forwarder is the queue's only reader)."""
        service = self.service
        # A board that scans (DGT, Millennium) reports the hands' last change only when its scan
        # comes round to it, up to a scan later, and a DGT dump answers from the last scan: a
        # ping and a snapshot at once could come before that report.
        scan_ms = max((link.scan_ms for link in self.links), default=0)
        if scan_ms:
            service.stopping.wait((scan_ms + SCAN_REPORT_MARGIN_MS) / 1000)
        for link in self.links:
            while not service.stopping.is_set():
                if link.wait_connected(1.0):
                    try:
                        link.ping()
                        link.request_snapshot()  # also releases events held back after a lost frame
                    except LinkError as exc:  # it went away meanwhile: wait for it again
                        log.info("waiting for %s before finishing: %s", link.name, exc)
                        continue
                elif link.state is not LinkState.CLOSED:  # a closed link sends nothing more
                    continue
                link.events.put(DRAINED)
                break

    # -- the controller thread ------------------------------------------------------------------------
    def drained(self, index: int) -> bool:
        """Board ``index`` has drained; whether every board has."""
        self._drained.add(index)
        return len(self._drained) == len(self.links)

    def read_past(self, deadline: int) -> bool:
        """Whether every connected link has read its port past ``deadline`` (service ms) and its
        forwarder has passed on every event it had queued by then."""
        t0 = self.service.t0
        for index, link in enumerate(self.links):
            drained = link.drained
            if drained is None or link.state is not LinkState.CONNECTED:
                continue
            at, puts = drained
            if (at - t0) * 1000 < deadline + LINE_MS or self._forwarded.get(index, 0) < puts:
                return False
        return True

    def sensor(self, index: int, ev: SensorEvent, now: int) -> bool:
        """A sensor event of board ``index``: to the session once the boards are synced. False
        when it went no further than the board's picture."""
        service = self.service
        session = service.session
        self._track(index, ev)
        if not self.synced:
            return False  # part of the board the first sync reads
        self.follow_scan()
        sensors = service.map
        cell = sensors.cell_of[ev.cell] if 0 <= ev.cell < sensors.sensors else -1
        if cell < 0:
            return False
        piece = 0
        if session.identity and ev.piece:
            with contextlib.suppress(ValueError):
                piece = code_for_piece(service.variant, ev.piece)
        if ev.placed:
            service.outputs.swap_done(cell)  # a piece put down where the swap was asked: done
        t = self._event_time(ev, now)
        service.loop.catch_up(t)
        if ev.placed:  # a move is completed by putting a piece down: the clock stops then
            service.moved_at = t
        service.report(session.event(Event(cell, ev.placed, t, piece, resync=ev.synthetic)))
        return True

    def link_changed(self, index: int, status: LinkStatus) -> None:
        service = self.service
        link = self.links[index]
        if status.problem:  # the board answers, but cannot be refereed as it is
            self.notice = f"Board {link.name}: {status.problem}"
            return
        if status.occupancy is not None:
            self._pictures[index] = (list(status.occupancy), list(status.pieces or (None,) * len(status.occupancy)))
        if status.state is LinkState.CONNECTED:
            first = index not in self._connected
            self._connected.add(index)
            if len(self._connected) == len(self.links):
                self.notice = ""
            if service.config.identity == "auto" and link.hello is not None:
                service.session.set_identity(link.hello.identity, service.now())
            if link.hello is not None:
                self.follow_scan()
            if first and len(self._connected) == len(self.links):
                t = min(int((status.host_time - service.t0) * 1000), service.now())
                service.report(service.session.sync(self.readings(), t))
                self.synced = True
        elif status.state is LinkState.CLOSED and not service.stopping.is_set():
            self.notice = f"Cannot use the port {link.url}: {status.reason}"
        elif index not in self._connected and status.state in (LinkState.DISCONNECTED, LinkState.CONNECTING):
            ports = service.config.port
            self.notice = never_connected(link.name, ports[index] if index < len(ports) else link.name)
        elif status.state is LinkState.DISCONNECTED or status.state is LinkState.CONNECTING:
            if service.session.phase == Phase.OVER:  # nothing left to catch up
                self.notice = (f"Board disconnected ({link.name}). The game is over and stored; "
                               "plug the board back in for a new game")
            else:
                self.notice = f"Board disconnected ({link.name}). Play on: the game catches up when it is back"
        service.outputs.forget_lights()  # a reconnected board lost its lights

    def follow_scan(self) -> None:
        """A board scanning slower than its events need (DGT) says so, and says it again as it
        learns its own scan: the referee's windows and its trust in the order of events follow.
        A board may ask for its own drag wait (Millennium); with several boards, the longest."""
        session = self.service.session
        session.set_scan(max(lk.hello.scan_ms if lk.hello else 0 for lk in self.links))
        session.set_board_drag(max(lk.hello.drag_ms if lk.hello else 0 for lk in self.links))

    def readings(self) -> list[int]:
        """The boards as of the inputs handled so far (every port is connected)."""
        service = self.service
        values: list[int] = []
        for index in range(len(self.links)):
            occupancy, pieces = self._pictures[index]
            if service.session.identity:
                for text in pieces:
                    code = 0
                    if text:
                        try:
                            code = code_for_piece(service.variant, text)
                        except ValueError:
                            code = -1
                    values.append(code)
            else:
                values.extend(1 if v else 0 for v in occupancy)
        return service.map.readings(values)

    def _track(self, index: int, ev: SensorEvent) -> None:
        """Keep the port's board picture: the link promises each event fits its latest status
        with the events before it applied (before the first snapshot there is no picture yet,
        and the CONNECTED status includes such events)."""
        picture = self._pictures.get(index)
        cell = ev.cell - self.links[index].cell_offset
        if picture is not None and 0 <= cell < len(picture[0]):
            picture[0][cell] = ev.placed
            picture[1][cell] = ev.piece if ev.placed else None

    def _event_time(self, ev: SensorEvent, now: int) -> int:
        """An event's time on the service clock: when the change happened by the board's own
        stamp (``SensorEvent.changed_at``), else when the link read it."""
        at = ev.changed_at if ev.changed_at is not None else ev.host_time
        return min(int((at - self.service.t0) * 1000), now) if at else now
