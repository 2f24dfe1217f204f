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


def board_link_classes() -> set[str]:
    """The names of every class of ours below ``BoardLink``: our link, the shared reconnect loop,
    the drivers' base and the DGT and Millennium drivers."""
    import firmware_bridge.boards.dgt
    import firmware_bridge.boards.millennium
    import firmware_bridge.link  # noqa: F401  (imported for the classes it defines)
    from firmware_bridge.board_link import BoardLink

    found: set[str] = set()
    todo = list(BoardLink.__subclasses__())
    while todo:
        cls = todo.pop()
        if cls.__module__.startswith("firmware_bridge."):
            found.add(cls.__name__)
        todo.extend(cls.__subclasses__())
    return found


def _type_tests_in(path: Path, names: set[str]) -> list[tuple[int, str]]:
    """(line, class) of each ``isinstance``/``issubclass`` test, ``type(x) is C`` comparison and
    ``case C():`` pattern in ``path`` naming one of ``names`` (plain, dotted or in a tuple)."""
    def named(node: ast.expr) -> list[str]:
        if isinstance(node, ast.Tuple):
            return [n for element in node.elts for n in named(element)]
        if isinstance(node, ast.Name):
            return [node.id]
        if isinstance(node, ast.Attribute):
            return [node.attr]
        return []

    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id in ("isinstance", "issubclass") and len(node.args) == 2):
            found += [(node.lineno, name) for name in named(node.args[1]) if name in names]
        elif isinstance(node, ast.Compare) and isinstance(node.left, ast.Call) and ast.unparse(
                node.left.func) == "type":
            found += [(node.lineno, name) for c in node.comparators for name in named(c) if name in names]
        elif isinstance(node, ast.MatchClass):
            found += [(node.lineno, name) for name in named(node.cls) if name in names]
    return found


def test_the_controller_never_asks_which_make_of_board_a_link_is() -> None:
    """What a board can do beyond the rest is a method of ``BoardLink`` with a do-nothing default
    (``expect_position``, ``show_clock``): no controller module tests a link for a driver class."""
    names = board_link_classes()
    assert {"Link", "PortLink", "BoardDriver", "DgtDriver", "MillenniumDriver"} <= names
    tests = [(path.relative_to(ROOT).as_posix(), line, name)
             for path in sorted((ROOT / "controller").rglob("*.py")) for line, name in _type_tests_in(path, names)]
    assert tests == []


def test_the_guard_sees_a_test_for_a_driver_class(tmp_path: Path) -> None:
    source = tmp_path / "make.py"
    source.write_text("if isinstance(link, DgtDriver):\n    pass\n"
                      "ok = isinstance(\n    link, (Link, boards.MillenniumDriver))\n"
                      "same = type(link) is BoardDriver\nmatch link:\n    case PortLink():\n        pass\n"
                      "fine = isinstance(link, BoardLink) or isinstance(status, LinkStatus)\n", encoding="utf-8")
    names = {"Link", "PortLink", "BoardDriver", "DgtDriver", "MillenniumDriver"}
    assert sorted(_type_tests_in(source, names)) == [(1, "DgtDriver"), (3, "Link"), (3, "MillenniumDriver"),
                                                     (5, "BoardDriver"), (7, "PortLink")]
