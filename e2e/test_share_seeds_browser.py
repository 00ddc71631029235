"""The seed of the MJ's own draw from a hidden pile never reaches a player's page.

The MJ draws on Théorem's Table de jeu (one device); the log keeps the draw's seed and replays
it ("Vérifier / rejouer": identical, with the seed). A player's copy of the table ("Partager" →
"Pour les joueurs") is opened on a phone: neither the link nor the table the phone saves holds
that seed (with the public discard it would tell the order of the deck after a reshuffle:
tests/test_share_seeds.py), and the phone's log offers "Vérifier / rejouer" on that draw only to
say it cannot be replayed there, with no seed. The same at a live table: the MJ draws on the
MJ's own Théorem page while a phone is joined; no byte the phone receives holds the seed.
"""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from browser_support import goto_route, ok, saved_document, wait_saved
from live_support import RECORD_CHANNELS, join, seed_table
from share_links import Device, make_link, table, unpack


@pytest.fixture
def phones(browser, site, server):
    made: list[Device] = []

    def make(width: int = 360, locale: str = "fr-FR") -> Device:
        made.append(Device(browser, site, server, width, locale))
        return made[-1]

    yield make
    for d in made:
        d.close()


def theorem_table() -> dict:
    josh = ok({"op": "theorem.character.new", "id": "th-josh", "name": "Joshua"})["character"]
    josh["skills"] = [{"name": "Discrétion", "level": 3}]
    state = ok({"op": "theorem.state.new", "seed": 5})["state"]
    return table("Soirée Théorem", [josh], {"theorem": state})


def test_the_mjs_draw_seed_stays_on_the_mjs_device(phones):
    mj, phone = phones(1280), phones(360)
    page = mj.open(doc=theorem_table())
    goto_route(page, "theorem/test/th-josh")
    page.select_option("#th-skill", index=1)
    expect(page.locator("#th-draw")).to_be_enabled()
    page.click("#th-draw")
    doc = wait_saved(page, "d => d.log.some((e) => e.kind === 'theorem.draw')")
    drawn = next(e for e in doc["log"] if e["kind"] == "theorem.draw")
    seed = str(drawn["request"]["seed"])

    # The MJ's log replays the draw and shows its seed.
    goto_route(page, "log")
    mine = page.locator("#log-list > li").filter(has_text="Tirage").first
    mine.locator(".verify-button").click()
    out = mine.get_by_test_id("verify-out")
    expect(out).to_have_attribute("data-status", "same")
    expect(out).to_contain_text(seed)

    # A player's copy: no seed in the link, none in what the phone saves.
    url = make_link(page, "table")
    assert seed not in json.dumps(unpack(url))
    theirs = phone.open()
    theirs.goto(url)
    expect(theirs.locator("#share-import")).to_be_enabled()
    theirs.click("#share-import")
    expect(theirs.get_by_test_id("share-done")).to_be_visible()
    saved = wait_saved(theirs, "d => d.name === 'Soirée Théorem' && d.log.length > 0")
    assert seed not in json.dumps(saved)

    # The phone's log: the draw is there, and says it cannot be replayed here, without a seed.
    goto_route(theirs, "log")
    entry = theirs.locator("#log-list > li").filter(has_text="Tirage").first
    expect(entry).to_be_visible()
    entry.locator(".verify-button").click()
    out = entry.get_by_test_id("verify-out")
    expect(out).to_have_attribute("data-status", "unavailable")
    expect(out).to_contain_text("ne peut pas être rejoué d'ici")
    assert seed not in theirs.content()
    assert seed not in json.dumps(saved_document(theirs))


def test_the_mjs_draw_at_a_live_table_sends_no_seed_to_the_phones(devices, site):
    mj_device, lea_device = devices(mj=True), devices(mj=False, scripts=(RECORD_CHANNELS,))
    mj, lea = mj_device.page, lea_device.page
    aube = ok({"op": "theorem.character.new", "id": "t-a", "name": "Aube"})["character"]
    state = ok({"op": "theorem.state.new", "seed": 11})["state"]
    seed_table(mj, site, table("Campagne", [aube], {"theorem": state}))
    mj.goto(site + "#/live")
    expect(mj.locator("html")).to_have_attribute("data-engine", "ready", timeout=120_000)
    join(mj, lea, "Léa")
    wait_saved(lea, "d => d.name === 'Campagne'")

    # The MJ draws for Aube on the MJ's own Théorem page (a local draw, logged with its seed).
    goto_route(mj, "theorem/test/t-a")
    expect(mj.locator("#th-draw")).to_be_enabled()
    mj.click("#th-draw")
    doc = wait_saved(mj, "d => d.log.some((e) => e.kind === 'theorem.draw')")
    drawn = next(e for e in doc["log"] if e["kind"] == "theorem.draw")
    seed = str(drawn["request"]["seed"])

    # The entry reaches the phone through the live table's public doc, without its seed.
    theirs = wait_saved(lea, "(d, id) => d.log.some((e) => e.id === id)", drawn["id"])
    assert seed not in json.dumps(theirs)
    received = lea.evaluate("() => window.__liveReceived.join('')")
    assert received, "the recorder saw no message: the check below would prove nothing"
    assert seed not in received
    assert seed not in lea.evaluate("() => JSON.stringify(Object.entries(localStorage))")
    goto_route(lea, "log")
    entry = lea.locator("#log-list > li").filter(has_text="Tirage").first
    entry.locator(".verify-button").click()
    expect(entry.get_by_test_id("verify-out")).to_have_attribute("data-status", "unavailable")
    assert seed not in lea.content()
