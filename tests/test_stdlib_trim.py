"""The trimmed standard library (static/vendor/pyodide/stdlib-trimmed.zip, tools/vendor.py
write_stdlib_trimmed) holds everything the engine imports: nothing is missing at run time.

In the vendored Pyodide under Node, once with the trimmed archive and once with Pyodide's
whole standard library, beside the worker's two archives:

* every module the package, its wheels and py/worker.py reference (each import statement,
  in a function body too, and each ``from x import y`` that names a module) imports with the
  trimmed archive whenever it imports with the whole one;
* the package's ops answer the same with both, over every request written out in the tests
  (the requests the CPython suite makes that succeed there): a standard library function
  that imports a module lazily, on a path the package takes, would fail here.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from node_harness import NODE, ROOT
from tablee.api import handle

VENDOR = ROOT / "static" / "vendor"
TRIMMED = VENDOR / "pyodide" / "stdlib-trimmed.zip"
SCRIPT = ROOT / "tests" / "stdlib_imports.mjs"
MAX_REQUESTS = 400

pytestmark = pytest.mark.skipif(NODE is None or not TRIMMED.is_file(), reason="needs node and `make setup`")


def sources() -> dict[str, str]:
    """The worker's Python code as text, module name -> source: the package, py/worker.py and
    the pinned wheels."""
    out = {}
    for path in sorted((ROOT / "py").rglob("*.py")):
        rel = path.relative_to(ROOT / "py").with_suffix("").as_posix().replace("/", ".")
        out[rel.removesuffix(".__init__")] = path.read_text(encoding="utf-8")
    for wheel in sorted((VENDOR / "wheels").glob("*.whl")):
        with zipfile.ZipFile(wheel) as whl:
            for name in whl.namelist():
                if name.endswith(".py") and ".dist-info/" not in name:
                    out[name[:-3].replace("/", ".").removesuffix(".__init__")] = whl.read(name).decode("utf-8")
    return out


def referenced(code: dict[str, str]) -> list[str]:
    """Every module name an import statement of `code` names, absolute, with each name a
    ``from`` import takes (it may be a module)."""
    names: set[str] = set()
    for module, text in code.items():
        is_package = any(k.startswith(module + ".") for k in code)
        package = module if is_package else module.rpartition(".")[0]
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    parts = package.split(".")
                    base = ".".join(parts[: len(parts) - node.level + 1])
                    target = f"{base}.{node.module}" if node.module else base
                else:
                    target = node.module
                names.add(target)
                names.update(f"{target}.{alias.name}" for alias in node.names if alias.name != "*")
    return sorted(names)


def requests_in_tests() -> list[dict]:
    """The requests written out as literals in tests/ that the engine answers without an error
    here, each once, at most MAX_REQUESTS."""
    seen: dict[str, dict] = {}
    for path in sorted((ROOT / "tests").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Dict):
                continue
            try:
                value = ast.literal_eval(node)
            except (ValueError, SyntaxError, TypeError):
                continue
            if isinstance(value.get("op"), str) and value["op"] not in ("describe",):
                seen.setdefault(json.dumps(value, sort_keys=True), value)
    ok = [r for r in seen.values() if "error" not in handle(r)]
    return ok[:MAX_REQUESTS]


def run(stdlib: str, names: list[str], requests: list[dict], tmp: Path) -> dict:
    (tmp / "names.json").write_text(json.dumps(names))
    (tmp / "requests.json").write_text(json.dumps(requests))
    done = subprocess.run(
        [NODE, str(SCRIPT), str(ROOT / "node_modules" / "pyodide"), stdlib, str(VENDOR),
         str(tmp / "names.json"), str(tmp / "requests.json")],
        capture_output=True, text=True, check=False, timeout=600,
    )
    # (Pyodide prints its whole minified module before a Python traceback: cut it)
    assert done.returncode == 0, "\n".join(line[:300] for line in done.stderr.splitlines()[-40:])
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.slow  # boots Pyodide in Node
def test_the_trimmed_standard_library_imports_and_answers_as_the_whole_one(tmp_path):
    names = referenced(sources())
    assert "fastjsonschema" in names and "icepool" in names and "json" in names
    requests = requests_in_tests()
    assert len(requests) >= 50, len(requests)  # (enough of the package's paths to mean something)
    whole = run("default", names, requests, tmp_path)
    trimmed = run(str(TRIMMED), names, requests, tmp_path)
    missing = {n: e for n, e in trimmed["failed"].items() if n not in whole["failed"]}
    assert not missing, f"modules the trimmed standard library lacks (after `make setup` too?): {missing}"
    differ = [(r, a, b) for r, a, b in zip(requests, whole["answers"], trimmed["answers"], strict=True) if a != b]
    assert not differ, f"{len(differ)} answers differ, the first: {differ[0]}"
    assert '"error"' not in "".join(trimmed["answers"][:1])


def test_the_trimmed_archive_is_much_smaller_and_is_what_the_engine_fetches():
    """Cut from the precompiled whole archive (its .pyc, byte for byte), at most half its size;
    named as Pyodide's stdLibURL by the engine's interpreter module; the whole one is no longer
    precached (the service worker would download it on every first visit)."""
    whole = VENDOR / "pyodide" / "python_stdlib.zip"
    assert TRIMMED.with_name(TRIMMED.name + ".gz").stat().st_size * 2 <= whole.stat().st_size
    with zipfile.ZipFile(TRIMMED) as small, zipfile.ZipFile(whole) as big:
        assert small.comment.decode().startswith("tablee: trimmed standard library ")
        for info in small.infolist():
            assert small.read(info) == big.read(info.filename)
        kept = set(small.namelist())
        assert {"json/__init__.pyc", "zipfile/__init__.pyc", "encodings/cp437.pyc", "random.pyc"} <= kept
        assert "unittest/__init__.pyc" not in small.namelist() and "pydoc.pyc" not in small.namelist()
    snapshot = (ROOT / "static/js/pyodide-snapshot.js").read_text()
    assert 'here(`../vendor/pyodide/stdlib-trimmed.zip${PACKED_STDLIB ? ".gz" : ""}`)' in snapshot
    assert "stdLibURL: STDLIB_URL" in snapshot
    precache = (VENDOR / "precache.js").read_text()
    assert '"./static/vendor/pyodide/stdlib-trimmed.zip.gz"' in precache
    assert '"./static/vendor/pyodide/python_stdlib.zip"' not in precache


if __name__ == "__main__":  # (print what the test checks)
    print(json.dumps(referenced(sources()), indent=1), file=sys.stderr)
