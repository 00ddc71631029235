"""Rules checks in the browser, storage seeded (no clicking through creation): SYSTMJ's round
binds the combat (an entity that revealed Mouvement cannot attack, attacking marks it as having acted, the counter-attack offers no defence), the wear review logs no table state,
the card library deletes a card and learns a Pouvoir card with its odds; Unicreon's custom-item
form makes a ranged weapon. Every wait is for the state checked, never a delay; forced seeds are
found with the rules package itself."""

from __future__ import annotations

import json

from playwright.sync_api import expect

from browser_support import force_next_seed, goto_route, new_table, saved_document, seed, wait_saved
from systmj_fight import fighter, revealed_round, seed_for, sj_entity
from tablee.api import handle


def test_the_round_binds_the_combat_and_the_counter_attack_has_no_defence(app_with):
    """000, 3.2 (one Action or one Mouvement per round), 3.3 (« Le combat est une Action »),
    3.3.2 (« S'il échoue, son adversaire est alors en capacité de Contre-attaquer ; dans ce cas,
    aucune Défense ne sera possible »)."""
    aldo = sj_entity("sj-aldo", "Aldo", force=30, resistance=30, rapidite=30)
    brune = sj_entity("sj-brune", "Brune", force=50, resistance=50, rapidite=50)
    state = revealed_round({"sj-aldo": "action", "sj-brune": "mouvement"}, [aldo, brune])
    app = seed(app_with, [aldo, brune], {"systmj": state})
    goto_route(app, "systmj/combat")
    attack = app.locator("#sj-attack")

    # Brune revealed Mouvement: no attack this round, and the button says why.
    app.select_option("#sj-att-who", "sj-brune")
    app.select_option("#sj-def-who", "sj-aldo")
    expect(attack).to_be_disabled()
    expect(attack).to_have_accessible_description("Brune a révélé un Mouvement : pas d'attaque ce tour-ci.")

    # Aldo attacks in force and fails (a seed the rules package finds): Brune may counter-attack.
    app.select_option("#sj-att-who", "sj-aldo")
    app.select_option("#sj-def-who", "sj-brune")
    app.select_option("#sj-def-kind", "esquive")
    expect(attack).to_be_enabled()
    base = {"op": "systmj.combat.exchange", "kind": "force", "attacker": fighter(aldo), "defender": fighter(brune, True),
            "defence": "esquive", "subject": {"session": 1, "attacker": "sj-aldo", "defender": "sj-brune", "items": []}}
    force_next_seed(app, seed_for(base, "counter_attack"))
    attack.click()
    doc = wait_saved(app, "d => d.log.some(e => e.kind === 'systmj.combat.exchange')")
    entry = next(e for e in doc["log"] if e["kind"] == "systmj.combat.exchange")
    assert "state" not in entry["request"]
    assert handle(entry["request"])["outcome"] == "counter_attack"
    doc = wait_saved(app, "d => d.systems.systmj.rounds.entities.find(e => e.id === 'sj-aldo').acted")
    expect(app.locator("[data-testid=sj-round-entity][data-id='sj-aldo'] [data-testid=sj-acted]")).to_be_visible()

    # The counter-attack: Brune strikes back, no defence offered, and it spends no Action of hers.
    app.click("#sj-counter")
    expect(app.locator("[data-testid=sj-counter-note]")).to_have_text("Contre-attaque : aucune Défense n'est possible.")
    expect(app.locator("#sj-def-kind")).to_have_count(0)
    expect(app.locator("#sj-att-who")).to_have_value("sj-brune")
    expect(app.locator("[data-testid=sj-odds-defended]")).to_have_attribute("data-p", "0/1")
    counter = {**base, "attacker": fighter(brune), "defender": fighter(aldo, True), "defence": "none", "counter": True,
               "subject": {"session": 1, "attacker": "sj-brune", "defender": "sj-aldo", "items": []}}
    force_next_seed(app, seed_for(counter, "hit"))
    attack.click()
    doc = wait_saved(app, "d => d.log.filter(e => e.kind === 'systmj.combat.exchange').length === 2")
    entry = doc["log"][-1]
    assert entry["request"]["counter"] is True and entry["request"]["defence"] == "none"
    replay = handle(entry["request"])
    assert [s["step"] for s in replay["steps"]] == ["attack", "damage"]
    rounds = {e["id"]: e for e in doc["systems"]["systmj"]["rounds"]["entities"]}
    assert rounds["sj-brune"]["acted"] is False
    wait_saved(app, "(d, pv) => d.systems.systmj.rounds.entities.find(e => e.id === 'sj-aldo').pv === pv",
               replay["damage"]["pv"])


def test_next_round_from_the_list_page_asks_for_new_choices(app_with):
    """3.2: « Chacune de ces deux options doit être décidée avant chaque tour »: the list page's
    "Tour suivant" and the tracker count the same round, and the tracker takes new choices."""
    aldo = sj_entity("sj-aldo", "Aldo")
    state = revealed_round({"sj-aldo": "action"}, [aldo])
    app = seed(app_with, [aldo], {"systmj": state})
    goto_route(app, "systmj")
    app.click("#sj-next-round")
    wait_saved(app, "d => d.systems.systmj.round === 2 && d.systems.systmj.rounds.round === 2")
    goto_route(app, "systmj/combat")
    expect(app.locator("#sj-round-title")).to_have_text("Tour 2")
    app.locator("[data-testid=sj-round-entity][data-id='sj-aldo'] [data-testid=sj-choose-mouvement]").click()
    wait_saved(app, "d => d.systems.systmj.rounds.entities[0].choice === 'mouvement'")


def test_the_wear_review_logs_no_table_state(app_with):
    """3.4.1 (wear review) and 3.2 (hidden choices): the log entry keeps the items, their dice
    and the seed, never the table state with the round's unrevealed choices."""
    aldo = sj_entity("sj-aldo", "Aldo")
    state = handle({"op": "systmj.state.new"})["state"]
    r = handle({"op": "systmj.card.save", "state": state,
                "card": {"family": "equipement", "name": "Épée", "types": ["arme"], "categories": ["corps_a_corps"], "pu": 70}})
    state = handle({"op": "systmj.round.start", "state": r["state"], "characters": [aldo]})["state"]
    state = handle({"op": "systmj.round.choose", "state": state, "entity": "sj-aldo", "choice": "mouvement"})["state"]
    used = {"id": "t1", "at": "2026-01-01T00:00:00Z", "kind": "systmj.test", "system": "systmj", "who": "Aldo",
            "label": "Test", "request": {"op": "systmj.test", "score": 40, "seed": 1,
                                         "subject": {"character": "sj-aldo", "target": "skill", "key": "nage",
                                                     "session": 1, "item": "EQ-00001"}},
            "result": {"summary": "ok"}}
    # The table with the test that used the sword in its roll log, seeded in storage (one boot).
    app = app_with(new_table([aldo], {"systmj": state}, log=[used]))
    goto_route(app, "systmj/review")
    expect(app.locator("[data-testid=sj-wear-item]")).to_have_count(1)
    app.click("#sj-wear-apply")
    doc = wait_saved(app, "d => d.log.some(e => e.kind === 'systmj.wear')")
    entry = next(e for e in doc["log"] if e["kind"] == "systmj.wear")
    assert set(entry["request"]) == {"op", "items", "seed"}
    assert "mouvement" not in json.dumps(entry)
    shared = handle({"op": "store.share", "kind": "table", "data": doc, "audience": "player"})["data"]
    assert '"choice": "mouvement"' not in json.dumps(shared)


def test_the_library_deletes_a_card_and_learns_a_pouvoir(app_with):
    """4 (registry numbers unique: a deleted number is not given again), 4.4 (« les PJ auront
    plus fréquemment la possibilité de les intégrer à travers un processus d'Apprentissage »):
    INT 60 and PER 40 give the limit 50; a gain of 1 point is won with probability 99/100."""
    lea = sj_entity("sj-lea", "Léa", intelligence=60, personnalite=40)
    state = handle({"op": "systmj.state.new"})["state"]
    r = handle({"op": "systmj.card.save", "state": state,
                "card": {"family": "pouvoir", "name": "Nécromancie", "types": ["magique"], "da": 2, "score": 40}})
    r = handle({"op": "systmj.card.save", "state": r["state"], "card": {"family": "ressource", "name": "Baie rouge",
                                                                       "type": "ingredient_consommable", "subtype": "baie"}})
    r = handle({"op": "systmj.card.give", "state": r["state"], "character": lea, "number": "PO-00001"})
    app = seed(app_with, [r["character"]], {"systmj": r["state"]})
    goto_route(app, "systmj/cards")

    app.once("dialog", lambda dialog: dialog.accept())
    app.get_by_role("button", name="Supprimer RE-00001").click()
    doc = wait_saved(app, "d => d.systems.systmj.library.cards.length === 1")
    assert doc["systems"]["systmj"]["library"]["cards"][0]["number"] == "PO-00001"
    expect(app.get_by_role("button", name="Supprimer PO-00001")).to_have_count(0)  # held: take it back first

    expect(app.locator("[data-testid=sj-learn-odds]")).to_have_text("Limite cognitive 50 ; chance de progresser : 99 %")
    request = {"op": "systmj.card.learn", "state": doc["systems"]["systmj"], "character": r["character"],
               "number": "PO-00001", "gain": "1"}
    value = next(s for s in range(100) if handle({**request, "seed": s})["points"] == 1)
    force_next_seed(app, value)
    app.locator("[data-testid=sj-learn-roll]").click()
    # The card's new score and its log entry are saved by two changes: wait for both.
    doc = wait_saved(app, "d => d.systems.systmj.library.cards[0].score === 41"
                          " && d.log.some(e => e.kind === 'systmj.card.learn')")
    entry = next(e for e in doc["log"] if e["kind"] == "systmj.card.learn")
    assert "state" not in entry["request"] and entry["request"]["seed"] == value
    expect(app.locator("[data-testid=sj-learn-result]")).to_contain_text("40 → 41")
    assert saved_document(app)["systems"]["systmj"]["library"]["next"]["RE"] == 2  # RE-00001 is not given again


def test_the_mj_makes_a_ranged_custom_weapon(app_with):
    """004, "Combat à distance": a ranged weapon has « une portée idéale et une portée
    maximale »; the MJ's custom-item form makes one (before, every custom weapon was melee)."""
    marie = {
        "id": "uc-marie", "system": "unicreon", "name": "Marie", "created": True, "story": "Bergère.",
        "origins": "Les monts", "job": "Bergère", "description": "Petite", "don": "Siffle fort",
        "defaut": "Têtue", "secret": "",
        "characteristics": {"puissance": 30, "agilite": 40, "perception": 30, "volonte": 50},
        "skills": [], "pv": 12, "pv_max": 12, "po": 40, "conditions": [], "down": None,
        "ignore_encumbrance": True, "important_npc": False, "inventory": [],
    }
    app = seed(app_with, [marie])
    goto_route(app, "unicreon/character/uc-marie")
    app.locator("#uc-custom summary").click()
    app.fill("#uc-cu-name", "Fronde de berger")
    app.select_option("#uc-cu-cat", "weapon")
    app.select_option("#uc-cu-char", "perception")
    app.fill("#uc-cu-value", "2")
    app.check("#uc-cu-ranged")
    app.fill("#uc-cu-ideal", "10")
    app.fill("#uc-cu-max", "40")
    app.get_by_role("button", name="Donner cet objet").click()
    doc = wait_saved(app, "d => d.characters.some(c => c.id === 'uc-marie' && c.inventory.length === 1)")
    item = next(c for c in doc["characters"] if c["id"] == "uc-marie")["inventory"][0]
    assert item["weapon"] == {"characteristic": "perception", "damage": {"kind": "fixed", "value": 2}, "ranged": True,
                              "thrown": False, "melee_ok": False, "range": {"ideal": 10, "max": 40}, "malus_steps": 0}
    assert item["free"] is True
