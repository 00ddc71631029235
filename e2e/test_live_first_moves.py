"""A fresh live table and a player's phone (DESIGN.md principle 8: a phone sends moves the MJ's
device referees), one journey on two browser contexts joined through the pages:

- The MJ's table holds only characters, one of Léa's in each of the five systems (no system
  state at all). Léa's first test in Point Zéro, made on her phone's test page, is accepted and
  logged on the MJ's device; her first move in each other system (a Théorem hand, a Versality
  deck and draw, a SYSTMJ d100 test, a Unicreon test: what those pages send) too. The MJ's feed
  has one line per move, none for a page's words, and says with one tap what the MJ still
  decides: Point Zéro's secret threshold (the gauge counts without it).
- Léa's phone once said « Je suis MJ »: at the table it shows no MJ screen, and its choice says
  it is a player here and how it becomes the MJ's device. Her list offers no delete, another's
  character's sheet is shown without controls, the MJ's link is absent, the MJ's settings and
  tools (SYSTMJ's universe, phase, review and card library, Unicreon's table option, the
  table's name and import) are shown without controls or absent; a character deleted
  anyway is refused there, and afterwards her table equals the MJ's public view.
"""

from __future__ import annotations

import json

from playwright.sync_api import expect

from browser_support import wait_saved
from live_support import FEED, RECORD_CHANNELS, ask_and_confirm, call, fresh_table, h, join, open_page, seed_table


def saved(page) -> dict:
    return json.loads(page.evaluate("() => localStorage.getItem('tablee.document')"))


def test_a_fresh_tables_first_moves_and_a_phone_that_offers_only_what_the_table_accepts(devices, site):
    doc = fresh_table()
    mj = devices(mj=True).page
    lea = devices(mj=True, scripts=(RECORD_CHANNELS,)).page  # a phone that once said « Je suis MJ »
    seed_table(mj, site, doc)
    mj.goto(site + "#/live")
    expect(mj.locator("html")).to_have_attribute("data-engine", "ready", timeout=120_000)
    join(mj, lea, "Léa")
    wait_saved(lea, "d => d.name === 'Première soirée'")
    ask_and_confirm(mj, lea, "Léa", ["p-mira", "t-lea", "s-lea", "v-lea", "u-lea"])

    # Point Zéro, on her test page: accepted and logged on the MJ's device, the gauge begun.
    open_page(lea, site, "pointzero/test/p-mira")
    lea.select_option("#pz-t-attr", "1")
    lea.check("#pz-t-tension")
    lea.click("#pz-roll")
    expect(lea.locator("[data-testid=pz-result]")).to_be_visible()
    after = wait_saved(mj, "d => d.log.some(e => e.kind === 'pointzero.test')")
    assert after["systems"]["pointzero"]["threshold"] is None
    wait_saved(mj, "d => d.systems.pointzero.entries.length === 1")
    expect(lea.locator("[role=alert]:has-text('Refusé')")).to_have_count(0)

    # Each other system's first move, as its page sends it, from the phone.
    firsts = [
        ({"op": "theorem.hand.draw", "character": {"id": "t-lea"}}, "theorem.hand"),
        ({"op": "versality.deck.build", "character": {"id": "v-lea"}}, None),
        ({"op": "versality.test.draw", "character": {"id": "v-lea"}, "characteristic": "mental", "skill": "traquer",
          "difficulty": "epique"}, None),
        ({"op": "systmj.test", "score": 45}, "systmj.test"),
        ({"op": "unicreon.test", "character": {"id": "u-lea"},
          "test": {"characteristic": "agilite", "difficulty": "difficile", "bonus": 0, "malus": 0}}, "unicreon.test"),
    ]
    for request, kind in firsts:
        answer = call(lea, request)
        assert "error" not in answer, (request["op"], answer)
        if kind:
            wait_saved(mj, "(d, id) => d.log.some(e => e.id === id)", answer["logged"])
    table = wait_saved(mj, "d => ['theorem', 'versality'].every(s => s in d.systems)")
    assert "v-lea" in table["systems"]["versality"]["pending"]
    feed = mj.evaluate(FEED)
    assert [f["code"] for f in feed if f["name"] == "Léa" and f["code"]] == []
    assert not [f for f in feed if f["op"] == "live.log.label"]  # a page's words are not a line

    # « Je suis MJ » on her phone: a player here, and how to become the MJ's device.
    open_page(lea, site, "pointzero/mj")
    expect(lea.get_by_test_id("mj-player-here")).to_be_visible()
    expect(lea.get_by_test_id("mj-mode-mj")).to_have_count(0)
    expect(lea.locator("[data-testid=pz-mj-view], [data-testid=pz-mj-split]")).to_have_count(0)

    # Her list: no delete, no MJ screen link; Marc's sheet shown without its controls.
    open_page(lea, site, "pointzero")
    rows = lea.locator("[data-testid=pz-char]")
    expect(rows).to_have_count(2)
    expect(lea.locator("[data-testid=pz-char-list] button.danger")).to_have_count(0)
    expect(lea.locator("#pz-mj-link")).to_have_count(0)
    open_page(lea, site, "pointzero/character/p-marc")
    expect(lea.get_by_test_id("live-not-yours")).to_be_visible()
    expect(lea.locator("[data-testid=live-not-yours-page] :is(input, select, button, textarea):enabled")).to_have_count(0)
    open_page(lea, site, "pointzero/character/p-mira")
    expect(lea.get_by_test_id("live-not-yours")).to_have_count(0)

    # The MJ's settings and tools: shown as the table has them, nothing to change on the phone.
    open_page(lea, site, "systmj")
    expect(lea.get_by_test_id("live-mj-setting")).to_be_visible()
    expect(lea.locator("[data-testid=live-mj-setting] :is(input, select, button):enabled")).to_have_count(0)
    expect(lea.locator("[data-testid=sj-char-list] button.danger")).to_have_count(0)
    open_page(lea, site, "systmj/cards")
    expect(lea.locator("#sj-card-new, [data-testid=sj-family-new], [data-testid=sj-card-delete]")).to_have_count(0)
    open_page(lea, site, "systmj/review")
    expect(lea.get_by_test_id("live-mj-setting")).to_be_visible()
    open_page(lea, site, "unicreon")
    expect(lea.locator("#uc-creation-pay")).to_be_disabled()
    open_page(lea, site, "table")
    expect(lea.locator("#table-name-input")).to_be_disabled()
    expect(lea.locator("#import-table")).to_have_count(0)

    # A delete made anyway (the page's own write) is refused there and the character is back.
    lea.evaluate("""async () => (await import('./static/js/live/connect.js')).current().app.update(
        (d) => { d.characters = d.characters.filter((c) => c.id !== 'p-marc'); })""")
    expect(lea.locator("#notices")).to_contain_text("un téléphone ne supprime pas de personnage")
    wait_saved(lea, "d => d.characters.some(c => c.id === 'p-marc')")

    # Her table is the MJ's public view.
    mj_doc = saved(mj)
    public = h({"op": "store.share", "kind": "table", "data": mj_doc, "audience": "player"})["data"]
    mine = saved(lea)
    assert mine["characters"] == public["characters"]
    assert mine["systems"] == public["systems"]
    assert [e["id"] for e in mine["log"]] == [e["id"] for e in public["log"]]

    # What the MJ still decides (Point Zéro's secret threshold, which the gauge does not wait
    # for) is in the feed with its one tap, and the MJ screen is where it is set.
    mj.get_by_test_id("live-feed-decide").get_by_role("link").click()
    expect(mj.get_by_test_id("pz-mj-view")).to_have_attribute("data-threshold", "none")
    expect(mj.get_by_test_id("pz-mj-gauge")).to_have_text("1")
