"""The two other engines of the browser tests, behind one small page interface.

Chromium runs under Playwright (the rest of e2e/). Firefox and Safari's engine cannot: Playwright
drives only its own builds of them, which are downloads. Debian's packages are driven instead:

- Firefox ESR (``firefox-esr``) over WebDriver BiDi, by Puppeteer (``puppeteer-core``, in the npm
  tree) in a Node process that e2e/engines/firefox_bridge.mjs runs; :class:`FirefoxPage` talks to
  it in JSON lines (tests/node_harness.py).
- WebKitGTK (``webkit2gtk-driver``'s ``WebKitWebDriver`` and its MiniBrowser) over W3C WebDriver, by
  Selenium's WebKitGTK driver, in an X server of its own (``Xvfb``): Debian's MiniBrowser has no
  headless mode. :class:`WebKitPage`.

Both give: ``goto``, ``reload``, ``call`` (a JavaScript function's source and its arguments, run as
the WebDriver runs scripts, outside the page's Content-Security-Policy; a promise is awaited),
``wait`` (the same, until it returns a true value: a state, never a delay), ``click``, ``fill``,
``select``, ``upload``, ``press`` and ``errors`` (uncaught page errors since the last call; Firefox
only: classic WebDriver reports none).

:func:`missing` says why an engine cannot run here (its package absent and no apt-get to install
it): the tests skip with that reason, except under ``CI``, where they fail.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))

from node_harness import NODE, NodeHarness  # noqa: E402

FIREFOX = os.environ.get("FIREFOX_PATH") or "/usr/bin/firefox-esr"
WEBKIT_DRIVER = os.environ.get("WEBKIT_DRIVER_PATH") or "/usr/bin/WebKitWebDriver"
XVFB = shutil.which("Xvfb") or "/usr/bin/Xvfb"
#: Debian's MiniBrowser for WebKitGTK 4.1 (the driver's default browser).
MINIBROWSER_GLOB = "/usr/lib/*/webkit2gtk-4.1/MiniBrowser"
BRIDGE = Path(__file__).with_name("firefox_bridge.mjs")
PUPPETEER = ROOT / "node_modules" / "puppeteer-core" / "package.json"

#: How long a wait or a navigation may take before the test fails: a loaded 2-core machine.
TIMEOUT_S = 120.0
POLL_S = 0.1


#: Scroll an element to the middle of the screen before a click: a click lands where the element
#: is, and a notice fixed to the bottom of a phone's screen (the undo bar) may cover its bottom.
CENTER = "(sel) => document.querySelector(sel).scrollIntoView({ block: 'center' })"


def missing(engine: str) -> str | None:
    """Why ``engine`` ("firefox" or "webkit") cannot run on this machine, or None."""
    if engine == "firefox":
        if not Path(FIREFOX).exists():
            return f"no Firefox at {FIREFOX}: `make test` installs Debian's firefox-esr (tools/browser.sh)"
        if NODE is None:
            return "no node to run Puppeteer: `make test` installs Node.js"
        if not PUPPETEER.exists():
            return "no puppeteer-core in node_modules: run `make setup`"
        return None
    if not Path(WEBKIT_DRIVER).exists():
        return f"no {WEBKIT_DRIVER}: `make test` installs Debian's webkit2gtk-driver (tools/browser.sh)"
    if not Path(XVFB).exists():
        return "no Xvfb for WebKitGTK's MiniBrowser: `make test` installs Debian's xvfb (tools/browser.sh)"
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "no selenium in the venv: `make test` installs requirements-test.txt"
    return None


def call_source(source: str, args: tuple) -> str:
    """An expression calling the function ``source`` with ``args`` (JSON values)."""
    return f"({source})(...{json.dumps(list(args), ensure_ascii=False)})"


def origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


class EnginePage:
    """What FirefoxPage and WebKitPage share: the waits, written once on ``call``; the origins
    this browser has opened (a test that needs a first visit of a site knows whether it has one)."""

    name = "?"
    visited: set[str]

    def went_to(self, url: str) -> None:
        self.visited.add(origin(url))

    def has_visited(self, url: str) -> bool:
        return origin(url) in self.visited

    def call(self, source: str, *args):
        raise NotImplementedError

    def wait(self, source: str, *args, timeout: float = TIMEOUT_S):
        """Call ``source`` until it returns a true value (a state of the page), and return that
        value. A call that throws (the page is navigating, the element not there yet) counts as
        false; the last error is in the timeout's message."""
        deadline = time.monotonic() + timeout
        last = None
        while True:
            try:
                value = self.call(source, *args)
                if value:
                    return value
                last = value
            except Exception as error:  # navigating, or a predicate reading what is not there yet
                last = error
            if time.monotonic() > deadline:
                raise AssertionError(f"{self.name}: waited {timeout:.0f} s for {source[:200]} {args!r}: last {last!r}\n"
                                     + self.screen())
            time.sleep(POLL_S)

    def screen(self) -> str:
        """What the page shows (address, engine state, notices, main text, cut short): a failed
        wait says which message or page it stopped on."""
        try:
            return "what the page showed: " + json.dumps(self.call(
                """() => ({ url: location.href, engine: document.documentElement.dataset.engine,
  notices: document.querySelector('#notices')?.innerText.slice(0, 600),
  main: document.querySelector('main')?.innerText.slice(0, 1500) })"""), ensure_ascii=False)
        except Exception as error:  # a page that cannot answer
            return f"the page could not be read: {str(error)[:200]}"

    def wait_for(self, selector: str, state: str = "visible") -> None:
        """Wait until ``selector`` matches an element that is shown (and enabled, for
        ``state="enabled"``)."""
        self.wait(
            """(sel, state) => { const el = document.querySelector(sel);
  if (!el || !(el.offsetWidth || el.offsetHeight || el.getClientRects().length)) return false;
  return state !== 'enabled' || !el.disabled; }""",
            selector, state,
        )

    def text(self, selector: str) -> str:
        return self.call("(sel) => document.querySelector(sel)?.textContent ?? null", selector)

    def wait_text(self, selector: str, part: str) -> str:
        """Wait until ``selector``'s text holds ``part``; that text."""
        return self.wait("(sel, part) => { const t = document.querySelector(sel)?.textContent ?? ''; return t.includes(part) && t; }",
                         selector, part)


class FirefoxPage(EnginePage):
    name = "firefox"

    def __init__(self, width: int = 360, height: int = 740, prefs: dict | None = None) -> None:
        self.visited = set()
        self.harness = NodeHarness(BRIDGE)
        self.version = self.harness("launch", executablePath=FIREFOX, width=width, height=height, prefs=prefs or {})

    def goto(self, url: str) -> None:
        self.went_to(url)
        self.harness("goto", url=url)

    def reload(self) -> None:
        self.harness("reload")

    def call(self, source: str, *args):
        return self.harness("evaluate", expr=call_source(source, args))

    def click(self, selector: str) -> None:
        self.wait_for(selector, "enabled")
        self.call(CENTER, selector)
        self.harness("click", selector=selector)

    def fill(self, selector: str, text: str, commit: bool = True) -> None:
        self.wait_for(selector, "enabled")
        self.harness("fill", selector=selector, text=text, commit=commit)

    def press(self, key: str) -> None:
        self.harness("press", key=key)

    def select(self, selector: str, value: str) -> None:
        self.wait_for(selector, "enabled")
        self.harness("select", selector=selector, value=value)

    def upload(self, selector: str, path: str) -> None:
        self.harness("upload", selector=selector, path=path)

    def errors(self) -> list[str]:
        return self.harness("errors")

    def close(self) -> None:
        try:
            self.harness("close")
        finally:
            self.harness.close()


class Xvfb:
    """An X server of its own on a free display (``-displayfd``), for a browser with no headless
    mode."""

    def __init__(self) -> None:
        read, write = os.pipe()
        self.proc = subprocess.Popen(
            [XVFB, "-displayfd", str(write), "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
            pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        os.close(write)
        with os.fdopen(read) as pipe:
            number = pipe.readline().strip()
        if not number:
            self.proc.kill()
            raise RuntimeError("Xvfb did not start")
        self.display = f":{number}"

    def close(self) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=10)


class WebKitPage(EnginePage):
    name = "webkit"

    def __init__(self, width: int = 360, height: int = 740) -> None:
        import glob

        from selenium import webdriver
        from selenium.webdriver.webkitgtk.options import Options
        from selenium.webdriver.webkitgtk.service import Service

        self.visited = set()
        self.xvfb = Xvfb()
        options = Options()
        browsers = sorted(glob.glob(MINIBROWSER_GLOB))
        if browsers:
            options.binary_location = browsers[0]
        options.add_argument("--automation")
        options.set_capability("unhandledPromptBehavior", "accept")  # the import's "replace this table?"
        env = {**os.environ, "DISPLAY": self.xvfb.display, "LANG": "fr_FR.UTF-8", "LANGUAGE": "fr"}
        self.profile = tempfile.mkdtemp(prefix="tablee-webkit-")
        env["XDG_DATA_HOME"] = env["XDG_CACHE_HOME"] = self.profile
        try:
            self.driver = webdriver.WebKitGTK(options=options, service=Service(executable_path=WEBKIT_DRIVER, env=env))
        except Exception:
            self.xvfb.close()
            raise
        self.driver.set_window_size(width, height)
        self.driver.set_script_timeout(TIMEOUT_S)
        self.driver.set_page_load_timeout(TIMEOUT_S)
        self.version = self.driver.capabilities.get("browserVersion", "?")

    def goto(self, url: str) -> None:
        self.went_to(url)
        self.driver.get(url)

    def reload(self) -> None:
        self.driver.refresh()

    def call(self, source: str, *args):
        answer = self.driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            f" Promise.resolve().then(() => {call_source(source, args)})"
            ".then((value) => done({ value: value === undefined ? null : value }), (e) => done({ error: String(e && e.stack || e) }));"
        )
        if answer is None:
            return None
        if "error" in answer:
            raise RuntimeError(answer["error"])
        return answer["value"]

    def _element(self, selector: str):
        from selenium.webdriver.common.by import By

        return self.driver.find_element(By.CSS_SELECTOR, selector)

    def click(self, selector: str) -> None:
        self.wait_for(selector, "enabled")
        self.call(CENTER, selector)
        self._element(selector).click()

    def fill(self, selector: str, text: str, commit: bool = True) -> None:
        from selenium.webdriver.common.keys import Keys

        self.wait_for(selector, "enabled")
        element = self._element(selector)
        element.clear()
        element.send_keys(text + (Keys.TAB if commit else ""))

    def press(self, key: str) -> None:
        from selenium.webdriver.common.action_chains import ActionChains
        from selenium.webdriver.common.keys import Keys

        ActionChains(self.driver).send_keys(getattr(Keys, key.upper(), key)).perform()

    def select(self, selector: str, value: str) -> None:
        from selenium.webdriver.support.select import Select

        self.wait_for(selector, "enabled")
        Select(self._element(selector)).select_by_value(value)

    def upload(self, selector: str, path: str) -> None:
        self._element(selector).send_keys(path)

    def errors(self) -> list[str]:
        return []

    def close(self) -> None:
        try:
            self.driver.quit()
        finally:
            self.xvfb.close()
            shutil.rmtree(self.profile, ignore_errors=True)
