"""A player's phone whose storage was wiped mid-evening (Safari's seven days, a cleared
browser) rejoins the live table and gets its character and its private cards back from the
MJ's device, which keeps the whole table: nothing of the evening was only on the phone.

Two browser contexts with separate storage, the MJ's laptop and Léa's phone, joined through the
pages by the copy/paste fallback. Léa plays Aube (Théorem) and draws her hand of arcana on her
phone; then her phone loses everything this site stored (localStorage, IndexedDB, session
storage), as a browser that deletes a site's data does, and she opens the MJ's next invitation
as if for the first time. Her new device is a new member to the MJ (its old key went with the
storage) under a name known at the table: it waits, and the MJ's page asks at the top whether it
is Léa. Once the MJ says « C'est Léa : lui rendre sa place », the phone holds the table, Aube,
and exactly the hand the MJ's table keeps for her, without asking again. Her former device (the
storage as it was before the wipe, on another browser) then answers an invitation: refused, it
is told why, and the MJ too; the player list keeps one Léa.
"""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from browser_support import ok, wait_engine, wait_saved
from live_join_by_name import answer

pytestmark = pytest.mark.slow

#: Everything a site stores, removed from a page of the site that runs none of the app's code
#: (its web manifest): what a browser deleting the site's data leaves (the cached app files and
#: the engine's snapshot are not the table's; they stay, as after a real wipe they come back
#: from the network).
WIPE = """async () => {
  localStorage.clear();
  sessionStorage.clear();
  for (const db of await indexedDB.databases()) if (db.name) indexedDB.deleteDatabase(db.name);
}"""


@pytest.fixture(scope="module")
def evening() -> dict:
    """The MJ's table: Aube (Théorem, to be Léa's, no hand yet) and a Théorem state."""
    aube = ok({"op": "theorem.character.new", "id": "t-a", "name": "Aube"})["character"]
    state = ok({"op": "theorem.state.new", "seed": 11})["state"]
    doc = {"schema": 1, "app": "tablee", "name": "Campagne", "language": "fr", "characters": [aube],
           "log": [], "systems": {"theorem": state}, "settings": {}}
    opened = ok({"op": "store.open", "document": doc})
    assert opened["quarantined"] == 0
    return opened["document"]


def join(mj, phone, name: str) -> str:
    """`answer`, then the phone's member id once its link is up on both sides."""
    answer(mj, phone, name)
    expect(phone.locator("[data-testid=live-join-state]")).to_have_attribute("data-state", "connected")
    member = phone.evaluate("() => localStorage.getItem('tablee.live.member')")
    assert member
    expect(mj.locator(f"[data-testid=live-players] li[data-member='{member}']")).to_have_attribute("data-state", "connected")
    return member


def ask_aube_and_confirm(mj, phone, member: str) -> None:
    phone.check("[data-testid=live-session] input[data-character=t-a]")
    request = mj.locator(f"[data-testid=live-assign] li[data-member='{member}']")
    expect(request).to_contain_text("Aube")
    request.locator("button").click()
    expect(phone.locator("[data-testid=live-session] input[data-character=t-a]")).to_have_attribute("data-assigned", "yes")


def hand_of(doc: dict, owner: str) -> list[str]:
    return doc["systems"]["theorem"]["arcana"][owner]["piles"]["hand"]["cards"]


def shown_hand(phone, site: str) -> list[str]:
    """The arcana the phone's Théorem page shows as its player's hand (their names)."""
    phone.goto(site + "#/theorem/test/t-a")
    wait_engine(phone)
    phone.click("#th-look-hand")
    cards = phone.locator("[data-testid=th-hand-card]")
    expect(cards.first).to_be_visible()
    return sorted(cards.all_inner_texts())


def test_a_wiped_phone_rejoins_and_gets_its_character_and_hand_back(devices, site, evening):
    mj, lea, former = devices(mj=True).page, devices(mj=False).page, devices(mj=False).page
    mj.goto(site + "manifest.webmanifest")
    mj.evaluate("raw => localStorage.setItem('tablee.document', raw)", json.dumps(evening, ensure_ascii=False))
    mj.goto(site + "#/live")
    wait_engine(mj)

    first = join(mj, lea, "Léa")
    wait_saved(lea, "d => d.name === 'Campagne' && d.characters.length === 1")
    ask_aube_and_confirm(mj, lea, first)
    # Léa draws her hand on her phone: the MJ's device draws it and keeps it in its table.
    lea.goto(site + "#/theorem/test/t-a")
    wait_engine(lea)
    lea.click("#th-draw-hand")
    drawn = hand_of(wait_saved(mj, "d => d.systems.theorem.arcana['t-a'] && d.systems.theorem.arcana['t-a'].piles.hand.cards.length > 0"), "t-a")
    before = shown_hand(lea, site)
    assert len(before) == len(drawn)

    # Mid-evening the phone loses everything the site stored (what it held is kept aside: her
    # former device, found again later).
    lea.goto(site + "manifest.webmanifest")
    kept = lea.evaluate("() => Object.fromEntries(Object.entries(localStorage))")
    lea.evaluate(WIPE)
    assert lea.evaluate("() => localStorage.length") == 0
    lea.goto(site + "#/")
    expect(lea.locator("html")).to_have_attribute("data-engine", re.compile("loading|ready"))
    assert lea.evaluate("() => JSON.parse(localStorage.getItem('tablee.document')).characters.length") == 0
    expect(mj.locator(f"[data-testid=live-players] li[data-member='{first}']")).not_to_have_attribute("data-state", "connected")

    # She opens the MJ's next invitation: a new device under a name known at the table. It
    # waits, with nothing of the table; the MJ's page asks, at the top, whether it is Léa.
    answer(mj, lea, "Léa")
    expect(lea.locator("[data-testid=live-join-state]")).to_have_attribute("data-state", "recognition")
    second = lea.evaluate("() => localStorage.getItem('tablee.live.member')")
    assert second and second != first
    ask = mj.locator(f"[data-testid=live-recognise] li[data-claim='{second}']")
    expect(ask).to_contain_text("Un nouvel appareil se présente comme Léa.")
    expect(ask).to_contain_text("Léa joue : Aube.")
    expect(mj.locator(f"[data-testid=live-players] li[data-member='{second}']")).to_have_count(0)
    assert lea.evaluate("() => JSON.parse(localStorage.getItem('tablee.document')).characters.length") == 0
    ask.locator("button[data-recognise]").click()
    expect(mj.locator("[data-testid=live-recognise-status]")).to_have_text("Léa a retrouvé sa place sur son nouvel appareil.")
    expect(lea.locator("[data-testid=live-join-state]")).to_have_attribute("data-state", "connected")
    expect(mj.locator("[data-testid=live-players] li")).to_have_count(1)
    expect(mj.locator(f"[data-testid=live-players] li[data-member='{second}']")).to_have_attribute("data-state", "connected")
    # Aube is hers again without asking (no « Personnages demandés » line to confirm)
    wait_saved(lea, "d => d.name === 'Campagne' && d.characters.some(c => c.id === 't-a')")
    expect(lea.locator("[data-testid=live-session] input[data-character=t-a]")).to_have_attribute("data-assigned", "yes")
    expect(mj.locator("[data-testid=live-assign]")).to_have_count(0)

    # Her table and her hand are back: the same cards the MJ's table keeps for Aube.
    mj_doc = wait_saved(mj, "d => true")
    assert hand_of(mj_doc, "t-a") == drawn
    assert shown_hand(lea, site) == before
    expect(lea.locator("#th-hand-title")).to_contain_text(str(len(drawn)))

    # Her former device turns up again, with its old identity: refused, and told why.
    former.goto(site + "manifest.webmanifest")
    former.evaluate("items => { for (const [k, v] of Object.entries(items)) localStorage.setItem(k, v); }", kept)
    answer(mj, former, "Léa")
    expect(former.locator("#notices")).to_contain_text("le ou la MJ a donné votre place à un autre appareil")
    expect(mj.locator("#notices")).to_contain_text("L'ancien appareil de Léa a tenté de revenir à la table : refusé")
    expect(mj.locator("[data-testid=live-feed]")).to_contain_text("ancien appareil d'un joueur, remplacé par un autre")
    expect(mj.locator("[data-testid=live-players] li")).to_have_count(1)
    expect(mj.locator(f"[data-testid=live-players] li[data-member='{second}']")).to_have_attribute("data-state", "connected")
