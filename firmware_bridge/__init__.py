"""The sensor-board serial protocol, the host link (pyserial), a simulated board, and the
reference firmware for the board's microcontroller. The protocol is specified in
docs/protocol.md.

Public API for the controller
-----------------------------

Events (``firmware_bridge.events``)::

    SensorEvent(cell: int, action: "lift" | "place", piece: str | None, board_ms: int | None,
                host_time: float, synthetic: bool, seq: int | None)
        .lifted / .placed
        cell: the controller's cell number (board cell + the link's cell_offset);
        piece: FEN letter on identity boards ("N" white, "n" black; "2N" for a third side),
               None on occupancy-only boards;
        board_ms: the board's clock at the change (ms since its boot), None when synthetic;
        host_time: time.monotonic() when the link produced it;
        synthetic: made up from a snapshot difference after a reconnect, reset or lost frame.
    LinkState: IDLE, CONNECTING, CONNECTED, DISCONNECTED, CLOSED
    LinkStatus(state, previous, reason, host_time, occupancy, pieces, problem)
        occupancy/pieces: the link's model at that change. Take the baseline from the CONNECTED
        status: link.occupancy() is live and may already include events still in the queue.
        problem: why the board cannot be refereed, when the link can tell (another protocol
        version, every frame garbled, a board of the wrong size); a status that only names a
        new problem has state == previous.
    flicker_pairs(events, window_ms=120) -> list[(i, j)]; without_flicker(events, window_ms=120)
        (host-side debounce is the controller's decision; these only find same-cell
        down/up pairs within the window, never events of two cells)
    piece_text(byte) / piece_value(text); code_for_piece(variant, text) -> engine piece code;
    piece_for_code(variant, code) -> piece byte

The link (``firmware_bridge.link``; the interface every board link implements is
``firmware_bridge.board_link.BoardLink``)::

    link = Link.open(url_or_path, cell_offset=0, silence_timeout=None, retry_interval=0.5,
                     backoff=(0.05, 2.0), on_state=None,   # opens via serial.serial_for_url
                     states_in_events=False, expected_cells=None, retry_cap=4.0)
    link.events: queue.Queue[SensorEvent]         # raw and synthetic events, in order; with
        states_in_events each LinkStatus too, between the events before and after the change
    link.states: queue.Queue[LinkStatus]          # one per state change; on_state(status) too
    link.state -> LinkState;  link.wait_connected(timeout) -> bool;  link.problem -> str
    link.state_since, link.last_snapshot_at -> Unix time (None: no snapshot yet)
    link.occupancy() -> tuple[bool, ...];  link.pieces() -> tuple[str | None, ...];  link.cells
        (live: may include events still queued; see LinkStatus for a baseline)
    link.hello -> BoardHello | None (kind, cells, identity, lights, scan_ms, drag_ms, firmware, ...)
    link.hello_frame -> Hello | None (our board's latest HELLO frame as sent)
    link.request_snapshot(timeout=2.0) -> tuple[bool, ...]   # differences arrive as events first
    link.set_leds(cells, pattern="on" | "blink" | "fast" | "off", replace=True)
    link.ping(timeout=1.0) -> float (round trip, s)
    link.set_params(scan_ms=None, debounce_ms=None, heartbeat_ms=None) -> Hello
    link.stats -> Counter (frames, events, synthetic, gaps, inconsistent, resets, silences,
                           bad_crc, truncated, wrong_version, oversized, unknown_type, ...)
    link.close()                                  # stops the reader thread; also a context manager
    LinkError (a ConnectionError): not connected, or no answer in time

The simulated board (``firmware_bridge.simboard``)::

    board = SimBoard(variant, identity=False, empty=False, faults=None | "bounce,drop=0.01,...",
                     seed=0, link_path=None, scan_ms=2, debounce_ms=10, heartbeat_ms=250).start()
    board.path            # stable symlink to the current pty: give it to Link.open / chessery run
    board.play(script, timeout=None, wait_for_host=True)   # text or commands; blocks until done
    board.start_script(script, wait_for_host=True); board.done (threading.Event)
    SimBoard(..., on_command=callback)   # called as each command starts, choose lines included
    board.occupancy() -> tuple[bool, ...];  board.pieces() -> tuple[str | None, ...];  board.leds()
    board.stop()          # also a context manager

The script format (``firmware_bridge.script``)::

    parse_script(text, variant_or_name, source="script") -> list[Lift | Place | Sleep | Choose]
    load_script(path, variant_or_name); format_script(commands) -> str
    Lift(line, cell, name); Place(line, cell, name, piece); Sleep(line, ms); Choose(line, answer)
    ScriptError (a ValueError): "FILE:LINE: reason"

Other boards (``firmware_bridge.boards``, docs/boards.md)::

    link = open_board("chessery" | "dgt" | "millennium", url, **link_options)   # not started
        a DGT or Millennium driver has the link's interface above (events, states, hello,
        request_snapshot, ping, set_leds, ...); cells in Chessery's 8x8 numbering (a1 = 0)
    DgtEmulator / MillenniumEmulator (boards.emulators): the boards on a pty, for tests and demos

Lower layers: ``framer.Framer`` (pure bytes -> messages, counts each error class),
``codec.encode``/``decode_frame``, ``messages`` (typed frames), ``faults`` (the --faults
syntax), ``virtual_port.PtyPort`` (pty with a stable symlink), and ``firmware/`` (the
MicroPython firmware whose portable modules the simulated board runs).
"""

from __future__ import annotations

import importlib
from typing import Any

# Names are loaded on first use (PEP 562), so that ``chessery variants`` does not pay for
# pyserial and the simulator just because the command line lists ``sim-board``.
_EXPORTS = {
    "events": ("FLICKER_MS", "LIFT", "PLACE", "LinkState", "LinkStatus", "SensorEvent", "code_for_piece",
               "flicker_pairs", "piece_for_code", "piece_text", "piece_value", "without_flicker"),
    "faults": ("FaultError", "Faults", "parse_faults"),
    "framer": ("Framer",),
    "board_link": ("BoardHello", "BoardLink"),
    "link": ("Link", "LinkError"),
    "script": ("Choose", "Command", "Lift", "Place", "ScriptError", "Sleep", "format_script", "load_script",
               "parse_script"),
    "simboard": ("SimBoard",),
}
_WHERE = {name: module for module, names in _EXPORTS.items() for name in names}

__all__ = sorted(_WHERE)


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
