"""The whole suite's running order: the longest tests first.

`make test` runs `tests/` and `e2e/` in one pytest call spread over the machine's cores
(pytest-xdist, `--dist worksteal`: each worker takes a share of the ordered list and an idle
worker takes half of the longest queue that is left). A long test that starts last keeps one
worker busy while the others have nothing left to do, so the list is ordered longest first:

- by the duration each test took in the last run that ran it (setup, call and teardown),
  kept in pytest's cache (`.pytest_cache`, key `tablee/durations`; a test file that no longer
  exists loses its entries at the end of the next run);
- on a fresh clone, which has no cache, by the committed baseline `e2e/durations.json` (every
  test of a second or more, as a whole run measured it; `make durations` writes it again from the
  cache of the run just made, keeping the entries of tests that run did not run);
- for a test neither knows (a new one), by a fixed estimate: a browser test marked `slow` (one
  that plays a whole journey: several pages, reloads, devices) before the other browser tests
  (`e2e/`, each marked `browser` here), before a unit test marked `slow` (a fuzz, an exhaustive
  or statistical check), before every other unit test.

The tests that drive Firefox or WebKitGTK, those of the fake-camera Chromium, and those of a
module with a context of its own (a time zone) come first, each set in one block
(`shared_start`): a worker starts such a browser or context once and pays its first visit of the
site once, for every later test of its set. Worksteal hands each worker a run of
the list and lets an idle worker take the end of another's run, so a block at the head stays on
the first worker instead of every worker starting its own Firefox and WebKitGTK.

`make test-fast` runs what is neither `slow` nor `browser`, and the tests marked `journey` (one
journey per engine).

Only the order changes: every test still runs, and a test's outcome never depends on it (each
test sets up its own state). `pytest -p no:cacheprovider` orders by the estimate alone.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

CACHE_KEY = "tablee/durations"
BASELINE = Path(__file__).resolve().parent / "e2e" / "durations.json"
# A test shorter than this keeps its estimate: the baseline lists the tests whose place matters.
BASELINE_MIN_SECONDS = 1.0

# Fixtures that start a browser of their own in the worker (session or module scope): the tests
# that use one of them run as one block, first (see the module's docstring).
SHARED_STARTS = {
    "engine_site": "Firefox and WebKitGTK (e2e/conftest.py)",
    "camera_browser": "the fake-camera Chromium (e2e/test_scan.py)",
}

# Seconds assumed for a test the cache has no duration for.
BROWSER_HEAVY_ESTIMATE = 60.0
BROWSER_ESTIMATE = 20.0
HEAVY_ESTIMATE = 10.0
UNIT_ESTIMATE = 0.1


def is_browser_test(item: pytest.Item) -> bool:
    return item.nodeid.startswith("e2e/")


def estimate(item: pytest.Item) -> float:
    slow = item.get_closest_marker("slow") is not None
    if is_browser_test(item):
        return BROWSER_HEAVY_ESTIMATE if slow else BROWSER_ESTIMATE
    return HEAVY_ESTIMATE if slow else UNIT_ESTIMATE


def read_durations(text: str) -> dict[str, float]:
    """The ``{nodeid: seconds}`` of a durations file's text; nothing from a file that is not one."""
    try:
        data = json.loads(text)
    except ValueError:
        return {}
    if not isinstance(data, dict):
        return {}
    return {k: float(v) for k, v in data.items() if isinstance(v, int | float) and not isinstance(v, bool)}


def baseline(path: Path = BASELINE) -> dict[str, float]:
    try:
        return read_durations(path.read_text(encoding="utf-8"))
    except OSError:
        return {}


def shared_start(item: pytest.Item) -> str | None:
    """What costly start a test shares with others in its worker, if any: a browser of its own
    (SHARED_STARTS), or the shared context of its module's own ``browser_context_args`` (a time
    zone: e2e/conftest.py warms one such context per worker, a first visit of the site)."""
    names = getattr(item, "fixturenames", ())
    start = next((fixture for fixture in SHARED_STARTS if fixture in names), None)
    if start is not None:
        return start
    info = getattr(item, "_fixtureinfo", None)
    defs = getattr(info, "name2fixturedefs", {}).get("browser_context_args", ())
    module = defs[-1].baseid if defs else ""
    return f"context of {module}" if module.endswith(".py") else None


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    """Every browser test marked `browser` (before `-m` selects), then the order: the blocks of
    SHARED_STARTS first (the longest block first), then longest first; ties keep the collection
    order (every xdist worker must collect the same list in the same order, and each reads the
    same cache and baseline files before any test ran)."""
    for item in items:
        if is_browser_test(item):
            item.add_marker("browser")
    cache = getattr(config, "cache", None)
    known = cache.get(CACHE_KEY, {}) if cache is not None else {}
    known = read_durations(json.dumps(known)) if isinstance(known, dict) else {}
    committed = baseline()

    def duration(item: pytest.Item) -> float:
        seconds = known.get(item.nodeid, committed.get(item.nodeid))
        return seconds if seconds is not None else estimate(item)

    seconds = {id(item): duration(item) for item in items}
    blocks: dict[str, float] = {}
    for item in items:
        start = shared_start(item)
        if start is not None:
            blocks[start] = blocks.get(start, 0.0) + seconds[id(item)]

    def block(item: pytest.Item) -> tuple:
        start = shared_start(item)
        return (0, -blocks[start], start) if start is not None else (1, 0.0, "")

    order = {id(item): index for index, item in enumerate(items)}
    items.sort(key=lambda item: (*block(item), -seconds[id(item)], order[id(item)]))


class Durations:
    """Adds up each test's setup, call and teardown durations from the reports, and saves them
    in the cache at the end of the run. Under xdist the controller receives every worker's
    reports and is the only one that saves."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.measured: dict[str, float] = {}

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        self.measured[report.nodeid] = self.measured.get(report.nodeid, 0.0) + report.duration

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        cache = getattr(self.config, "cache", None)
        if cache is None or not self.measured or hasattr(self.config, "workerinput"):
            return
        known = cache.get(CACHE_KEY, {})
        if not isinstance(known, dict):
            known = {}
        known.update({nodeid: round(seconds, 3) for nodeid, seconds in self.measured.items()})
        # A test file deleted or renamed takes its durations with it (else the cache only grows).
        root = self.config.rootpath
        known = {nodeid: seconds for nodeid, seconds in known.items() if (root / nodeid.split("::")[0]).is_file()}
        cache.set(CACHE_KEY, known)


def pytest_configure(config: pytest.Config) -> None:
    config.pluginmanager.register(Durations(config), "tablee-durations")
