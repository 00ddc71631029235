"""make bench: what a user waits for, measured in Chromium on this machine.

1. Engine-ready time (ms from navigation start to the first answered request) on a cold
   load (new browser profile, empty cache) and on a warm load (service-worker cache),
   each beside the same figure for a bare page that boots the same vendored Pyodide in a
   PyScript worker and does nothing else; their ratio is Tablée's own cost.
2. A roll's round trip on the dice tray, click to rendered result, over 50 rolls:
   median and 95th percentile.

Figures are printed, never asserted: performance goals live here, not in the tests.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import threading
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT / "e2e"))

import serve  # noqa: E402
from conftest import CHROMIUM_FLAGS, chromium_path, free_port  # noqa: E402

BASE = "/tablee/"
BARE_PATH = "__bench__/"

BARE_HTML = """<!doctype html><html><head><meta charset="utf-8"><title>bare</title></head><body>
<script type="module">
const root = new URL("../", location.href);
const { PyWorker } = await import(new URL("static/vendor/pyscript/core.js", root));
const worker = await PyWorker(new URL("bare.py", location.href).href, {
  config: {}, version: new URL("static/vendor/pyodide/pyodide.mjs", root).href });
await worker.sync.ping();
performance.mark("tablee-engine-ready");
document.documentElement.dataset.engine = "ready";
</script></body></html>"""
BARE_PY = '__export__ = ["ping"]\n\n\ndef ping():\n    return "pong"\n'


class BenchHandler(serve.Handler):
    """The site, plus a bare Pyodide page under /tablee/__bench__/ (not part of the site)."""

    def do_GET(self) -> None:
        extra = {f"{BASE}{BARE_PATH}": ("text/html", BARE_HTML), f"{BASE}{BARE_PATH}bare.py": ("text/plain", BARE_PY)}
        if self.path in extra:
            kind, body = extra[self.path]
            data = body.encode()
            self.send_response(200)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
            return
        super().do_GET()


READY_MS = "performance.getEntriesByName('tablee-engine-ready')[0]?.startTime ?? null"


def wait_ready(page) -> float:
    page.wait_for_function(f"{READY_MS} !== null", timeout=180_000)
    return float(page.evaluate(READY_MS))


def load_times(browser, site: str, url: str, runs: int) -> tuple[list[float], list[float]]:
    cold, warm = [], []
    for _ in range(runs):
        context = browser.new_context()
        page = context.new_page()
        # The app's service worker precaches everything; the bare page benefits from it too.
        page.goto(site)
        page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=180_000)
        if url != site:
            cold_context = browser.new_context()
            cold_page = cold_context.new_page()
            cold_page.goto(url)
            cold.append(wait_ready(cold_page))
            cold_context.close()
        else:
            cold.append(wait_ready(page))
        page.goto(url)
        page.reload()
        warm.append(wait_ready(page))
        context.close()
    return cold, warm


def roll_round_trips(browser, site: str, count: int) -> list[float]:
    context = browser.new_context(viewport={"width": 360, "height": 740})
    page = context.new_page()
    page.goto(site + "#/tray")
    wait_ready(page)
    page.fill("#dice-expr", "4d6kh3")
    page.wait_for_selector("#odds tbody tr")
    times = []
    for _ in range(count):
        ms = page.evaluate(
            """() => new Promise((resolve) => {
                const target = document.getElementById("roll-result");
                const seedLine = () => target.querySelector("p.muted")?.textContent;
                const before = seedLine();
                const start = performance.now();
                const observer = new MutationObserver(() => {
                  const now = seedLine();
                  if (now && now !== before) { observer.disconnect(); resolve(performance.now() - start); }
                });
                observer.observe(target, { subtree: true, childList: true, characterData: true });
                document.getElementById("roll-button").click();
            })"""
        )
        times.append(ms)
        page.wait_for_function("!document.getElementById('roll-button').disabled")
    context.close()
    return times


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    index = max(0, min(len(ordered) - 1, round(q * (len(ordered) - 1))))
    return ordered[index]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="loads per figure (median reported)")
    parser.add_argument("--rolls", type=int, default=50)
    args = parser.parse_args()

    port = free_port()
    handler = type("H", (BenchHandler,), {"base": BASE})
    import functools

    httpd = serve.Server(("127.0.0.1", port), functools.partial(handler, directory=str(ROOT)))
    httpd.quiet = True
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    site = f"http://127.0.0.1:{port}{BASE}"
    bare = site + BARE_PATH

    with sync_playwright() as p:
        launch = {"args": CHROMIUM_FLAGS}
        if chromium_path():
            launch["executable_path"] = chromium_path()
        browser = p.chromium.launch(**launch)
        print("measuring Tablée loads…", file=sys.stderr, flush=True)
        app_cold, app_warm = load_times(browser, site, site, args.runs)
        print("measuring bare Pyodide loads…", file=sys.stderr, flush=True)
        bare_cold, bare_warm = load_times(browser, site, bare, args.runs)
        print("measuring rolls…", file=sys.stderr, flush=True)
        rolls = roll_round_trips(browser, site, args.rolls)
        browser.close()
    httpd.shutdown()

    med = statistics.median
    print(f"Tablée bench ({args.runs} loads per figure, medians; Chromium {chromium_path() or 'playwright'})")
    print(f"{'':22}{'Tablée':>10}{'bare Pyodide':>14}{'ratio':>8}")
    rows = (("engine ready, cold", app_cold, bare_cold), ("engine ready, warm", app_warm, bare_warm))
    for label, app_t, bare_t in rows:
        print(f"{label:22}{med(app_t):>8.0f}ms{med(bare_t):>12.0f}ms{med(app_t) / med(bare_t):>8.2f}")
    print(f"roll round trip over {len(rolls)} rolls: median {med(rolls):.1f} ms, p95 {percentile(rolls, 0.95):.1f} ms")


if __name__ == "__main__":
    main()
