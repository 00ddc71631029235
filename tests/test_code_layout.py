"""The code's layout keeps the shape docs/ARCHITECTURE.md draws.

- The app's JavaScript modules import one another in one direction: no module reaches, through
  the modules it imports (statically or with a literal ``import("…")``), back to itself. A
  circle makes a module's names undefined while the circle loads and ties every page to the
  shell.
- A test module imports no other test module, nor a ``conftest``: shared helpers live in support
  modules named by what they hold, fixtures in ``conftest.py``, so a test module can be run,
  moved or renamed on its own.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
JS = ROOT / "static" / "js"
_IMPORT = re.compile(
    r"""^\s*(?:import|export)\s[^;]*?\sfrom\s+["']([^"']+)["']"""  # import … from "x", export … from "x"
    r"""|^\s*import\s+["']([^"']+)["']"""  # import "x"
    r"""|\bimport\(\s*["']([^"']+)["']\s*\)""",  # import("x")
    re.M,
)


def js_imports(path: Path) -> set[Path]:
    """The app's modules `path` imports (relative specifiers only: the vendored ones are not the app's)."""
    found = set()
    for match in _IMPORT.finditer(path.read_text(encoding="utf-8")):
        spec = next(g for g in match.groups() if g)
        if spec.startswith("."):
            target = (path.parent / spec).resolve()
            if target.is_relative_to(JS):
                found.add(target)
    return found


def circles(graph: dict[Path, set[Path]]) -> list[list[str]]:
    """Each strongly connected group of more than one module (Tarjan), as sorted relative paths."""
    index: dict[Path, int] = {}
    low: dict[Path, int] = {}
    stack: list[Path] = []
    on_stack: set[Path] = set()
    groups: list[list[str]] = []

    def visit(node: Path) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in graph.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1 or node in graph.get(node, ()):
                groups.append(sorted(p.relative_to(ROOT).as_posix() for p in group))

    for node in graph:
        if node not in index:
            visit(node)
    return groups


def test_the_apps_modules_import_one_another_in_one_direction():
    graph = {path.resolve(): js_imports(path) for path in JS.rglob("*.js")}
    assert len(graph) > 50
    assert circles(graph) == []


def test_the_circle_finder_finds_a_circle_through_a_literal_dynamic_import():
    a, b, c = (JS / name for name in ("a.js", "b.js", "c.js"))
    assert circles({a: {b}, b: {c}, c: {a}}) == [["static/js/a.js", "static/js/b.js", "static/js/c.js"]]
    assert circles({a: {b}, b: {c}, c: set()}) == []
    source = 'import { x } from "./b.js";\nconst load = () => import("./systems/c.js");\nimport "../vendor/y.js";\n'
    found = [next(g for g in m.groups() if g) for m in _IMPORT.finditer(source)]
    assert found == ["./b.js", "./systems/c.js", "../vendor/y.js"]


def test_no_test_module_imports_another_test_module():
    files = [*ROOT.glob("tests/**/*.py"), *ROOT.glob("e2e/**/*.py"), ROOT / "conftest.py"]
    # (conftest too: pytest imports every conftest.py as "conftest", so an import of it picks
    # whichever folder's was loaded last)
    test_modules = {path.stem for path in files if path.name.startswith("test_")} | {"conftest"}
    imports = []
    for path in files:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [node.module] if isinstance(node, ast.ImportFrom) and node.module else (
                [alias.name for alias in node.names] if isinstance(node, ast.Import) else [])
            imports += [f"{path.relative_to(ROOT)}:{node.lineno} imports {name}"
                        for name in names if name.split(".")[-1] in test_modules]
    assert imports == []
