"""No ``getattr``/``hasattr`` probing in the project: a link, the rules, a hello, a component or an
argument list is used through its declared type (``firmware_bridge.board_link.BoardLink``,
``engine.capabilities``), never asked what it happens to have. Read from the syntax tree, so a
call hidden behind a line break or written in a string is judged as Python sees it. And no
controller module reads another object's private members (the service's parts, the operator's
actions reach each other through public ones)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "firmware_bridge", "controller", "display", "hardware", "bench", "tools", "tests")

#: The only ``getattr`` calls allowed, by file and the source of their first argument; none of
#: them asks an object what it has (each name is known to be there).
ALLOWED_GETATTR = {
    # PEP 562: the package's lazy exports, a name of _EXPORTS looked up in its module
    ("firmware_bridge/__init__.py", "importlib.import_module(f'.{module}', __name__)"),
    # the runner calls the stage a component implements (a method of the Component base class)
    ("engine/rules.py", "c"),
    ("engine/components/__init__.py", "type(component)"),
    ("engine/components/__init__.py", "Component"),
    # a stand-in that forwards every attribute to the core it wraps
    ("bench/latency.py", "self._core"),
}


def _calls_in(path: Path, name: str) -> list[tuple[int, str]]:
    """(line, source of the first argument) of each call of the builtin ``name`` in ``path``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    return [(node.lineno, ast.unparse(node.args[0]) if node.args else "") for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == name]


def _calls(name: str) -> list[tuple[str, int, str]]:
    return [(path.relative_to(ROOT).as_posix(), line, first)
            for package in PACKAGES for path in sorted((ROOT / package).rglob("*.py"))
            for line, first in _calls_in(path, name)]


def test_no_hasattr_anywhere() -> None:
    assert _calls("hasattr") == []


def test_getattr_only_where_the_name_is_known_to_be_there() -> None:
    probes = [(path, line, first) for path, line, first in _calls("getattr") if (path, first) not in ALLOWED_GETATTR]
    assert probes == []


def test_the_guard_sees_a_probe(tmp_path: Path) -> None:
    """A call split over lines, on a link or on the rules, is found; one in a string is not."""
    source = tmp_path / "probe.py"
    source.write_text('scan = getattr(\n    link, "scan_ms", 0)\nok = hasattr(rules, "agreement_outcome")\n'
                      'text = "getattr(link, \'hello\')"\n', encoding="utf-8")
    assert _calls_in(source, "getattr") == [(1, "link")]
    assert _calls_in(source, "hasattr") == [(3, "rules")]


def _private_reads(path: Path) -> list[tuple[int, str]]:
    """``x._name`` where ``x`` is not ``self``, ``cls`` or ``super()``: a module reading another
    object's private member."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
            base = node.value
            if isinstance(base, ast.Name) and base.id in ("self", "cls"):
                continue
            if isinstance(base, ast.Call) and isinstance(base.func, ast.Name) and base.func.id == "super":
                continue
            if ast.unparse(node) == "argparse._SubParsersAction":  # argparse's type for add_subparsers()
                continue
            found.append((node.lineno, ast.unparse(node)))
    return found


def test_the_controller_reads_no_private_member_of_another_object(tmp_path: Path) -> None:
    """The service's parts and the operator actions reach each other through public members."""
    reads = [(path.relative_to(ROOT).as_posix(), line, text)
             for path in sorted((ROOT / "controller").rglob("*.py")) for line, text in _private_reads(path)]
    assert reads == []
    probe = tmp_path / "friend.py"
    probe.write_text("service._report(update)\nself._ok = 1\nsuper()._boot()\n", encoding="utf-8")
    assert _private_reads(probe) == [(1, "service._report")]
