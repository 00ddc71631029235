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

One Chromium per test process: pytest-playwright's ``browser`` is session-scoped, and under
pytest-xdist (``make test`` runs one worker per core) each worker launches its own and its own
``server``; each test still gets a fresh context (its own storage, cache and service worker).
Nothing here is shared between workers, so a test may run on any of them in any order.
"""

from __future__ import annotations

import json
import re
import socket
import sys
import threading

import pytest
from playwright.sync_api import expect

from browser_support import CHROMIUM_FLAGS, CONSOLE, CSP_RECORDER, ROOT, Device, chromium_path, wait_engine

sys.path.insert(0, str(ROOT / "tools"))

from serve import Handler, make_server

BASE = "/tablee/"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class SiteHandler(Handler):
    """The site as served, plus a switch to publish a "new version" of the precache list."""

    version_suffix = ""

    def do_GET(self) -> None:
        if self.version_suffix and self.path.endswith("/static/vendor/precache.js"):
            text = (ROOT / "static/vendor/precache.js").read_text()
            body = re.sub(r'("version": ")(\w+)"', rf'\g<1>\g<2>{self.version_suffix}"', text).encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/javascript")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        super().do_GET()


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
def browser_type_launch_args(browser_type_launch_args):
    args = {**browser_type_launch_args, "args": CHROMIUM_FLAGS}
    path = chromium_path()
    if path:
        args["executable_path"] = path
    return args


@pytest.fixture
def browser_context_args(browser_context_args):
    return {**browser_context_args, "viewport": {"width": 360, "height": 740}, "locale": "fr-FR"}


CSP_CONSOLE = re.compile(r"Content Security Policy", re.IGNORECASE)
# The suite's pages play on the MJ's device: the "Mode MJ" switch (off by default, kept in
# localStorage) starts on unless a test turned it off. e2e/test_share.py checks the default
# in contexts of its own.
MJ_MODE_ON = "try { if (localStorage.getItem('tablee.mj-mode') === null) localStorage.setItem('tablee.mj-mode', 'on'); } catch {}"


@pytest.fixture
def guarded(context, server):
    """Record page errors and CSP violations, and abort (and record) any request to another origin."""
    foreign: list[str] = []
    errors: list[str] = []
    csp: list[str] = []
    own = re.escape(server)

    def on_console(message) -> None:
        CONSOLE.append(f"{message.type}: {message.text}")
        if CSP_CONSOLE.search(message.text):
            csp.append(f"console: {message.text[:300]}")

    def block(route):
        foreign.append(route.request.url)
        route.abort()

    context.route(re.compile(rf"^(?!{own}/|blob:|data:).*"), block)
    context.on("weberror", lambda e: errors.append(str(e.error)))
    context.on("console", on_console)
    context.expose_binding("__tableeCspReport", lambda source, text: csp.append(str(text)))
    context.add_init_script(CSP_RECORDER)
    context.add_init_script(MJ_MODE_ON)
    CONSOLE.clear()
    yield {"foreign": foreign, "errors": errors, "csp": csp}
    assert not foreign, f"requests left the site's origin: {foreign}"
    assert not errors, f"uncaught page errors: {errors}"
    assert not csp, f"Content-Security-Policy violations: {csp}"


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
    table and reloading, boots the engine twice. The table is written from the site's manifest
    (same origin, no script of the app runs there), so the app's first load reads it."""

    def open_app(doc, route: str = "tray"):
        page.goto(site + "manifest.webmanifest")
        raw = doc if isinstance(doc, str) else json.dumps(doc, ensure_ascii=False)
        page.evaluate("raw => localStorage.setItem('tablee.document', raw)", raw)
        page.goto(site + "#/" + route)
        wait_engine(page)
        return page

    return open_app


@pytest.fixture
def devices(browser, server):
    """`devices(mj=..., scripts=())` makes a browser context of its own (browser_support.Device);
    each is checked (no page error, CSP violation or foreign request) and closed at the end."""
    made: list[Device] = []

    def make(mj: bool, scripts: tuple[str, ...] = ()) -> Device:
        device = Device(browser, server, mj, scripts)
        made.append(device)
        return device

    yield make
    for device in made:
        device.check()
        device.context.close()
