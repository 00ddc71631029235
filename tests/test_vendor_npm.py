"""tools/vendor.py's npm step: node_modules/ is installed again only when its packages differ
from package-lock.json (read from both files, not from their dates), and never through a link
to an install others share (npm ci would empty it)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
import vendor

LOCK = {"packages": {"": {"name": "tablee"}, "node_modules/pyodide": {"version": "314.0.7"},
                     "node_modules/fsevents": {"version": "2.3.3", "optional": True}}}


@pytest.fixture
def tree(tmp_path, monkeypatch):
    root = tmp_path / "tree"
    (root / "node_modules").mkdir(parents=True)
    monkeypatch.setattr(vendor, "ROOT", root)
    monkeypatch.setattr(vendor, "NODE", root / "node_modules")
    monkeypatch.setattr(vendor.subprocess, "run", lambda *a, **k: pytest.fail(f"npm ran: {a}"))
    return root


def write(root: Path, installed: dict) -> None:
    (root / "node_modules" / ".package-lock.json").write_text(json.dumps({"packages": installed}))
    (root / "package-lock.json").write_text(json.dumps(LOCK))  # written last: the newer file


def test_an_install_as_locked_is_kept_though_the_lock_file_is_newer(tree):
    write(tree, {"node_modules/pyodide": {"version": "314.0.7"}})
    assert vendor.installed_as_locked()
    vendor.npm_ci()  # (runs nothing)


def test_another_version_or_a_missing_package_is_not_as_locked(tree):
    write(tree, {"node_modules/pyodide": {"version": "313.0.0"}})
    assert not vendor.installed_as_locked()
    write(tree, {})
    assert not vendor.installed_as_locked()


def test_a_shared_install_behind_a_link_is_never_emptied(tmp_path, monkeypatch, capsys):
    shared = tmp_path / "shared"
    shared.mkdir()
    (shared / "keep.txt").write_text("others use this")
    root = tmp_path / "tree"
    root.mkdir()
    os.symlink(shared, root / "node_modules")
    (root / "package-lock.json").write_text(json.dumps(LOCK))
    monkeypatch.setattr(vendor, "ROOT", root)
    monkeypatch.setattr(vendor, "NODE", root / "node_modules")
    monkeypatch.setattr(vendor.subprocess, "run", lambda *a, **k: pytest.fail(f"npm ran: {a}"))
    vendor.npm_ci()
    assert (shared / "keep.txt").read_text() == "others use this"
    assert "run `npm ci` there" in capsys.readouterr().out
