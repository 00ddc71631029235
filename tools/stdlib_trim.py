"""Which standard library modules the engine can import (run by tools/stdlib_trim.mjs inside
the vendored Pyodide, so the sources are read with the grammar of the Python they belong to).

Usage (inside Pyodide): ``needed(stdlib_dir, own_dirs, roots)`` returns the sorted names of
the standard library modules to keep, where

* ``stdlib_dir`` holds Pyodide's standard library as sources (python_stdlib.zip unpacked);
* ``own_dirs`` hold the code that runs in the worker: the rules package, its wheels and
  py/worker.py. Every import anywhere in them counts, in a function body too (the package's
  lazy imports: an op may run any of them);
* ``roots`` are more module names to keep with what they import (what Pyodide itself imports
  when it starts, and what PyScript's own Python imports: tools/vendor.py reads them).

Pyodide's own packages (``pyodide``, ``_pyodide``: what its JavaScript calls into, unpacking
an archive or making the memory snapshot) are kept whole, with their lazy imports, like the
package's.

A standard library module keeps what it imports when it is imported (its module and class
bodies, a ``try: import`` included), not what its functions import lazily, nor what its
``if __name__ == "__main__":`` block imports (``heapq``'s doctest): a module kept for what it
is imported for runs those functions only when the package calls them, and a lazy import the
package's calls do reach is found by the run-time check (tests/test_stdlib_trim.py imports
every module the package references under the trimmed archive and runs the package's ops).
"""

from __future__ import annotations

import ast
import os

#: Codecs kept whatever the analysis says (a codec is looked up by name at run time, never
#: imported by name): UTF-8/16/32, ASCII, Latin-1, the escapes, and cp437, which zipfile uses
#: for the names of entries without the UTF-8 flag.
CODECS = [
    "encodings", "encodings.aliases", "encodings.ascii", "encodings.latin_1", "encodings.utf_8",
    "encodings.utf_8_sig", "encodings.utf_16", "encodings.utf_16_le", "encodings.utf_16_be",
    "encodings.utf_32", "encodings.utf_32_le", "encodings.utf_32_be", "encodings.raw_unicode_escape",
    "encodings.unicode_escape", "encodings.cp437",
]


#: Standard library modules a standard library function imports lazily on a path the worker
#: reaches: ``importlib.invalidate_caches()`` (py/worker.py's Library, after it unpacks the
#: package's second archive) runs ``PathFinder.invalidate_caches``, which imports
#: ``importlib.metadata``. On an engine restored from its memory snapshot the first move of a
#: system (its ``moves.py``, loaded on first use) goes through that path, and without this module
#: the referee failed with ModuleNotFoundError (request.internal) on every phone's move.
LAZILY_REACHED = ["importlib.metadata"]


def _is_main_guard(test: ast.expr) -> bool:
    return (isinstance(test, ast.Compare) and isinstance(test.left, ast.Name) and test.left.id == "__name__"
            and len(test.comparators) == 1 and isinstance(test.comparators[0], ast.Constant)
            and test.comparators[0].value == "__main__")


#: Platform tests whose branch never runs in Pyodide (``sys.platform`` is "emscripten",
#: ``os.name`` "posix"): Windows' and macOS's. An ``if`` on one of them keeps only the other
#: branch's imports (asyncio's windows_events, ntpath's and subprocess's Windows modules).
_FOREIGN_PLATFORMS = {"win32", "cygwin", "darwin", "nt", "ios"}
_PLATFORM_NAMES = {("sys", "platform"), ("os", "name"), ("_os", "name"), ("_sys", "platform")}


def _names_platform(node: ast.expr) -> bool:
    return (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
            and (node.value.id, node.attr) in _PLATFORM_NAMES)


def _foreign_platform(test: ast.expr) -> bool | None:
    """True when ``test`` holds only on another platform (``sys.platform == "win32"``,
    ``os.name == 'nt'``, ``sys.platform.startswith("win")``), False when it holds on every
    platform but those (``!=``), None when it is not such a test."""
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and _names_platform(test.left):
        right = test.comparators[0]
        if isinstance(right, ast.Constant) and right.value in _FOREIGN_PLATFORMS:
            if isinstance(test.ops[0], ast.Eq):
                return True
            if isinstance(test.ops[0], ast.NotEq):
                return False
    if (isinstance(test, ast.Call) and isinstance(test.func, ast.Attribute) and test.func.attr == "startswith"
            and _names_platform(test.func.value) and len(test.args) == 1 and isinstance(test.args[0], ast.Constant)
            and test.args[0].value in ("win", "darwin", "cygwin")):
        return True
    return None


def imports(tree: ast.AST, lazy: bool) -> list[tuple[str | None, list[str], int]]:
    """(module, names imported from it, level) of each import statement: in function bodies too
    when `lazy`, never under ``if __name__ == "__main__":`` nor in a branch for another
    platform (see _foreign_platform)."""
    found: list[tuple[str | None, list[str], int]] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)) and not lazy:
            return
        if isinstance(node, ast.If) and _is_main_guard(node.test):
            for child in node.orelse:
                visit(child)
            return
        foreign = _foreign_platform(node.test) if isinstance(node, ast.If) else None
        if foreign is not None:
            for child in node.orelse if foreign else node.body:
                visit(child)
            return
        if isinstance(node, ast.Import):
            found.extend((alias.name, [], 0) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            found.append((node.module, [alias.name for alias in node.names], node.level))
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


#: Standard library packages kept whole, their functions' imports included (see above).
WHOLE = ("pyodide", "_pyodide")


class Finder:
    def __init__(self, stdlib: str, own: list[str]) -> None:
        self.stdlib = stdlib
        self.own = own
        self.kept: set[str] = set()
        self.seen: set[str] = set()

    def locate(self, name: str) -> tuple[str, bool, bool] | None:
        """(file, is_package, is_stdlib) of module `name`, or None (built in, or absent)."""
        rel = name.replace(".", "/")
        for root in [*self.own, self.stdlib]:
            candidates = ((os.path.join(root, rel, "__init__.py"), True), (os.path.join(root, rel + ".py"), False))
            for path, package in candidates:
                if os.path.isfile(path):
                    return path, package, root == self.stdlib
        return None

    def add(self, name: str) -> None:
        parts = name.split(".")
        for i in range(1, len(parts) + 1):
            self.visit(".".join(parts[:i]))

    def visit(self, name: str) -> None:
        if name in self.seen:
            return
        self.seen.add(name)
        where = self.locate(name)
        if where is None:
            return
        path, package, stdlib = where
        if stdlib:
            self.kept.add(name)
        with open(path, "rb") as source:
            tree = ast.parse(source.read(), path)
        here = name if package else name.rpartition(".")[0]
        lazy = not stdlib or name.split(".")[0] in WHOLE
        for module, names, level in imports(tree, lazy=lazy):
            if level:
                base = here.split(".")
                base = base[: len(base) - (level - 1)] if level > 1 else base
                target = ".".join([*base, module] if module else base)
            else:
                target = module or ""
            if not target:
                continue
            self.add(target)
            for item in names:
                if item != "*" and self.locate(f"{target}.{item}"):
                    self.add(f"{target}.{item}")


def own_modules(root: str) -> list[str]:
    out = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.endswith(".dist-info") and d != "__pycache__")
        for file in sorted(files):
            if file.endswith(".py"):
                rel = os.path.relpath(os.path.join(folder, file), root)[:-3].replace(os.sep, ".")
                out.append(rel.removesuffix(".__init__"))
    return out


def needed(stdlib: str, own: list[str], roots: list[str]) -> list[str]:
    finder = Finder(stdlib, own)
    for root in own:
        for name in own_modules(root):
            finder.add(name)
    for name in [*roots, *CODECS, *LAZILY_REACHED]:
        finder.add(name)
    for package in WHOLE:
        for name in own_modules(os.path.join(stdlib, package)):
            finder.add(f"{package}.{name}" if name != "__init__" else package)
    return sorted(finder.kept)
