"""The live table across devices: three browser contexts with separate storage, an MJ's
laptop and two players' phones, on this machine with no internet (every request off the site's
origin fails the test), joined the way a new table would: by the copy/paste fallback, through
the pages. The MJ's device referees every move (DESIGN.md principle 8).

The MJ's table holds secrets of two kinds: a Unicreon character's terrible secret and the MK's
hand of arcana (Théorem), and each player's character has a hand of arcana only that player may
see. The checks: characters are asked for on the phones and confirmed by the MJ; Léa draws her
Théorem hand on her phone's Théorem page and Mo plays a Versality test (draw, choose, resolve)
on his: each changes the MJ's saved table exactly as the same ops on one device with the seeds
the MJ's device drew, and reaches the other phone; a phone's move on another player's character
is refused, the MJ's table unchanged; a roll and a sheet edit flow; a move made while the link
is down waits, visibly, and is applied after the rejoin; a player's storage and every byte it
received hold none of the MJ's secrets, and its hidden cards are its own only.
"""

from __future__ import annotations

import json
import re
import sys

import pytest
from playwright.sync_api import expect

from browser_support import ROOT, versality_character, wait_saved
from live_support import RECORD_CHANNELS, ask_and_confirm, feed_seeds, h, join, seed_table, unicreon
from tablee.systems.theorem.data import ARCANA

pytestmark = pytest.mark.slow

sys.path.insert(0, str(ROOT / "tests" / "versality"))

SECRET = "SECRET-DE-SOLENE-7Q"


@pytest.fixture(scope="module")
def mj_table() -> dict:
    """A valid table: Théorem characters Aube (Léa's, no hand drawn yet) and Brume (Mo's, with
    a hand), the MK's hidden hand, Mo's Versality character Vic, and a Unicreon NPC whose
    terrible secret only the MJ knows."""
    aube = h({"op": "theorem.character.new", "id": "t-a", "name": "Aube"})["character"]
    brume = h({"op": "theorem.character.new", "id": "t-b", "name": "Brume"})["character"]
    state = h({"op": "theorem.state.new", "seed": 11})["state"]
    state = h({"op": "theorem.hand.draw", "state": state, "character": brume, "seed": 13})["state"]
    state = h({"op": "theorem.mk.hand", "state": state, "size": 3, "seed": 14})["state"]
    versality = {**h({"op": "versality.state.new"})["state"], "catastrophe": 4, "tokens": 2}
    doc = {"schema": 1, "app": "tablee", "name": "Campagne", "language": "fr",
           "characters": [aube, brume, versality_character("v-mo", "Vic"), unicreon("u-s", "Solène", secret=SECRET)],
           "log": [], "systems": {"theorem": state, "versality": versality}, "settings": {}}
    opened = h({"op": "store.open", "document": doc})
    assert opened["quarantined"] == 0
    return opened["document"]


def hand(doc: dict, owner: str) -> list[str]:
    return doc["systems"]["theorem"]["arcana"][owner]["piles"]["hand"]["cards"]


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


def test_phones_play_their_moves_refereed_by_the_mjs_device(devices, site, mj_table):
    from versality_store import play

    record = (RECORD_CHANNELS,)
    mj_device = devices(mj=True)
    lea_device, mo_device = devices(mj=False, scripts=record), devices(mj=False, scripts=record)
    mj, lea, mo = mj_device.page, lea_device.page, mo_device.page
    seed_table(mj, site, mj_table)
    mj.goto(site + "#/live")
    expect(mj.locator("html")).to_have_attribute("data-engine", "ready", timeout=120_000)

    join(mj, lea, "Léa")
    join(mj, mo, "Mo")
    for phone in (lea, mo):
        wait_saved(phone, "d => d.name === 'Campagne' && d.characters.length === 4")
        expect(phone.locator("[data-testid=live-session]")).to_have_attribute("data-joined", "yes")

    # Characters: asked on the phones, confirmed by the MJ; Brume's hand reaches Mo only.
    ask_and_confirm(mj, lea, "Léa", ["t-a"])
    ask_and_confirm(mj, mo, "Mo", ["t-b", "v-mo"])
    # (the cards named as the player reads them, and the game by its name: no id)
    mine = mo.locator("[data-testid=live-hands] li[data-owner=t-b]")
    expect(mine).to_contain_text(f"(Théorem) : {ARCANA[int(hand(mj_table, 't-b')[0][-2:])]}")
    expect(mine).not_to_contain_text("arcane-")
    expect(lea.locator("[data-testid=live-hands] li[data-owner=t-b]")).to_have_count(0)
    expect(mo.locator("[data-testid=live-people]")).to_contain_text("joue Aube")

    # Théorem: Léa draws her hand on her phone's Théorem page. The MJ's device runs it on the
    # whole table: exactly the op on one device with the seed it drew.
    before = wait_saved(mj, "d => true")
    lea.goto(site + "#/theorem/test/t-a")
    expect(lea.locator("html")).to_have_attribute("data-engine", "ready", timeout=120_000)
    lea.click("#th-draw-hand")
    after = wait_saved(mj, "d => d.systems.theorem.arcana['t-a'] && d.systems.theorem.arcana['t-a'].piles.hand.cards.length > 0")
    [drawn] = feed_seeds(mj, "theorem.hand.draw")
    same = h({"op": "theorem.hand.draw", "state": before["systems"]["theorem"], "character": character(before, "t-a"),
              "seed": drawn})
    assert after["systems"]["theorem"] == same["state"]
    cards = hand(after, "t-a")
    expect(lea.locator("#th-hand-title")).to_contain_text(str(len(cards)))
    lea.click("#th-look-hand")
    expect(lea.locator("[data-testid=th-hand-card]")).to_have_count(len(cards))
    # Mo's phone sees Aube's arcana deck appear, never her hand.
    wait_saved(mo, "d => d.systems.theorem.arcana['t-a'] !== undefined")
    expect(mo.locator("[data-testid=live-hands] li[data-owner=t-a]")).to_have_count(0)

    # Versality: Mo plays a test on his phone's Versality page (the deck, the draw of two, his
    # choice, the resolution): the MJ's state is the same ops' with the MJ's seeds.
    v_before = wait_saved(mj, "d => true")["systems"]["versality"]
    mo.goto(site + "#/versality/test/v-mo")
    expect(mo.locator("html")).to_have_attribute("data-engine", "ready", timeout=120_000)
    mo.select_option("#vs-test-char", "physique")
    mo.select_option("#vs-test-skill", "combattre")
    mo.select_option("#vs-test-diff", "facile")
    expect(mo.locator("[data-testid=pile-draw]")).to_have_attribute("data-count", "8")
    mo.click("#vs-draw")
    expect(mo.locator("[data-testid=hand-card]")).to_have_count(2)
    wait_saved(mj, "d => d.systems.versality.pending['v-mo'] !== undefined")
    second = mo.locator("[data-testid=hand-card]").nth(1)
    chosen_kind = second.get_attribute("data-kind")
    chosen_id = second.get_attribute("data-card-id")
    second.click()
    mo.click("#vs-resolve")
    expect(mo.locator("[data-testid=vs-result]")).to_have_attribute("data-played", chosen_kind)
    v_after = wait_saved(mj, "d => d.systems.versality.pending['v-mo'] === undefined"
                             " && d.systems.versality.decks['v-mo'].piles.discard.cards.length === 1")["systems"]["versality"]
    assert v_after["catastrophe"] == 4 and v_after["tokens"] == 2  # the MJ's, untouched
    vic = character(before, "v-mo")
    builds = feed_seeds(mj, "versality.deck.build")  # (the draw builds a missing deck itself)
    [draw] = feed_seeds(mj, "versality.test.draw")
    [resolve] = feed_seeds(mj, "versality.test.resolve")
    oracle = v_before
    for build in builds:
        oracle = play({"op": "versality.deck.build", "state": oracle, "character": vic, "seed": build})["state"]
    oracle = play({"op": "versality.test.draw", "state": oracle, "character": vic, "characteristic": "physique",
                   "skill": "combattre", "difficulty": "facile", "seed": draw})["state"]
    choice = {"choice": chosen_id}
    oracle = play({"op": "versality.test.resolve", "state": oracle, "character_id": "v-mo", "seed": resolve, **choice})
    assert v_after == oracle["state"]
    wait_saved(lea, "d => d.systems.versality.decks['v-mo'] && d.systems.versality.decks['v-mo'].piles.discard.cards.length === 1")

    # Refused: Mo's page asks to draw Aube's hand and to play the MJ's op; the MJ's table is unchanged.
    table = wait_saved(mj, "d => true")
    refused = mo.evaluate(
        """async () => { const m = await import('./static/js/live/connect.js'); const app = m.current().app;
          const a = await app.call({op: 'theorem.hand.draw', character: {id: 't-a'}, seed: 1});
          const b = await app.call({op: 'live.character.save', character: {id: 'u-s', system: 'unicreon', name: 'x'}});
          return [a.error && a.error.code, b.error && b.error.code]; }""")
    assert refused == ["live.refused.character", "live.refused.character"]
    assert {k: v for k, v in wait_saved(mj, "d => true").items() if k != "log"} == {k: v for k, v in table.items() if k != "log"}

    # The MJ's tray: a secret roll stays on the MJ's device, a roll sent to Mo reaches Mo only.
    mj.goto(site + "#/tray")
    mj.select_option("#roll-to", "mj")
    mj.fill("#dice-expr", "1d8")
    mj.click("#roll-button")
    secret_id = next(e["id"] for e in wait_saved(mj, "d => d.log.some(e => e.to === 'mj')")["log"] if e.get("to") == "mj")
    mj.select_option("#roll-to", label="Envoyer à Mo seulement")
    mj.fill("#dice-expr", "1d10")
    mj.click("#roll-button")
    sent = next(e for e in wait_saved(mj, "d => d.log.some(e => e.to && e.to !== 'mj')")["log"]
                if e.get("to") not in (None, "mj"))
    mo_doc = wait_saved(mo, "(d, id) => d.log.some(e => e.id === id)", sent["id"])
    assert secret_id not in {e["id"] for e in mo_doc["log"]}
    mo.goto(site + "#/log")
    expect(mo.locator("[data-testid=log-to]")).to_have_text("pour vous seul")
    # The same choice beside a system's roll: a secret Unicreon test of Solène on the MJ's device.
    mj.goto(site + "#/unicreon/test/u-s")
    expect(mj.locator("#uc-roll-to")).to_have_value(sent["to"])  # one choice for the MJ's rolls
    mj.select_option("#uc-roll-to", "mj")
    expect(mj.locator("[data-testid=uc-odds]")).to_be_visible()
    mj.click("#uc-roll")
    secret_test = next(e for e in wait_saved(mj, "d => d.log.some(e => e.kind === 'unicreon.test')")["log"]
                       if e["kind"] == "unicreon.test")
    assert secret_test.get("to") == "mj"
    mj.select_option("#uc-roll-to", "")  # back to the whole table for the rest of the evening

    # A roll on Léa's phone is rolled by the MJ's device (its seed) and logged by it, once, the
    # same entry on the three devices; the phone shows the referee's result. The MJ, on another
    # page, sees the count of unseen moves beside "Table en direct", until the feed is opened.
    lea.goto(site + "#/tray")
    lea.fill("#dice-expr", "3d6")
    lea.click("#roll-button")
    rolled = wait_saved(lea, "d => d.log.some(e => e.label && e.label.includes('3d6'))")
    [entry] = [e for e in rolled["log"] if "3d6" in e["label"]]
    [roll_seed] = feed_seeds(mj, "roll")
    assert entry["id"].startswith("live-") and f"{roll_seed:x}" not in entry["id"] and entry["request"] == {"op": "roll", "expr": "3d6", "seed": roll_seed}
    expect(lea.locator("#roll-result .total")).to_contain_text(str(entry["result"]["total"]))
    for other in (mj, mo):
        doc = wait_saved(other, "(d, id) => d.log.some(e => e.id === id)", entry["id"])
        assert [e for e in doc["log"] if "3d6" in e["label"]] == [entry]
    assert {secret_id, sent["id"], secret_test["id"]}.isdisjoint(e["id"] for e in rolled["log"])  # none reached Léa
    assert secret_test["id"] not in {e["id"] for e in wait_saved(mo, "(d, id) => d.log.some(e => e.id === id)", entry["id"])["log"]}
    # "Vérifier / rejouer" on the phone replays it there (the same dice), rolls nothing at the table.
    lea.goto(site + "#/log")
    entry_li = lea.locator("[data-testid=log-entry]", has_text="3d6")
    entry_li.locator(".verify-button").click()
    expect(entry_li.locator("[data-testid=verify-out]")).to_have_attribute("data-status", "same")
    assert len(feed_seeds(mj, "roll")) == 1
    live_link = mj.locator("#app-nav a[data-route=live]")
    expect(live_link).to_have_attribute("aria-label", re.compile(r"^Table en direct, \d+ actions? non vues?$"))
    expect(live_link.locator(".nav-badge")).to_be_visible()
    # A result written by a phone (a roll that never happened) is refused; the MJ's log unchanged.
    forged = lea.evaluate(
        """async () => { const s = (await import('./static/js/live/connect.js')).current();
          const a = await s.move({op: 'live.log.add', entry: {id: 'forged-20', at: 'x', kind: 'roll', system: null,
            label: '1d20', request: {op: 'roll', expr: '1d20', seed: 1}, result: {total: 20}}});
          return a.error && a.error.code; }""")
    assert forged == "live.refused.result"
    assert "forged-20" not in {e["id"] for e in wait_saved(mj, "d => true")["log"]}
    mj.goto(site + "#/live")
    expect(live_link.locator(".nav-badge")).to_have_count(0)
    expect(mj.locator("[data-testid=live-offer-until]")).to_be_visible()  # an invitation is on screen
    app_update(lea, ["characters", "t-a", "name"], "Aube d'argent")
    for page in (mj, mo):
        has_name(page, "t-a", "Aube d'argent")

    # The link goes down: Léa's edit waits, visibly; after the rejoin it is applied.
    lea.goto(site + "#/join")
    lea.evaluate("async () => { for (const l of (await import('./static/js/live/connect.js')).current().links.values()) l.close(); }")
    expect(mj.locator("[data-testid=live-players] li:has-text('Léa')")).to_have_attribute("data-state", "away")
    app_update(lea, ["characters", "t-a", "name"], "Aube hors ligne")
    # (named in words, never by its op id)
    expect(lea.locator("[data-testid=live-pending]")).to_contain_text("modifie une fiche")
    expect(lea.locator("[data-testid=live-pending]")).not_to_contain_text("live.character.save")
    has_name(mj, "t-a", "Aube d'argent")
    join(mj, lea, "Léa")
    has_name(mj, "t-a", "Aube hors ligne")
    has_name(mo, "t-a", "Aube hors ligne")
    expect(lea.locator("[data-testid=live-pending]")).to_have_count(0)
    expect(lea.locator("[data-testid=live-session] input[data-character=t-a]")).to_have_attribute("data-assigned", "yes")

    # Nothing hidden reached a phone: storage, table, and every byte received.
    no_secret_on(lea)
    no_secret_on(mo)
    for phone in (lea, mo):
        storage = phone.evaluate("() => JSON.stringify(Object.entries(localStorage))")
        assert '"catastrophe":4' not in storage.replace(" ", "") and "catastrophe\\\":4" not in storage
    mj_doc = wait_saved(mj, "d => true")
    assert hand(mj_doc, "@mk") == hand(mj_table, "@mk") and hand(mj_doc, "t-b") == hand(mj_table, "t-b")


CANONICAL = """(value) => { const walk = (v) => Array.isArray(v) ? v.map(walk)
  : v !== null && typeof v === 'object' ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, walk(v[k])])) : v;
  return JSON.stringify(walk(value)); }"""
#: A phone's table as the public doc made it: what the MJ's projection holds (its language and
#: records set apart are the phone's own).
PHONE_TABLE = f"""async () => {{ const m = await import('./static/js/live/connect.js'); const d = {{ ...m.current().app.doc }};
  delete d.language; delete d.quarantine; return ({CANONICAL})(d); }}"""
#: The MJ's saved table (what a reload opens), projected for a player by the engine, uncached.
MJ_PROJECTION = f"""async () => {{ const m = await import('./static/js/live/connect.js'); const app = m.current().app;
  await app.saved(); const saved = JSON.parse(localStorage.getItem('tablee.document'));
  const r = await app.call({{ op: 'store.share', kind: 'table', data: saved, audience: 'player' }});
  const d = {{ ...r.data }}; delete d.language; return ({CANONICAL})(d); }}"""
#: (synchronous: a wait's predicate is polled, a promise would count as true at once)
SAME_TABLE = f"""(expected) => {{ const d = {{ ...window.__liveApp.doc }};
  delete d.language; delete d.quarantine; return ({CANONICAL})(d) === expected; }}"""


def test_each_phone_holds_the_mjs_projection_after_moves_from_both_phones(devices, site, mj_table):
    """Moves from both phones at once (rolls, a hand drawn, sheet edits) and an MJ's edit between
    them: the MJ's device runs each on the table its worker holds (or is sent), publishes with
    the referee's answer and saves; each phone's table ends equal to the player projection of
    the MJ's saved table, and the worker's answers named the MJ's table without it being sent
    again at each move."""
    mj, lea, mo = devices(mj=True).page, devices(mj=False).page, devices(mj=False).page
    seed_table(mj, site, mj_table)
    mj.goto(site + "#/live")
    expect(mj.locator("html")).to_have_attribute("data-engine", "ready", timeout=120_000)
    join(mj, lea, "Léa")
    join(mj, mo, "Mo")
    ask_and_confirm(mj, lea, "Léa", ["t-a"])
    ask_and_confirm(mj, mo, "Mo", ["t-b", "v-mo"])
    # Count what the MJ's device sends its worker from now on.
    mj.evaluate("""async () => { const s = (await import('./static/js/live/connect.js')).current();
      const call = s.app.call; window.__sent = { whole: 0, held: 0, stale: 0 };
      s.app.call = async (r) => { if (r.op === 'live.move') window.__sent[r.held ? 'held' : 'whole'] += 1;
        const a = await call(r); if (a && a.stale) window.__sent.stale += 1; return a; }; }""")
    moves = """async ([n, ops]) => { const app = (await import('./static/js/live/connect.js')).current().app;
      const out = []; for (let i = 0; i < n; i += 1) out.push(...await Promise.all(ops.map((op) => app.call(op))));
      return out.map((a) => a.error ? a.error.code : 'ok'); }"""
    rolls = [{"op": "roll", "expr": "1d6"}, {"op": "roll", "expr": "2d6"}]
    first = [lea.evaluate_handle(moves, [4, [*rolls, {"op": "theorem.hand.draw", "character": {"id": "t-a"}}]]),
             mo.evaluate_handle(moves, [4, rolls])]
    app_update(mj, ["name"], "Campagne d'hiver")
    answers = [handle.json_value() for handle in first]
    assert answers[1] == ["ok"] * 8
    assert answers[0].count("ok") >= 9  # (the hand drawn once: drawn again it is refused by the rules)
    app_update(lea, ["characters", "t-a", "name"], "Aube d'argent")
    app_update(mo, ["characters", "t-b", "name"], "Brume grise")
    mo.evaluate(moves, [3, rolls])
    has_name(mj, "t-b", "Brume grise")
    has_name(mj, "t-a", "Aube d'argent")
    expected = mj.evaluate(MJ_PROJECTION)
    assert "Campagne d'hiver" in expected and "Brume grise" in expected
    for phone in (lea, mo):
        phone.evaluate("async () => { window.__liveApp = (await import('./static/js/live/connect.js')).current().app; }")
        phone.wait_for_function(SAME_TABLE, arg=expected, polling=100, timeout=40_000)
        assert phone.evaluate(PHONE_TABLE) == expected
    sent = mj.evaluate("() => window.__sent")
    assert sent["held"] > sent["whole"], sent  # most moves named the table the worker held
