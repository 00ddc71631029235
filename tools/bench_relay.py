"""make bench, a phone's first roll at a live table on a first visit (the phone profile).

The MJ's laptop (no throttling, its engine ready on the live page, a table holding one Unicreon
character) and a phone that has never opened the site: a new browser context with
tools/bench_phone.py's profile (CPU 4×, Slow 4G through CDP, 360 px, touch), served by that
module's server (text and wasm gzipped as GitHub Pages does). Timed from the moment the phone
opens the MJ's invitation link: the player types a name and joins, the answer goes to the MJ's
page at once (the script pastes it; a person takes a few seconds), the player takes Solène and the
MJ confirms, the player opens her test page, waits for the odds and rolls. The figure is the
time until the phone shows the refereed result (the MJ's device rolled and logged it), goal
≤ 10 s; beside it, until the odds were on screen, and whether the phone's own engine was ready
by then (a first visit's is not: the MJ's engine answered, static/js/live/remote-engine.js).

    .venv/bin/python tools/bench_relay.py [--network slow-4g|fast-4g] [--json bench-results/relay.json]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tools"), str(ROOT / "e2e")]

import bench_phone  # noqa: E402
from browser_support import chromium_launch  # noqa: E402

GOAL_MS = 10_000
TIMEOUT_MS = 180_000
CLOCK = "performance.timeOrigin + performance.now()"
MJ_MODE_ON = "try { localStorage.setItem('tablee.mj-mode', 'on'); } catch {}"
CHARACTER = "u-banc"
#: When the phone's engine started (its clock: performance.timeOrigin), or null.
ENGINE_START = ("(() => { const m = performance.getEntriesByName('tablee-engine-start')[0];"
                " return m ? performance.timeOrigin + m.startTime : null; })()")
#: The phone's requests ([path, start ms, end ms, bytes], the page's clock), for --trace.
REQUESTS = ("performance.getEntriesByType('resource').map(e => [e.name.split('/tablee/')[1],"
            " Math.round(e.startTime), Math.round(e.responseEnd), e.transferSize])")


def _table() -> dict:
    """One Unicreon character, valid as the store keeps it (as e2e/test_live_table.py's)."""
    solene = {
        "id": CHARACTER, "system": "unicreon", "name": "Solène", "created": True, "story": "", "origins": "",
        "job": "Guide", "description": "", "don": "", "defaut": "", "secret": "",
        "characteristics": {"puissance": 20, "agilite": 40, "perception": 40, "volonte": 50},
        "skills": [], "pv": 12, "pv_max": 12, "po": 0, "inventory": [], "conditions": [], "down": None,
        "ignore_encumbrance": False, "important_npc": False,
    }
    return {"schema": 1, "app": "tablee", "name": "Banc", "language": "fr", "characters": [solene], "log": [],
            "systems": {}, "settings": {}}


def first_roll(browser, site: str, network_key: str = "slow-4g", cpu: float = bench_phone.CPU_SLOWDOWN,
               trace: bool = False) -> dict:
    """One phone's first visit through the invitation until its first refereed roll (module
    docstring): ms from opening the link until joined, odds shown, result shown."""
    mj_context = browser.new_context(viewport={"width": 1280, "height": 800})
    phone_context = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True,
                                        locale="fr-FR")
    try:
        mj_context.add_init_script(MJ_MODE_ON)
        mj = mj_context.new_page()
        mj.goto(site + "manifest.webmanifest")
        mj.evaluate("raw => localStorage.setItem('tablee.document', raw)", json.dumps(_table(), ensure_ascii=False))
        mj.goto(site + "#/live")
        mj.wait_for_function("() => document.documentElement.dataset.engine === 'ready'", timeout=TIMEOUT_MS)
        mj.click("#live-open")
        mj.wait_for_function("() => /#\\/join\\/T\\./.test(document.getElementById('live-offer')?.value ?? '')",
                             timeout=TIMEOUT_MS)
        offer = mj.locator("#live-offer").input_value()
        phone = phone_context.new_page()
        bench_phone.throttle(phone_context, phone, bench_phone.NETWORKS[network_key], cpu)
        start = mj.evaluate(CLOCK)
        phone.goto(offer)
        phone.locator("#live-name").wait_for(timeout=TIMEOUT_MS)
        form = phone.evaluate(CLOCK)
        phone.fill("#live-name", "Léa")
        phone.click("#live-join")
        phone.wait_for_function("() => /^T\\./.test(document.getElementById('live-answer-text')?.value ?? '')",
                                timeout=TIMEOUT_MS)
        answered = phone.evaluate(CLOCK)
        mj.fill("#live-answer", phone.locator("#live-answer-text").input_value())
        mj.click("#live-accept")
        phone.wait_for_function(
            "() => document.querySelector('[data-testid=live-session]')?.dataset.joined === 'yes'", timeout=TIMEOUT_MS)
        joined = phone.evaluate(CLOCK)
        box = phone.locator(f"[data-testid=live-session] input[data-character={CHARACTER}]")
        box.wait_for(timeout=TIMEOUT_MS)
        box.check()
        mj.locator("[data-testid=live-assign] li:has-text('Léa') button").click(timeout=TIMEOUT_MS)
        phone.wait_for_selector(f"[data-testid=live-session] input[data-character={CHARACTER}][data-assigned=yes]",
                                timeout=TIMEOUT_MS)
        phone.evaluate(f"location.hash = '#/unicreon/test/{CHARACTER}'")
        phone.wait_for_selector("[data-testid=uc-odds]", timeout=TIMEOUT_MS)
        odds = phone.evaluate(CLOCK)
        phone.locator("#uc-roll:enabled").click(timeout=TIMEOUT_MS)
        phone.wait_for_selector("[data-testid=uc-result]", timeout=TIMEOUT_MS)
        shown = phone.evaluate(CLOCK)
        engine = phone.evaluate("document.documentElement.dataset.engine")
        engine_start = phone.evaluate(ENGINE_START)
        mj.wait_for_function("() => JSON.parse(localStorage.getItem('tablee.document')).log"
                             ".some(e => e.kind === 'unicreon.test')", timeout=TIMEOUT_MS)
        relayed = mj.evaluate("async () => (await import('./static/js/live/connect.js')).current().relayAnswered ?? 0")
        out = {"network": network_key, "network_name": bench_phone.NETWORKS[network_key]["name"], "cpu_slowdown": cpu,
               "form_ms": form - start, "answer_ms": answered - start, "joined_ms": joined - start,
               "odds_ms": odds - start, "roll_ms": shown - start, "phone_engine_at_roll": engine,
               "phone_engine_start_ms": engine_start - start if engine_start is not None else None,
               "relayed_answers": relayed}
        if trace:
            out["phone_requests"] = phone.evaluate(REQUESTS)
        return out
    finally:
        phone_context.close()
        mj_context.close()


def measure(playwright, network_key: str = "slow-4g", launch: dict | None = None, trace: bool = False) -> dict:
    """:func:`first_roll` against tools/bench_phone.py's server, in a browser of its own
    (tools/bench.py calls this)."""
    httpd, site = bench_phone.start_server()
    browser = playwright.chromium.launch(**(launch or chromium_launch(playwright.chromium)))
    try:
        return first_roll(browser, site, network_key, trace=trace)
    finally:
        browser.close()
        httpd.shutdown()


def report_lines(r: dict) -> list[str]:
    """Rows for tools/bench.py's table (| figure | Tablée | bare | ratio | goal |)."""
    if "error" in r:
        return [f"| phone at a live table, first visit: first refereed roll | {r['error']} | | | ≤ {GOAL_MS} ms |"]
    where = f"CPU {r['cpu_slowdown']:g}×, {r['network_name']}"
    engine = "its own engine" if r["phone_engine_at_roll"] == "ready" else f"its engine {r['phone_engine_at_roll']}"
    return [
        f"| phone ({where}) at a live table, first visit: invitation opened to first refereed roll shown"
        f" (joined {r['joined_ms']:.0f} ms, odds {r['odds_ms']:.0f} ms; {engine},"
        f" {r['relayed_answers']} answers of the MJ's engine) | {r['roll_ms']:.0f} ms | | | ≤ {GOAL_MS} ms |",
    ]


def main() -> None:
    from playwright.sync_api import sync_playwright

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--network", choices=sorted(bench_phone.NETWORKS), default="slow-4g")
    parser.add_argument("--trace", action="store_true", help="print the phone's requests")
    parser.add_argument("--json", type=Path, default=ROOT / "bench-results" / "relay.json")
    args = parser.parse_args()
    with sync_playwright() as p:
        r = measure(p, args.network, trace=args.trace)
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(r, indent=1) + "\n", encoding="utf-8")
    for request in r.get("phone_requests", []):
        print(request)
    print("\n".join(report_lines(r)))


if __name__ == "__main__":
    main()
