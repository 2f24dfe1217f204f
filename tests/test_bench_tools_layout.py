"""Benchmarks and research scripts run as modules from the repository root (``./dev bench NAME``,
``python -m tools.NAME``), so none of them edits the import path, no page tells anybody to, and the
tests import nothing from tools/ (issue 24)."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_no_benchmark_or_tool_edits_the_import_path() -> None:
    offenders = [f"{p.relative_to(ROOT)}:{n}" for p in [*ROOT.glob("bench/*.py"), *ROOT.glob("tools/*.py")]
                 for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
                 if re.search(r"sys\.path|PYTHONPATH", line)]
    assert offenders == []


def test_no_page_asks_for_pythonpath() -> None:
    pages = [ROOT / "README.md", *ROOT.glob("docs/**/*.md")]
    assert [str(p.relative_to(ROOT)) for p in pages if "PYTHONPATH" in p.read_text(encoding="utf-8")] == []


def imports(paths: list[Path]) -> Iterator[tuple[str, str]]:
    """``(where, module)`` for every module each of ``paths`` imports."""
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            for name in names:
                yield f"{path.relative_to(ROOT)}:{node.lineno}", name


def test_no_test_imports_the_research_scripts() -> None:
    importers = [where for where, name in imports(list(ROOT.glob("tests/*.py")))
                 if name == "tools" or name.startswith("tools.")]
    assert importers == []


def test_no_module_imports_a_test_module() -> None:
    # Helpers that tests and benchmarks share live in modules of their own (tests/hand_model.py,
    # tests/royal_fury_games.py ...): importing a test module would collect its tests twice and
    # tie a benchmark to them.
    paths = [*ROOT.glob("tests/*.py"), *ROOT.glob("bench/*.py"), *ROOT.glob("tools/*.py")]
    importers = [where for where, name in imports(paths) if name.startswith("tests.test_")]
    assert importers == []


def test_every_benchmark_is_a_module_of_the_bench_package() -> None:
    assert (ROOT / "bench" / "__init__.py").is_file()
    dev = (ROOT / "dev").read_text(encoding="utf-8")
    assert '-m "bench.$name"' in dev
