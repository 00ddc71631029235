"""A phone profile for `make bench`: Tablée's first and return visits on a throttled Chromium.

Debian's Chromium (the suite's launch arguments: e2e/browser_support.py's ``chromium_launch``),
one profile on disk (a phone's browser keeps its HTTP cache and service worker across visits;
Playwright's in-memory contexts cannot hold the 9.6 MB wasm), and on every page, through the
Chrome DevTools Protocol:

- ``Emulation.setCPUThrottlingRate`` 4 (Lighthouse's mobile ``cpuSlowdownMultiplier``);
- ``Network.emulateNetworkConditions`` with a named 4G profile (:data:`NETWORKS`): "Slow 4G" by
  default, Lighthouse's ``mobileSlow4G`` with DevTools' adjustment factors (the throttling
  Lighthouse applies with ``--throttling-method=devtools``, and Chrome DevTools' "Slow 4G"
  preset: 562.5 ms latency, 1.47 Mbit/s down, 675 kbit/s up), or ``--network fast-4g``
  (Chrome DevTools' "Fast 4G": 165 ms, 8.1 Mbit/s down, 1.35 Mbit/s up).

Figures, printed with their goals beside them, never asserted:

- first visit (new profile): ms from navigation start to engine ready (the
  ``tablee-engine-ready`` mark, once ``document.documentElement.dataset.engine`` is "ready");
  the bytes on the wire until then, and until the service worker controls the page (its
  precache done: the whole first visit), goal ≤ 6 MB;
- return visit (a new page in the same profile, once the service worker controls it and the
  engine's memory snapshot is stored): ms to engine ready, the median of ``--returns`` visits,
  goal ≤ 2 s.

Bytes on the wire, as GitHub Pages would send them. The site is served by tools/serve.py (text
gzipped at level 6 as GitHub Pages does) extended here to gzip wasm too (GitHub Pages compresses
``application/wasm``; it sends zip archives as they are), and the bytes are counted where they
are sent: the Content-Length of every body the server sends (headers left out). Counted at the
server rather than from the page's CDP events (``encodedDataLength``) because the page's
session does not see the requests of the service worker (its precache), and counted from real
responses rather than gzipping bodies after the fact so the throttled network carries the same
compressed bytes a phone would download: the time to ready depends on them.

What the emulation does not reach: DevTools' throttling set on a page applies to that page and
its dedicated workers (the engine's PyScript worker), not to the service worker's own fetches
(the precache after the first visit's page has loaded; mostly 304 revalidations of what the page
already downloaded). The return visit is served by the service worker from its cache. Both reach
the engine's worker: the first visit's downloads (``first_downloads``, from the page and its
workers' resource timing) take as long as the throttled bandwidth allows, and a fixed loop in a
dedicated worker ran about 2.2× slower at rate 4 than at rate 1 (the page's main thread about
3×; the fastest of four runs each, Chromium 156 on a loaded 2-core machine).

    .venv/bin/python tools/bench_phone.py [--network slow-4g|fast-4g] [--returns 3] [--cpu-slowdown 4]
        [--json bench-results/phone.json]
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import shutil
import statistics
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tools"), str(ROOT / "e2e")]

import serve  # noqa: E402
from browser_support import chromium_launch  # noqa: E402

BASE = "/tablee/"
CPU_SLOWDOWN = 4
# Bytes per second and ms, as Network.emulateNetworkConditions takes them.
_ADJUST_RTT, _ADJUST_THROUGHPUT = 3.75, 0.9  # DevTools' factors (Lighthouse's lantern constants)
NETWORKS = {
    "slow-4g": {
        "name": "Slow 4G (Lighthouse mobileSlow4G, DevTools-adjusted)",
        "latency": 150 * _ADJUST_RTT,
        "downloadThroughput": 1.6 * 1024 * _ADJUST_THROUGHPUT * 1024 / 8,
        "uploadThroughput": 750 * _ADJUST_THROUGHPUT * 1024 / 8,
    },
    "fast-4g": {
        "name": "Fast 4G (Chrome DevTools preset)",
        "latency": 60 * 2.75,
        "downloadThroughput": 9 * 1000 * 1000 / 8 * _ADJUST_THROUGHPUT,
        "uploadThroughput": 1.5 * 1000 * 1000 / 8 * _ADJUST_THROUGHPUT,
    },
}
GOALS = {"return_ready_ms": 2000, "first_visit_bytes": 6_000_000}
READY_MS = "performance.getEntriesByName('tablee-engine-ready')[0]?.startTime ?? null"
SNAPSHOT_STORED = (
    "() => caches.open('tablee-snapshot').then(c => c.match(new URL('static/vendor/pyodide/engine.snapshot',"
    " document.baseURI).href)).then(r => r !== undefined)"
)
TIMEOUT_MS = 600_000
# The page's and its workers' downloads over 100 kB (the runtime is fetched by the engine's
# worker): how long each took shows the throttled network reached the worker.
BIG_DOWNLOADS = """() => performance.getEntriesByType("resource").filter(e => e.transferSize > 100000)
  .map(e => ({ file: e.name.split("/").pop(), ms: Math.round(e.duration), transfer: e.transferSize }))"""


class PhoneHandler(serve.Handler):
    """tools/serve.py's handler, gzipping wasm as GitHub Pages does, recording each body sent."""

    def send_head(self):
        path = self.translate_path(self.path)
        if (
            path.endswith(".wasm")
            and os.path.isfile(path)
            and "Range" not in self.headers
            and serve.accepts_gzip(self.headers.get("Accept-Encoding"))
            and not any(h in self.headers for h in ("If-Modified-Since", "If-None-Match"))
        ):
            body = serve.gzipped(path, os.stat(path))
            self.send_response(200)
            self.send_header("Content-Type", "application/wasm")
            self.send_header("Content-Encoding", "gzip")
            self.send_header("Vary", "Accept-Encoding")
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Last-Modified", self.date_time_string(os.stat(path).st_mtime))
            self.end_headers()
            return serve.io.BytesIO(body)
        return super().send_head()

    def send_header(self, keyword: str, value: str) -> None:
        if keyword.lower() == "content-length":
            with self.server.lock:
                self.server.sent.append((self.path.split("?", 1)[0], int(value)))
        super().send_header(keyword, value)


def wire_summary(sent: list[tuple[str, int]], top: int = 5) -> dict:
    """Total bytes and bodies of ``sent`` (path, body bytes; a 304 sends none), its ``top``
    largest paths (a path sent twice counts twice) and the paths sent more than once."""
    per_path: dict[str, int] = {}
    for path, size in sent:
        per_path[path] = per_path.get(path, 0) + size
    largest = sorted(per_path.items(), key=lambda item: (-item[1], item[0]))[:top]
    return {"bytes": sum(size for _, size in sent), "requests": len(sent),
            "largest": [{"path": p, "bytes": b} for p, b in largest],
            "repeated": sorted({p for p, _ in sent if sum(1 for q, _ in sent if q == p) > 1})}


def throttle(context, page, network: dict, cpu: float = CPU_SLOWDOWN) -> None:
    """CPU ``cpu`` times slower and the 4G ``network`` on ``page`` (before it navigates)."""
    cdp = context.new_cdp_session(page)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": cpu})
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", {
        "offline": False, "latency": network["latency"],
        "downloadThroughput": network["downloadThroughput"], "uploadThroughput": network["uploadThroughput"],
    })


def ready_ms(page) -> float:
    page.wait_for_function("() => document.documentElement.dataset.engine === 'ready'"
                           " || document.documentElement.dataset.engine === 'failed'",
                           timeout=TIMEOUT_MS, polling=100)
    state = page.evaluate("document.documentElement.dataset.engine")
    if state != "ready":
        raise RuntimeError(f"engine {state}")
    page.wait_for_function(f"() => ({READY_MS}) !== null", timeout=TIMEOUT_MS, polling=100)
    return float(page.evaluate(READY_MS))


def phone_visits(playwright, site: str, httpd, network_key: str = "slow-4g", returns: int = 3,
                 launch: dict | None = None, cpu: float = CPU_SLOWDOWN) -> dict:
    """The first visit and ``returns`` return visits of one new phone profile (module docstring)."""
    network = NETWORKS[network_key]
    launch = launch or chromium_launch(playwright.chromium)
    profile = tempfile.mkdtemp(prefix="tablee-phone-")
    out: dict = {"network": network_key, "network_name": network["name"], "cpu_slowdown": cpu,
                 "latency_ms": network["latency"], "download_bytes_per_s": round(network["downloadThroughput"])}
    try:
        context = playwright.chromium.launch_persistent_context(
            profile, **launch, viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True)
        try:
            page = context.pages[0] if context.pages else context.new_page()
            throttle(context, page, network, cpu)
            with httpd.lock:
                httpd.sent.clear()
            page.goto(site)
            out["first_ready_ms"] = ready_ms(page)
            out["first_boot"] = page.evaluate("document.documentElement.dataset.engineBoot ?? null")
            out["first_downloads"] = [d for where in (page, *page.workers) for d in where.evaluate(BIG_DOWNLOADS)]
            with httpd.lock:
                out["to_ready"] = wire_summary(list(httpd.sent))
            page.wait_for_function("() => navigator.serviceWorker.controller !== null",
                                   timeout=TIMEOUT_MS, polling=200)
            page.evaluate("navigator.serviceWorker.ready.then(r => r.active && r.active.state)")
            page.wait_for_function(SNAPSHOT_STORED, timeout=TIMEOUT_MS, polling=200)
            with httpd.lock:
                out["first_visit"] = wire_summary(list(httpd.sent))
            page.close()
            times, boots = [], []
            for _ in range(returns):
                page = context.new_page()
                throttle(context, page, network, cpu)
                page.goto(site)
                times.append(ready_ms(page))
                boots.append(page.evaluate("document.documentElement.dataset.engineBoot ?? null"))
                page.wait_for_function(SNAPSHOT_STORED, timeout=TIMEOUT_MS, polling=200)
                page.close()
            out["return_ready_runs_ms"] = times
            out["return_ready_ms"] = statistics.median(times)
            out["return_boots"] = boots
        finally:
            context.close()
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    return out


def start_server() -> tuple[object, str]:
    handler = type("H", (PhoneHandler,), {"base": BASE})
    httpd = serve.Server(("127.0.0.1", 0), functools.partial(handler, directory=str(ROOT)))
    httpd.quiet = True
    httpd.lock = threading.Lock()
    httpd.sent = []
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd, f"http://127.0.0.1:{httpd.server_address[1]}{BASE}"


def measure(playwright, network_key: str = "slow-4g", returns: int = 3, launch: dict | None = None,
            cpu: float = CPU_SLOWDOWN) -> dict:
    """:func:`phone_visits` against a server of its own (tools/bench.py calls this)."""
    httpd, site = start_server()
    try:
        return phone_visits(playwright, site, httpd, network_key, returns, launch, cpu)
    finally:
        httpd.shutdown()


def _mb(n: int) -> str:
    return f"{n / 1e6:.2f} MB"


def report_lines(r: dict) -> list[str]:
    """Rows for tools/bench.py's table (| figure | Tablée | bare | ratio | goal |)."""
    if "error" in r:
        return [f"| phone profile | {r['error']} | | | |"]
    where = f"CPU {r['cpu_slowdown']:g}×, {r['network_name']}"
    first, whole = r["to_ready"], r["first_visit"]
    runs = ", ".join(f"{t:.0f}" for t in r["return_ready_runs_ms"])
    return [
        f"| phone ({where}): first visit, engine ready | {r['first_ready_ms']:.0f} ms | | | |",
        f"| phone: first visit, on the wire until ready | {_mb(first['bytes'])} in {first['requests']} files"
        " | | | |",
        f"| phone: first visit, on the wire in all (service-worker precache included, as GitHub Pages gzips)"
        f" | {_mb(whole['bytes'])} in {whole['requests']} files | | | ≤ {_mb(GOALS['first_visit_bytes'])} |",
        f"| phone: return visit, engine ready (median of {len(r['return_ready_runs_ms'])}: {runs} ms)"
        f" | {r['return_ready_ms']:.0f} ms | | | ≤ {GOALS['return_ready_ms']} ms |",
    ]


def main() -> None:
    from playwright.sync_api import sync_playwright

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--network", choices=sorted(NETWORKS), default="slow-4g")
    parser.add_argument("--returns", type=int, default=3, help="return visits (median reported)")
    parser.add_argument("--cpu-slowdown", type=float, default=CPU_SLOWDOWN, help="CPU throttling rate (1: none)")
    parser.add_argument("--json", type=Path, default=ROOT / "bench-results" / "phone.json",
                        help="where the figures are written (JSON)")
    args = parser.parse_args()
    with sync_playwright() as p:
        result = measure(p, args.network, args.returns, cpu=args.cpu_slowdown)
    print("\n".join(["| figure | Tablée | | | goal |", "| --- | --- | --- | --- | --- |", *report_lines(result)]))
    for label in ("to_ready", "first_visit"):
        largest = ", ".join(f"{x['path'].rsplit('/', 1)[-1]} {_mb(x['bytes'])}" for x in result[label]["largest"])
        print(f"largest, {label.replace('_', ' ')}: {largest}; sent more than once: {result[label]['repeated']}")
    print("first visit's downloads over 100 kB: " + ", ".join(
        f"{d['file']} {d['transfer'] / 1e6:.2f} MB in {d['ms'] / 1000:.1f} s" for d in result["first_downloads"]))
    print(f"boots: first {result['first_boot']}, returns {', '.join(map(str, result['return_boots']))}")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
