"""The live table's browser journeys share these: a table to seed, an MJ's page and phones joined
through the invitation, a move asked and confirmed, and what the pages' feeds record."""

from __future__ import annotations

import json
import re

from playwright.sync_api import expect

from browser_support import ROOT, versality_character, wait_saved

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


FEED = "async () => (await import('./static/js/live/connect.js')).current().feed"


def feed_seeds(mj, op: str) -> list[int]:
    """The seeds the MJ's device drew for the applied moves `op` (its feed, never a phone's)."""
    return [f["seed"] for f in mj.evaluate(FEED) if f["op"] == op and f["code"] is None]


def ask_and_confirm(mj, phone, name: str, ids: list[str]) -> None:
    """The player ticks their characters under "Mes personnages"; the MJ confirms."""
    for cid in ids:
        phone.check(f"[data-testid=live-session] input[data-character={cid}]")
        expect(mj.locator("[data-testid=live-assign]")).to_contain_text(name)
    mj.locator(f"[data-testid=live-assign] li:has-text('{name}') button").click()
    for cid in ids:
        expect(phone.locator(f"[data-testid=live-session] input[data-character={cid}]")).to_have_attribute("data-assigned", "yes")


def valid(doc: dict) -> dict:
    opened = h({"op": "store.open", "document": doc})
    assert opened["quarantined"] == 0, opened
    return opened["document"]


def live_table(devices, site, doc: dict, players: list[tuple[str, list[str]]]):
    """The MJ's device on `doc`, each player's phone joined through the pages and given its
    characters (asked under "Mes personnages", confirmed by the MJ). Returns (mj, phones)."""
    mj = devices(mj=True).page
    phones = [devices(mj=False, scripts=(RECORD_CHANNELS,)).page for _ in players]
    seed_table(mj, site, doc)
    mj.goto(site + "#/live")
    expect(mj.locator("html")).to_have_attribute("data-engine", "ready", timeout=120_000)
    for phone, (name, _ids) in zip(phones, players, strict=True):
        join(mj, phone, name)
    for phone, (name, ids) in zip(phones, players, strict=True):
        wait_saved(phone, "(d, n) => d.name === n", doc["name"])
        ask_and_confirm(mj, phone, name, ids)
    return mj, phones


def open_page(page, site: str, route: str) -> None:
    page.goto(site + "#/" + route)
    expect(page.locator("html")).to_have_attribute("data-engine", "ready", timeout=120_000)


def call(page, request: dict) -> dict:
    """A request as the phone's pages make it (app.call, which the live session wraps)."""
    return page.evaluate(
        "async (r) => (await import('./static/js/live/connect.js')).current().app.call(r)", request)


def pz_character(cid: str, name: str) -> dict:
    c = h({"op": "pointzero.character.new", "id": cid, "name": name})["character"]
    c["skills"] = [{"name": "Mécanique", "level": 6}]
    c["attributes"][1]["level"] = 4  # Adresse
    assert c["attributes"][1]["code"] == "ADR"
    return c


AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"


def axe_clean(page) -> None:
    page.evaluate(AXE.read_text(encoding="utf-8"))
    bad = page.evaluate(
        """() => axe.run(document, {resultTypes: ["violations"]}).then(r => r.violations
            .filter(v => v.impact === "serious" || v.impact === "critical")
            .map(v => ({id: v.id, nodes: v.nodes.map(n => n.target.join(" ")).slice(0, 5)})))"""
    )
    assert bad == []


def open_invitation(mj, site: str) -> str:
    mj.goto(site + "#/live")
    expect(mj.get_by_role("heading", name="Table en direct", level=1)).to_be_visible()
    mj.click("#live-open")
    expect(mj.locator("#live-offer")).to_have_value(re.compile(r"#/join/T\.[A-Za-z0-9_-]+$"))
    return mj.locator("#live-offer").input_value()


def answer_invitation(player, url: str, name: str) -> str:
    player.goto(url)
    expect(player.locator("#live-name")).to_be_visible()
    # The invitation left the address bar at once (as share links do).
    assert player.url.endswith("#/join")
    player.fill("#live-name", name)
    player.click("#live-join")
    expect(player.locator("#live-answer-text")).to_have_value(re.compile(r"^T\.[A-Za-z0-9_-]{100,}$"))
    return player.locator("#live-answer-text").input_value()


def accept(mj, answer: str) -> None:
    mj.fill("#live-answer", answer)
    mj.click("#live-accept")


def fresh_table() -> dict:
    """Léa's characters in the five systems and Marc's Point Zéro character; no system state."""
    theorem = h({"op": "theorem.character.new", "id": "t-lea", "name": "Tia"})["character"]
    systmj = h({"op": "systmj.character.new", "id": "s-lea", "name": "Sam"})["character"]
    doc = valid({"schema": 1, "app": "tablee", "name": "Première soirée", "language": "fr",
                 "characters": [pz_character("p-mira", "Mira"), pz_character("p-marc", "Marc"), theorem, systmj,
                                versality_character("v-lea", "Vic"), unicreon("u-lea", "Solène")],
                 "log": [], "systems": {}, "settings": {}})
    assert doc["systems"] == {}
    return doc
