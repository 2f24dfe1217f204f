"""The hall's pages (HTML with the boards as inline SVG) and PGN feeds, from a HallModel.

Every text that came from a board is escaped: names, events and players are the boards' word.
The live parts come over Server-Sent Events (controller.hall_server): the hall page replaces a
board's card, the board page its body, without a reload."""

from __future__ import annotations

import time
from html import escape

from .hall_model import BoardView, HallModel
from .hall_svg import board_svg
from .pgn import export_pgn
from .store import GameRecord

#: ``content-visibility: auto`` on the cards: the browser lays out and paints only the cards in
#: view; a card scrolled off keeps its place (its last size) and is drawn when it comes back. A
#: page of hundreds of boards then costs the browser what the boards in view cost on each move.
STYLE = """
body{font-family:sans-serif;margin:1em;background:#f6f4ef;color:#222}
.grid{display:flex;flex-wrap:wrap;gap:1em}
.card{background:#fff;border:1px solid #ccc;border-radius:6px;padding:.5em;width:250px;
content-visibility:auto;contain-intrinsic-size:auto 250px auto 330px}
.card h2{font-size:1em;margin:0 0 .3em}.card .meta{font-size:.8em;color:#555}
.offline{opacity:.5}.over{border-color:#2a7}.fix{border-color:#d33}
table{border-collapse:collapse}td,th{padding:.15em .5em;border-bottom:1px solid #ddd;text-align:left}
.alert-offline,.alert-mismatch,.alert-flag,.alert-clash{color:#b00}
"""

#: The live page's script: each Server-Sent Event carries the changed boards' cards (hall page)
#: or the board page's body; ``window.hallSeen`` notes when each ply was shown (bench/hall.py).
SCRIPT = """
window.hallSeen = [];
function hallApply(data) {
  const now = Date.now();
  for (const [name, html] of Object.entries(data.cards || {})) {
    let el = document.getElementById('board-' + name);
    if (!el) { el = document.createElement('div'); document.getElementById('grid').appendChild(el); }
    el.outerHTML = html;
    const shown = document.getElementById('board-' + name);
    window.hallSeen.push([name, Number(shown.dataset.ply), now]);
  }
  if (data.page !== undefined) { document.getElementById('page').innerHTML = data.page; }
  document.body.dataset.version = data.version;
}
function hallTick() {
  const now = performance.now();
  for (const el of document.querySelectorAll('.clock[data-running="1"]')) {
    if (!el.dataset.t0) { el.dataset.t0 = now; }
    const left = Math.max(0, Number(el.dataset.left) - (now - Number(el.dataset.t0)) / 1000);
    const s = Math.floor(left);
    const mm = Math.floor(s / 60) % 60, ss = String(s % 60).padStart(2, '0');
    el.textContent = s >= 3600 ? Math.floor(s / 3600) + ':' + String(mm).padStart(2, '0') + ':' + ss : mm + ':' + ss;
  }
}
setInterval(hallTick, 250);
const hallSource = new EventSource(document.body.dataset.events);
hallSource.onmessage = (e) => hallApply(JSON.parse(e.data));
"""


def _clock(seconds: float | None) -> str:
    if seconds is None:
        return ""
    s = max(0, int(seconds))
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}" if s >= 3600 else f"{s // 60}:{s % 60:02d}"


def _head(title: str, events: str = "") -> str:
    return (f'<!DOCTYPE html><html><head><meta charset="utf-8"><title>{escape(title)}</title>'
            f'<style>{STYLE}</style></head><body data-version="0" data-events="{escape(events)}">')


def _tail(live: bool) -> str:
    return (f"<script>{SCRIPT}</script>" if live else "") + "</body></html>"


#: Statuses in which the side to move's clock runs (a question stops it, as the board's own
#: clock does by default; the board's next state corrects the page either way).
CLOCK_RUNS = ("idle", "moving", "fix")


def _players(board: BoardView) -> str:
    state = board.state
    assert state is not None
    clocks = state["clocks"]
    out = []
    for i, name in enumerate(state["players"]):
        clock = ""
        if clocks is not None:
            running = state["status"] in CLOCK_RUNS and i == board.turn
            left = clocks[i] - (time.time() - board.received if running else 0)
            clock = (f' <b class="clock" data-left="{left:.1f}" data-running="{int(running)}">'
                     f'{_clock(left)}</b>')
        out.append(f'<span class="player" data-side="{i}">{escape(name)}{clock}</span>')
    return " &ndash; ".join(out)


def _score(board: BoardView) -> str:
    """A scoring variant's totals (territories tinted by owner on the board)."""
    if not board.totals or board.variant is None:
        return ""
    sides = board.variant.sides
    return ('<div class="meta score">Score: '
            + ", ".join(f"{escape(sides[i])} {t}" for i, t in enumerate(board.totals)) + "</div>")


def card(board: BoardView) -> str:
    """One board on the hall page (its id is ``board-NAME``)."""
    state = board.state
    assert state is not None and board.variant is not None
    classes = "card" + ("" if board.online else " offline") + (" over" if state["status"] == "over" else "") \
        + (" fix" if state["status"] == "fix" else "")
    last = " ".join(state["san"][-4:])
    result = state["result"] if state["status"] == "over" else ""
    return (f'<div class="{classes}" id="board-{board.name}" data-ply="{len(state["moves"])}" '
            f'data-fen="{escape(state["fen"])}" data-status="{escape(state["status"])}">'
            f'<h2><a href="/board/{board.name}">{escape(board.name)}</a> '
            f'<small>{escape(board.variant.title)}</small></h2>'
            f'<div class="meta">{_players(board)}</div>'
            f'{board_svg(board.variant, board.cells, board.last_cells, territories=board.territories)}{_score(board)}'
            f'<div class="meta">{escape(last)} {escape(result)}'
            f'{"" if board.online else " (offline)"}</div></div>')


def hall_page(model: HallModel) -> str:
    cards = [card(b) for name in model.names() if (b := model.snapshot(name)) is not None]
    return (_head("Chessery hall", "/events") + '<h1>Chessery hall</h1><p><a href="/arbiter">Arbiter</a> '
            '&middot; PGN per round: <code>/round/ROUND.pgn</code> (chess), <code>/round/ROUND/variants.pgn</code></p>'
            f'<div class="grid" id="grid">{"".join(cards)}</div>' + _tail(True))


def board_body(board: BoardView) -> str:
    state = board.state
    assert state is not None and board.variant is not None
    rows = []
    clocks = state["ply_clocks"]
    for n in range(0, len(state["san"]), board.variant.nsides):
        cells = "".join(f"<td>{escape(state['san'][k])}"
                        f"{' <small>' + _clock(clocks[k] / 1000) + '</small>' if k < len(clocks) and clocks[k] else ''}"
                        f"</td>" for k in range(n, min(n + board.variant.nsides, len(state["san"]))))
        rows.append(f"<tr><th>{n // board.variant.nsides + 1}</th>{cells}</tr>")
    status = state["message"] or state["status"]
    return (f'<div id="board-{board.name}" data-ply="{len(state["moves"])}" data-fen="{escape(state["fen"])}">'
            f'<h1>{escape(board.name)}: {escape(board.variant.title)}</h1>'
            f'<p>{escape(state["event"])}, round {escape(state["round"])} &middot; {_players(board)}</p>'
            f'<p>{escape(status)}{" &middot; " + escape(state["result"]) if state["status"] == "over" else ""}'
            f'{"" if board.online else " &middot; <b>offline</b>"}</p>'
            f'{board_svg(board.variant, board.cells, board.last_cells, px=480, territories=board.territories)}'
            f'{_score(board)}'
            f'<table class="moves">{"".join(rows)}</table>{_event_log(board)}</div>')


def _event_log(board: BoardView) -> str:
    """The board's latest events as they came (numbered: a gap says the hall missed some and
    took the game from the board's state instead)."""
    items = "".join(f"<li>#{e['seq']} {escape(e['kind'])} {e['ply']} {escape(e['san'] or e['move'])}</li>"
                    for e in reversed(board.events))
    return f'<h2>Events</h2><ol class="events">{items}</ol>' if items else ""


def board_page(board: BoardView) -> str:
    return (_head(f"{board.name}: Chessery hall", f"/events?board={board.name}") + '<p><a href="/">Hall</a></p>'
            f'<div id="page">{board_body(board)}</div>' + _tail(True))


def arbiter_page(model: HallModel) -> str:
    rows = "".join(f'<tr class="alert-{kind}"><td><a href="/board/{escape(name)}">{escape(name)}</a></td>'
                   f"<td>{kind}</td><td>{escape(text)}</td></tr>" for name, kind, text in model.alerts())
    return (_head("Arbiter: Chessery hall").replace("<head>", '<head><meta http-equiv="refresh" content="2">')
            + '<p><a href="/">Hall</a></p><h1>Alerts</h1>'
            f'<table id="alerts"><tr><th>board</th><th>alert</th><th></th></tr>{rows}</table>' + _tail(False))


def round_pgn(model: HallModel, round_name: str, variants: bool) -> str:
    """Every game of the round in one PGN: the chess games (the feed lichess broadcasts poll),
    or with ``variants`` every other variant's, with ``Variant`` and ``SetUp``/``FEN``."""
    games = []
    for name in model.names():
        board = model.snapshot(name)
        if board is None or board.state is None or board.variant is None:
            continue
        state = board.state
        if state["round"] != round_name or (board.variant.name != "chess") != variants:
            continue
        games.append(board_pgn(board))
    return "\n".join(games)


def board_pgn(board: BoardView) -> str:
    state = board.state
    assert state is not None and board.variant is not None
    record = GameRecord(id=state["game"], variant=board.variant.name, start_fen=state["start_fen"],
                        started=state["date"] or "????-??-??", finished=None,
                        result=state["result"] if state["status"] == "over" else "*",
                        termination=state["termination"], moves=tuple(state["moves"]))
    players = state["players"]
    tags = {"Board": board.name}
    if board.variant.name != "chess" and state["start_fen"] == board.variant.start:
        tags.update(SetUp="1", FEN=state["start_fen"])  # a variant reader needs the start spelled out
    return export_pgn(record, event=state["event"], site=state["site"], round=state["round"],
                      white=players[0] if players else "?", black=players[1] if len(players) > 1 else "?",
                      tags=tags, time_control=state["time_control"], clocks=state["ply_clocks"])
