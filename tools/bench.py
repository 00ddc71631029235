"""make bench: what a user waits for, measured in Chromium on this machine, in one run.

1. Engine ready (ms from navigation start to the first answered request), cold (new browser
   profile, empty caches: Tablée's engine makes its memory snapshot), warm (service-worker
   cache; per profile, the median of three reloads: Tablée's engine restores its snapshot)
   and, for Tablée, warm with no snapshot stored (it makes one), for Tablée and for a bare page
   that boots the same vendored Pyodide in a PyScript worker and does nothing else; their
   ratio is Tablée's own cost (median of --runs loads each, the two pages in turn).
2. First paint of a saved table: first contentful paint, the shell's first render and the
   largest contentful paint, for an empty table and for a 50-character, 1000-entry table in
   the store's real shapes (tools/bench_table.py), on the log and on a system's list.
3. Right after ready: the first answer of the kernel's ops (the first odds imports icepool)
   and of one cheap op of each system (it imports that system); then each system's heaviest
   odds request, first call and p50/p95 over --odds-runs more, timed in the page around the
   worker's `sync.handle` (tools/bench_requests.py, py14's list, when it is there).
4. A roll's round trip on the dice tray, click to rendered result, p50/p95 over --rolls.
5. Bytes the server sent for a first visit (page, runtime, service-worker precache) and for
   a warm visit (a reload once the service worker controls the page), in a profile on disk.
   As sent: the bench server gzips text as GitHub Pages does (tools/serve.py), not wasm
   nor archives.
6. Lighthouse (mobile, its default simulated throttling) against the served site:
   performance, accessibility, best practices, LCP, TBT, and what it flagged.
7. A phone (tools/bench_phone.py): Chromium with CPU 4× and Slow 4G through CDP, a first
   visit's time to ready and bytes on the wire as GitHub Pages gzips them, a return visit's.
8. The live table (tools/bench_live.py), two contexts joined through the pages on the big
   table: a player's move until the phone has the referee's answer and until the MJ's table
   has it, a change of the MJ's until the phone has it (p50/p95 over 100 each), and the bytes
   the page loads for it; four phones opening one invitation together until all four are
   connected (tools/bench_join.py).
   A phone's first visit through the MJ's invitation until its first refereed roll on the phone
   profile (tools/bench_relay.py: the MJ's engine answers the odds meanwhile).
9. The live table's storage (tools/bench_storage.py, in Node with the page's own modules): what
   each device keeps in localStorage after 1,000 moves on a full-log campaign of ~0.93 M, key by
   key, in characters and in bytes as WebKit counts them, against the goal (under half of the
   ~5 M a site gets, both ways).

Figures are printed with their goal beside them and written to bench-results/ (JSON);
--readme rewrites the README's Performance section. Goals are never asserted anywhere.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT / "e2e"))

import bench_join  # noqa: E402  (four phones joining one invitation together)
import bench_live  # noqa: E402  (the live table's sync latency and bytes)
import bench_phone  # noqa: E402  (a phone: CPU 4×, 4G, first and return visits)
import bench_relay  # noqa: E402  (a phone's first roll at a live table, before its engine is ready)
import bench_storage  # noqa: E402  (the live table's storage on each device)
from bench_common import (  # noqa: E402  (the bench's server, results folder, machine, percentile)
    BARE_PATH,
    RESULTS,
    machine,
    percentile,
    start_server,
)
from bench_requests import REQUESTS  # noqa: E402  (the heavy odds request of each system, one op each)
from bench_table import saved_table  # noqa: E402
from browser_support import CHROMIUM_FLAGS, chromium_launch, chromium_path  # noqa: E402

GOALS = {
    "cold": "≤ 0.90",
    "warm": "≤ 0.40",
    "warm_made": "≤ 1.05",
    "lighthouse_performance": "≥ 0.95",
    "lighthouse_accessibility": "1.0",
    "lighthouse_best_practices": "1.0",
    "lcp_ms": "≤ 1500",
    "tbt_ms": "≤ 100",
    "odds_p95_ms": "≤ 50",
    "roll_p95_ms": "≤ 50",
}

# ------------------------------------------------------------------ helpers
READY_MS = "performance.getEntriesByName('tablee-engine-ready')[0]?.startTime ?? null"


def wait_ready(page) -> float:
    page.wait_for_function(f"() => ({READY_MS}) !== null", timeout=300_000, polling=100)
    return float(page.evaluate(READY_MS))


def med(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


def seed_storage(context, site: str, doc: dict | None) -> None:
    """Save `doc` as the table of this profile (nothing saved when None)."""
    if doc is None:
        return
    page = context.new_page()
    page.goto(site + "manifest.webmanifest")  # same origin, not the app
    page.evaluate("raw => localStorage.setItem('tablee.document', raw)", json.dumps(doc, separators=(",", ":")))
    page.close()


# ------------------------------------------------------------------ 1. engine ready
WARM_RELOADS = 3
BOOT = "document.documentElement.dataset.engineBoot ?? null"


def boot_kind(page) -> str:
    """How the engine started (set just after the ready mark)."""
    page.wait_for_function(f"() => ({BOOT}) !== null", timeout=300_000, polling=100)
    return page.evaluate(BOOT)
#: Delete the engine's memory snapshot (static/js/pyodide-snapshot.js): the next start makes one.
FORGET_SNAPSHOT = "caches.delete('tablee-snapshot')"
#: Whether the engine's memory snapshot is stored (it is written after ready).
SNAPSHOT_STORED = (
    "() => caches.open('tablee-snapshot').then(c => c.match(new URL('static/vendor/pyodide/engine.snapshot',"
    " document.baseURI).href)).then(r => r !== undefined)"
)


def load_time(browser, site: str, url: str) -> dict:
    """Engine-ready times of ``url`` in new profiles: ``cold`` (a first visit: for Tablée the
    start that makes the snapshot), ``warm`` (service-worker cache; for Tablée restored from
    the snapshot) and, for Tablée, ``warm_made`` (warm, the snapshot deleted before each
    reload: a plain start that makes one), with how each Tablée start went (``boots``)."""
    out: dict = {"boots": []}
    context = browser.new_context()
    page = context.new_page()
    if url == site:
        page.goto(site)
        out["cold"] = wait_ready(page)
        out["boots"].append(boot_kind(page))
    else:
        # The bare page, cold, in a profile of its own.
        cold_context = browser.new_context()
        cold_page = cold_context.new_page()
        cold_page.goto(url)
        out["cold"] = wait_ready(cold_page)
        cold_context.close()
        page.goto(site)
    # The app's service worker precaches the runtime; the bare page benefits from it too.
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=300_000, polling=100)
    page.goto(url)
    wait_ready(page)
    # Warm: the median of WARM_RELOADS reloads. The first reloads of a profile vary by
    # half a second whichever the page (whether Chromium has cached the runtime's compiled
    # wasm yet), which one reload each made a coin toss of the ratio.
    reloads = []
    for _ in range(WARM_RELOADS):
        if url == site:
            page.wait_for_function(SNAPSHOT_STORED, timeout=300_000, polling=100)
        page.reload()
        reloads.append(wait_ready(page))
        if url == site:
            out["boots"].append(boot_kind(page))
    out["warm"] = statistics.median(reloads)
    if url == site:
        made = []
        for _ in range(WARM_RELOADS):
            page.wait_for_function(SNAPSHOT_STORED, timeout=300_000, polling=100)
            page.evaluate(FORGET_SNAPSHOT)
            page.reload()
            made.append(wait_ready(page))
            out["boots"].append(boot_kind(page))
        out["warm_made"] = statistics.median(made)
    context.close()
    return out


# ------------------------------------------------------------------ 2. first paint
PAINT_JS = """() => new Promise((resolve) => {
  let lcp = null;
  new PerformanceObserver((list) => { for (const e of list.getEntries()) lcp = e; })
    .observe({ type: "largest-contentful-paint", buffered: true });
  requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(() => resolve({
    fcp: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? null,
    render: performance.getEntriesByName("tablee-first-render")[0]?.startTime ?? null,
    lcp: lcp ? lcp.startTime : null,
    lcp_element: lcp && lcp.element ? lcp.element.tagName.toLowerCase() + (lcp.element.id ? "#" + lcp.element.id : "")
      + (lcp.element.className ? "." + String(lcp.element.className).split(" ")[0] : "") : null,
    engine: document.documentElement.dataset.engine,
  }), 0)));
})"""


def first_paints(browser, site: str, runs: int) -> dict:
    big = saved_table(characters=50, log=1000)
    cases = {
        "empty table, home": (None, "", "main h1"),
        "50 characters + 1000-entry log, #/log": (big, "#/log", "#log-list > li"),
        "50 characters + 1000-entry log, #/unicreon": (big, "#/unicreon", "[data-testid=uc-char]"),
    }
    out = {}
    for label, (doc, route, selector) in cases.items():
        samples = []
        for _ in range(runs):
            context = browser.new_context(service_workers="block", viewport={"width": 360, "height": 740})
            seed_storage(context, site, doc)
            page = context.new_page()
            page.goto(site + route)
            page.wait_for_selector(selector, timeout=120_000)
            samples.append(page.evaluate(PAINT_JS))
            context.close()
        out[label] = {
            "fcp_ms": med([s["fcp"] for s in samples if s["fcp"] is not None]),
            "first_render_ms": med([s["render"] for s in samples if s["render"] is not None]),
            "lcp_ms": med([s["lcp"] for s in samples if s["lcp"] is not None]),
            "lcp_element": samples[-1]["lcp_element"],
            "engine_at_paint": samples[-1]["engine"],
        }
    out["saved_table_bytes"] = len(json.dumps(big, separators=(",", ":")))
    return out


# ------------------------------------------------------------------ 3. first answers, heavy odds
CALL_JS = """async ([request, times]) => {
  const engine = await import(new URL("static/js/engine.js", document.baseURI).href);
  const out = [];
  for (let i = 0; i < times; i += 1) {
    const start = performance.now();
    const answer = await engine.call(request);
    out.push(performance.now() - start);
    if (answer.error) return { error: answer.error, ms: out };
  }
  return { ms: out };
}"""


def engine_answers(browser, site: str, odds_runs: int) -> dict:
    context = browser.new_context()
    page = context.new_page()
    page.goto(site + "#/about")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=300_000, polling=100)
    page.reload()  # warm: the service worker answers
    wait_ready(page)
    # The shell asks store.limits right after ready; let it be answered first.
    page.evaluate(CALL_JS, [{"op": "store.limits"}, 1])
    first, heavy = [], []
    for kind in ("kernel", "first"):
        for item in (r for r in REQUESTS if r["kind"] == kind):
            answer = page.evaluate(CALL_JS, [item["request"], 1])
            first.append({"id": item["id"], "what": item["what"], "ms": answer["ms"][0], "error": answer.get("error")})
    for item in (r for r in REQUESTS if r["kind"] == "heavy"):
        answer = page.evaluate(CALL_JS, [item["request"], 1 + odds_runs])
        ms = answer["ms"]
        rest = ms[1:] or ms
        heavy.append({
            "id": item["id"], "what": item["what"], "first_ms": ms[0], "p50_ms": percentile(rest, 0.5),
            "p95_ms": percentile(rest, 0.95), "runs": len(rest), "error": answer.get("error"),
        })
    context.close()
    return {"first": first, "heavy": heavy}


# ------------------------------------------------------------------ 4. rolls
ROLL_JS = """() => new Promise((resolve) => {
  const target = document.getElementById("roll-result");
  const before = target.textContent;
  const start = performance.now();
  const observer = new MutationObserver(() => {
    if (target.textContent !== before && target.querySelector("li.die")) {
      observer.disconnect();
      resolve(performance.now() - start);
    }
  });
  observer.observe(target, { subtree: true, childList: true, characterData: true });
  document.getElementById("roll-button").click();
})"""


def roll_round_trips(browser, site: str, count: int) -> list[float]:
    context = browser.new_context(viewport={"width": 360, "height": 740}, service_workers="block")
    page = context.new_page()
    page.goto(site + "#/tray")
    wait_ready(page)
    page.fill("#dice-expr", "4d6kh3")
    page.wait_for_selector("#odds tbody tr")
    times = []
    for _ in range(count):
        times.append(page.evaluate(ROLL_JS))
        page.wait_for_function("() => !document.getElementById('roll-button').disabled", polling=50)
    context.close()
    return times


# ------------------------------------------------------------------ 5. bytes
def bytes_sent(playwright, launch: dict, site: str, httpd) -> dict:
    """A profile on disk, like a person's browser: Playwright's other contexts keep their HTTP
    cache in memory, too small to hold the 9.6 MB wasm, so there the service worker's
    revalidation would download the runtime a second time where a real browser does not."""

    def snapshot():
        with httpd.lock:
            return httpd.sent_bytes, httpd.sent_requests

    profile = tempfile.mkdtemp(prefix="tablee-bench-")
    context = playwright.chromium.launch_persistent_context(profile, **launch)
    page = context.new_page()
    b0, r0 = snapshot()
    page.goto(site)
    wait_ready(page)
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=300_000, polling=100)
    b1, r1 = snapshot()
    page.reload()
    wait_ready(page)
    b2, r2 = snapshot()
    context.close()
    shutil.rmtree(profile, ignore_errors=True)
    return {"first_visit_bytes": b1 - b0, "first_visit_requests": r1 - r0,
            "warm_visit_bytes": b2 - b1, "warm_visit_requests": r2 - r1}


# ------------------------------------------------------------------ 6. Lighthouse
def lighthouse(site: str, runs: int = 5) -> dict:
    """Lighthouse mobile, ``runs`` times (each a fresh profile, a first visit): one run's TBT
    varies tenfold on this machine (0-410 ms within one quiet half hour), so each figure is the
    median of five runs, as Lighthouse's variability guide advises (five runs' median halves the
    spread of one run's figure); the scores, the LCP
    element and the long tasks are the run whose performance score is the median's."""
    done = []
    for n in range(runs):
        one = lighthouse_once(site, RESULTS / ("lighthouse.json" if n == 0 else f"lighthouse-{n + 1}.json"))
        if "error" in one:
            return one
        done.append(one)
    done.sort(key=lambda r: r["performance"])
    out = dict(done[len(done) // 2])
    for key in ("lcp_ms", "fcp_ms", "tbt_ms"):
        out[key] = statistics.median(r[key] for r in done)
    out["runs"] = runs
    out["tbt_runs_ms"] = [round(r["tbt_ms"]) for r in done]
    out["lcp_runs_ms"] = [round(r["lcp_ms"]) for r in done]
    return out


def lighthouse_once(site: str, report: Path) -> dict:
    binary = ROOT / "node_modules" / ".bin" / "lighthouse"
    chrome = chromium_path()
    if not binary.exists() or not chrome:
        return {"error": "lighthouse or Chromium missing (npm ci; make browser)"}
    RESULTS.mkdir(exist_ok=True)
    flags = " ".join(["--headless=new", *CHROMIUM_FLAGS])
    cmd = [str(binary), site, "--quiet", "--output=json", f"--output-path={report}",
           "--only-categories=performance,accessibility,best-practices",
           f"--chrome-path={chrome}", f"--chrome-flags={flags}"]
    try:
        env = {**os.environ, "CHROME_PATH": chrome}
        run = subprocess.run(cmd, capture_output=True, text=True, timeout=600, env=env)
    except subprocess.TimeoutExpired:
        return {"error": "lighthouse timed out"}
    if run.returncode != 0 or not report.exists():
        return {"error": f"lighthouse failed ({run.returncode}): {run.stderr.strip()[-400:]}"}
    data = json.loads(report.read_text())
    cats, audits = data["categories"], data["audits"]
    flagged = {}
    for cid in ("accessibility", "best-practices"):
        for ref in cats[cid]["auditRefs"]:
            audit = audits[ref["id"]]
            if ref.get("weight", 0) > 0 and audit.get("score") is not None and audit["score"] < 1:
                flagged.setdefault(cid, []).append(f"{ref['id']}: {audit['title']}")
    lcp_element = None
    # Lighthouse 13 names the LCP element in its LCP breakdown insight (a "node" item).
    for audit_id in ("lcp-breakdown-insight", "largest-contentful-paint-element"):
        for item in audits.get(audit_id, {}).get("details", {}).get("items", []):
            if item.get("type") == "node" and not lcp_element:
                lcp_element = item.get("selector") or item.get("snippet")
    long_tasks = [
        {"url": t.get("url"), "ms": round(t.get("duration", 0))}
        for t in audits.get("long-tasks", {}).get("details", {}).get("items", [])[:6]
    ]
    return {
        "lighthouse_version": data.get("lighthouseVersion"),
        "performance": cats["performance"]["score"],
        "accessibility": cats["accessibility"]["score"],
        "best_practices": cats["best-practices"]["score"],
        "lcp_ms": audits["largest-contentful-paint"]["numericValue"],
        "fcp_ms": audits["first-contentful-paint"]["numericValue"],
        "tbt_ms": audits["total-blocking-time"]["numericValue"],
        "lcp_element": lcp_element,
        "long_tasks": long_tasks,
        "flagged": flagged,
    }


# ------------------------------------------------------------------ report
def runs_of(lh: dict, key: str) -> str:
    """ ", median of 3 runs: 33, 56, 194 ms" for a Lighthouse figure measured more than once."""
    values = lh.get(key)
    if not values or len(values) < 2:
        return ""
    return f", median of {len(values)} runs: {', '.join(str(v) for v in values)} ms"


def fmt(value, unit="ms", digits=0) -> str:
    if value is None:
        return "—"
    return f"{value:.{digits}f}{' ' + unit if unit else ''}"


def row(cells: list[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def report_lines(r: dict) -> list[str]:
    m = r["machine"]
    lines = [
        f"Machine: {m['nproc']} CPU ({m['cpu']}), {m['chromium']}, {m['date']}, 1-minute load average"
        f" {fmt(m['load_average_1min'], '', 1)} at the start",
        f"Loads per figure: {r['runs']} (medians).",
        "",
        "| figure | Tablée | bare Pyodide worker page | ratio | goal |",
        "| --- | --- | --- | --- | --- |",
    ]
    for key, label in (("cold", "engine ready, cold (first visit, snapshot made)"),
                       ("warm", "engine ready, warm, snapshot restored"),
                       ("warm_made", "engine ready, warm, snapshot made (none stored)")):
        e = r["engine_ready"].get(key)
        if e is None:
            continue
        cells = [label, fmt(e["tablee_ms"]), fmt(e["bare_ms"]), fmt(e["ratio"], "", 2), f"ratio {GOALS[key]}"]
        lines.append(row(cells))
    lh = r.get("lighthouse", {})
    if "error" in lh:
        lines.append(f"| Lighthouse | {lh['error']} | | | |")
    else:
        lines += [
            f"| Lighthouse mobile performance | {lh['performance']} | | | {GOALS['lighthouse_performance']} |",
            f"| Lighthouse accessibility | {lh['accessibility']} | | | {GOALS['lighthouse_accessibility']} |",
            f"| Lighthouse best practices | {lh['best_practices']} | | | {GOALS['lighthouse_best_practices']} |",
            f"| Lighthouse largest contentful paint{runs_of(lh, 'lcp_runs_ms')} | {fmt(lh['lcp_ms'])} | | "
            f"| {GOALS['lcp_ms']} ms |",
            f"| Lighthouse total blocking time{runs_of(lh, 'tbt_runs_ms')} | {fmt(lh['tbt_ms'])} | | "
            f"| {GOALS['tbt_ms']} ms |",
        ]
    rolls = r["rolls"]
    both = f"{fmt(rolls['p50_ms'], 'ms', 1)} / {fmt(rolls['p95_ms'], 'ms', 1)}"
    goal = f"p95 {GOALS['roll_p95_ms']} ms"
    lines.append(row([f"roll round trip p50 / p95 ({rolls['count']} rolls)", both, "", "", goal]))
    b = r["bytes"]
    first = f"{b['first_visit_bytes'] / 1e6:.2f} MB in {b['first_visit_requests']} requests"
    warm = f"{b['warm_visit_bytes'] / 1e3:.1f} kB in {b['warm_visit_requests']} requests"
    lines.append(row(["bytes sent, first visit (service-worker precache included)", first, "", "", ""]))
    lines.append(row(["bytes sent, warm visit", warm, "", "", ""]))
    if "phone" in r:
        lines += bench_phone.report_lines(r["phone"])
    if "relay" in r:
        lines += bench_relay.report_lines(r["relay"])
    lines += ["", "First paint of the saved table (Chromium, no throttling; the engine starts after it):", "",
              "| table, route | first contentful paint | shell rendered | largest contentful paint (element) |",
              "| --- | --- | --- | --- |"]
    for label, p in r["first_paint"].items():
        if isinstance(p, dict):
            lcp = f"{fmt(p['lcp_ms'])} ({p['lcp_element']})"
            lines.append(row([label, fmt(p["fcp_ms"]), fmt(p["first_render_ms"]), lcp]))
    lines += ["", "Right after ready (warm), first answer of each op (imports what it needs):", "",
              "| request | first answer |", "| --- | --- |"]
    for a in r["answers"]["first"]:
        err = f" ERROR {a['error']['code']}" if a.get("error") else ""
        lines.append(row([f"{a['what']} (`{a['id']}`)", fmt(a["ms"], "ms", 1) + err]))
    lines += ["", f"Heaviest odds request of each system, in the worker (goal p95 {GOALS['odds_p95_ms']} ms):", "",
              "| request | first call | p50 | p95 |", "| --- | --- | --- | --- |"]
    for h in r["answers"]["heavy"]:
        err = f" ERROR {h['error']['code']}" if h.get("error") else ""
        cells = [f"{h['what']} (`{h['id']}`)", fmt(h["first_ms"], "ms", 1), fmt(h["p50_ms"], "ms", 1)]
        lines.append(row([*cells, fmt(h["p95_ms"], "ms", 1) + err]))
    if "live" in r:
        lines += bench_live.report_lines(r["live"])
    if "join" in r:
        lines += bench_join.report_lines(r["join"])
    if "storage" in r:
        lines += bench_storage.report_lines(r["storage"])
    return lines


README_START = "<!-- bench:start (tools/bench.py --readme writes this block) -->"
README_END = "<!-- bench:end -->"


def write_readme(lines: list[str], note: str) -> None:
    readme = ROOT / "README.md"
    text = readme.read_text(encoding="utf-8")
    block = "\n".join([README_START, *([note, ""] if note else []), *lines, README_END])
    if README_START in text and README_END in text:
        text = re.sub(re.escape(README_START) + r".*?" + re.escape(README_END), lambda _: block, text, flags=re.S)
    else:
        head = "\n\n## Performance\n\n`make bench` (tools/bench.py), latest figures:\n\n"
        text = text.rstrip("\n") + head + block + "\n"
    readme.write_text(text, encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="loads per figure (median reported)")
    parser.add_argument("--rolls", type=int, default=50)
    parser.add_argument("--odds-runs", type=int, default=20, help="calls of each heavy odds request after the first")
    parser.add_argument("--no-lighthouse", action="store_true")
    parser.add_argument("--lighthouse-runs", type=int, default=5, help="Lighthouse runs (median figures)")
    parser.add_argument("--readme", action="store_true", help="write the figures into README.md's Performance section")
    parser.add_argument("--note", default="", help="a line above the figures in the README (e.g. a loaded machine)")
    parser.add_argument("--from-json", type=Path, help="measure nothing: print (and --readme) a results file")
    args = parser.parse_args()
    if args.from_json:
        lines = report_lines(json.loads(args.from_json.read_text(encoding="utf-8")))
        print("\n".join(lines))
        if args.readme:
            write_readme(lines, args.note)
        return

    httpd, site = start_server()
    bare = site + BARE_PATH
    results: dict = {"machine": machine(), "runs": args.runs}
    failed: list[str] = []

    def step(text: str) -> None:
        print(text, file=sys.stderr, flush=True)

    with sync_playwright() as p:
        launch = chromium_launch(p.chromium)
        browser = p.chromium.launch(**launch)
        step("bytes of a first and a warm visit…")
        results["bytes"] = bytes_sent(p, launch, site, httpd)
        step("Tablée and bare Pyodide loads, in turn…")
        # One Tablée load then one bare load, run after run: a machine whose speed drifts
        # during the bench weighs on both sides alike (blocks of runs would not).
        app_runs, bare_runs = [], []
        for _ in range(args.runs):
            app_runs.append(load_time(browser, site, site))
            bare_runs.append(load_time(browser, site, bare))
        results["engine_ready"] = {}
        for key, bare_key in (("cold", "cold"), ("warm", "warm"), ("warm_made", "warm")):
            a = [run[key] for run in app_runs]
            b = [run[bare_key] for run in bare_runs]
            results["engine_ready"][key] = {
                "tablee_ms": med(a), "bare_ms": med(b), "ratio": med(a) / med(b), "tablee_runs": a, "bare_runs": b,
            }
        results["engine_ready"]["boots"] = [run["boots"] for run in app_runs]
        step("first paint of saved tables…")
        results["first_paint"] = first_paints(browser, site, args.runs)
        step("first answers and heavy odds…")
        results["answers"] = engine_answers(browser, site, args.odds_runs)
        step("rolls…")
        rolls = roll_round_trips(browser, site, args.rolls)
        results["rolls"] = {"count": len(rolls), "p50_ms": percentile(rolls, 0.5), "p95_ms": percentile(rolls, 0.95)}
        step("live table sync…")
        # A live bench that cannot run stops make bench with an error once the other figures
        # are printed (and fails tests/test_bench_live.py's tiny run): never a quiet line.
        try:
            live = bench_live.live_sync(browser, site)
            try:
                step(f"live table of {bench_live.TABLE_PHONES} phones…")
                live.update(bench_live.many_phones(browser, site))
                if live.get("table_lost"):  # (the figures measured stay; make bench fails, naming the loss)
                    failed.append(f"live table of {bench_live.TABLE_PHONES} phones: {live['table_lost']}")
            except Exception as error:  # the two-phone figures stay
                live["table_error"] = f"not measured: {str(error).splitlines()[0][:300]}"
                failed.append(f"live table of {bench_live.TABLE_PHONES} phones: {error}")
            bench_live.summarize(live, percentile)
            results["live"] = live
        except Exception as error:
            results["live"] = {"error": f"not measured: {str(error).splitlines()[0][:300]}"}
            failed.append(f"live table: {error}")
        step("four phones joining together…")
        try:
            results["join"] = bench_join.join_together(browser, site)
        except Exception as error:  # a bench that cannot run fails make bench, never a quiet line
            results["join"] = {"error": f"not measured: {str(error).splitlines()[0][:300]}"}
            failed.append(f"four phones joining together: {error}")
        browser.close()
        step("live table storage (Node, 1,000 moves)…")
        try:
            results["storage"] = bench_storage.measure()
        except Exception as error:  # reported, not hidden
            results["storage"] = {"error": f"not measured: {str(error).splitlines()[0][:300]}"}
        step("phone profile (CPU 4×, Slow 4G)…")
        try:
            results["phone"] = bench_phone.measure(p, launch=launch)
        except Exception as error:  # reported, not hidden
            results["phone"] = {"error": f"not measured: {str(error).splitlines()[0][:300]}"}
        step("a phone's first roll at a live table (CPU 4×, Slow 4G, first visit)…")
        try:
            results["relay"] = bench_relay.measure(p, launch=launch)
        except Exception as error:  # a bench that cannot run fails make bench, never a quiet line
            results["relay"] = {"error": f"not measured: {str(error).splitlines()[0][:300]}"}
            failed.append(f"a phone's first roll at a live table: {error}")
    if not args.no_lighthouse:
        step("Lighthouse (mobile)…")
        results["lighthouse"] = lighthouse(site, args.lighthouse_runs)
    else:
        results["lighthouse"] = {"error": "not run (--no-lighthouse)"}
    httpd.shutdown()

    results["goals"] = GOALS
    lines = report_lines(results)
    print("\n".join(lines))
    lh = results["lighthouse"]
    if lh.get("flagged"):
        print("\nLighthouse flagged:")
        for cid, items in lh["flagged"].items():
            for item in items:
                print(f"  {cid}: {item}")
    if lh.get("lcp_element"):
        print(f"Lighthouse LCP element: {lh['lcp_element']}")
    if lh.get("long_tasks"):
        print("Lighthouse long tasks:", ", ".join(f"{t['ms']} ms {t['url']}" for t in lh["long_tasks"]))
    RESULTS.mkdir(exist_ok=True)
    stamp = dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%SZ")
    for name in (f"bench-{stamp}.json", "latest.json"):
        (RESULTS / name).write_text(json.dumps(results, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"\nwritten: {RESULTS / f'bench-{stamp}.json'}", file=sys.stderr)
    if args.readme:
        write_readme(lines, args.note)
    if failed:
        sys.exit("make bench: could not measure\n" + "\n".join(f"  {f.splitlines()[0][:500]}" for f in failed))


if __name__ == "__main__":
    main()
