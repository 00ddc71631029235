"""The live table across devices (issue 15): three browser contexts with separate storage, an
MJ's laptop and two players' phones, on this machine with no internet (every request off the
site's origin fails the test), joined the way a new table would: by the copy/paste fallback,
through the pages.

The MJ's table holds secrets of two kinds: a Unicreon character's terrible secret and the MK's
hand of arcana (Théorem), and each player's character has a hand of arcana only that player may
see. The checks: a roll, a character edit and a card draw reach the other devices; concurrent
edits of two characters both survive; concurrent edits of one field end identical everywhere
and the replaced value stays findable; a player's storage and every byte it received hold none
of the MJ's secrets, and its hidden cards are its own only; a player who left catches up on
return.
"""

from __future__ import annotations

import json
import re
import sys

import pytest
from playwright.sync_api import expect

from browser_support import ROOT, wait_saved

sys.path.insert(0, str(ROOT / "py"))

SECRET = "SECRET-DE-SOLENE-7Q"
# Every byte a player's page receives on its data channels, as latin-1 text (Yjs writes strings
# as UTF-8, so an ASCII secret shows up as itself), recorded before the app sees it.
RECORD_CHANNELS = """
(() => {
  window.__liveReceived = [];
  const record = (event) => {
    const data = event.data;
    const push = (buf) => { const b = new Uint8Array(buf); let s = '';
      for (let i = 0; i < b.length; i += 0x8000) s += String.fromCharCode(...b.subarray(i, i + 0x8000));
      window.__liveReceived.push(s); };
    if (data instanceof ArrayBuffer) push(data);
    else if (data instanceof Blob) data.arrayBuffer().then(push);
    else window.__liveReceived.push(String(data));
  };
  const Original = window.RTCPeerConnection;
  if (!Original) return;
  const orig = Original.prototype.createDataChannel;
  Original.prototype.createDataChannel = function (...args) {
    const channel = orig.apply(this, args);
    channel.addEventListener('message', record);
    return channel;
  };
  const add = Original.prototype.addEventListener;
  Original.prototype.addEventListener = function (type, fn, ...rest) {
    if (type === 'datachannel') {
      const inner = fn;
      fn = function (event) { event.channel.addEventListener('message', record); return typeof inner === 'function' ? inner.call(this, event) : inner.handleEvent(event); };
    }
    return add.call(this, type, fn, ...rest);
  };
  const desc = Object.getOwnPropertyDescriptor(Original.prototype, 'ondatachannel');
  if (desc && desc.set) {
    Object.defineProperty(Original.prototype, 'ondatachannel', {
      configurable: true, get: desc.get,
      set(fn) { desc.set.call(this, fn && function (event) { event.channel.addEventListener('message', record); return fn.call(this, event); }); },
    });
  }
})();
"""


def h(request: dict) -> dict:
    from tablee import api

    answer = api.handle(request)
    assert "error" not in answer, answer
    return answer


def unicreon(cid: str, name: str, secret: str = "") -> dict:
    return {
        "id": cid, "system": "unicreon", "name": name, "created": True, "story": "", "origins": "", "job": "Guide",
        "description": "", "don": "", "defaut": "", "secret": secret,
        "characteristics": {"puissance": 20, "agilite": 40, "perception": 40, "volonte": 50},
        "skills": [], "pv": 12, "pv_max": 12, "po": 0, "inventory": [], "conditions": [], "down": None,
        "ignore_encumbrance": False, "important_npc": False,
    }


@pytest.fixture(scope="module")
def mj_table() -> dict:
    """A valid table: Théorem characters Aube (Léa's) and Brume (Mo's) with their arcana hands,
    the MK's hidden hand, and a Unicreon NPC whose terrible secret only the MJ knows."""
    aube = h({"op": "theorem.character.new", "id": "t-a", "name": "Aube"})["character"]
    brume = h({"op": "theorem.character.new", "id": "t-b", "name": "Brume"})["character"]
    state = h({"op": "theorem.state.new", "seed": 11})["state"]
    state = h({"op": "theorem.hand.draw", "state": state, "character": aube, "seed": 12})["state"]
    state = h({"op": "theorem.hand.draw", "state": state, "character": brume, "seed": 13})["state"]
    state = h({"op": "theorem.mk.hand", "state": state, "size": 3, "seed": 14})["state"]
    doc = {"schema": 1, "app": "tablee", "name": "Campagne", "language": "fr",
           "characters": [aube, brume, unicreon("u-s", "Solène", secret=SECRET)],
           "log": [], "systems": {"theorem": state}, "settings": {}}
    opened = h({"op": "store.open", "document": doc})
    assert opened["quarantined"] == 0
    return opened["document"]


def hand(doc: dict, owner: str) -> list[str]:
    return doc["systems"]["theorem"]["arcana"][owner]["piles"]["hand"]["cards"]


def seed_table(page, site: str, doc: dict) -> None:
    page.goto(site + "manifest.webmanifest")  # same origin, not the app
    page.evaluate("raw => localStorage.setItem('tablee.document', raw)", json.dumps(doc, ensure_ascii=False))


def invitation(mj) -> str:
    """The invitation on the MJ's page: the one shown, the next one being made (after an answer
    the page makes one for the next player), or a new one."""
    expect(mj.locator("#live-offer, #live-open:enabled").first).to_be_visible()
    if mj.locator("#live-offer").count() == 0:
        mj.click("#live-open")
    expect(mj.locator("#live-offer")).to_have_value(re.compile(r"#/join/T\.[A-Za-z0-9_-]+$"))
    return mj.locator("#live-offer").input_value()


def join(mj, player, name: str) -> None:
    """The player opens the MJ's invitation link, gives a name; its answer is pasted on the MJ's page."""
    url = invitation(mj)
    player.goto(url)
    player.fill("#live-name", name)
    player.click("#live-join")
    expect(player.locator("#live-answer-text")).to_have_value(re.compile(r"^T\."))
    mj.fill("#live-answer", player.locator("#live-answer-text").input_value())
    mj.click("#live-accept")
    expect(mj.locator("#live-answer")).to_have_value("")  # spent: ready for the next player's answer
    expect(player.locator("[data-testid=live-join-state]")).to_have_attribute("data-state", "connected")
    expect(mj.locator(f"[data-testid=live-players] li:has-text('{name}')")).to_have_attribute("data-state", "connected")


def character(doc: dict, cid: str) -> dict:
    return next(c for c in doc["characters"] if c["id"] == cid)


def has_name(page, cid: str, name: str) -> dict:
    return wait_saved(page, "(d, [id, n]) => d.characters.some(c => c.id === id && c.name === n)", [cid, name])


def app_update(page, path: list[str], value) -> None:
    """Set one field of the device's table through its app (as a view does): `path` names object
    keys and, in arrays of records, ids."""
    page.evaluate(
        """async ([path, value]) => { const m = await import('./static/js/live/connect.js'); const app = m.current().app;
          app.update((d) => { let node = d;
            for (const k of path.slice(0, -1)) node = Array.isArray(node) ? node.find((x) => x.id === k) : node[k];
            node[path[path.length - 1]] = value; }); }""",
        [path, value],
    )


def no_secret_on(page) -> None:
    """Nothing of the MJ's secrets in the player's storage or in any byte it received."""
    storage = page.evaluate("() => JSON.stringify(Object.entries(localStorage))")
    received = page.evaluate("() => window.__liveReceived.join('')")
    assert received, "the recorder saw no message: the check below would prove nothing"
    assert SECRET not in storage
    assert SECRET not in received
    doc = json.loads(page.evaluate("() => localStorage.getItem('tablee.document')"))
    for owner, arcana in doc["systems"]["theorem"]["arcana"].items():
        assert arcana["piles"]["hand"]["cards"] == [], owner  # no hand in the public table, the MK's included
    assert character(doc, "u-s")["secret"] == ""


def test_three_devices_share_one_table_and_keep_their_secrets(devices, site, mj_table):
    record = (RECORD_CHANNELS,)
    mj_device = devices(mj=True)
    lea_device, mo_device = devices(mj=False, scripts=record), devices(mj=False, scripts=record)
    mj, lea, mo = mj_device.page, lea_device.page, mo_device.page
    seed_table(mj, site, mj_table)
    mj.goto(site + "#/live")
    expect(mj.locator("html")).to_have_attribute("data-engine", "ready", timeout=120_000)

    join(mj, lea, "Léa")
    join(mj, mo, "Mo")
    # Each phone takes the public table (its own table backed up first).
    for phone in (lea, mo):
        wait_saved(phone, "d => d.name === 'Campagne' && d.characters.length === 3")
        expect(phone.locator("[data-testid=live-session]")).to_have_attribute("data-joined", "yes")

    # Each player says which character they play; their hidden hand reaches their phone only.
    lea.check("[data-testid=live-session] input[data-character=t-a]")
    mo.check("[data-testid=live-session] input[data-character=t-b]")
    expect(lea.locator("[data-testid=live-hands] li[data-owner=t-a]")).to_contain_text(hand(mj_table, "t-a")[0])
    expect(mo.locator("[data-testid=live-hands] li[data-owner=t-b]")).to_contain_text(hand(mj_table, "t-b")[0])
    expect(lea.locator("[data-testid=live-hands] li[data-owner=t-b]")).to_have_count(0)
    expect(mo.locator("[data-testid=live-hands] li[data-owner=t-a]")).to_have_count(0)
    # Presence: everyone sees who is at the table and what they play.
    people = mo.locator("[data-testid=live-people]")
    expect(people).to_contain_text("Léa")
    expect(people).to_contain_text("joue Aube")
    expect(mj.locator("[data-testid=live-people]")).to_contain_text("joue Brume")

    # A roll on Léa's phone reaches the MJ and Mo.
    lea.goto(site + "#/tray")
    lea.fill("#dice-expr", "3d6")
    lea.click("#roll-button")
    rolled = wait_saved(lea, "d => d.log.some(e => e.label && e.label.includes('3d6'))")
    entry = next(e for e in rolled["log"] if "3d6" in e["label"])
    for other in (mj, mo):
        wait_saved(other, "(d, id) => d.log.some(e => e.id === id)", entry["id"])

    # A character edited on Mo's phone (through its sheet) reaches the MJ and Léa; the MJ's
    # secret on that sheet stays.
    mo.goto(site + "#/unicreon/character/u-s")
    mo.fill("#uc-name", "Solène la Brave")
    for other in (mj, lea):
        has_name(other, "u-s", "Solène la Brave")
    assert character(wait_saved(mj, "d => true"), "u-s")["secret"] == SECRET

    # A card draw at the MK's table (an opposition drawn from the shared deck) reaches both phones.
    drawn = mj.evaluate(
        """async () => { const m = await import('./static/js/live/connect.js'); const app = m.current().app;
          const state = app.doc.systems.theorem;
          const r = await app.call({op: 'theorem.opposition.draw', state, seed: 5,
            a: {name: 'Aube', base: 3, start: 0}, b: {name: 'Brume', base: 2, start: 0}});
          if (r.error) return r;
          app.update((d) => { d.systems.theorem = r.state; });
          return {discard: r.state.deck.piles.discard.cards}; }"""
    )
    assert drawn.get("discard"), drawn
    for phone in (lea, mo):
        wait_saved(phone, "(d, cards) => JSON.stringify(d.systems.theorem.deck.piles.discard.cards) === JSON.stringify(cards)",
                   drawn["discard"])

    # Concurrent edits of two characters both survive; of one field, they end identical everywhere.
    app_update(lea, ["characters", "t-a", "name"], "Aube d'argent")
    app_update(mo, ["characters", "t-b", "name"], "Brume d'or")
    for page in (mj, lea, mo):
        has_name(page, "t-a", "Aube d'argent")
        has_name(page, "t-b", "Brume d'or")
    app_update(lea, ["name"], "Campagne de Léa")
    app_update(mo, ["name"], "Campagne de Mo")
    final = wait_saved(mj, "d => d.name === 'Campagne de Léa' || d.name === 'Campagne de Mo'")
    # Wait until all three agree, then check that the losing value is kept on its device.
    for page in (lea, mo):
        wait_saved(page, "(d, n) => d.name === n", final["name"])
    wait_saved(mj, "(d, n) => d.name === n", final["name"])
    loser = lea if final["name"] == "Campagne de Mo" else mo
    lost = "Campagne de Léa" if loser is lea else "Campagne de Mo"
    if loser.url.find("#/live") < 0 and loser.url.find("#/join") < 0:
        loser.goto(site + "#/join")
    kept = loser.evaluate("async () => (await import('./static/js/live/connect.js')).current().overwritten")
    if not any(o["value"] == lost for o in kept):
        # The MJ's device relayed one value before the other arrived: the replaced one is the
        # MJ's to keep (its session wrote it into the public table).
        kept = mj.evaluate("async () => (await import('./static/js/live/connect.js')).current().overwritten")
    assert any(o["path"] == "name" and o["value"] == lost for o in kept), kept

    # Nothing hidden reached a phone: storage, table, and every byte received.
    no_secret_on(lea)
    no_secret_on(mo)
    # The MJ's device still has everything.
    mj_doc = wait_saved(mj, "d => true")
    assert hand(mj_doc, "@mk") == hand(mj_table, "@mk") and hand(mj_doc, "t-a") == hand(mj_table, "t-a")

    # Léa's phone leaves; meanwhile the MJ changes things; she rejoins and catches up.
    lea.close()
    expect(mj.locator("[data-testid=live-players] li:has-text('Léa')")).to_have_attribute("data-state", "away")
    app_update(mj, ["characters", "u-s", "pv"], 3)
    wait_saved(mo, "d => d.characters.some(c => c.id === 'u-s' && c.pv === 3)")
    lea = lea_device.context.new_page()
    join(mj, lea, "Léa")
    wait_saved(lea, "d => d.characters.some(c => c.id === 'u-s' && c.pv === 3)")
    expect(mj.locator("[data-testid=live-players] li")).to_have_count(2)
    no_secret_on(lea)
