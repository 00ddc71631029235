"""The whole suite's running order: the longest tests first.

`make test` runs `tests/` and `e2e/` in one pytest call spread over the machine's cores
(pytest-xdist, `--dist worksteal`: each worker takes a share of the ordered list and an idle
worker takes half of the longest queue that is left). A long test that starts last keeps one
worker busy while the others have nothing left to do, so the list is ordered longest first:

- by the duration each test took in the last run that ran it (setup, call and teardown),
  kept in pytest's cache (`.pytest_cache`, key `tablee/durations`; a test file that no longer
  exists loses its entries at the end of the next run);
- on a fresh clone, which has no cache, by a fixed estimate: a browser test marked `slow` (one that
  plays a whole journey: several pages, reloads, devices) before the other browser tests
  (`e2e/`, each marked `browser` here), before a unit test marked `slow` (a fuzz, an exhaustive
  or statistical check), before every other unit test.

`make test-fast` runs what is neither `slow` nor `browser`, and the tests marked `journey` (one
journey per engine).

Only the order changes: every test still runs, and a test's outcome never depends on it (each
test sets up its own state). `pytest -p no:cacheprovider` orders by the estimate alone.
"""

from __future__ import annotations

import pytest

CACHE_KEY = "tablee/durations"

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


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    """Every browser test marked `browser` (before `-m` selects), then the order: longest first;
    ties keep the collection order (every xdist worker must collect the same list in the same
    order, and each reads the same cache file before any test ran)."""
    for item in items:
        if is_browser_test(item):
            item.add_marker("browser")
    cache = getattr(config, "cache", None)
    known = cache.get(CACHE_KEY, {}) if cache is not None else {}
    if not isinstance(known, dict):
        known = {}

    def duration(item: pytest.Item) -> float:
        seconds = known.get(item.nodeid)
        return float(seconds) if isinstance(seconds, int | float) else estimate(item)

    order = {id(item): index for index, item in enumerate(items)}
    items.sort(key=lambda item: (-duration(item), order[id(item)]))


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
