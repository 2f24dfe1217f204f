"""The engine's source layout, checked from the source (issue 24): each rule component in a module
named after it, module names distinct across the engine."""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

from engine.components import component_class, component_names

ENGINE = Path(__file__).resolve().parent.parent / "engine"


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
