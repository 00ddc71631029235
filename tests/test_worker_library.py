"""py/worker.py's library archive: the engine is ready with only the first archive
unpacked, and the rest of the package is unpacked on the first import that needs it.

The layout is the worker's (tools/vendor.py's split of the package between tablee.zip and
tablee-lib.zip.xz, the library copied beside the package as pyscript.toml's [files] says), built
from the sources: the archives hold Pyodide's bytecode, which CPython cannot run
(tests/test_site.py checks that bytecode against these very sources).
"""

from __future__ import annotations

import io
import json
import lzma
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import vendor  # noqa: E402

_PROBE = r"""
import json, os, runpy, sys
worker = runpy.run_path("worker.py")
try:
    import org.python.core  # an optional import some modules try: not the library's
except ImportError:
    pass
def state():
    return {"library_left": os.path.exists("tablee-lib.zip.xz"), "icepool_dir": os.path.isdir("icepool"),
            "systems": sorted(m for m in sys.modules if m.startswith("tablee.systems.")),
            "finders": [type(f).__name__ for f in sys.meta_path],
            "decompressed": any(getattr(f, "zip", None) is not None for f in sys.meta_path)}
out = [{"step": "start", **state()}]
for line in sys.stdin:
    request = json.loads(line)
    answer = json.loads(worker["handle"](json.dumps(request)))
    out.append({"step": request["op"], "error": answer.get("error"), **state()})
try:
    import tablee.no_such_module
except ModuleNotFoundError as error:
    out.append({"step": "missing", "error": error.name})
print(json.dumps(out))
"""


@pytest.fixture
def worker_dir(tmp_path_factory) -> Path:
    wheels = sorted((ROOT / "static/vendor/wheels").glob("*.whl"))
    with zipfile.ZipFile(ROOT / "static/vendor/tablee.zip") as first:
        answers = {n: first.read(n) for n in first.namelist() if n.startswith("tablee/answer.")}
    entries = {**vendor.archive_entries(wheels, answers={}), **answers}
    boot, lib = vendor.split_entries(entries, vendor.boot_modules())
    dest = tmp_path_factory.mktemp("worker")
    for name, data in boot.items():
        (dest / name).parent.mkdir(parents=True, exist_ok=True)
        (dest / name).write_bytes(data)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as z:
        for name, data in lib.items():
            z.writestr(name, data)
    (dest / "tablee-lib.zip.xz").write_bytes(lzma.compress(buffer.getvalue()))
    shutil.copy(ROOT / "py/worker.py", dest / "worker.py")
    return dest


def _run(path: Path, requests: list[dict]) -> list[dict]:
    done = subprocess.run(
        [sys.executable, "-c", _PROBE],
        input="\n".join(json.dumps(r) for r in requests),
        capture_output=True, text=True, check=True, cwd=path,
        env={"PYTHONPATH": str(path), "PYTHONDONTWRITEBYTECODE": "1", "PATH": ""},
    )
    return json.loads(done.stdout)


def test_ready_with_the_first_archive_then_the_library_on_first_need(worker_dir):
    steps = _run(worker_dir, [
        {"op": "store.limits"},
        {"op": "describe"},
        {"op": "unicreon.test", "test": {"value": 50, "difficulty": "moyen"}, "seed": 1},
        {"op": "odds", "expr": "3d6"},
    ])
    by = {s["step"]: s for s in steps}
    # The readiness probe and describe come from the first archive: the library waits (and a
    # miss outside its packages does not unpack it).
    for step in ("start", "store.limits", "describe"):
        assert by[step]["library_left"] is True and by[step]["icepool_dir"] is False, by[step]
        assert by[step]["finders"][-1] == "Library"
        # (a miss is answered from the names beside the first archive: nothing decompressed)
        assert by[step]["decompressed"] is False, by[step]
    assert by["store.limits"]["error"] is None and by["describe"]["error"] is None
    # The first system op unpacks it (once: the finder leaves), and everything answers.
    unicreon = by["unicreon.test"]
    assert unicreon["error"] is None and unicreon["library_left"] is False and unicreon["icepool_dir"] is True
    assert "tablee.systems.unicreon" in unicreon["systems"] and "Library" not in unicreon["finders"]
    assert by["odds"]["error"] is None
    # A module that exists nowhere is still a plain ModuleNotFoundError.
    assert by["missing"]["error"] == "tablee.no_such_module"


def test_the_boot_modules_are_few_and_carry_no_system(worker_dir):
    modules = vendor.boot_modules()
    assert "tablee.api" in modules and "tablee.answers" in modules
    assert not [m for m in modules if m.startswith("tablee.systems.")]
    assert len(list(worker_dir.rglob("*.py"))) <= 12  # the first archive's modules and worker.py
