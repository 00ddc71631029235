"""What make bench's scripts share (tools/bench.py, tools/bench_live.py, tools/bench_engines.py): the
bench's server (the site, plus a bare Pyodide page to compare against, counting the bytes and
requests it answers), where results go, the machine's description and the percentile the
figures use. Kept apart so each bench script imports it instead of importing another.
"""

from __future__ import annotations

import datetime as dt
import functools
import os
import platform
import subprocess
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT / "e2e"))

import serve  # noqa: E402
from browser_support import chromium_path  # noqa: E402

BASE = "/tablee/"
BARE_PATH = "__bench__/"
RESULTS = ROOT / "bench-results"
BARE_HTML = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>bare</title>
<script type="module" src="bare.js"></script></head><body><p>bare Pyodide worker</p></body></html>"""
BARE_JS = """const root = new URL("../", location.href);
const { PyWorker } = await import(new URL("static/vendor/pyscript/core.js", root));
const worker = await PyWorker(new URL("bare.py", location.href).href, {
  config: {}, version: new URL("bare-pyodide.mjs", location.href).href });
await worker.sync.ping();
performance.mark("tablee-engine-ready");
document.documentElement.dataset.engine = "ready";
"""
# The bare page's interpreter: the vendored Pyodide with the standard library its npm package
# ships (sources, no bytecode), not the site's precompiled one, so the baseline stays Pyodide
# as published.
BARE_MODULE = """import { loadPyodide as load, version } from "../static/vendor/pyodide/pyodide.mjs";
export { version };
export const loadPyodide = (options) => load({ ...options,
  indexURL: new URL("../static/vendor/pyodide/", import.meta.url).href,
  stdLibURL: new URL("python_stdlib.zip", import.meta.url).href });
"""
BARE_STDLIB = ROOT / "node_modules/pyodide/python_stdlib.zip"
BARE_PY = '__export__ = ["ping"]\n\n\ndef ping():\n    return "pong"\n'


class BenchHandler(serve.Handler):
    """The site, plus a bare Pyodide page under /tablee/__bench__/ (not part of the site),
    counting the bytes and requests it answers."""

    def do_GET(self) -> None:
        extra = {
            f"{BASE}{BARE_PATH}": ("text/html", BARE_HTML),
            f"{BASE}{BARE_PATH}bare.js": ("text/javascript", BARE_JS),
            f"{BASE}{BARE_PATH}bare.py": ("text/plain", BARE_PY),
            f"{BASE}{BARE_PATH}bare-pyodide.mjs": ("text/javascript", BARE_MODULE),
            f"{BASE}{BARE_PATH}python_stdlib.zip": ("application/zip", BARE_STDLIB),
        }
        if self.path in extra:
            kind, body = extra[self.path]
            data = body.read_bytes() if isinstance(body, Path) else body.encode()
            self.send_response(200)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
            return
        super().do_GET()

    def send_response(self, code, message=None) -> None:
        with self.server.lock:
            self.server.sent_requests += 1
        super().send_response(code, message)

    def send_header(self, keyword: str, value: str) -> None:
        if keyword.lower() == "content-length":  # a body follows (a 304 has none)
            with self.server.lock:
                self.server.sent_bytes += int(value)
        super().send_header(keyword, value)


class BenchServer(serve.Server):
    """The site's server (a context closed mid-download, as the paint figures' are, is no fault:
    serve.Server.handle_error)."""




def start_server() -> tuple[BenchServer, str]:
    """The bench's server on a free port, serving in a thread: (server, the site's URL)."""
    handler = type("H", (BenchHandler,), {"base": BASE})
    httpd = BenchServer(("127.0.0.1", 0), functools.partial(handler, directory=str(ROOT)))
    httpd.quiet = True
    httpd.lock = threading.Lock()
    httpd.sent_bytes = httpd.sent_requests = 0
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd, f"http://127.0.0.1:{httpd.server_address[1]}{BASE}"


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    index = max(0, min(len(ordered) - 1, round(q * (len(ordered) - 1))))
    return ordered[index]



def machine() -> dict:
    cpu = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    chrome = chromium_path()
    version = "playwright's Chromium"
    if chrome:
        try:
            version = subprocess.run([chrome, "--version"], capture_output=True, text=True, timeout=60).stdout.strip()
        except (OSError, subprocess.TimeoutExpired):
            version = chrome
    try:
        load = os.getloadavg()[0]
    except OSError:
        load = None
    return {"nproc": os.cpu_count(), "cpu": cpu, "chromium": version, "platform": platform.platform(),
            "date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"), "load_average_1min": load}
