"""End-to-end tests: the real site, served under a sub-path, in Chromium.

The browser is Debian's Chromium (CHROMIUM_PATH or /usr/bin/chromium) when present,
else Playwright's own build (``playwright install chromium``, done by ``make test``).
Every test fails on an uncaught page error, on any request that leaves the site's
origin (the app must never reach a CDN) and on any Content-Security-Policy violation
(index.html's meta policy; a page's ``securitypolicyviolation`` events and the console's
CSP reports, which is where a worker's land).

Under the policy a string predicate must be a function (``"() => ..."``): Playwright
evaluates a bare expression with ``eval``, which the policy refuses.

Fixtures (besides pytest-playwright's ``browser``, ``context`` and ``page``):

- ``server`` / ``site``: the site served on a free port, once per test process.
- ``guarded``: the page-error, CSP and foreign-request checks of the test's ``context``.
- ``app``: a page on the dice tray with the engine ready (one engine boot).
- ``app_with(doc, route="tray")``: the same page, but opened on a prepared table: ``doc`` (a
  dict, e.g. ``browser_support.new_table(characters, systems)``, or raw text) is written to
  localStorage before the app's first load, so the test boots the engine once. Prefer it to
  ``app`` followed by writing the table and reloading (two boots) whenever creating the
  table through the pages is not what the test checks.
- ``devices(mj=..., scripts=())``: more browser contexts (phones, the MJ's laptop) in the
  same browser.
- ``new_version``: makes the server publish a new precache list.
- ``engine_site``, ``firefox``, ``webkit``: the other two engines (e2e/engines/drivers.py) on a
  site served for them alone; one of each per test process, started by the first test that
  asks for it and shared by every later one (each test opens the app with
  ``journeys.open_with``, which empties the site's storage first).

One Chromium per test process: pytest-playwright's ``browser`` is session-scoped, and under
pytest-xdist (``make test`` runs one worker per core) each worker launches its own and its own
``server``; each worker warms one context and shares it between tests, its site storage emptied
before each (a test that needs its own context asks for it: see the ``context`` fixture).
Nothing here is shared between workers, so a test may run on any of them in any order.
"""

from __future__ import annotations

import json
import os
import re
import sys
import threading

import pytest
from playwright.sync_api import expect

from browser_support import (
    CONSOLE,
    CSP_RECORDER,
    ROOT,
    STRICT_TABLES,
    Device,
    chromium_launch,
    emptied_page,
    open_table,
    wait_engine,
)

sys.path.insert(0, str(ROOT / "tools"))

from engines import journeys
from engines.drivers import FirefoxPage, WebKitPage, missing
from serve import make_server
from site_server import BASE, SiteHandler, free_port

# How long an `expect` waits for its state before failing. Most states come back from the
# Python engine, sometimes after several round trips, and `make test` runs a browser per core:
# on a loaded 2-core machine that takes far longer than Playwright's default 5 s. Each wait
# still ends as soon as its state is there; only a failure is reported later.
EXPECT_TIMEOUT_MS = 40_000


@pytest.fixture(autouse=True)
def patient_expect():
    """Every test starts with the suite's `expect` timeout, whatever a test run before it in the
    same process set (`expect.set_options` is global to the process)."""
    expect.set_options(timeout=EXPECT_TIMEOUT_MS)
    yield
    expect.set_options(timeout=EXPECT_TIMEOUT_MS)


@pytest.fixture
def new_version():
    """Call it to make the server publish a new version of the app (a new precache list)."""

    def publish(suffix: str = "next") -> None:
        SiteHandler.version_suffix = suffix

    yield publish
    SiteHandler.version_suffix = ""


@pytest.fixture(scope="session")
def server():
    if not (ROOT / "static" / "vendor" / "precache.js").exists():
        pytest.fail("static/vendor is missing: run `make setup` (make test does it for you)")
    port = free_port()
    httpd = make_server(port, BASE, quiet=True, handler_class=SiteHandler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{port}"
    httpd.shutdown()


@pytest.fixture(scope="session")
def site(server) -> str:
    return server + BASE


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args, browser_type):
    return chromium_launch(browser_type, browser_type_launch_args)


@pytest.fixture
def browser_context_args(browser_context_args):
    return {**browser_context_args, "viewport": {"width": 360, "height": 740}, "locale": "fr-FR"}


CSP_CONSOLE = re.compile(r"Content Security Policy", re.IGNORECASE)
# The suite's pages play on the MJ's device: the "Mode MJ" switch (off by default, kept in
# localStorage) starts on unless a test turned it off. e2e/test_share.py checks the default
# in contexts of its own.
MJ_MODE_ON = "try { if (localStorage.getItem('tablee.mj-mode') === null) localStorage.setItem('tablee.mj-mode', 'on'); } catch {}"


def install_guard(context, server: str) -> dict:
    """Record page errors and CSP violations, and abort (and record) any request to another
    origin, on every page of ``context``; returns the lists it records into (emptied in place
    by ``guarded`` at the start of each test that uses a shared context)."""
    record: dict[str, list[str]] = {"foreign": [], "errors": [], "csp": []}
    own = re.escape(server)

    def on_console(message) -> None:
        CONSOLE.append(f"{message.type}: {message.text}")
        if CSP_CONSOLE.search(message.text):
            record["csp"].append(f"console: {message.text[:300]}")

    def block(route):
        record["foreign"].append(route.request.url)
        route.abort()

    context.route(re.compile(rf"^(?!{own}/|blob:|data:).*"), block)
    context.on("weberror", lambda e: record["errors"].append(str(e.error)))
    context.on("console", on_console)
    context.expose_binding("__tableeCspReport", lambda source, text: record["csp"].append(str(text)))
    context.add_init_script(CSP_RECORDER)
    context.add_init_script(MJ_MODE_ON)
    context.add_init_script(STRICT_TABLES)
    return record


# ------------------------------------------------------------------ one context per worker
# A fresh browser context starts the engine the way a first visit does: the service worker
# precaches the whole site (about 14 MB) while Pyodide compiles and starts plainly and makes its
# memory snapshot (31 MB). That is what most tests would pay before their first click. So a test
# gets, by default, a page in a context shared by the tests of its worker: it was warmed once
# (service worker installed, snapshot stored) and its site storage (localStorage,
# sessionStorage, IndexedDB, any cache but the service worker's and the snapshot's) is emptied
# before each test, and its pages closed after it; the engine then starts from the snapshot, as
# on every return visit of a real device. A test gets a context of its own (a first visit, as
# before) when it is marked `fresh_context` or `browser_context_args`, or uses `new_version`:
# what it checks (a first visit, offline, an update, a route held on the network) depends on
# the context itself. A module's own `browser_context_args` (a time zone) gets a shared
# context of its own.
SNAPSHOT_STORED = """async () => {
  const cache = await caches.open('tablee-snapshot');
  return (await cache.keys()).length > 0;
}"""


def warmed_context(browser, server: str, site: str, args: dict):
    """A new context with ``args``, guarded, warmed: its first page starts the engine, which
    installs the service worker and stores the engine's memory snapshot."""
    context = browser.new_context(**args)
    record = install_guard(context, server)
    page = context.new_page()
    page.goto(site + "#/tray")
    wait_engine(page)
    try:
        page.evaluate("async () => { await navigator.serviceWorker.ready; }")
        page.wait_for_function(SNAPSHOT_STORED, timeout=90_000)
    except Exception:  # a very slow machine: the tests still run, the engine starting plainly
        pass
    page.close()
    for found in record.values():
        found.clear()
    context.tablee_guard = record
    return context


@pytest.fixture(scope="session")
def shared_contexts(browser, server, site):
    """The worker's shared contexts (see above), one per set of context arguments (a module may
    ask for a time zone, say), each warmed on first use; ``shared_contexts(args)``."""
    made: dict[str, object] = {}

    def get(args: dict):
        key = json.dumps(args, sort_keys=True)
        if key not in made:
            made[key] = warmed_context(browser, server, site, args)
        return made[key]

    yield get
    for context in made.values():
        context.close()


def wants_fresh_context(request) -> bool:
    """Whether the test gets a context of its own. ``TABLEE_E2E_FRESH=1`` gives every test one
    (the suite as it ran before the shared context: slower; to tell a leak between tests from a
    real failure)."""
    return (
        os.environ.get("TABLEE_E2E_FRESH") == "1"
        or request.node.get_closest_marker("fresh_context") is not None
        or request.node.get_closest_marker("browser_context_args") is not None
        or "new_version" in request.fixturenames
    )


@pytest.fixture
def context(request, new_context, browser_context_args, server, site):
    """pytest-playwright's ``context``: the worker's shared one for these context arguments,
    emptied, unless the test needs a context of its own (``wants_fresh_context``)."""
    if wants_fresh_context(request):
        yield new_context()
        return
    args = {k: v for k, v in browser_context_args.items() if k != "base_url"}
    shared = request.getfixturevalue("shared_contexts")(args)
    shared.tablee_first_page = emptied_page(shared, site)
    for found in shared.tablee_guard.values():
        found.clear()
    yield shared
    shared.tablee_first_page = None
    for page in list(shared.pages):
        try:
            page.close()
        except Exception:  # already closed by the test
            pass


@pytest.fixture
def page(context):
    """pytest-playwright's ``page``: in a shared context, the page that emptied its storage for
    this test (``browser_support.emptied_page``, on the site's web manifest); else a new one."""
    first = getattr(context, "tablee_first_page", None)
    if first is not None and not first.is_closed():
        context.tablee_first_page = None
        return first
    return context.new_page()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """A failed browser test shows the last lines its pages wrote to the console (a view that
    could not load, an engine error): what a run on another machine needs to tell why."""
    outcome = yield
    report = outcome.get_result()
    if report.failed and CONSOLE:
        report.sections.append(("page console (last 40 lines)", "\n".join(CONSOLE[-40:])))
    if report.failed and report.when == "call":
        shown = screens_of(item)
        if shown:
            report.sections.append(("what the pages showed when the test failed", shown))


# What a failed test's pages show, each read with this timeout (a hung page must not hang the report).
SCREEN_READ_MS = 3_000
SCREEN_CHARS = 1_500


def screens_of(item) -> str:
    """The text each open page of a failed browser test shows (its address, the engine's state,
    the notices, the page's main text, cut short): a test that failed on a loaded machine, where
    no one saw the screen, says which message or page it stopped on. Read through locators, whose
    timeout Playwright enforces even when a page does not answer."""
    pages: list = []
    sources = [*item.funcargs.values(), *(d.context for d in getattr(item, "tablee_devices", ()))]
    for value in sources:
        for page in [value, *getattr(value, "pages", ())]:
            if hasattr(page, "locator") and hasattr(page, "is_closed") and page not in pages:
                pages.append(page)
    lines = []
    for page in pages:
        if page.is_closed():
            continue
        try:
            engine = page.locator("html").get_attribute("data-engine", timeout=SCREEN_READ_MS)
            notices = page.locator("#notices").inner_text(timeout=SCREEN_READ_MS).strip()
            main = page.locator("main").inner_text(timeout=SCREEN_READ_MS).strip()
        except Exception as error:  # a page that cannot answer (not the app, hung): say so, read the others
            lines.append(f"{page.url}: unreadable ({str(error).splitlines()[0][:200]})")
            continue
        lines.append(f"{page.url} (engine {engine or '?'})")
        if notices:
            lines.append(f"  notices: {notices[:SCREEN_CHARS]}")
        lines.append(f"  main: {main[:SCREEN_CHARS]}")
    return "\n".join(lines)


@pytest.fixture
def guarded(context, server):
    """Record page errors and CSP violations, and abort (and record) any request to another
    origin, in the test's context; checked when the test ends."""
    record = getattr(context, "tablee_guard", None)
    if record is None:
        record = install_guard(context, server)
    CONSOLE.clear()
    yield record
    assert not record["foreign"], f"requests left the site's origin: {record['foreign']}"
    assert not record["errors"], f"uncaught page errors: {record['errors']}"
    assert not record["csp"], f"Content-Security-Policy violations: {record['csp']}"


@pytest.fixture
def app(page, site, guarded):
    """A page on the app's dice tray, where most tests start, with the engine ready. (The site's
    own landing, the home page, has its tests in e2e/test_home.py.)"""
    page.goto(site + "#/tray")
    wait_engine(page)
    return page


@pytest.fixture
def app_with(page, site, guarded):
    """`app_with(doc, route="tray")` opens the app on `#/<route>` with `doc` (a table as a dict, or
    the raw saved text) already in localStorage, and waits for the engine; it returns the page.
    Use it instead of `app` when a test starts from a prepared table: `app`, then writing the
    table and reloading, boots the engine twice (browser_support.open_table)."""

    def open_app(doc, route: str = "tray"):
        open_table(page, site, doc, route)
        return page

    return open_app


@pytest.fixture(scope="session")
def device_pool():
    """Device contexts a worker's tests hand on to each other (by their MJ switch and init
    scripts), each reset between tests, like the shared context; closed at the end."""
    idle: dict[tuple, list[Device]] = {}
    yield idle
    for devices in idle.values():
        for device in devices:
            device.context.close()


@pytest.fixture
def devices(request, browser, server, site, device_pool):
    """`devices(mj=..., scripts=())` gives a browser context of its own (browser_support.Device),
    not shared with the test's other devices: one a previous test of the worker used and that
    was reset (storage emptied, service worker and engine snapshot kept), or a new one. Each is
    checked (no page error, CSP violation or foreign request) at the end. Under
    ``TABLEE_E2E_FRESH=1`` or ``fresh_context``, every device is new and closed after."""
    fresh = os.environ.get("TABLEE_E2E_FRESH") == "1" or request.node.get_closest_marker("fresh_context") is not None
    made: list[Device] = []
    request.node.tablee_devices = made  # what a failed test's report reads (screens_of)

    def make(mj: bool, scripts: tuple[str, ...] = ()) -> Device:
        key = (mj, tuple(scripts))
        waiting = device_pool.get(key, [])
        device = waiting.pop() if waiting and not fresh else Device(browser, server, mj, scripts)
        made.append(device)
        return device

    yield make
    try:
        for device in made:
            device.check()
    finally:
        for device in made:
            if fresh or not device.reusable:
                device.context.close()
                continue
            try:
                device.reset(site)
            except Exception:  # a context the test broke is not used again
                device.context.close()
                continue
            device_pool.setdefault(device.key, []).append(device)


# ------------------------------------------------------------------ Firefox and WebKitGTK
# A Firefox or a WebKitGTK started costs seconds of CPU, and its first visit of a site pays the
# precache and the engine's snapshot again: one of each per test process, shared by every test
# of the process that drives that engine (the journeys, the share links' codec), on one site
# served for them (journeys.Site: it can be stopped for an offline reload and started again).
@pytest.fixture(scope="session")
def engine_site():
    site = journeys.Site()
    yield site
    site.stop()


def engine_or_skip(engine: str) -> None:
    """Skip a test whose engine cannot run here, saying why; under ``CI``, fail instead."""
    reason = missing(engine)
    if reason:
        if os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(reason)


@pytest.fixture(scope="session")
def firefox(engine_site):
    engine_or_skip("firefox")
    page = FirefoxPage()
    yield page
    page.close()


@pytest.fixture(scope="session")
def webkit(engine_site):
    engine_or_skip("webkit")
    page = WebKitPage()
    yield page
    page.close()
