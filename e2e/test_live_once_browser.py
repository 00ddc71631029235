"""A phone's move whose link breaks between the MJ's apply and the phone's receipt of the answer
is applied once (static/js/live/hub.js referee, member.js flush/onAnswer), in the pages: the MJ
and two phones (three browser contexts with storage of their own, the real engine). The MJ's
device applies Léa's roll, then her link closes before the answer leaves; she joins again, her
waiting move goes again under the same id, and the hub answers it with its first answer: the
MJ's table logs it once, every device's log shows it once, Léa's tray shows that one result.

Oracle: the MJ's saved table (the roll's entry, its total) against each phone's table and page.
"""

from __future__ import annotations

import json

from playwright.sync_api import expect

from browser_support import wait_saved
from live_join_by_name import answer, table

SESSION = "(await import('./static/js/live/connect.js')).current()"
#: The MJ's device closes the link of the member whose roll it just applied, before the hub
#: sends the answer (which then goes nowhere): the link breaks between the apply and the receipt.
BREAK_AFTER_APPLY = f"""async () => {{ const s = {SESSION}; const referee = s.referee;
  window.brokenMove = null;
  s.referee = function (memberId, move, id) {{
    const answered = referee.call(this, memberId, move, id);
    if (move?.op !== "roll" || window.brokenMove !== null) return answered;
    window.brokenMove = id;
    return Promise.resolve(answered).then((a) => {{ window.appliedAnswer = a; this.links.get(memberId)?.close(); return a; }});
  }}; }}"""
#: Each phone's table, once its session holds it (synchronous, for a wait's predicate).
KEEP_SESSION = f"async () => {{ window.liveSession = {SESSION}; }}"


def logged(page, eid: str) -> int:
    return page.evaluate("(id) => window.liveSession.app.doc.log.filter((e) => e.id === id).length", eid)


def test_a_move_resent_after_its_link_broke_between_apply_and_answer_is_applied_once(devices, site):
    mj, lea, mo = devices(mj=True).page, devices(mj=False).page, devices(mj=False).page
    mj.goto(site + "manifest.webmanifest")
    mj.evaluate("raw => localStorage.setItem('tablee.document', raw)", json.dumps(table(), ensure_ascii=False))
    mj.goto(site + "#/live")
    expect(mj.locator("html")).to_have_attribute("data-engine", "ready", timeout=120_000)
    answer(mj, lea, "Léa")
    answer(mj, mo, "Mo")
    for phone in (lea, mo):
        expect(phone.locator("[data-testid=live-session]")).to_have_attribute("data-joined", "yes")
    mj.evaluate(BREAK_AFTER_APPLY)

    # Léa rolls; the MJ's device applies it and her link closes before the answer leaves.
    lea.goto(site + "#/tray")
    expect(lea.locator("html")).to_have_attribute("data-engine", "ready", timeout=120_000)
    lea.fill("#dice-expr", "3d6")
    lea.click("#roll-button")
    saved = wait_saved(mj, "d => d.log.length === 1")
    expect(mj.locator("[data-testid=live-players] li:has-text('Léa')")).to_have_attribute("data-state", "away")
    entry = saved["log"][0]
    assert entry["label"] == "3d6" and entry["member"]["name"] == "Léa"
    applied = mj.evaluate("() => window.appliedAnswer")
    assert applied["logged"] == entry["id"]
    moved = mj.evaluate("() => window.brokenMove")
    # Her page has no answer yet: the move waits in her queue, sent once already.
    lea.evaluate(KEEP_SESSION)
    assert lea.evaluate("() => window.liveSession.queue.map((q) => q.id)") == [moved]
    expect(lea.locator("#roll-result")).to_contain_text("Pas encore de lancer")

    # She joins again: her waiting move goes again under the same id, answered with the first answer.
    answer(mj, lea, "Léa")
    expect(mj.locator("[data-testid=live-players] li:has-text('Léa')")).to_have_attribute("data-state", "connected")
    lea.evaluate(KEEP_SESSION)
    lea.wait_for_function("() => window.liveSession.queue.length === 0")
    mo.evaluate(KEEP_SESSION)
    for phone in (lea, mo):
        phone.wait_for_function("(id) => window.liveSession.app.doc.log.some((e) => e.id === id)", arg=entry["id"])

    # Once on the MJ's table and feed, once in every device's log, one result on Léa's tray.
    saved = wait_saved(mj, "d => true")
    assert [e["id"] for e in saved["log"]] == [entry["id"]]
    assert mj.evaluate(f"async () => {SESSION}.feed.map((f) => f.op)") == ["roll"]
    for phone in (lea, mo):
        assert logged(phone, entry["id"]) == 1
        assert phone.evaluate("() => window.liveSession.app.doc.log.length") == 1
    lea.goto(site + "#/tray")
    result = lea.locator("#roll-result")
    expect(result.get_by_test_id("total")).to_have_text(str(entry["result"]["total"]))
    expect(result.get_by_test_id("total")).to_have_count(1)
    assert applied["total"] == entry["result"]["total"]
