"""The whole suite's running order: the longest tests first.

`make test` runs `tests/` and `e2e/` in one pytest call spread over the machine's cores
(pytest-xdist, `--dist worksteal`: each worker takes a share of the ordered list and an idle
worker takes half of the longest queue that is left). A long test that starts last keeps one
worker busy while the others have nothing left to do, so the list is ordered longest first:

- by the duration each test took in the last run that ran it (setup, call and teardown),
  kept in pytest's cache (`.pytest_cache`, key `tablee/durations`; a test file that no longer
  exists loses its entries at the end of the next run);
- on a fresh clone, which has no cache, by a fixed estimate: a browser test that plays a whole
  journey (`BROWSER_HEAVY`) before the other browser tests (`e2e/`), before a unit test marked
  `slow` or named in `HEAVY`, before every other unit test.

Only the order changes: every test still runs, and a test's outcome never depends on it (each
test sets up its own state). `pytest -p no:cacheprovider` orders by the estimate alone.
"""

from __future__ import annotations

import pytest

CACHE_KEY = "tablee/durations"

# Unit tests that each take tens of seconds (measured with `--durations`): on a fresh clone they
# start with the browser tests instead of last. A name that no longer matches only loses its place.
HEAVY = (
    "tests/test_store_safety.py::test_loader_fuzz",
    "tests/theorem/test_theorem_fuzz.py::",
    "tests/test_store.py::test_any_json_loads_or_fails_cleanly",
    "tests/test_api_core.py::test_fuzz_op_from_its_schema",
    "tests/test_ydoc15.py::",
    "tests/test_op_state_fuzz.py::",
    "tests/test_store_safety.py::test_the_size_limit",
    "tests/test_share_filters.py::test_no_secret_survives",
    "tests/systmj/test_systmj_tests.py::test_every_request_the_schema_allows",
    "tests/test_suite_setup.py::",
)

# Browser tests that play a whole journey (several pages, reloads, several devices): on a fresh
# clone they start before the shorter browser tests.
BROWSER_HEAVY = (
    "e2e/test_engines_firefox.py::",
    "e2e/test_engines_webkit.py::",
    "e2e/test_scan.py::",
    "e2e/test_theorem_live_oppositions.py::",
    "e2e/test_keep_rejoin.py::",
    "e2e/test_live_table.py::",
    "e2e/test_live_moves.py::",
    "e2e/test_rtc15.py::",
    "e2e/test_systmj.py::",
    "e2e/test_systmj_card_journey.py::",
    "e2e/test_theorem.py::",
    "e2e/test_unicreon.py::",
    "e2e/test_versality.py::",
    "e2e/test_pointzero.py::",
    "e2e/test_data_safety.py::test_two_tabs",
    "e2e/test_data_safety.py::test_every_accepted_document",
    "e2e/test_edit_bursts.py::",
)

# Seconds assumed for a test the cache has no duration for.
BROWSER_HEAVY_ESTIMATE = 60.0
BROWSER_ESTIMATE = 20.0
HEAVY_ESTIMATE = 10.0
UNIT_ESTIMATE = 0.1


def estimate(item: pytest.Item) -> float:
    nodeid = item.nodeid
    if nodeid.startswith("e2e/"):
        return BROWSER_HEAVY_ESTIMATE if nodeid.startswith(BROWSER_HEAVY) else BROWSER_ESTIMATE
    if item.get_closest_marker("slow") is not None or nodeid.startswith(HEAVY):
        return HEAVY_ESTIMATE
    return UNIT_ESTIMATE


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    """Longest first; ties keep the collection order (every xdist worker must collect the same
    list in the same order, and each reads the same cache file before any test ran)."""
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
