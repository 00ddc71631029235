"""make bench, the live table: the latency of a player's move refereed by the MJ's device, the
sync of the MJ's changes to a phone, and the bytes the page loads for the live table.

Three contexts with separate storage (the MJ's laptop and two players' phones) join through the
pages as a table would (the invitation link, the name, the answer pasted on the MJ's page); the
MJ's table is the benchmark's big table (tools/bench_table.py: 50 characters, 1000 log entries).
Then:
- 100 moves from the phone: a dice roll sent through the phone's app (the session sends it to
  the MJ's device, which rolls it with its own seed, applies it to its whole table, logs it and
  publishes the player view). Timed from the call until the phone has the referee's answer,
  until the MJ's table holds the logged entry, until the phone's table (the public doc) holds
  it, until the other phone's table holds it, and until both (the answer on the phone that
  moved, the table on the other: the goal's figure).
- The card systems' moves, made on the phone's system pages as a player makes them (a click
  on the page's button): 100 Théorem oppositions drawn for the phone's character on the chase
  page (the MJ's shared deck), and 50 Versality tests on the phone's character's test page
  (the draw, the card chosen, the resolution: 100 moves). Timed from the click until the
  phone's page has the referee's answer, and until the other phone's table holds the move's
  log entry; "both" is the later of the two (the goal's figure).
- 100 changes of the table's name on the MJ's device, timed until the phone's table has them
  (the MJ's table, store.share's player view in the worker, the Y update, the data channel,
  the phone's saved table).
Both pages stamp `performance.timeOrigin + performance.now()`, one clock for the two contexts of
one browser.

The bytes are the files the page fetched for the live page (Yjs, y-protocols, lib0, the live
modules, their CSS and texts), with the service worker blocked so every one is a request:
their size on disk and gzipped (what a host that compresses sends).
"""

from __future__ import annotations

import gzip
import json
import re
import sys
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parent.parent
MJ_MODE_ON = "try { localStorage.setItem('tablee.mj-mode', 'on'); } catch {}"
CHANGES = 100
LIVE_FILES = re.compile(r"/static/(vendor/(yjs|lib0|y-protocols)|js/live|js/views/live|css/live|i18n/\w+/live)")

#: The phone's characters on the card systems (the MJ assigns them to it through the live page).
BENCH_THEOREM, BENCH_VERSALITY = "t-banc", "v-banc"

CLOCK = "performance.timeOrigin + performance.now()"
FOLLOW = f"""async () => {{
  const m = await import('./static/js/live/connect.js');
  window.__seen = new Map();
  m.current().app.onDocument((doc) => {{
    const hit = /^bench-(\\d+)$/.exec(doc.name ?? '');
    if (hit && !window.__seen.has(hit[1])) window.__seen.set(hit[1], {CLOCK});
  }});
}}"""
#: On the MJ's device: lift the table's pace limit (hub.js, a member's moves at most 30 a minute,
#: a burst of 10): the bench sends 100 moves from one phone in a row to time the link and the
#: referee, not the pace a table keeps (beyond the burst, each move waited for its token and the
#: assignment after them never came: the bench stopped on a 60 s timeout).
UNPACED = """async () => {
  const m = await import('./static/js/live/connect.js');
  m.current().rate = { perMinute: 1e9, burst: 1e9 };
}"""
#: On the MJ's device: when each entry id first appears in its table.
FOLLOW_LOG = f"""async () => {{
  const m = await import('./static/js/live/connect.js');
  window.__logged = new Map();
  const note = (doc) => {{
    const at = {CLOCK};
    for (const e of doc.log ?? []) if (e && !window.__logged.has(e.id)) window.__logged.set(e.id, at);
  }};
  note(m.current().app.doc);
  m.current().app.onDocument(note);
}}"""
#: On the phone: a roll through the app (a move while joined); [sent, answered, logged id, error].
MOVE = f"""async () => {{
  const m = await import('./static/js/live/connect.js');
  const at = {CLOCK};
  const r = await m.current().app.call({{ op: 'roll', expr: '1d6' }});
  return [at, {CLOCK}, r?.logged ?? null, r?.error?.code ?? null];
}}"""
#: On a phone: stamp each click, and each answer the page gets to a move of ``op`` (the app's
#: call, which the live session wraps, as the page calls it): [[clicked, answered, logged id,
#: error code]] in ``window.__answers``.
WATCH_PAGE = f"""async (ops) => {{
  const m = await import('./static/js/live/connect.js');
  const app = m.current().app;
  window.__answers = [];
  window.__clicked = null;
  document.addEventListener('click', () => {{ window.__clicked = {CLOCK}; }}, true);
  const call = app.call;
  app.call = async (request) => {{
    const answer = await call.call(app, request);
    if (ops.includes(request?.op)) {{
      window.__answers.push([window.__clicked, {CLOCK}, answer?.logged ?? null, answer?.error?.code ?? null]);
    }}
    return answer;
  }};
}}"""
CHANGE = f"""async (i) => {{
  const m = await import('./static/js/live/connect.js');
  const at = {CLOCK};
  m.current().app.update((d) => {{ d.name = `bench-${{i}}`; }});
  return at;
}}"""


def _with_card_systems(doc: dict) -> dict:
    """The big table with a Théorem and a Versality character for the phone, and both systems'
    states as the engine makes them (a Théorem table with its shared deck)."""
    sys.path.insert(0, str(ROOT / "e2e"))
    from browser_support import versality_character
    from tablee import api

    theorem = api.handle({"op": "theorem.character.new", "id": BENCH_THEOREM, "name": "Tamis"})["character"]
    doc["characters"] += [theorem, versality_character(BENCH_VERSALITY, "Vic")]
    doc["systems"]["theorem"] = api.handle({"op": "theorem.state.new", "seed": 5})["state"]
    doc["systems"]["versality"] = api.handle({"op": "versality.state.new"})["state"]
    return doc


def _join(mj, player, site: str, name: str = "Banc", offer: str | None = None) -> str:
    """Join ``player`` to the MJ's table through the pages, as a table does: the MJ opens the table
    (when ``offer`` is None), the player opens the invitation's link, gives a name and shows an
    answer, the MJ's page reads it. One invitation serves every phone: a later player opens the
    same ``offer``. Returns the invitation's link."""
    if offer is None:
        mj.goto(site + "#/live")
        mj.wait_for_function("() => document.documentElement.dataset.engine === 'ready'", timeout=300_000)
        mj.wait_for_selector("#live-offer, #live-open:enabled", timeout=120_000)
        if mj.locator("#live-offer").count() == 0:
            mj.click("#live-open")
        mj.wait_for_function("() => /#\\/join\\/T\\./.test(document.getElementById('live-offer')?.value ?? '')",
                             timeout=120_000)
        offer = mj.locator("#live-offer").input_value()
    player.goto(offer)
    player.fill("#live-name", name)
    player.click("#live-join")
    player.wait_for_function("() => /^T\\./.test(document.getElementById('live-answer-text')?.value ?? '')",
                             timeout=120_000)
    mj.fill("#live-answer", player.locator("#live-answer-text").input_value())
    mj.click("#live-accept")
    mj.wait_for_function("() => document.getElementById('live-answer')?.value === ''", timeout=120_000)
    player.wait_for_function(
        "() => document.querySelector('[data-testid=live-session]')?.dataset.joined === 'yes'", timeout=120_000)
    return offer


def _direction(source, target, start: int, count: int = CHANGES) -> list[float]:
    target.evaluate(FOLLOW)
    times = []
    for i in range(start, start + count):
        sent = source.evaluate(CHANGE, i)
        target.wait_for_function("(i) => window.__seen.has(String(i))", arg=i, timeout=60_000, polling=10)
        times.append(target.evaluate("(i) => window.__seen.get(String(i))", i) - sent)
    return times


Times = list[float]


def _moves(phone, mj, other, count: int = CHANGES) -> tuple[Times, Times, Times, Times, Times]:
    """100 rolls sent from the phone: (until the phone's answer, until the MJ's table has it,
    until the phone's table has it from the public doc, until the other phone's table has it,
    until both phones have the answer or the table with it, whichever comes last)."""
    mj.evaluate(FOLLOW_LOG)
    phone.evaluate(FOLLOW_LOG)
    other.evaluate(FOLLOW_LOG)
    answered, logged, shown, elsewhere, both = [], [], [], [], []
    for _ in range(count):
        sent, back, entry, error = phone.evaluate(MOVE)
        if error or not entry:
            raise RuntimeError(f"a move was refused: {error}")
        for page in (mj, phone, other):
            page.wait_for_function("(id) => window.__logged.has(id)", arg=entry, timeout=60_000, polling=10)
        answered.append(back - sent)
        logged.append(mj.evaluate("(id) => window.__logged.get(id)", entry) - sent)
        shown.append(phone.evaluate("(id) => window.__logged.get(id)", entry) - sent)
        elsewhere.append(other.evaluate("(id) => window.__logged.get(id)", entry) - sent)
        both.append(max(answered[-1], elsewhere[-1]))
    return answered, logged, shown, elsewhere, both


def _page_move(phone, other, click: str, answers: int) -> tuple[float, float]:
    """Click ``click`` on the phone's page and wait for its ``answers``-th move answer and for the
    other phone's table to hold that move's log entry: (until the phone's answer, until the
    other phone's table), in ms from the click."""
    phone.click(click)
    phone.wait_for_function("(n) => window.__answers.length >= n", arg=answers, timeout=60_000, polling=10)
    clicked, back, entry, error = phone.evaluate("(n) => window.__answers[n - 1]", answers)
    if error or not entry:
        raise RuntimeError(f"a move was refused: {error}")
    other.wait_for_function("(id) => window.__logged.has(id)", arg=entry, timeout=60_000, polling=10)
    return back - clicked, other.evaluate("(id) => window.__logged.get(id)", entry) - clicked


def _card_moves(phone, other, site: str, count: int = CHANGES) -> dict[str, tuple[list[float], list[float]]]:
    """The Théorem oppositions and the Versality tests, played on the phone's pages."""
    out: dict[str, tuple[list[float], list[float]]] = {}
    phone.goto(site + "#/theorem/chase")
    phone.wait_for_function("() => document.documentElement.dataset.engine === 'ready'", timeout=300_000)
    phone.select_option("#th-a-who", BENCH_THEOREM)
    phone.evaluate(WATCH_PAGE, ["theorem.opposition.draw"])
    mine, elsewhere = [], []
    for n in range(1, count + 1):
        back, seen = _page_move(phone, other, "#th-opp-draw:enabled", n)
        mine.append(back)
        elsewhere.append(seen)
    out["theorem"] = (mine, elsewhere)

    phone.goto(site + f"#/versality/test/{BENCH_VERSALITY}")
    phone.wait_for_function("() => document.documentElement.dataset.engine === 'ready'", timeout=300_000)
    phone.evaluate(WATCH_PAGE, ["versality.test.draw", "versality.test.resolve"])
    mine, elsewhere = [], []
    for n in range(1, max(1, count // 2) + 1):
        back, seen = _page_move(phone, other, "#vs-draw:enabled", 2 * n - 1)
        mine.append(back)
        elsewhere.append(seen)
        choose = phone.locator("[data-testid=hand-card]")
        if phone.locator("#vs-resolve:disabled").count():
            choose.first.click()  # a choice to make first (the rule "choose")
        back, seen = _page_move(phone, other, "#vs-resolve:enabled", 2 * n)
        mine.append(back)
        elsewhere.append(seen)
        phone.wait_for_selector("#vs-draw:enabled", timeout=60_000)
    out["versality"] = (mine, elsewhere)
    return out


def _assign(mj, phone, name: str, ids: list[str]) -> None:
    """The player ticks their characters under "Mes personnages"; the MJ confirms."""
    for cid in ids:
        phone.check(f"[data-testid=live-session] input[data-character={cid}]")
    mj.wait_for_function("(n) => document.querySelector('[data-testid=live-assign]')?.textContent.includes(n)",
                         arg=name, timeout=60_000)
    mj.locator(f"[data-testid=live-assign] li:has-text('{name}') button").click()
    for cid in ids:
        phone.wait_for_selector(f"[data-testid=live-session] input[data-character={cid}][data-assigned=yes]",
                                timeout=60_000)


def live_sync(browser, site: str, changes: int = CHANGES) -> dict:
    """Join two contexts on the big table and time 100 moves from the phone ("move_answer",
    "move_logged", "move_shown") and 100 changes from the MJ ("mj_to_player"), in ms; the bytes
    of the live page's files."""
    from bench_table import saved_table

    mj_context = browser.new_context(service_workers="block")
    mj_context.add_init_script(MJ_MODE_ON)
    player_context = browser.new_context(service_workers="block")
    other_context = browser.new_context(service_workers="block")
    fetched: list[str] = []
    mj = mj_context.new_page()
    player = player_context.new_page()
    other = other_context.new_page()
    try:
        mj.goto(site + "manifest.webmanifest")
        table = json.dumps(_with_card_systems(saved_table()))
        mj.evaluate("raw => localStorage.setItem('tablee.document', raw)", table)
        mj.goto(site + "#/tray")
        mj.wait_for_function("() => document.documentElement.dataset.engine === 'ready'", timeout=300_000)
        mj.on("request", lambda r: fetched.append(r.url))
        used = _join(mj, player, site)
        files = sorted({urlparse(u).path for u in fetched if LIVE_FILES.search(u)})
        raw = packed = 0
        for path in files:
            local = ROOT / ("static/" + path.split("/static/", 1)[1])
            data = local.read_bytes()
            raw += len(data)
            packed += len(gzip.compress(data, 9))
        _join(mj, other, site, "Autre", used)
        mj.evaluate(UNPACED)
        move_answer, move_logged, move_shown, move_other, move_both = _moves(player, mj, other, changes)
        mj.goto(site + "#/live")
        _assign(mj, player, "Banc", [BENCH_THEOREM, BENCH_VERSALITY])
        cards = _card_moves(player, other, site, changes)
        mj_to_player = _direction(mj, player, 0, changes)
    finally:
        mj_context.close()
        player_context.close()
        other_context.close()
    return {"move_answer": move_answer, "move_logged": move_logged, "move_shown": move_shown,
            "move_other": move_other, "move_both": move_both,
            **{f"{system}_{key}": times for system, (mine, seen) in cards.items() for key, times in (
                ("answer", mine), ("other", seen), ("both", [max(a, b) for a, b in zip(mine, seen, strict=True)]))},
            "mj_to_player": mj_to_player, "bytes": raw, "gzip_bytes": packed, "files": len(files)}


#: On a phone: a roll sent at the shared clock's time ``at`` (not awaited: every phone waits for
#: the same moment), its [sent, logged id, error] in ``window.__fired`` once answered.
FIRE_AT = f"""async (at) => {{
  const m = await import('./static/js/live/connect.js');
  window.__fired = null;
  setTimeout(async () => {{
    const sent = {CLOCK};
    const r = await m.current().app.call({{ op: 'roll', expr: '1d6' }});
    window.__fired = [sent, r?.logged ?? null, r?.error?.code ?? null];
  }}, Math.max(0, at - ({CLOCK})));
}}"""
#: Phones of the larger table, and its moves in turn and rounds of every phone at once.
TABLE_PHONES, TABLE_MOVES, AT_ONCE_ROUNDS = 6, 30, 3


def many_phones(browser, site: str, phones: int = TABLE_PHONES, moves: int = TABLE_MOVES,
                rounds: int = AT_ONCE_ROUNDS) -> dict:
    """A table of the MJ and ``phones`` players (360-px contexts of one browser), joined through
    the pages on the big table. ``moves`` rolls, the phones in turn: ms until the move shows on
    every phone (the answer on the one that moved, the log entry on each other one) and until
    the MJ's table holds it. Then ``rounds`` times every phone rolls at the same moment: ms from
    that moment until every device holds every one of these moves."""
    from bench_table import saved_table

    mj_context = browser.new_context(service_workers="block")
    mj_context.add_init_script(MJ_MODE_ON)
    phone_contexts = [browser.new_context(service_workers="block", viewport={"width": 360, "height": 740})
                      for _ in range(phones)]
    try:
        mj = mj_context.new_page()
        pages = [c.new_page() for c in phone_contexts]
        mj.goto(site + "manifest.webmanifest")
        mj.evaluate("raw => localStorage.setItem('tablee.document', raw)", json.dumps(saved_table()))
        used = None
        for i, phone in enumerate(pages):
            used = _join(mj, phone, site, f"Joueur {i + 1}", used)
        everyone = [mj, *pages]
        for page in everyone:
            page.evaluate(FOLLOW_LOG)
        every, to_mj = [], []
        for k in range(moves):
            phone = pages[k % phones]
            sent, back, entry, error = phone.evaluate(MOVE)
            if error or not entry:
                raise RuntimeError(f"a move was refused: {error}")
            for page in everyone:
                page.wait_for_function("(id) => window.__logged.has(id)", arg=entry, timeout=60_000, polling=10)
            seen_at = "(id) => window.__logged.get(id)"
            others = [page.evaluate(seen_at, entry) - sent for page in pages if page is not phone]
            every.append(max([back - sent, *others]))
            to_mj.append(mj.evaluate("(id) => window.__logged.get(id)", entry) - sent)
        at_once, lost = [], None
        for _ in range(rounds):
            at = mj.evaluate(CLOCK) + 500
            for phone in pages:
                phone.evaluate(FIRE_AT, at)
            entries = []
            for phone in pages:
                phone.wait_for_function("() => window.__fired !== null", timeout=60_000, polling=10)
                _sent, entry, error = phone.evaluate("() => window.__fired")
                if error or not entry:
                    raise RuntimeError(f"a move was refused: {error}")
                entries.append(entry)
            held = 0.0
            try:
                for n, page in enumerate(everyone):
                    _hold(page, entries, "the MJ's device" if n == 0 else f"phone {n}")
                    last = page.evaluate("(ids) => Math.max(...ids.map((id) => window.__logged.get(id)))", entries)
                    held = max(held, last)
            except LostMove as error:  # (the figures measured so far stay; the loss is reported)
                lost = str(error)
                break
            at_once.append(held - at)
    finally:
        mj_context.close()
        for context in phone_contexts:
            context.close()
    out = {"phones": phones, "table_every": every, "table_to_mj": to_mj, "table_at_once": at_once}
    if lost:
        out["table_lost"] = lost
    return out


class LostMove(RuntimeError):
    """A move the referee logged that a device's table never showed (see _hold)."""


def _hold(page, entries: list[str], who: str) -> None:
    """Wait until ``page``'s table holds every one of ``entries`` (log entry ids); a device that
    never gets one stops the bench with a message naming the device and the missing moves (a
    move lost on its way to a phone is the live table's fault, not the bench's)."""
    try:
        page.wait_for_function("(ids) => ids.every((id) => window.__logged.has(id))", arg=entries,
                               timeout=60_000, polling=10)
    except Exception as error:
        missing = page.evaluate("(ids) => ids.filter((id) => !window.__logged.has(id))", entries)
        raise LostMove(f"{who} never showed {len(missing)} of the {len(entries)} moves sent at the same moment"
                           f" ({', '.join(missing)}) within 60 s: the live table lost a move on its way there"
                           ) from error


#: Each timed figure (a list of ms per move or change) and its row in the report.
LABELS = {
    "move_answer": "a roll sent from the phone (a move), until the phone has the referee's answer",
    "move_logged": "the same move, until the MJ's table holds its log entry",
    "move_shown": "the same move, until the phone's table (the public doc, as any phone gets it) holds it",
    "move_other": "the same move, until the other phone's table holds it",
    "move_both": "the same move, until it shows on both phones (the answer on the one, the table on the other; "
                 "the goal)",
    "theorem_answer": "Théorem: an opposition drawn on the phone's chase page, from the click until the page has "
                      "the referee's answer",
    "theorem_other": "the same move, until the other phone's table holds it",
    "theorem_both": "the same move, on both phones (the goal)",
    "versality_answer": "Versality: a draw or a resolution on the phone's test page, from the click until the page "
                        "has the referee's answer",
    "versality_other": "the same move, until the other phone's table holds it",
    "versality_both": "the same move, on both phones (the goal)",
    "mj_to_player": "a change on the MJ's device, until the player's table has it",
    "table_every": "{phones} phones: a roll from each phone in turn, until it shows on every phone (the goal: "
                   "p95 ≤ 150 ms)",
    "table_to_mj": "{phones} phones: the same move, until the MJ's table holds it",
    "table_at_once": "{phones} phones rolling at the same moment, until every device holds every move (goal: "
                     "≤ 500 ms; one figure per round)",
}


def summarize(live: dict, percentile) -> None:
    """Replace each timed list by its count, p50 and p95 (``runs`` keeps the list)."""
    for key in LABELS:
        times = live.get(key)
        if times == []:  # (nothing measured: a round stopped by a lost move)
            live[key] = None
        elif isinstance(times, list):
            live[key] = {"count": len(times), "p50_ms": percentile(times, 0.5),
                         "p95_ms": percentile(times, 0.95), "runs": times}


def report_lines(r: dict) -> list[str]:
    if "error" in r:
        return ["", f"Live table: {r['error']}"]
    lines = ["", "Live table (three contexts of one browser on this machine, the MJ and two phones, joined through "
             "the pages; the MJ's table holds 52 characters and 1000 log entries; goal: a move p95 ≤ 150 ms until "
             "it shows on both phones):", "",
             "| figure | p50 | p95 |", "| --- | --- | --- |"]
    for key, label in LABELS.items():
        s = r.get(key)
        if s is None:
            continue  # (a results file from before this figure)
        label = label.format(phones=r.get("phones", TABLE_PHONES))
        lines.append(f"| {label} ({s['count']} changes) | {s['p50_ms']:.1f} ms | {s['p95_ms']:.1f} ms |")
    if r.get("table_error"):
        lines.append(f"| a table of {TABLE_PHONES} phones | {r['table_error']} | |")
    if r.get("table_lost"):
        phones = r.get("phones", TABLE_PHONES)
        lines.append(f"| {phones} phones rolling at the same moment: a lost move | {r['table_lost']} | |")
    lines += ["", f"Bytes the page loads for the live table: {r['bytes'] / 1e3:.1f} kB in {r['files']} files"
                  f" ({r['gzip_bytes'] / 1e3:.1f} kB gzipped)."]
    return lines


def main() -> None:
    """The live table's figures alone (``python tools/bench_live.py``): the same server and
    browser as ``make bench``, written to bench-results/live-<time>.json."""
    import datetime as dt

    from playwright.sync_api import sync_playwright

    import bench_common
    from browser_support import chromium_launch

    httpd, site = bench_common.start_server()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(**chromium_launch(p.chromium))
            live = live_sync(browser, site)
            live.update(many_phones(browser, site))
            browser.close()
    finally:
        httpd.shutdown()
    summarize(live, bench_common.percentile)
    print("\n".join(report_lines(live)))
    bench_common.RESULTS.mkdir(exist_ok=True)
    out = bench_common.RESULTS / f"live-{dt.datetime.now(dt.UTC).strftime('%Y%m%dT%H%M%SZ')}.json"
    out.write_text(json.dumps({"machine": bench_common.machine(), "live": live}, indent=1) + "\n", encoding="utf-8")
    print(f"written: {out}", file=sys.stderr)


if __name__ == "__main__":
    sys.path[:0] = [str(ROOT / "tools"), str(ROOT / "e2e")]
    main()
