"""The worker's bytecode carries no docstrings (tools/pyc_strip.py, run by
tools/pyc_compile.mjs when tools/vendor.py builds the archives), and nothing the worker runs
reads one.

- the stripping itself (under this CPython: the same ``ast`` and ``compile`` as Pyodide's): a
  module, class or function loses its docstring, a ``from __future__`` import after it still
  compiles, an empty body gets ``pass``, a dataclass keeps its docstring; asserts stay;
- the vendored archives (tablee.zip, tablee-lib.zip, the trimmed standard library) hold none
  of the docstrings of their sources, except Pyodide's own packages;
- the package, py/worker.py and the pinned wheels never read ``__doc__`` (nor ``getdoc``,
  ``pydoc``, ``help(``): a docstring left out changes none of the engine's answers.
"""

from __future__ import annotations

import ast
import re
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import pyc_strip  # noqa: E402

VENDOR = ROOT / "static" / "vendor"


def _run(source: str) -> dict:
    tree = pyc_strip.strip_docstrings(ast.parse(source))
    space: dict = {}
    exec(compile(tree, "<stripped>", "exec", dont_inherit=True), space)
    return space


def test_docstrings_are_left_out_and_the_code_still_runs():
    space = _run(
        '"""Module."""\nfrom __future__ import annotations\nfrom dataclasses import dataclass\n'
        'def f(x: int) -> int:\n    """Twice."""\n    return 2 * x\n'
        'def only():\n    """Nothing else."""\n'
        'class C:\n    """A class."""\n    def m(self):\n        "method"\n        return 1\n'
        '@dataclass(frozen=True)\nclass D:\n    """Kept: dataclasses would compute one."""\n    a: int = 1\n'
        'async def g():\n    """Async."""\n    return 3\n'
        'def checked(x):\n    assert x > 0, "positive"\n    return x\n'
    )
    assert space.get("__doc__") is None
    assert space["f"].__doc__ is None and space["f"](2) == 4
    assert space["f"].__annotations__ == {"x": "int", "return": "int"}
    assert space["only"].__doc__ is None and space["only"]() is None
    assert space["C"].__doc__ is None and space["C"]().m.__doc__ is None and space["C"]().m() == 1
    assert space["D"].__doc__ == "Kept: dataclasses would compute one."
    assert space["g"].__doc__ is None
    with pytest.raises(AssertionError):
        space["checked"](-1)


def test_pyodides_own_packages_keep_theirs():
    assert pyc_strip.strips("tablee/api.py") and pyc_strip.strips("json/__init__.py") and pyc_strip.strips("typing.py")
    assert not pyc_strip.strips("_pyodide/_core_docs.py") and not pyc_strip.strips("pyodide/ffi/__init__.py")


def _first_docstring_line(source: bytes) -> str | None:
    try:
        tree = ast.parse(source)
    except SyntaxError:  # (a standard library module written for a newer Python than this one)
        return None
    doc = ast.get_docstring(tree, clean=False)
    line = doc.strip().splitlines()[0].strip() if doc else ""
    return line if len(line) >= 25 else None


@pytest.mark.parametrize("name", ["tablee.zip", "tablee-lib.zip", "pyodide/stdlib-trimmed.zip"])
def test_the_vendored_archives_hold_no_docstring(name):
    path = VENDOR / name
    if not path.is_file():
        pytest.skip("needs `make setup`")
    sources: dict[str, bytes] = {}
    for py in (ROOT / "py").rglob("*.py"):
        sources[py.relative_to(ROOT / "py").as_posix()] = py.read_bytes()
    for wheel in sorted((VENDOR / "wheels").glob("*.whl")):
        with zipfile.ZipFile(wheel) as whl:
            sources.update({n: whl.read(n) for n in whl.namelist() if n.endswith(".py")})
    stdlib = ROOT / "node_modules" / "pyodide" / "python_stdlib.zip"
    if stdlib.is_file():
        with zipfile.ZipFile(stdlib) as whole:
            sources.update({n: whole.read(n) for n in whole.namelist() if n.endswith(".py")})
    checked = kept = 0
    with zipfile.ZipFile(path) as archive:
        for entry in archive.namelist():
            source = sources.get(entry.removesuffix("c")) if entry.endswith(".pyc") else None
            line = _first_docstring_line(source) if source else None
            if line is None:
                continue
            present = line.encode() in archive.read(entry)
            if pyc_strip.strips(entry):
                assert not present, f"{name}: {entry} still holds its docstring ({line!r})"
                checked += 1
            else:
                kept += present
    assert checked >= 5, checked
    if name.startswith("pyodide/"):
        assert kept >= 1  # (Pyodide's own packages keep theirs)


READS_A_DOCSTRING = re.compile(r"__doc__|\bgetdoc\b|\bpydoc\b|\bhelp\(")


def test_nothing_the_worker_runs_reads_a_docstring():
    files = {p.relative_to(ROOT).as_posix(): p.read_text(encoding="utf-8") for p in (ROOT / "py").rglob("*.py")}
    wheels = sorted((VENDOR / "wheels").glob("*.whl"))
    for wheel in wheels:
        with zipfile.ZipFile(wheel) as whl:
            names = [n for n in whl.namelist() if n.endswith(".py")]
            files.update({f"{wheel.name}:{n}": whl.read(n).decode("utf-8") for n in names})
    assert "py/worker.py" in files and "py/tablee/api.py" in files
    readers = sorted(name for name, text in files.items() if READS_A_DOCSTRING.search(text))
    assert not readers, f"these read docstrings, which the worker's bytecode leaves out (tools/pyc_strip.py): {readers}"
