"""The demo: with no port configured, the built-in simulated board plays a demo game (the board in
its own process, the script written by ``controller.event_scripts``), and a scripted player
answers the questions at the screen from the script's ``choose`` lines."""

from __future__ import annotations

import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import TYPE_CHECKING

from engine import Variant
from firmware_bridge.board_link import BoardKind

if TYPE_CHECKING:
    from controller.inference import Prompt

    from .service import Service

#: Pause before the demo player answers a question on a screen someone watches (ms).
DEMO_ANSWER_MS = 700


class DemoBoard:
    """The simulated board in its own process (``chessery sim-board``), so that its timing is not
    disturbed by this process's drawing: ``path`` is the pty to open, ``done`` is set when the
    script has been played."""

    def __init__(self, variant: Variant, lines: list[str], faults: str = "", protocol: BoardKind = "chessery") -> None:
        """``faults``: the simulated board's ``--faults`` (bench/soak.py pulls its cable);
        ``protocol``: ``dgt`` or ``millennium`` for an emulated board of that make."""
        self._dir = tempfile.TemporaryDirectory(prefix="chessery-demo-")
        script = Path(self._dir.name) / "demo.txt"
        script.write_text("\n".join(lines) + "\n", encoding="utf-8")
        self.done = threading.Event()
        command = [sys.executable, "-m", "controller.cli", "sim-board", "--variant", variant.name, "--script",
                   str(script), "--link", str(Path(self._dir.name) / "board"), "--while-stdin-open"]
        if faults:
            command += ["--faults", faults]
        if protocol != "chessery":
            command += ["--protocol", protocol]
        # Its stdin is a pipe nobody writes to: when this process dies, however it dies, the
        # pipe closes and the board stops instead of serving a pty nobody reads, for ever.
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                     cwd=Path(__file__).resolve().parent.parent.parent)
        assert self.proc.stdout is not None
        self.path = self.proc.stdout.readline().strip()
        if not self.path:
            raise RuntimeError(f"the simulated board did not start (exit status {self.proc.wait()})")
        threading.Thread(target=self._watch, name="demo board", daemon=True).start()

    def _watch(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            if line.strip() == "done":
                self.done.set()

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(5)
        except Exception:
            self.proc.kill()
        self._dir.cleanup()


def demo_script(variant: Variant, moves_text: str | None, watched: bool, identity: bool = False) -> list[str]:
    """The demo game's event script: the Opera game for chess, a recorded game for the variants
    in ``controller.demo_games``, else a seeded random game. ``identity``: placements name
    their pieces (a board that reads them)."""
    from controller.demo_games import DEMO_GAMES
    from controller.event_scripts import OPERA_GAME, Style, random_game, script_for_moves

    if moves_text:
        moves = moves_text.split()
    elif variant.name == "chess":
        moves = list(OPERA_GAME)
    elif variant.name in DEMO_GAMES:
        moves = list(DEMO_GAMES[variant.name])
    else:
        moves = random_game(variant, 60, seed=1)
    # Drags that barely rest on the squares they cross (shown as provisional readings on the way).
    style = Style(capture="alternate", castle="alternate", slide=True, slide_rest_ms=5,
                  think_ms=1500 if watched else 400, hand_ms=400 if watched else 120, identity=identity)
    return script_for_moves(variant, moves, style)


class DemoPlayer:
    """Answers the session's questions from a list, as a player at the screen would, each
    ``delay_ms`` after it opens (the loop wakes at ``answer_at``)."""

    def __init__(self, service: Service, answers: list[str], delay_ms: int) -> None:
        self.service = service
        self.answers = list(answers)
        self.delay_ms = delay_ms
        #: When the open question gets its answer (service ms; None: nothing to answer).
        self.answer_at: int | None = None
        self._answered: Prompt | None = None

    def maybe_answer(self) -> None:
        service = self.service
        prompt = service.session.status.prompt
        if prompt is None or not self.answers:
            self.answer_at = None
            return
        now = service.now()
        if prompt is not self._answered and self.answer_at is None:
            self.answer_at = now + self.delay_ms
        if self.answer_at is not None and service.now() >= self.answer_at:
            self.answer_at = None
            self._answered = prompt
            answer = self.answers.pop(0)
            try:
                service.report(service.session.answer(answer, service.now()))
            except ValueError as exc:
                service.outputs.say(f"demo answer {answer!r} does not fit: {exc}")


def stop_when_demo_done(service: Service, board: DemoBoard) -> None:
    """Headless demo: end once the script is played and the game has come to rest."""
    while not service.stopping.is_set():
        if board.done.wait(0.2):
            service.finish_when_at_rest()
            return
