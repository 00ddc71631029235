"""The test suite's own machinery: what every browser test may rely on whatever ran before it in
the same process, and the running order of the whole suite (the root conftest.py). Browser
tests run in any order, several per process (pytest-xdist workers), so a setting one test changes
must not leak into the next. These run small suites in a fresh pytest process, no browser needed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent

# Loads e2e/conftest.py's fixtures into a scratch folder's conftest (importing it under another
# module name: every conftest.py is "conftest").
E2E_CONFTEST = f"""
import importlib.util, sys
sys.path.insert(0, {str(ROOT / "e2e")!r})
spec = importlib.util.spec_from_file_location("e2e_conftest", {str(ROOT / "e2e" / "conftest.py")!r})
module = sys.modules["e2e_conftest"] = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
globals().update({{k: v for k, v in vars(module).items() if not k.startswith("__")}})
"""


def run_pytest(folder: Path, *args: str) -> subprocess.CompletedProcess:
    """pytest in a fresh process, without the installed plugins (no browser is launched; it starts
    in a fraction of the time)."""
    env = {**os.environ, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", *args, str(folder)],
        cwd=folder, capture_output=True, text=True, timeout=300, env=env,
    )


def test_every_browser_test_starts_with_the_suites_expect_timeout(tmp_path):
    """A test that sets its own `expect` timeout (Playwright's setting is global to the process)
    leaves the next test the suite's timeout, not its own nor Playwright's 5 s."""
    (tmp_path / "conftest.py").write_text(E2E_CONFTEST)
    (tmp_path / "test_order.py").write_text(
        "from playwright.sync_api import expect\n"
        "import e2e_conftest\n"
        "def test_a_lowers_it():\n"
        "    assert expect._timeout == e2e_conftest.EXPECT_TIMEOUT_MS\n"
        "    expect.set_options(timeout=5_000)\n"
        "def test_b_starts_with_the_suites():\n"
        "    assert expect._timeout == e2e_conftest.EXPECT_TIMEOUT_MS >= 20_000\n"
    )
    run = run_pytest(tmp_path, "-p", "no:cacheprovider")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "2 passed" in run.stdout


def test_the_suite_runs_its_longest_tests_first_and_remembers_durations(tmp_path):
    """The root conftest orders tests by the durations of the last run (pytest's cache), longest
    first, ties in collection order; with no cache, a browser test (e2e/, marked `browser`) comes
    first, one marked `slow` before the others."""
    (tmp_path / "conftest.py").write_text((ROOT / "conftest.py").read_text())
    (tmp_path / "e2e").mkdir()
    (tmp_path / "e2e" / "test_b.py").write_text(
        "import pytest\n"
        "def test_browser():\n    pass\n"
        "@pytest.mark.slow\n"
        "def test_journey():\n    pass\n"
    )
    (tmp_path / "a").mkdir()  # collected before e2e/: only the ordering puts the browser test first
    (tmp_path / "a" / "test_a.py").write_text(
        "import time\n"
        "def test_quick():\n    pass\n"
        "def test_slow():\n    time.sleep(0.3)\n"
        "def test_also_quick():\n    pass\n"
    )
    (tmp_path / "pytest.ini").write_text("[pytest]\naddopts = --strict-markers\nmarkers =\n    slow\n    browser\n")

    def order(*args: str) -> list[str]:
        run = run_pytest(tmp_path, "--collect-only", *args)
        assert run.returncode == 0, run.stdout + run.stderr
        return [line.split("::")[-1] for line in run.stdout.splitlines() if "::" in line]

    assert order() == ["test_journey", "test_browser", "test_quick", "test_slow", "test_also_quick"]
    assert order("-m", "browser") == ["test_journey", "test_browser"]
    run = run_pytest(tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr
    durations = json.loads((tmp_path / ".pytest_cache" / "v" / "tablee" / "durations").read_text())
    assert set(durations) == {"a/test_a.py::test_quick", "a/test_a.py::test_slow", "a/test_a.py::test_also_quick",
                              "e2e/test_b.py::test_browser", "e2e/test_b.py::test_journey"}
    assert durations["a/test_a.py::test_slow"] >= 0.3
    assert order()[0] == "test_slow"
    # a test file that is gone loses its durations at the end of the next run
    (tmp_path / "e2e" / "test_b.py").unlink()
    run = run_pytest(tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr
    durations = json.loads((tmp_path / ".pytest_cache" / "v" / "tablee" / "durations").read_text())
    assert set(durations) == {"a/test_a.py::test_quick", "a/test_a.py::test_slow", "a/test_a.py::test_also_quick"}


def test_a_fresh_clone_orders_by_the_committed_baseline_and_runs_each_shared_start_as_one_block(tmp_path):
    """Without a cache, the durations of e2e/durations.json order the tests (a test it lacks keeps
    its estimate); the tests that start a browser of their own in the worker (Firefox and WebKitGTK
    through `engine_site`) or use a context of their module's own come first, each set together,
    the longest set first."""
    (tmp_path / "conftest.py").write_text((ROOT / "conftest.py").read_text())
    (tmp_path / "pytest.ini").write_text("[pytest]\naddopts = --strict-markers\nmarkers =\n    slow\n    browser\n")
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "test_a.py").write_text(
        "def test_quick():\n    pass\ndef test_measured():\n    pass\ndef test_also_quick():\n    pass\n")
    (tmp_path / "e2e").mkdir()
    (tmp_path / "e2e" / "test_b.py").write_text(
        "import pytest\n"
        "@pytest.fixture\n"
        "def engine_site():\n    return 'site'\n"
        "def test_browser():\n    pass\n"
        "def test_firefox(engine_site):\n    pass\n"
        "@pytest.mark.slow\n"
        "def test_journey():\n    pass\n"
        "def test_webkit(engine_site):\n    pass\n"
    )
    (tmp_path / "e2e" / "test_zone.py").write_text(
        "import pytest\n"
        "@pytest.fixture\n"
        "def browser_context_args():\n    return {'timezone_id': 'Pacific/Auckland'}\n"
        "def test_in_the_zone(browser_context_args):\n    pass\n"
    )
    (tmp_path / "e2e" / "durations.json").write_text(json.dumps({
        "e2e/test_b.py::test_browser": 100.0, "e2e/test_b.py::test_webkit": 30.0, "a/test_a.py::test_measured": 5.0}))
    run = run_pytest(tmp_path, "--collect-only", "-p", "no:cacheprovider")
    assert run.returncode == 0, run.stdout + run.stderr
    order = [line.split("::")[-1] for line in run.stdout.splitlines() if "::" in line]
    assert order == ["test_webkit", "test_firefox", "test_in_the_zone", "test_browser", "test_journey",
                     "test_measured", "test_quick", "test_also_quick"]


def test_make_durations_writes_the_baseline_from_the_last_run(tmp_path):
    """tools/durations.py: the cache's durations over the baseline's, each test of a second or more
    rounded to a tenth; a test the run did not measure keeps its entry, a gone file loses it."""
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import durations
    finally:
        sys.path.remove(str(ROOT / "tools"))
    (tmp_path / "e2e").mkdir()
    (tmp_path / "e2e" / "test_b.py").write_text("")
    (tmp_path / "e2e" / "durations.json").write_text(json.dumps({
        "e2e/test_b.py::test_not_run": 12.0, "e2e/test_b.py::test_now_quick": 8.0, "e2e/test_gone.py::test_x": 50.0}))
    cache = tmp_path / ".pytest_cache" / "v" / "tablee"
    cache.mkdir(parents=True)
    (cache / "durations").write_text(json.dumps({
        "e2e/test_b.py::test_now_quick": 0.4, "e2e/test_b.py::test_long": 61.26, "e2e/test_b.py::test_flag": True}))
    durations.write_baseline(tmp_path)
    assert json.loads((tmp_path / "e2e" / "durations.json").read_text()) == {
        "e2e/test_b.py::test_long": 61.3, "e2e/test_b.py::test_not_run": 12.0}
    (cache / "durations").write_text("{}")
    with pytest.raises(SystemExit, match="make test"):
        durations.write_baseline(tmp_path)


def test_no_two_test_modules_share_a_name():
    """pytest imports tests/ and e2e/ as top-level modules (rootdir conftest, no packages): two
    files of one name cannot both be collected, and the whole run fails with "import file
    mismatch" (it happened twice: test_theorem_oppositions.py, test_live_once.py)."""
    root = Path(__file__).resolve().parent.parent
    seen: dict[str, Path] = {}
    clashes = []
    for path in sorted([*root.glob("tests/**/*.py"), *root.glob("e2e/**/*.py")]):
        if path.name == "conftest.py" or path.name == "__init__.py":
            continue
        if path.stem in seen:
            clashes.append(f"{seen[path.stem].relative_to(root)} ~ {path.relative_to(root)}")
        seen.setdefault(path.stem, path)
    assert not clashes, clashes
