"""SYSTMJ keeps a pending counter-attack across a reload (000, 3.3.2: « S'il échoue, son adversaire
est alors en capacité de Contre-attaquer ; dans ce cas, aucune Défense ne sera possible »).

After a failed attack the page offered "Contre-attaquer", but only from memory: a reload took it
away and the MJ had to rebuild the undefended counter-attack by hand. The offer is now part of the
SYSTMJ table state (``counter``), as Théorem's pending figure and Versality's drawn cards are, and
the next exchange takes it away. Storage seeded, forced seeds found with the rules package."""

from __future__ import annotations

from playwright.sync_api import expect

from browser_support import force_next_seed, goto_route, seed, wait_engine, wait_saved
from systmj_fight import fighter, revealed_round, seed_for, sj_entity
from tablee.api import handle


def test_a_pending_counter_attack_survives_a_reload_and_goes_once_rolled(app_with):
    aldo = sj_entity("sj-aldo", "Aldo", force=30, resistance=30, rapidite=30)
    brune = sj_entity("sj-brune", "Brune", force=50, resistance=50, rapidite=50)
    state = revealed_round({"sj-aldo": "action", "sj-brune": "action"}, [aldo, brune])
    app = seed(app_with, [aldo, brune], {"systmj": state})
    goto_route(app, "systmj/combat")
    app.select_option("#sj-att-who", "sj-aldo")
    app.select_option("#sj-def-who", "sj-brune")
    app.select_option("#sj-def-kind", "esquive")
    attack = app.locator("#sj-attack")
    expect(attack).to_be_enabled()
    base = {"op": "systmj.combat.exchange", "kind": "force", "attacker": fighter(aldo), "defender": fighter(brune, True),
            "defence": "esquive", "subject": {"session": 1, "attacker": "sj-aldo", "defender": "sj-brune", "items": []}}
    force_next_seed(app, seed_for(base, "counter_attack"))
    attack.click()
    expect(app.locator("#sj-counter")).to_be_visible()
    doc = wait_saved(app, "d => d.systems.systmj.counter !== undefined")
    assert doc["systems"]["systmj"]["counter"] == {"attacker": "sj-brune", "defender": "sj-aldo", "round": 1}

    # The reload: the offer is still there, named, with its button.
    app.reload()
    wait_engine(app)
    goto_route(app, "systmj/combat")
    pending = app.get_by_test_id("sj-counter-pending")
    expect(pending.locator("p")).to_have_text(
        "Contre-attaque en attente\u00a0: Brune peut contre-attaquer Aldo, sans défense possible.")
    app.click("#sj-counter")
    expect(app.locator("#sj-att-who")).to_have_value("sj-brune")
    expect(app.locator("#sj-def-who")).to_have_value("sj-aldo")
    expect(app.locator("[data-testid=sj-counter-note]")).to_have_text("Contre-attaque : aucune Défense n'est possible.")
    expect(app.locator("#sj-def-kind")).to_have_count(0)
    counter = {**base, "attacker": fighter(brune), "defender": fighter(aldo, True), "defence": "none", "counter": True,
               "subject": {"session": 1, "attacker": "sj-brune", "defender": "sj-aldo", "items": []}}
    force_next_seed(app, seed_for(counter, "hit"))
    expect(attack).to_be_enabled()
    attack.click()
    doc = wait_saved(app, "d => d.log.filter(e => e.kind === 'systmj.combat.exchange').length === 2"
                          " && d.systems.systmj.counter === undefined")
    entry = doc["log"][-1]
    assert entry["request"]["counter"] is True and entry["request"]["defence"] == "none"
    assert handle(entry["request"])["outcome"] == "hit"
    expect(app.get_by_test_id("sj-counter-pending")).to_have_count(0)
    app.reload()
    wait_engine(app)
    goto_route(app, "systmj/combat")
    expect(app.get_by_test_id("sj-attack-card")).to_be_visible()
    expect(app.get_by_test_id("sj-counter-pending")).to_have_count(0)
