"""The engine's source layout, checked from the source (issue 24): no circle in its imports, each
rule component in a module named after it, module names distinct across the engine."""

from __future__ import annotations

import ast
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

from engine.components import component_class, component_names

ENGINE = Path(__file__).resolve().parent.parent / "engine"


# -- imports -------------------------------------------------------------------------------------------
def module_names(root: Path) -> dict[str, Path]:
    """Dotted module name -> file, for the package at ``root`` and its subpackages."""
    out = {}
    for path in root.rglob("*.py"):
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _type_checking_only(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def runtime_imports(root: Path) -> dict[str, dict[str, list[tuple[int, bool]]]]:
    """The package's imports of its own modules that run: module -> imported module -> (line,
    inside a function) per import. Left out: ``if TYPE_CHECKING:`` blocks (never run) and the
    implicit import of a parent package (Python runs it first, whoever imports)."""
    modules = module_names(root)
    graph: dict[str, dict[str, list[tuple[int, bool]]]] = {name: {} for name in modules}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]

        def add(target: str, line: int, local: bool, name: str = name) -> None:
            if target in modules and target != name:
                graph[name].setdefault(target, []).append((line, local))

        def visit(nodes: Iterable[ast.AST], local: bool, package: str = package) -> None:
            for child in nodes:
                if isinstance(child, ast.If) and _type_checking_only(child):
                    visit(child.orelse, local)
                    continue
                if isinstance(child, ast.Import):
                    for alias in child.names:
                        add(alias.name, child.lineno, local)
                elif isinstance(child, ast.ImportFrom):
                    base = child.module or ""
                    if child.level:
                        up = package.split(".")[: len(package.split(".")) - child.level + 1]
                        base = ".".join([*up, *([child.module] if child.module else [])])
                    submodules = [f"{base}.{a.name}" for a in child.names if f"{base}.{a.name}" in modules]
                    # ``from . import codes`` imports the module codes; ``from . import Component``
                    # takes a name from the package itself.
                    if len(submodules) < len(child.names):
                        add(base, child.lineno, local)
                    for sub in submodules:
                        add(sub, child.lineno, local)
                visit(ast.iter_child_nodes(child),
                      local or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)))

        visit(ast.parse(path.read_text(encoding="utf-8")).body, False)
    return graph


def find_cycle(graph: dict[str, dict[str, list[tuple[int, bool]]]]) -> list[str]:
    """One import circle (``[a, b, ..., a]``), or ``[]`` when there is none."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def walk(node: str) -> list[str]:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt):], nxt]
            if nxt not in state and (found := walk(nxt)):
                return found
        path.pop()
        state[node] = 2
        return []

    for node in sorted(graph):
        if node not in state and (found := walk(node)):
            return found
    return []


def test_the_engine_imports_have_no_circle() -> None:
    graph = runtime_imports(ENGINE)
    assert len(graph) > 40 and "engine.rules" in graph["engine.variant"]
    assert find_cycle(graph) == []


def test_the_engine_imports_its_own_modules_at_module_level_only() -> None:
    # An import inside a function is how a circle hides from the module-level graph.
    local = [f"{name} -> {target} (line {line})" for name, targets in runtime_imports(ENGINE).items()
             for target, sites in targets.items() for line, inside in sites if inside]
    assert local == []


def test_the_circle_finder_sees_a_circle_through_an_import_in_a_function(tmp_path: Path) -> None:
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "sub" / "__init__.py").write_text("from .. import a\n")
    (pkg / "a.py").write_text("from typing import TYPE_CHECKING\nfrom . import b\n"
                              "if TYPE_CHECKING:\n    from . import c\nelse:\n    import pkg.sub\n")
    (pkg / "b.py").write_text("def f():\n    from .sub import c\n    return c\n")
    (pkg / "sub" / "c.py").write_text("from ..a import x\n")
    (pkg / "c.py").write_text("from . import a\n")
    graph = runtime_imports(pkg)
    assert graph["pkg.a"] == {"pkg.b": [(2, False)], "pkg.sub": [(6, False)]}  # TYPE_CHECKING's left out
    assert graph["pkg.b"] == {"pkg.sub.c": [(2, True)]}
    assert find_cycle(graph) == ["pkg.a", "pkg.b", "pkg.sub.c", "pkg.a"]


def registered_names(path: Path) -> list[str]:
    """The names a module's ``@register("...")`` decorators give, read from its source."""
    names = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ClassDef):
            for deco in node.decorator_list:
                if (isinstance(deco, ast.Call) and isinstance(deco.func, ast.Name) and deco.func.id == "register"
                        and deco.args and isinstance(deco.args[0], ast.Constant)):
                    names.append(str(deco.args[0].value))
    return names


def test_each_component_module_registers_one_component_named_after_it() -> None:
    # A reader looking for the component ``two_board_transfer`` opens two_board_transfer.py.
    wrong = {}
    for path in sorted((ENGINE / "components").glob("*.py")):
        if path.name == "__init__.py":
            continue
        names = registered_names(path)
        if names != [path.stem]:
            wrong[path.name] = names
    assert not wrong, f"component modules must register exactly their own name: {wrong}"


def test_every_registered_component_lives_in_its_own_module() -> None:
    # (tests register components of their own; only the engine's are held to the rule)
    modules = {name: component_class(name).__module__ for name in component_names()}
    builtin = {name: module for name, module in modules.items() if module.startswith("engine.")}
    assert len(builtin) >= 33
    assert {name: module for name, module in builtin.items() if module != f"engine.components.{name}"} == {}


def test_module_names_are_distinct_across_the_engine() -> None:
    counts = Counter(p.name for p in ENGINE.rglob("*.py") if p.name != "__init__.py")
    assert [n for n, k in counts.items() if k > 1] == []


def test_the_engine_probes_nothing_with_getattr_or_hasattr() -> None:
    # Stages are found by looking at the component's class (``overrides``), capabilities are
    # declared: nothing in the engine asks an object for a name it may not have.
    probes = [f"{p.relative_to(ENGINE.parent)}:{node.lineno}" for p in sorted(ENGINE.rglob("*.py"))
              for node in ast.walk(ast.parse(p.read_text(encoding="utf-8")))
              if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
              and node.func.id in ("getattr", "hasattr", "setattr")]
    assert probes == []
