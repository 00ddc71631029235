"""A move made on a phone while the live table's link is down says so where it was made
(static/js/live/member.js showWaiting): the button that sent it gets « La table ne répond pas :
l'action est en attente » and a Cancel, and the page's last result is marked « Résultat
précédent » (greyed, the tag in words a screen reader reads) until the move is answered or
cancelled; the live page lists it in words; the phone's home page says an action waits. The
Cancel takes it back: nothing reaches the MJ's table. Answered after the rejoin, the roll is
logged once under its words, with no second move to name it.

The phone's click comes while it still learns the referee's list of moves (as right after its
engine became ready on a busy phone): the sign is still put beside the button it pressed,
though that button was disabled and lost the focus meanwhile (the flake this test once had).
"""

from __future__ import annotations

import json

from playwright.sync_api import expect

from browser_support import AXE, wait_saved
from live_join_by_name import answer, table

SESSION = "(await import('./static/js/live/connect.js')).current()"
#: The phone's session forgets the referee's list of moves and learns it again only when the
#: test says (`window.releaseMoves()`): its next move waits for the list, the click is over.
HOLD_MOVES = f"""async () => {{ const s = {SESSION}; const kept = s.moveOps;
  s.moveOps = null; s.movesAsked = new Promise((r) => {{ window.releaseMoves = () => {{ s.moveOps = kept; r(); }}; }}); }}"""
CLOSE_LINKS = f"async () => {{ for (const l of {SESSION}.links.values()) l.close(); }}"


def roll(phone, expr: str, *, held: bool = False) -> None:
    phone.fill("#dice-expr", expr)
    if held:
        phone.evaluate(HOLD_MOVES)
    phone.click("#roll-button")
    if held:
        expect(phone.locator("#roll-button")).to_be_disabled()  # (the page waits: busy)
        phone.evaluate("() => window.releaseMoves()")


def words(text: str) -> str:
    return " ".join(text.split())


def contrast_findings(page) -> list:
    """axe-core's colour-contrast findings in the dice tray's result area."""
    if not page.evaluate("() => typeof axe !== 'undefined'"):
        page.evaluate(AXE.read_text(encoding="utf-8"))
    return page.evaluate("""() => axe.run('#roll-result', {runOnly: ['color-contrast']})
        .then(r => r.violations.map(v => v.nodes.map(n => n.target.join(' '))))""")


def test_a_waiting_roll_says_so_beside_its_button_marks_the_previous_result_and_can_be_cancelled(devices, site):
    mj, lea = devices(mj=True).page, devices(mj=False).page
    mj.goto(site + "manifest.webmanifest")
    mj.evaluate("raw => localStorage.setItem('tablee.document', raw)", json.dumps(table(), ensure_ascii=False))
    mj.goto(site + "#/live")
    expect(mj.locator("html")).to_have_attribute("data-engine", "ready", timeout=120_000)
    answer(mj, lea, "Léa")
    expect(lea.locator("[data-testid=live-session]")).to_have_attribute("data-joined", "yes")

    # A first roll with the link up: its result is on the tray.
    lea.goto(site + "#/tray")
    expect(lea.locator("html")).to_have_attribute("data-engine", "ready", timeout=120_000)
    roll(lea, "2d6")
    result = lea.locator("#roll-result")
    expect(result).not_to_contain_text("Pas encore de lancer")
    wait_saved(mj, "d => d.log.length === 1")
    first = words(result.inner_text())

    # The link goes down; Léa rolls again.
    lea.evaluate(CLOSE_LINKS)
    expect(mj.locator("[data-testid=live-players] li:has-text('Léa')")).to_have_attribute("data-state", "away")
    roll(lea, "3d6", held=True)
    waiting = lea.locator(".live-waiting[role=status]")
    expect(waiting).to_contain_text("La table ne répond pas : l'action est en attente.")
    expect(lea.locator("#roll-button")).to_have_attribute("data-live-waiting", "yes")
    expect(waiting.get_by_role("button", name="Annuler")).to_be_visible()
    # What the tray shows is the previous result, and says so in words.
    expect(result).to_have_attribute("data-live-previous", "yes")
    tag = result.locator(".live-previous-tag")
    expect(tag).to_have_text("Résultat précédent")
    expect(tag).to_be_visible()
    assert words(result.inner_text()).replace("Résultat précédent ", "") == first
    assert contrast_findings(lea) == []

    # Cancelled beside its button: the sign and the mark go; the tray says the roll was not sent.
    waiting.get_by_role("button", name="Annuler").click()
    expect(waiting).to_have_count(0)
    expect(tag).to_have_count(0)
    expect(result).not_to_have_attribute("data-live-previous", "yes")
    expect(lea.locator("main")).not_to_have_attribute("data-live-previous", "yes")
    expect(lea.locator("#dice-error")).to_contain_text("Action annulée : elle n'a pas été envoyée à la table.")

    # Again: its home page says so.
    roll(lea, "3d6")
    expect(waiting).to_have_count(1)
    lea.goto(site + "#/")
    expect(lea.locator("[data-testid=home-live-waiting]")).to_contain_text("1 action attend la table en direct")

    # Listed in words on the live page, and cancelled from there: nothing reaches the MJ.
    lea.goto(site + "#/join")
    pending = lea.locator("[data-testid=live-pending]")
    expect(pending).to_contain_text("lance des dés")
    expect(pending).not_to_contain_text("roll")
    pending.get_by_role("button", name="Annuler").click()
    expect(pending).to_have_count(0)
    lea.goto(site + "#/")
    expect(lea.locator("[data-testid=home-live-waiting]")).to_have_count(0)
    assert [e["label"] for e in wait_saved(mj, "d => true")["log"]] == ["2d6"]

    # Once more, answered this time after the rejoin: the mark goes, and the roll is logged once
    # under its words (its expression) on both devices, with no second move naming it.
    lea.goto(site + "#/tray")
    roll(lea, "4d6")
    expect(result).to_have_attribute("data-live-previous", "yes")
    answer(mj, lea, "Léa")
    saved = wait_saved(mj, "d => d.log.length === 2")
    assert [e["label"] for e in saved["log"]] == ["2d6", "4d6"]
    expect(lea.locator("main")).not_to_have_attribute("data-live-previous", "yes")
    lea.evaluate(f"async () => {{ window.liveSession = {SESSION}; }}")
    lea.wait_for_function("() => window.liveSession.app.doc.log.length === 2")
    assert lea.evaluate("() => window.liveSession.app.doc.log.map((e) => e.label)") == ["2d6", "4d6"]
    assert mj.evaluate(f"async () => {SESSION}.feed.map((f) => f.op)") == ["roll", "roll"]
    lea.goto(site + "#/tray")
    expect(result).to_contain_text("4d6")
    expect(result.locator(".live-previous-tag")).to_have_count(0)
