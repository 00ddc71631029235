"""The engine imports only what a request needs, and describe needs no system.

Each lazy-loading check runs in a fresh interpreter (``sys.modules`` of this one holds every
system: tests/conftest.py imports them all). Two layouts are checked: the worker's (the
package archives static/vendor/tablee.zip and tablee-lib.zip unpacked, the set-up's answers
included, the wheels' packages beside it, as PyScript and py/worker.py do; its modules are Pyodide's
bytecode, which CPython cannot run, so each .pyc is put back as the source it was compiled
from, which tests/test_site.py checks by hash) and the source checkout
(py/ on the path, no answers file: describe and store.limits answer live).
"""

from __future__ import annotations

import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tablee import answers, api, store
from tablee.systems import SYSTEMS

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import vendor  # noqa: E402

ARCHIVE = ROOT / "static" / "vendor" / "tablee.zip"

# Runs in the child: one request per stdin line, then prints which systems and heavy
# dependencies are imported after each one.
_PROBE = r"""
import json, sys
from tablee.api import handle_json
def loaded():
    systems = sorted({m.split(".")[2] for m in sys.modules if m.startswith("tablee.systems.") and m.count(".") >= 2})
    kernel = sorted(m for m in ("tablee.store", "tablee.dice_ops", "fastjsonschema") if m in sys.modules)
    return {"systems": systems, "icepool": "icepool" in sys.modules, "kernel": kernel}
out = [{"step": "import", **loaded()}]
for line in sys.stdin:
    request = json.loads(line)
    answer = json.loads(handle_json(json.dumps(request)))  # what py/worker.py calls
    out.append({"step": request["op"], "error": answer.get("error"), "answer": answer, **loaded()})
print(json.dumps(out))
"""


def _run(path: Path, requests: list[dict]) -> list[dict]:
    done = subprocess.run(
        [sys.executable, "-c", _PROBE],
        input="\n".join(json.dumps(r) for r in requests),
        capture_output=True,
        text=True,
        check=True,
        cwd=path,
        env={"PYTHONPATH": str(path), "PYTHONDONTWRITEBYTECODE": "1", "PATH": ""},
    )
    return json.loads(done.stdout)


@pytest.fixture(scope="module")
def unpacked(tmp_path_factory) -> Path:
    """The archive unpacked as the worker unpacks it (its own fastjsonschema and icepool)."""
    assert ARCHIVE.exists(), "static/vendor/tablee.zip is missing: run `make setup`"
    dest = tmp_path_factory.mktemp("worker")
    for path in (ARCHIVE, ARCHIVE.with_name("tablee-lib.zip")):
        with zipfile.ZipFile(path) as archive:
            archive.extractall(dest)
    wheels = sorted((ROOT / "static/vendor/wheels").glob("*.whl"))
    for name, data in vendor.archive_entries(wheels, answers={}).items():
        if name.endswith(".py"):
            compiled = dest / (name + "c")
            assert compiled.exists() and vendor.pyc_matches(compiled.read_bytes(), data), name
            compiled.unlink()
            (dest / name).write_bytes(data)
    assert not list(dest.rglob("*.pyc"))
    return dest


def _versality_character() -> dict:
    return {**api.handle({"op": "versality.character.new", "id": "ana"})["character"], "name": "Ana"}


def test_first_answers_import_no_system_and_icepool_only_for_odds(unpacked):
    steps = _run(
        unpacked,
        [
            {"op": "describe"},
            {"op": "store.limits"},
            {"op": "roll", "expr": "2d6", "seed": 1},
            {"op": "unicreon.test", "test": {"value": 50, "difficulty": "moyen"}, "seed": 1},
            {"op": "odds", "expr": "3d6"},
        ],
    )
    assert [s["step"] for s in steps] == ["import", "describe", "store.limits", "roll", "unicreon.test", "odds"]
    assert all(s.get("error") is None for s in steps), steps
    by = {s["step"]: s for s in steps}
    for step in ("import", "describe", "store.limits", "roll"):
        assert by[step]["systems"] == [] and by[step]["icepool"] is False, by[step]
    # The readiness probe (store.limits) and describe import not even the kernel (the first
    # paint waits for them): the store, the dice ops and fastjsonschema come with the first
    # request that uses them.
    for step in ("import", "describe", "store.limits"):
        assert by[step]["kernel"] == [], by[step]
    assert by["roll"]["kernel"] == ["fastjsonschema", "tablee.dice_ops"], by["roll"]
    assert by["unicreon.test"]["systems"] == ["unicreon"] and by["unicreon.test"]["icepool"] is False
    assert by["odds"]["systems"] == ["unicreon"] and by["odds"]["icepool"] is True
    # The answers read from the archive are the live ones (every system imported here).
    assert by["describe"]["answer"] == json.loads(json.dumps(api.describe_live()))
    assert by["store.limits"]["answer"] == json.loads(json.dumps(store.limits_live()))


def test_a_document_imports_exactly_its_systems_and_validates_with_them(unpacked):
    bad = {**_versality_character(), "id": "bad", "deck": "not a list"}
    document = {
        **api.handle({"op": "store.new", "name": "Table", "language": "fr"})["document"],
        "characters": [_versality_character(), bad],
        "systems": {"pointzero": api.handle({"op": "pointzero.state.new"})["state"]},
    }
    steps = _run(unpacked, [{"op": "store.open", "document": document}])
    opened = steps[-1]
    assert opened["error"] is None and opened["systems"] == ["pointzero", "versality"], opened
    assert opened["icepool"] is False
    # Versality's validator ran: its broken character was set apart, the good one kept.
    assert [c["id"] for c in opened["answer"]["document"]["characters"]] == ["ana"]
    assert [q["path"] for q in opened["answer"]["document"]["quarantine"]] == ["characters.1"]
    assert opened["answer"]["quarantined"] == 1


def test_check_character_loads_its_system_first(unpacked):
    character = {**_versality_character(), "deck": "not a list"}
    steps = _run(unpacked, [{"op": "store.check_character", "character": character}])
    assert steps[-1]["systems"] == ["versality"]
    assert steps[-1]["answer"]["ok"] is False
    assert steps[-1]["answer"] == api.handle({"op": "store.check_character", "character": character})


def test_source_checkout_answers_describe_live_and_ops_lazily():
    steps = _run(
        ROOT / "py",
        [
            {"op": "roll", "expr": "d66", "seed": 3},
            {"op": "pointzero.rules"},
            {"op": "nope.nothing"},
            {"op": "describe"},
        ],
    )
    by = {s["step"]: s for s in steps}
    assert by["import"]["systems"] == [] and by["roll"]["systems"] == [] and not by["roll"]["icepool"]
    assert by["pointzero.rules"]["systems"] == ["pointzero"] and not by["pointzero.rules"]["icepool"]
    # An op no route names loads everything once, then is still unknown.
    assert by["nope.nothing"]["error"]["code"] == "request.unknown_op"
    assert by["nope.nothing"]["systems"] == sorted(SYSTEMS)
    assert by["describe"]["answer"] == json.loads(json.dumps(api.describe_live()))


def test_every_op_is_routed_to_the_module_that_registers_it():
    api.load_all()
    for name, entry in api.registry.OPS.items():
        module = api.ROUTES.get(name) or api.ROUTES[name.split(".", 1)[0]]
        assert entry.handler.__module__ == module or entry.handler.__module__.startswith(module + "."), name
        if entry.system is not None:
            assert name.startswith(entry.system + "."), name


def test_answer_files_win_over_the_live_answer(tmp_path, monkeypatch):
    """The worker's path: with tablee/answer.<op>.json present, the op returns it as is
    (handle_json sends the text itself), and only for a request that is ``{"op"}`` alone."""
    fake = {"describe": {"systems": [], "ops": []}, "store.limits": {"log": 1}}
    for op, answer in fake.items():
        (tmp_path / answers.file_name(op)).write_text(json.dumps(answer) + " ")
    monkeypatch.setattr(answers, "__file__", str(tmp_path / "answers.py"))
    answers.text.cache_clear()
    try:
        assert api.handle({"op": "describe"}) == fake["describe"]
        assert api.handle({"op": "store.limits"}) == fake["store.limits"]
        assert api.handle_json('{"op": "describe"}') == json.dumps(fake["describe"]) + " "
        first = api.handle({"op": "describe"})
        first["ops"].append("mutated")
        assert api.handle({"op": "describe"}) == fake["describe"]  # a fresh object each time
        extra = json.loads(api.handle_json('{"op": "describe", "x": 1}'))
        assert extra["error"]["code"] == "request.invalid"
    finally:
        monkeypatch.undo()
        answers.text.cache_clear()
    assert api.handle({"op": "describe"})["ops"]  # back to the live answer


def test_systems_table_agrees_with_each_package():
    import importlib

    for sid, facts in SYSTEMS.items():
        assert facts["playable"] == importlib.import_module(f"tablee.systems.{sid}").PLAYABLE, sid
