"""End-to-end tests: the real site, served under a sub-path, in Chromium.

The browser is Debian's Chromium (CHROMIUM_PATH or /usr/bin/chromium) when present,
else Playwright's own build (``playwright install chromium``, done by ``make test``).
Every test fails on an uncaught page error, on any request that leaves the site's
origin (the app must never reach a CDN) and on any Content-Security-Policy violation
(index.html's meta policy; a page's ``securitypolicyviolation`` events and the console's
CSP reports, which is where a worker's land).

Under the policy a string predicate must be a function (``"() => ..."``): Playwright
evaluates a bare expression with ``eval``, which the policy refuses.
"""

from __future__ import annotations

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


@pytest.fixture(autouse=True, scope="session")
def patient_expect():
    """Most states the tests wait for come back from the Python engine, sometimes after several
    round trips: on a loaded 2-core machine that can take longer than Playwright's default 5 s.
    Each wait still ends as soon as its state is there; only a failure is reported later."""
    expect.set_options(timeout=20_000)
    yield
    expect.set_options(timeout=5_000)


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
