"""The live table's moves on SYSTMJ, Point Zéro and Unicreon, made on the phones' system pages
and refereed by the MJ's device (DESIGN.md principle 8), with the secrets scan of every byte a
phone received and of its storage.

Three browser contexts (the MJ's laptop, Léa's and Mo's phones) joined through the pages as in
e2e/test_live_table.py (its helpers), one test per system, each on a seeded table:

- SYSTMJ: each player enters their character's secret Action/Mouvement choice on their phone's
  combat page, Mo declares Bo's defence for the round; the MJ's saved table is the same op on
  one device; before the reveal no phone holds any choice (the MJ's NPC's included) nor the
  declared defence, in its storage or in any byte it received; once the MJ reveals the round,
  each phone shows the other's choice, and Léa declares Ana's attack on Bo on her phone: the
  MJ's round is the exchange on one device with Bo's declared defence. A choice for the other
  player's character is refused.
- Point Zéro: Léa rolls a Mécanique test with a Tension point and one Surpassement die; the
  MJ's gauge rises by one (once) and the roll is the op's with the MJ's seed; Mo adds a Tension
  point on his phone, which reaches the threshold: both phones say Tension critique, Léa's page
  offers no Surpassement and the referee refuses it to either phone even when a phone claims
  the opposite; the threshold never reaches a phone.
- A learning roll and a health roll: Léa makes a SYSTMJ learning roll for her character on her
  phone's learning page (no DA nor gain to choose there: the table's DA, the MJ's gain), Mo
  rolls his Unicreon character's adventure day, takes damage and diagnoses her poison on his
  phone's sheet; each is
  the op on one device with the MJ's record and seed, logged once by the referee with the
  page's words, and the MJ's feed refused nothing (no log line nor sheet save of the phones').
  The page then says the skill had its roll this session; Léa cannot roll Mo's day.
- Unicreon: Léa's fighter makes a passe d'armes on her phone's combat page; the MJ's combat is
  the op's with the MJ's seed; Mo's phone shows the result. On the same table Mo draws a
  Théorem opposition for his character on his phone's chase page (the op's with the MJ's
  seed). The MJ's NPC's terrible secret, the Théorem deck order and Mo's hand never reach
  Léa's phone.

Yjs writes a string value as 0x77 + its length + its bytes and null as 0x7e (update format v1),
so a choice or a threshold shows in the received bytes as, e.g., ``w\\tmouvement`` and
``\\tthreshold\\x01~`` (null): each scan also checks that its pattern does show up where it
should (after the reveal; the null threshold), so a scan that cannot see is a failure.
"""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from browser_support import ROOT, wait_saved
from live_support import FEED, call, feed_seeds, h, live_table, open_page, pz_character, unicreon, valid

pytestmark = pytest.mark.slow

SECRET = "SECRET-DU-MJ-4K9"


def yjs_string(text: str) -> str:
    """How Yjs encodes the string value ``text`` (ASCII, shorter than 128) in an update."""
    return "w" + chr(len(text)) + text


def received(page) -> str:
    text = page.evaluate("() => window.__liveReceived.join('')")
    assert text, "the recorder saw no message: a scan would prove nothing"
    return text


#: The phone keeps no move waiting for the referee (its saved live record's queue is empty).
NO_MOVE_WAITING = """() => { const raw = localStorage.getItem('tablee.live');
  if (raw === null) return true; const live = JSON.parse(raw);
  return !Array.isArray(live.queue) || live.queue.length === 0; }"""


def storage(page) -> str:
    return page.evaluate("() => JSON.stringify(Object.entries(localStorage))")


def saved(page) -> dict:
    return json.loads(page.evaluate("() => localStorage.getItem('tablee.document')"))


def without_log(doc: dict) -> dict:
    return {k: v for k, v in doc.items() if k != "log"}


# ------------------------------------------------------------------ SYSTMJ

def sj_fighter(doc: dict, cid: str) -> dict:
    """A SYSTMJ fighter as the MJ's combat screen builds it: the sheet, the round's PV and PA."""
    c = next(x for x in doc["characters"] if x["id"] == cid)
    v = next(e for e in doc["systems"]["systmj"]["rounds"]["entities"] if e["id"] == cid)
    return {"id": cid, "attributes": c["attributes"], "dissimulation": c["skills"]["dissimulation"],
            "detection": c["skills"]["detection"], "pv": v["pv"], "pa": v["pa"]}


def test_systmj_secret_choices_a_defence_and_an_attack_from_the_phones(devices, site):
    people = []
    for cid, name, kind in (("s-ana", "Ana", "pj"), ("s-bo", "Bo", "pj"), ("s-orc", "Orc", "pnj")):
        c = h({"op": "systmj.character.new", "id": cid, "name": name, "kind": kind})["character"]
        c["attributes"] = {k: 50 for k in c["attributes"]}
        c["pv_max"] = 12
        people.append(c)
    state = h({"op": "systmj.state.new"})["state"]
    state = h({"op": "systmj.round.start", "state": state, "characters": people})["state"]
    state = h({"op": "systmj.round.choose", "state": state, "entity": "s-orc", "choice": "action"})["state"]
    doc = valid({"schema": 1, "app": "tablee", "name": "Donjon", "language": "fr", "characters": people,
                 "log": [], "systems": {"systmj": state}, "settings": {}})
    mj, (lea, mo) = live_table(devices, site, doc, [("Léa", ["s-ana"]), ("Mo", ["s-bo"])])
    entity = "[data-testid=sj-round-entity][data-id={}] [data-testid={}]".format

    # The secret choices, each on its player's phone: the same op on one device.
    before = wait_saved(mj, "d => true")
    open_page(lea, site, "systmj/combat")
    lea.locator(entity("s-ana", "sj-choose-action")).click()
    expect(lea.locator(entity("s-ana", "sj-my-choice"))).to_be_visible()
    after = wait_saved(mj, "d => d.systems.systmj.rounds.entities.some(e => e.id === 's-ana' && e.choice === 'action')")
    same = h({"op": "systmj.round.choose", "state": before["systems"]["systmj"], "entity": "s-ana", "choice": "action"})
    assert after["systems"]["systmj"] == same["state"]
    open_page(mo, site, "systmj/combat")
    mo.locator(entity("s-bo", "sj-choose-mouvement")).click()
    wait_saved(mj, "d => d.systems.systmj.rounds.entities.some(e => e.id === 's-bo' && e.choice === 'mouvement')")
    expect(mo.locator(entity("s-bo", "sj-my-choice"))).to_be_visible()
    # Neither phone offers a choice for a character that is not its player's; the referee refuses one.
    expect(mo.locator(entity("s-ana", "sj-choose-action"))).to_have_count(0)
    refused = call(mo, {"op": "systmj.round.choose", "entity": "s-ana", "choice": "mouvement"})
    assert refused["error"]["code"] == "live.refused.character"

    # Bo's player declares his defence for the round (esquive): the MJ's round keeps it.
    mo.select_option("#sj-def-s-bo", "esquive")
    mo.locator(entity("s-bo", "sj-declare-defence")).click()
    expect(mo.locator(entity("s-bo", "sj-my-defence"))).to_be_visible()
    wait_saved(mj, "d => d.systems.systmj.rounds.entities.some(e => e.id === 's-bo' && e.defence === 'esquive')")

    # Before the reveal: no choice on a phone, its own included, and no declared defence.
    for phone in (lea, mo):
        wait_saved(phone, "d => d.systems.systmj.rounds !== null")
        # The phone's own answered moves leave its saved queue (saved a moment after the answer):
        # what is scanned is what it keeps, not its own declaration on its way to the MJ.
        phone.wait_for_function(NO_MOVE_WAITING)
        entities = saved(phone)["systems"]["systmj"]["rounds"]["entities"]
        assert {e["choice"] for e in entities} == {""} and all("defence" not in e for e in entities)
        text = received(phone) + storage(phone)
        for word in ("mouvement", "action", "esquive"):
            assert yjs_string(word) not in text, word
        assert '"choice":"' + "action" not in storage(phone) and "esquive" not in storage(phone)

    # The MJ reveals the round: each phone shows every choice, the other player's included.
    mj.goto(site + "#/systmj/combat")
    mj.click("#sj-round-reveal")
    revealed = wait_saved(mj, "d => d.systems.systmj.rounds.revealed === true")
    expect(mo.locator(entity("s-ana", "sj-choice"))).to_have_text("Action")
    expect(lea.locator(entity("s-bo", "sj-choice"))).to_have_text("Mouvement")
    expect(lea.locator(entity("s-orc", "sj-choice"))).to_have_text("Action")
    assert yjs_string("mouvement") in received(lea)  # the scan above could see a choice
    assert "esquive" not in storage(lea)  # a declared defence stays the MJ's after the reveal too

    # Ana's attack on Bo, declared on Léa's phone: the fighters are the MJ's records, Bo's
    # defence the one he declared: the same exchange on one device with the MJ's seed.
    expect(lea.locator(entity("s-ana", "sj-phone-attack"))).to_be_visible()
    lea.select_option("#sj-target-s-ana", "s-bo")
    lea.locator(entity("s-ana", "sj-phone-attack-roll")).click()
    outcome = lea.locator(entity("s-ana", "sj-phone-outcome"))
    expect(outcome).to_be_visible()
    hit = wait_saved(mj, "d => d.systems.systmj.rounds.entities.some(e => e.id === 's-ana' && e.acted)")
    [seed] = feed_seeds(mj, "systmj.combat.exchange")
    same = h({"op": "systmj.combat.exchange", "kind": "force", "attacker": sj_fighter(revealed, "s-ana"),
              "defender": sj_fighter(revealed, "s-bo"), "defence": "esquive", "state": revealed["systems"]["systmj"],
              "seed": seed})
    assert hit["systems"]["systmj"] == same["state"]
    expect(outcome).to_have_attribute("data-outcome", same["outcome"])
    # Mo's phone sees the public result: Ana has acted, the attack is in the log.
    wait_saved(mo, "d => d.systems.systmj.rounds.entities.some(e => e.id === 's-ana' && e.acted)"
                   " && d.log.some(e => e.kind === 'systmj.combat.exchange')")
    expect(mo.locator(entity("s-ana", "sj-phone-attack"))).to_have_count(0)


# ------------------------------------------------------------------ Point Zéro


def french_summary(english: str) -> str:
    """A Point Zéro test's result line (pointzero/test.js logResult: "<verdict> (Margin <n>)")
    as a French page says it, from the catalogues."""
    texts = {lang: json.loads((ROOT / "static" / "i18n" / lang / "pointzero.json").read_text("utf-8"))
             for lang in ("fr", "en")}
    verdict, margin = re.fullmatch(r"(.+) \(Margin (.+)\)", english).groups()
    key = next(k for k, v in texts["en"].items() if v == verdict and k.startswith("pointzero.ui."))
    return f"{texts['fr'][key]} ({texts['fr']['pointzero.ui.margin']} {margin})"


def test_point_zero_tension_and_surpassement_from_the_phones(devices, site):
    state = h({"op": "pointzero.state.new"})["state"]
    state = h({"op": "pointzero.mj.threshold", "state": state, "threshold": 3})["state"]
    state = h({"op": "pointzero.tension.use", "state": state, "kind": "other", "who": "MJ", "note": "Alarme"})["state"]
    doc = valid({"schema": 1, "app": "tablee", "name": "Entrepôt", "language": "fr",
                 "characters": [pz_character("p-mira", "Mira"), {**pz_character("p-zed", "Zed"), "atouts": ["Méticuleux"]}],
                 "log": [], "systems": {"pointzero": state}, "settings": {}})
    mj, (lea, mo) = live_table(devices, site, doc, [("Léa", ["p-mira"]), ("Mo", ["p-zed"])])

    # Léa: Mécanique/ADR with a Tension point and one die of Surpassement, her phone in English
    # (the device's language: the MJ's stays French).
    before = wait_saved(mj, "d => true")
    lea.click("#lang-toggle")
    expect(lea.locator("html")).to_have_attribute("lang", "en")
    open_page(lea, site, "pointzero/test/p-mira")
    lea.select_option("#pz-t-attr", "1")
    lea.check("#pz-t-tension")
    lea.locator("#pz-sacrifice-1").check()
    lea.click("#pz-roll")
    result = lea.locator("[data-testid=pz-result]")
    expect(result).to_be_visible()
    after = wait_saved(mj, "d => d.systems.pointzero.entries.length === 2")
    assert after["systems"]["pointzero"] == h({"op": "pointzero.tension.use", "state": before["systems"]["pointzero"],
                                               "kind": "dice", "who": "Mira (Léa)", "note": ""})["state"]
    [seed] = feed_seeds(mj, "pointzero.test.roll")
    test = {"kind": "skill", "attribute": 4, "attribute_code": "ADR", "skill": 6, "skill_name": "Mécanique",
            "difficulty": "moyen", "critical": False, "meticuleux": False, "sacrifice": 1, "tension": True,
            "tension_rule": "missing_dice"}
    same = h({"op": "pointzero.test.roll", "test": test, "seed": seed})
    expect(result).to_have_attribute("data-total", str(same["result"]["total"]))
    assert same["result"]["surpassement_bonus"] == 2 and same["plan"]["dice"] == 7  # 6 + 2 Tension − 1 sacrificed
    assert without_log(wait_saved(mj, "d => d.log.length === 1")) == without_log(after)  # her roll, logged once
    # Her page's result line joins the referee's entry (live.log.label), as on the MJ's device,
    # in her words (English) with how they were worded, so every device reads it in its own.
    her_roll = wait_saved(mj, "d => d.log.length === 1 && typeof d.log[0].result.summary === 'string'")["log"][0]
    assert her_roll["result"]["total"] == same["result"]["total"] and her_roll["request"]["seed"] == seed
    assert her_roll["words_lang"] == "en" and "(Margin " in her_roll["result"]["summary"]
    assert her_roll["label"].endswith(" · Tension point")
    # The MJ's feed (on screen) words it in French too.
    expect(mj.get_by_test_id("live-feed-words").filter(
        has_text=french_summary(her_roll["result"]["summary"])).first).to_be_visible()

    # Mo: another use of a Tension point on his phone reaches the threshold (3): Tension critique.
    open_page(mo, site, "pointzero")
    expect(mo.locator("[data-testid=pz-gauge]")).to_have_attribute("data-gauge", "2")
    mo.fill("#pz-other-note", "Renfort")
    mo.click("#pz-other-add")
    wait_saved(mj, "d => d.systems.pointzero.entries.length === 3")
    expect(mo.locator("[data-testid=pz-gauge]")).to_have_attribute("data-critical", "true")
    open_page(lea, site, "pointzero")
    expect(lea.locator("[data-testid=pz-gauge]")).to_have_attribute("data-critical", "true")
    expect(lea.locator("[data-testid=pz-critical]")).to_be_visible()

    # No Surpassement for anyone now: not offered on Léa's page, refused by the referee to
    # either phone even when the phone's request says there is no Tension critique.
    table = wait_saved(mj, "d => true")
    open_page(lea, site, "pointzero/test/p-mira")
    lea.select_option("#pz-t-attr", "1")
    expect(lea.locator("[data-testid=pz-surpassement-refused]")).to_be_visible()
    expect(lea.locator("#pz-sacrifice-1")).to_have_count(0)
    for phone, cid in ((lea, "p-mira"), (mo, "p-zed")):
        refused = call(phone, {"op": "pointzero.test.roll", "test": {**test, "critical": False, "tension": False},
                               "seed": 1, "character_id": cid})
        assert refused["error"]["code"] == "pointzero.surpassement.tension_critique", refused
        assert "3" not in json.dumps(refused["error"].get("params", {}))
    assert without_log(wait_saved(mj, "d => true")) == without_log(table)

    # Mo's Zed is Méticuleux: he rolls on his phone, then keeps the four lowest dice of the
    # referee's roll (README: its holder chooses which dice to keep); the MJ's table logs the
    # choice, on the dice it recorded, and the choice is final.
    logged = len(wait_saved(mj, "d => true")["log"])
    open_page(mo, site, "pointzero/test/p-zed")
    mo.select_option("#pz-t-attr", "1")
    mo.click("#pz-roll")
    rolled = wait_saved(mj, "(d, n) => d.log.length === n", logged + 1)["log"][-1]
    values = [d["value"] for d in rolled["result"]["result"]["dice"]]
    worst = sorted(sorted(range(len(values)), key=lambda i: values[i])[:4])
    expect(mo.locator("[data-testid=pz-result]")).to_have_attribute("data-total", str(rolled["result"]["result"]["total"]))
    mo.click("#pz-choose-keep")
    dice = mo.locator("[data-testid=pz-die]")
    expect(dice).to_have_count(len(values))
    for i in range(len(values)):
        if (dice.nth(i).get_attribute("aria-pressed") == "true") != (i in worst):
            dice.nth(i).click()
    mo.click("#pz-keep-apply")
    kept = wait_saved(mj, "(d, n) => d.log.length === n", logged + 2)["log"][-1]
    assert kept["request"]["entry"] == rolled["id"] and kept["request"]["keep"] == worst
    assert kept["result"]["result"]["total"] == sum(sorted(values)[:4])
    expect(mo.locator("[data-testid=pz-result]")).to_have_attribute("data-total", str(sum(sorted(values)[:4])))
    expect(mo.locator("#pz-choose-keep")).to_have_count(0)  # final
    # The phone's page words the referee's entry of the choice (live.log.label).
    wait_saved(mj, "(d, id) => d.log.some(e => e.id === id && e.label.endsWith('Méticuleux\\u00a0: dés choisis'))", kept["id"])
    again = call(mo, {"op": "pointzero.test.roll", "test": {**test, "sacrifice": 0, "tension": False},
                      "character_id": "p-zed", "keep": worst, "entry": rolled["id"]})
    assert again["error"]["code"] == "live.refused.keep"

    # Léa's roll reads on the MJ's log like one made there: its result line, its total, and a
    # "Vérifier / rejouer" that replays it on the MJ's engine and finds the same outcome.
    mj.evaluate("() => { location.hash = '#/log'; }")
    row = mj.locator("[data-testid=log-entry]").filter(has=mj.locator(f"#verify-log-{her_roll['id']}"))
    # In French on the MJ's French log, though her English phone logged it.
    expect(row.get_by_test_id("log-summary")).to_have_text(french_summary(her_roll["result"]["summary"]))
    expect(row.locator("strong")).to_have_text(
        f"Mira (Léa) · {her_roll['label'].removesuffix('Tension point')}point de Tension")
    expect(row.locator(".log-total")).to_have_text(str(same["result"]["total"]))
    row.locator(f"#verify-log-{her_roll['id']}").click()
    expect(row.locator("[data-testid=verify-out]")).to_have_attribute("data-status", "same", timeout=30_000)
    mj.evaluate("() => { location.hash = '#/live'; }")

    # The threshold never reached a phone: its table, its storage, every byte it received.
    for phone in (lea, mo):
        pz = saved(phone)["systems"]["pointzero"]
        assert pz["threshold"] is None and pz["critical"] is True and len(pz["entries"]) == 3
        assert '"threshold":3' not in storage(phone).replace(" ", "") and '\\"threshold\\":3' not in storage(phone)
        bytes_ = received(phone)
        assert "\tthreshold\x01~" in bytes_  # the scan sees the (null) threshold the phone got
        assert "\tthreshold\x01}" not in bytes_  # and no number ever took its place
        assert '"left"' not in bytes_


# ------------------------------------------------------------------ Unicreon

def test_unicreon_passe_darmes_from_a_phone(devices, site):
    lea_fighter = unicreon("u-lea", "Aube")
    mo_fighter = unicreon("u-mo", "Brune")
    npc = {**unicreon("u-npc", "Gorgoth", secret=SECRET), "important_npc": True}
    combat = h({"op": "unicreon.combat.new"})["state"]
    combat = h({"op": "unicreon.combat.add_character", "state": combat, "character": lea_fighter})["state"]
    combat = h({"op": "unicreon.combat.add_character", "state": combat, "character": mo_fighter})["state"]
    combat = h({"op": "unicreon.combat.add_character", "state": combat, "character": npc, "side": "npc"})["state"]
    combat = h({"op": "unicreon.combat.initiative", "state": combat, "seed": 3})["state"]
    cid = {f["character_id"]: f["cid"] for f in combat["combatants"]}
    for f in combat["combatants"]:
        f["actions"] = 2
        f["engaged"] = [cid["u-npc"]] if f["cid"] == cid["u-lea"] else [cid["u-lea"]] if f["cid"] == cid["u-npc"] else []
    combat["turn"] = combat["order"].index(cid["u-lea"])
    # A Théorem table too: Mo's hand and the deck's order are his and the MJ's, never Léa's.
    t_mo = h({"op": "theorem.character.new", "id": "t-mo", "name": "Tamis"})["character"]
    theorem = h({"op": "theorem.state.new", "seed": 5})["state"]
    theorem = h({"op": "theorem.hand.draw", "state": theorem, "character": t_mo, "seed": 6})["state"]
    doc = valid({"schema": 1, "app": "tablee", "name": "Cavernes", "language": "fr",
                 "characters": [lea_fighter, mo_fighter, npc, t_mo], "log": [],
                 "systems": {"unicreon": {"custom_items": [], "combat": combat}, "theorem": theorem}, "settings": {}})
    mj, (lea, mo) = live_table(devices, site, doc, [("Léa", ["u-lea"]), ("Mo", ["u-mo", "t-mo"])])

    before = wait_saved(mj, "d => true")["systems"]["unicreon"]["combat"]
    open_page(lea, site, "unicreon/combat")
    expect(lea.locator("#uc-a-attacker")).to_have_value(cid["u-lea"])
    expect(lea.locator("#uc-a-defender")).to_have_value(cid["u-npc"])
    # The defender's skill and malus are the MJ's: the phone offers its own fighter's skills only.
    expect(lea.locator("#uc-a-askill")).to_be_visible()
    expect(lea.locator("#uc-a-dskill")).to_have_count(0)
    expect(lea.locator("#uc-a-dmalus")).to_have_count(0)
    lea.click("#uc-attack")
    after = wait_saved(mj, "d => d.systems.unicreon.combat.last !== null")["systems"]["unicreon"]["combat"]
    [seed] = feed_seeds(mj, "unicreon.combat.attack")
    same = h({"op": "unicreon.combat.attack", "state": before, "attacker": cid["u-lea"], "defender": cid["u-npc"],
              "seed": seed})
    assert after == same["state"]
    verdict = "true" if same["exchange"]["hit"] else "false"
    expect(lea.locator("[data-testid=uc-attack-result]")).to_have_attribute("data-hit", verdict)
    open_page(mo, site, "unicreon/combat")
    expect(mo.locator("[data-testid=uc-attack-result]")).to_have_attribute("data-pv-lost", str(same["exchange"]["pv_lost"]))

    # Léa's phone cannot strike with Mo's fighter (the referee refuses it, the table unchanged).
    table = wait_saved(mj, "d => true")
    refused = call(lea, {"op": "unicreon.combat.attack", "attacker": cid["u-mo"], "defender": cid["u-npc"], "seed": 1})
    assert refused["error"]["code"] == "live.refused.character"
    assert without_log(wait_saved(mj, "d => true")) == without_log(table)

    # Théorem: Mo draws an opposition for Tamis against an NPC on his phone's chase page: the
    # MJ's deck is the op's on one device with the MJ's seed; Léa's phone sees the draw's discard.
    t_before = wait_saved(mj, "d => true")["systems"]["theorem"]
    open_page(mo, site, "theorem/chase")
    # Starting, advancing and ending a chase are the MK's: a phone offers none of them.
    expect(mo.locator("[data-testid=th-chase-mk-only]")).to_be_visible()
    expect(mo.locator("#th-chase-start")).to_have_count(0)
    mo.select_option("#th-a-who", "t-mo")
    mo.click("#th-opp-draw")
    expect(mo.locator("[data-testid=th-opp-result]")).to_be_visible()
    t_after = wait_saved(mj, "d => d.systems.theorem.deck.piles.discard.cards.length > 0")["systems"]["theorem"]
    [drawn] = feed_seeds(mj, "theorem.opposition.draw")
    same = h({"op": "theorem.opposition.draw", "state": t_before, "seed": drawn,
              "a": {"name": "Tamis", "base": 6, "start": 0, "character_id": "t-mo"},
              "b": {"name": "B", "base": 6, "start": 0}})
    assert t_after == same["state"]
    wait_saved(lea, "(d, n) => d.systems.theorem.deck.piles.discard.cards.length === n",
               len(t_after["deck"]["piles"]["discard"]["cards"]))

    # Secrets: the NPC's terrible secret, Mo's hand and the deck's order never reached Léa.
    mj_theorem = wait_saved(mj, "d => true")["systems"]["theorem"]
    mo_hand = mj_theorem["arcana"]["t-mo"]["piles"]["hand"]["cards"]
    order = mj_theorem["deck"]["piles"]["draw"]["cards"]
    assert mo_hand and order != sorted(order)
    private = "async () => (await import('./static/js/live/connect.js')).current().privateContent()"
    assert [x["cards"] for x in mo.evaluate(private)["hands"]] == [mo_hand]  # Mo's phone holds his own
    for phone in (lea, mo):
        assert SECRET not in received(phone) and SECRET not in storage(phone)
        table = saved(phone)
        assert next(c for c in table["characters"] if c["id"] == "u-npc")["secret"] == ""
        deck = table["systems"]["theorem"]["deck"]["piles"]["draw"]["cards"]
        assert deck == sorted(order)  # the public deck: its cards, never their order
        assert table["systems"]["theorem"]["arcana"]["t-mo"]["piles"]["hand"]["cards"] == []
        assert json.dumps(order) not in storage(phone)
    lea_private = lea.evaluate(private)
    assert lea_private["hands"] == [] and lea_private["characters"] == ["u-lea"]

    # The MJ's feed says what came in words, at the interface's time of day: never an op id, a
    # refusal code or the browser's own "2:26:28 PM".
    open_page(mj, site, "live")
    feed = mj.locator("[data-testid=live-feed]")
    expect(feed.locator("li[data-code='live.refused.character']")).to_contain_text(
        "Léa · Unicreon : passe d'armes · refusée : ce personnage n'est pas l'un des siens")
    # A move the referee logged reads as its entry: the page's words for it. Its result line is
    # the referee's own words (py/tablee/referee_words.py): the winner named from the MJ's
    # records, then both scores; the phone's page supplies none.
    opposition = next(e for e in wait_saved(mj, "d => true")["log"] if e["kind"] == "theorem.opposition")
    words = feed.locator("[data-op='theorem.opposition.draw']").first
    expect(words).to_contain_text(opposition["label"])
    assert re.fullmatch(r"(.+ l'emporte|Égalité.*)\. \(\d+ — \d+\)", opposition["result"]["summary"]), opposition["result"]
    # Mo's opposition, drawn from the hidden deck, replays on the MJ's log ("Vérifier /
    # rejouer": its deck and seed are in the MJ's entry only; no phone's copy of it holds them).
    mj.evaluate("() => { location.hash = '#/log'; }")
    mj.locator(f"#verify-log-{opposition['id']}").click()
    expect(mj.locator(f"#verify-log-{opposition['id']}-out")).to_have_attribute("data-status", "same", timeout=30_000)
    for phone in (lea, mo):
        copy = next(e for e in saved(phone)["log"] if e["id"] == opposition["id"])
        assert "deck" not in copy["request"] and "seed" not in json.dumps(copy["request"])
    mj.evaluate("() => { location.hash = '#/live'; }")
    text = feed.inner_text()
    assert "theorem.opposition.draw" not in text and "live.refused" not in text and "live.ask" not in text
    assert re.search(r"\(\d\d:\d\d:\d\d\)", text) and not re.search(r"\b[AP]M\b", text)


# ------------------------------------------------------------------ learning and health rolls

def test_a_learning_roll_and_a_health_roll_from_the_phones(devices, site):
    ana = h({"op": "systmj.character.new", "id": "s-ana", "name": "Ana"})["character"]
    ana["attributes"] = {**ana["attributes"], "intelligence": 60, "personnalite": 40}
    ana["skills"] = {**ana["skills"], "lire_ecrire": 30}
    brune = {**unicreon("u-mo", "Brune", secret=SECRET), "ignore_encumbrance": True, "po": 5}
    brune = h({"op": "unicreon.shop.buy", "character": brune, "ref": "bandage"})["character"]
    brune = {**brune, "pv": 10, "conditions": [{"kind": "poison", "name": "Ciguë", "diagnosed": False},
                                               {"kind": "infection", "name": "", "diagnosed": False}]}
    state = {**h({"op": "systmj.state.new"})["state"], "session": 2, "learning_gain": "1d4"}
    doc = valid({"schema": 1, "app": "tablee", "name": "Études", "language": "fr", "characters": [ana, brune],
                 "log": [], "systems": {"systmj": state}, "settings": {}})
    mj, (lea, mo) = live_table(devices, site, doc, [("Léa", ["s-ana"]), ("Mo", ["u-mo"])])

    # Léa: a learning roll of Lire/écrire, alone (limit (60 + 40) / 2 = 50), on her phone.
    open_page(lea, site, "systmj/learning/s-ana")
    expect(lea.locator("[data-testid=sj-l-live]")).to_be_visible()
    expect(lea.locator("#sj-l-gain")).to_be_disabled()
    expect(lea.locator("#sj-l-gain")).to_have_value("1d4")  # the session's gain, the MJ's choice
    expect(lea.locator("[data-testid=sj-l-odds]")).to_have_attribute("data-limit", "50")
    lea.click("#sj-l-roll")
    result = lea.locator("[data-testid=sj-l-result]")
    expect(result).to_be_visible()
    # The page names the entry once the roll is answered (member.js addLog: a live.log.label after
    # the move), so the saved table is read once it holds that name, not the op's own.
    learned = wait_saved(mj, "d => d.characters[0].progress.length === 1 && d.log.some(e => e.label === 'Apprentissage\u00a0: Lire / écrire')")
    [seed] = feed_seeds(mj, "systmj.learning.roll")
    same = h({"op": "systmj.learning.roll", "score": 30, "intelligence": 60, "personnalite": 40, "da": 1, "gain": "1d4",
              "subject": {"character": "s-ana", "target": "skill", "key": "lire_ecrire", "session": 2},
              "learned": [], "seed": seed})
    expect(result).to_have_attribute("data-after", str(same["after"]))
    record = learned["characters"][0]
    assert record["skills"]["lire_ecrire"] == same["after"]
    assert {k: record["progress"][0][k] for k in ("session", "key", "before", "after")} == {
        "session": 2, "key": "lire_ecrire", "before": 30, "after": same["after"]}
    [entry] = learned["log"]
    assert entry["kind"] == "systmj.learning" and entry["who"] == "Ana" and entry["label"] == "Apprentissage\u00a0: Lire / écrire"
    assert entry["result"]["roll"] == same["roll"]
    # The rule of one roll per skill per session: the page says so once the table is back, and
    # the referee refuses a second roll whatever the phone claims it has learned.
    expect(lea.locator("[data-testid=sj-l-done]")).to_be_visible()
    again = call(lea, {"op": "systmj.learning.roll", "score": 30, "intelligence": 60, "personnalite": 40, "da": 1,
                       "gain": "1d20", "learned": [], "seed": 1,
                       "subject": {"character": "s-ana", "target": "skill", "key": "lire_ecrire", "session": 9}})
    assert again["error"]["code"] == "systmj.learning.once_per_session"

    # Mo: Brune's adventure day (1d6 PV per condition) then 2 PV of damage, on his phone's sheet.
    before = wait_saved(mj, "d => true")["characters"][1]
    open_page(mo, site, "unicreon/character/u-mo")
    mo.click("#uc-day")
    expect(mo.locator("[data-testid=uc-health-roll]")).to_be_visible()
    day = wait_saved(mj, "d => d.log.some(e => e.kind === 'unicreon.day' && e.label)")
    [seed] = feed_seeds(mj, "unicreon.health.day")
    same = h({"op": "unicreon.health.day", "character": before, "seed": seed})
    assert day["characters"][1] == same["character"] and day["characters"][1]["secret"] == SECRET
    expect(mo.locator("[data-testid=uc-pv]")).to_have_text(str(same["character"]["pv"]))
    entry = next(e for e in day["log"] if e["kind"] == "unicreon.day")
    assert entry["who"] == "Brune" and entry["result"]["dice"] == same["dice"]
    mo.fill("#uc-amount", "2")
    mo.click("#uc-damage")
    hurt = h({"op": "unicreon.health.damage", "character": same["character"], "amount": 2})["character"]
    wait_saved(mj, "(d, pv) => d.characters[1].pv === pv", hurt["pv"])
    expect(mo.locator("[data-testid=uc-pv]")).to_have_text(str(hurt["pv"]))
    assert wait_saved(mj, "d => true")["characters"][1] == hurt
    # Brune diagnoses her poison herself ("Soins": her Perception test at Moyen), rolled by the
    # MJ's device on its record of her.
    mo.locator("[data-testid=uc-condition]").first.get_by_role("button", name="Diagnostic par Brune").click()
    expect(mo.locator("[data-testid=uc-health-roll]")).to_contain_text("Résultat brut")
    diagnosed = wait_saved(mj, "d => d.log.some(e => e.kind === 'unicreon.diagnose' && e.label)")
    [seed] = feed_seeds(mj, "unicreon.health.diagnose")
    same = h({"op": "unicreon.health.diagnose", "character": hurt, "condition": 0, "perception": 40, "seed": seed})
    assert diagnosed["characters"][1] == same["character"]
    entry = next(e for e in diagnosed["log"] if e["kind"] == "unicreon.diagnose")
    assert entry["result"]["test"] == same["test"] and entry["who"] == "Brune"
    # Brune dresses herself with her bandage ("Soins": 1 PV, two uses): a move the MJ's device
    # runs on its record, the answer shown on the phone and never sent back as a sheet edit.
    mo.get_by_test_id("uc-use").first.click()
    bandaged = h({"op": "unicreon.item.use", "character": same["character"], "uid": brune["inventory"][0]["uid"]})
    wait_saved(mj, "(d, pv) => d.characters[1].pv === pv && d.characters[1].inventory[0].uses === 1",
               bandaged["character"]["pv"])
    assert wait_saved(mj, "d => true")["characters"][1] == bandaged["character"]
    expect(mo.locator("[data-testid=uc-pv]")).to_have_text(str(bandaged["character"]["pv"]))

    # Léa's phone cannot roll Brune's day; the MJ's feed refused nothing else (no phone's log
    # line, no sheet save), and the secret never reached a phone.
    refused = call(lea, {"op": "unicreon.health.day", "character": {"id": "u-mo"}, "seed": 1})
    assert refused["error"]["code"] == "live.refused.character"
    for phone in (lea, mo):
        phone.wait_for_function(NO_MOVE_WAITING)
        assert SECRET not in received(phone) and SECRET not in storage(phone)
    codes = [(f["op"], f["code"]) for f in mj.evaluate(FEED)]
    assert [c for c in codes if c[1] is not None] == [
        ("systmj.learning.roll", "systmj.learning.once_per_session"), ("unicreon.health.day", "live.refused.character")]
    assert ("live.log.add", None) not in codes
    # Every change of this scene was a move; the pages' writes of the answers were not saves.
    assert ("unicreon.item.use", None) in codes and ("live.character.save", None) not in codes
