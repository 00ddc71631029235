"""Engine-ready figures in Firefox and WebKitGTK, as `make bench` gives them in Chromium.

For each engine (Debian's firefox-esr through Puppeteer, WebKitGTK's WebKitWebDriver under Xvfb
through Selenium: e2e/engines/drivers.py), ``--runs`` new profiles each: Tablée cold (a first
visit: the start that makes the engine's memory snapshot) and warm (the median of three reloads,
restored from the snapshot), against the bare Pyodide worker page of tools/bench.py cold (a profile
of its own) and warm (reloads, after the app's service worker installed). The ratios are printed
beside their goals (warm ≤ 0.40, cold ≤ 0.90), never asserted, with how each Tablée start went
(``data-engine-boot``: made, snapshot or plain): a start that could not restore a snapshot says so
there. JSON in bench-results/engines.json.

    .venv/bin/python tools/bench_engines.py [--runs 3] [--engines firefox,webkit]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tools"), str(ROOT / "e2e"), str(ROOT / "py")]

import bench  # noqa: E402
import bench_common  # noqa: E402
from engines.drivers import FirefoxPage, WebKitPage, missing  # noqa: E402

ENGINES = {"firefox": FirefoxPage, "webkit": WebKitPage}
READY = f"() => {bench.READY_MS}"
BOOT = "() => document.documentElement.dataset.engineBoot ?? null"
WARM_RELOADS = bench.WARM_RELOADS


def ready_ms(page) -> float:
    return float(page.wait(READY, timeout=300))


def tablee_run(make, site: str) -> dict:
    """One new profile: Tablée cold, then warm reloads; then the bare page warm in the same
    profile (the runtime in the service worker's cache, as in tools/bench.py)."""
    page = make()
    try:
        page.goto(site)
        out = {"cold": ready_ms(page), "boots": [page.wait(BOOT, timeout=300)]}
        reloads = []
        for _ in range(WARM_RELOADS):
            page.wait(bench.SNAPSHOT_STORED, timeout=300)
            page.reload()
            reloads.append(ready_ms(page))
            out["boots"].append(page.wait(BOOT, timeout=300))
        out["warm"] = statistics.median(reloads)
        page.goto(site + bench.BARE_PATH)
        ready_ms(page)
        bare = []
        for _ in range(WARM_RELOADS):
            page.reload()
            bare.append(ready_ms(page))
        out["bare_warm"] = statistics.median(bare)
        return out
    finally:
        page.close()


def bare_cold(make, site: str) -> float:
    page = make()
    try:
        page.goto(site + bench.BARE_PATH)
        return ready_ms(page)
    finally:
        page.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="new profiles per engine (medians reported)")
    parser.add_argument("--engines", default="firefox,webkit")
    args = parser.parse_args()
    httpd, site = bench_common.start_server()
    results: dict = {"machine": bench_common.machine(), "runs": args.runs, "engines": {}}
    lines = ["| engine | figure | Tablée | bare Pyodide worker page | ratio | goal |",
             "| --- | --- | --- | --- | --- | --- |"]
    for name in args.engines.split(","):
        reason = missing(name)
        if reason:
            results["engines"][name] = {"skipped": reason}
            lines.append(f"| {name} | not measured: {reason} | | | | |")
            continue
        make = ENGINES[name]
        runs, colds = [], []
        for _ in range(args.runs):  # one Tablée profile then one bare profile, in turn
            print(f"{name}: a Tablée profile…", file=sys.stderr, flush=True)
            runs.append(tablee_run(make, site))
            print(f"{name}: a bare Pyodide profile…", file=sys.stderr, flush=True)
            colds.append(bare_cold(make, site))
        figures = {
            "cold": {"tablee_ms": statistics.median(r["cold"] for r in runs), "bare_ms": statistics.median(colds)},
            "warm": {"tablee_ms": statistics.median(r["warm"] for r in runs),
                     "bare_ms": statistics.median(r["bare_warm"] for r in runs)},
        }
        for key, f in figures.items():
            f["ratio"] = f["tablee_ms"] / f["bare_ms"]
            f["goal"] = bench.GOALS[key]
            lines.append(f"| {name} | engine ready, {key} | {f['tablee_ms']:.0f} ms | {f['bare_ms']:.0f} ms | "
                         f"{f['ratio']:.2f} | ratio {f['goal']} |")
        boots = [r["boots"] for r in runs]
        figures["boots"] = boots
        figures["runs"] = runs
        figures["bare_cold_runs"] = colds
        results["engines"][name] = figures
        started = "; ".join(", ".join(b) for b in boots)
        lines.append(f"| {name} | how Tablée started (first visit, reloads) | {started} | | | made, then snapshot |")
    httpd.shutdown()
    bench_common.RESULTS.mkdir(exist_ok=True)
    (bench_common.RESULTS / "engines.json").write_text(json.dumps(results, indent=2), encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
