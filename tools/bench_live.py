"""make bench, the live table (issue 15): the sync latency between two browser contexts of this
machine and the bytes the page loads for the live table.

Two contexts with separate storage (the MJ's and a player's) join through the pages as a table
would (the invitation link, the name, the answer pasted on the MJ's page). Then 100 changes of
the table's name are made on one side through the app and timed until the other side's app has
them, both ways: MJ -> player is the whole path (the MJ's table, store.share's player view in
the worker, the Y update, the data channel, the player's saved table), player -> MJ the same
the other way (the merge into the MJ's table included). Both pages stamp
`performance.timeOrigin + performance.now()`, one clock for the two contexts of one browser.

The bytes are the files the page fetched for the live page (Yjs, y-protocols, lib0, the live
modules, their CSS and texts), with the service worker blocked so every one is a request:
their size on disk and gzipped (what a host that compresses sends).
"""

from __future__ import annotations

import gzip
import re
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parent.parent
MJ_MODE_ON = "try { localStorage.setItem('tablee.mj-mode', 'on'); } catch {}"
CHANGES = 100
LIVE_FILES = re.compile(r"/static/(vendor/(yjs|lib0|y-protocols)|js/live|js/views/live|css/live|i18n/\w+/live)")

CLOCK = "performance.timeOrigin + performance.now()"
FOLLOW = f"""async () => {{
  const m = await import('./static/js/live/connect.js');
  window.__seen = new Map();
  m.current().app.onDocument((doc) => {{
    const hit = /^bench-(\\d+)$/.exec(doc.name ?? '');
    if (hit && !window.__seen.has(hit[1])) window.__seen.set(hit[1], {CLOCK});
  }});
}}"""
CHANGE = f"""async (i) => {{
  const m = await import('./static/js/live/connect.js');
  const at = {CLOCK};
  m.current().app.update((d) => {{ d.name = `bench-${{i}}`; }});
  return at;
}}"""


def _join(mj, player, site: str) -> None:
    mj.goto(site + "#/live")
    mj.wait_for_function("() => document.documentElement.dataset.engine === 'ready'", timeout=300_000)
    mj.click("#live-open")
    mj.wait_for_function("() => /#\\/join\\/T\\./.test(document.getElementById('live-offer')?.value ?? '')",
                         timeout=120_000)
    player.goto(mj.locator("#live-offer").input_value())
    player.fill("#live-name", "Banc")
    player.click("#live-join")
    player.wait_for_function("() => /^T\\./.test(document.getElementById('live-answer-text')?.value ?? '')",
                             timeout=120_000)
    mj.fill("#live-answer", player.locator("#live-answer-text").input_value())
    mj.click("#live-accept")
    player.wait_for_function(
        "() => document.querySelector('[data-testid=live-session]')?.dataset.joined === 'yes'", timeout=120_000)


def _direction(source, target, start: int) -> list[float]:
    target.evaluate(FOLLOW)
    times = []
    for i in range(start, start + CHANGES):
        sent = source.evaluate(CHANGE, i)
        target.wait_for_function("(i) => window.__seen.has(String(i))", arg=i, timeout=60_000, polling=10)
        times.append(target.evaluate("(i) => window.__seen.get(String(i))", i) - sent)
    return times


def live_sync(browser, site: str) -> dict:
    """Join two contexts and time 100 changes each way (the samples, in ms, under
    "mj_to_player" and "player_to_mj"); the bytes of the live page's files."""
    mj_context = browser.new_context(service_workers="block")
    mj_context.add_init_script(MJ_MODE_ON)
    player_context = browser.new_context(service_workers="block")
    fetched: list[str] = []
    mj = mj_context.new_page()
    player = player_context.new_page()
    try:
        mj.goto(site + "#/tray")
        mj.wait_for_function("() => document.documentElement.dataset.engine === 'ready'", timeout=300_000)
        mj.on("request", lambda r: fetched.append(r.url))
        _join(mj, player, site)
        files = sorted({urlparse(u).path for u in fetched if LIVE_FILES.search(u)})
        raw = packed = 0
        for path in files:
            local = ROOT / ("static/" + path.split("/static/", 1)[1])
            data = local.read_bytes()
            raw += len(data)
            packed += len(gzip.compress(data, 9))
        mj_to_player = _direction(mj, player, 0)
        player_to_mj = _direction(player, mj, CHANGES)
    finally:
        mj_context.close()
        player_context.close()
    return {"mj_to_player": mj_to_player, "player_to_mj": player_to_mj, "bytes": raw, "gzip_bytes": packed,
            "files": len(files)}


def report_lines(r: dict) -> list[str]:
    if "error" in r:
        return ["", f"Live table: {r['error']}"]
    lines = ["", "Live table (two contexts of one browser on this machine, joined through the pages):", "",
             "| figure | p50 | p95 |", "| --- | --- | --- |"]
    for key, label in (("mj_to_player", "a change on the MJ's device, until the player's table has it"),
                       ("player_to_mj", "a change on the player's device, until the MJ's table has it")):
        s = r[key]
        lines.append(f"| {label} ({s['count']} changes) | {s['p50_ms']:.1f} ms | {s['p95_ms']:.1f} ms |")
    lines += ["", f"Bytes the page loads for the live table: {r['bytes'] / 1e3:.1f} kB in {r['files']} files"
                  f" ({r['gzip_bytes'] / 1e3:.1f} kB gzipped)."]
    return lines
