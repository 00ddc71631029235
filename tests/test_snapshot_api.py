"""The engine's memory snapshot rests on private Pyodide functions (static/js/pyodide-snapshot.js):
``loadPyodide({_makeSnapshot})``, ``pyodide.makeMemorySnapshot()``, ``loadPyodide({_loadSnapshot,
createPyodideModule})`` and the module's ``growMemory``. The app falls back to a plain start
when they are gone, silently: these tests (and tools/vendor.py's check at set-up) fail loudly
instead, on the pinned Pyodide, so an upgrade that drops them is noticed at once.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from node_harness import NODE, ROOT

sys.path.insert(0, str(ROOT / "tools"))

import vendor


def test_the_pinned_pyodide_has_the_private_snapshot_functions():
    assert vendor.missing_snapshot_api() == [], "the pinned Pyodide lost what the engine's snapshot needs"


def test_the_set_up_check_names_what_is_missing(tmp_path):
    (tmp_path / "pyodide.mjs").write_text("async function loadPyodide(e){ e._loadSnapshot }")
    (tmp_path / "pyodide.asm.mjs").write_text("Module.growMemory=growMemory;")
    missing = vendor.missing_snapshot_api(tmp_path)
    assert "makeMemorySnapshot" in missing and "_makeSnapshot" in missing and "createPyodideModule" in missing
    assert "_loadSnapshot" not in missing and "growMemory" not in missing


@pytest.mark.skipif(NODE is None, reason="node is not installed")
@pytest.mark.slow  # boots Pyodide in Node
def test_a_snapshot_made_restores_answers_and_is_reseeded_each_time():
    """Under Node, with the vendored Pyodide and the module's own make/restore: the restored
    interpreter answers, has the pre-imports, draws other random numbers than the snapshot's
    own state and than another restore (reseeded from crypto), and a snapshot of another build
    is refused."""
    assert (ROOT / "static/vendor/pyodide/pyodide.mjs").exists(), "run `make setup`"
    done = subprocess.run(
        [NODE, "--disable-warning=MODULE_TYPELESS_PACKAGE_JSON", str(ROOT / "tests/snapshot_roundtrip.mjs")],
        cwd=ROOT, capture_output=True, text=True, timeout=600, check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["bytes"] > 10_000_000
    first, second = result["restored"]
    for restored in (first, second):
        assert restored["answer"] == '{"a": [1, 2]}'
        assert restored["preImported"] is True
        assert restored["draws"] != result["made"]["draws"], "the snapshot's random state came back"
    assert first["draws"] != second["draws"]
    assert result["foreign"] == "Snapshot build id mismatch"
