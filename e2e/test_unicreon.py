"""Unicreon in a real browser at 360 px: creation with the rule message at its field (a sum of
160), the terrible secret hidden by default, shopping (PO down, a refusal when too poor), an
item's uses counting down, a test whose exact odds show before the d66, and a fight against a
canidé from the bestiary (initiative, engage, a passe d'armes with its odds, PV change) that
survives a reload and writes the PV back onto the character when it ends."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from conftest import saved_document, wait_engine


def no_horizontal_scroll(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, f"{page.url}: scrollWidth {width}"


def go(page, route: str) -> None:
    page.goto(page.url.split("#")[0] + route)


def character(cid: str, name: str) -> dict:
    """A finished character (created): Puissance 20 (Fort), a couteau long in hand, 0 PO left."""
    return {
        "id": cid, "system": "unicreon", "name": name, "created": True, "story": "Ancienne gardienne de phare.",
        "origins": "Les côtes du nord", "job": "Escrimeuse", "description": "Grande, cheveux gris",
        "don": "Voit dans le noir", "defaut": "A peur des chats", "secret": "",
        "characteristics": {"puissance": 20, "agilite": 40, "perception": 40, "volonte": 50},
        "skills": [], "pv": 12, "pv_max": 12, "po": 0, "conditions": [], "down": None,
        "ignore_encumbrance": False, "important_npc": False,
        "inventory": [{
            "uid": "i1", "ref": "couteau_long", "name": "", "cost": 50, "pe": 0, "category": "weapon",
            "capacity": 0, "uses": None, "heal": 0, "cures": False, "bonus_steps": 0, "npc_tier": None,
            "carried": "hand", "protection": None,
            "weapon": {"characteristic": "agilite", "damage": {"kind": "fixed", "value": 2}, "ranged": False,
                       "thrown": False, "melee_ok": True, "range": None, "malus_steps": 0},
        }],
    }


def test_create_shop_and_test_with_odds_before_the_roll(app):
    go(app, "#/unicreon")
    expect(app.get_by_role("heading", name="Unicreon", exact=True)).to_be_visible()
    no_horizontal_scroll(app)
    app.fill("#uc-new-name", "Ana")
    app.click("#uc-create")
    expect(app.locator("#uc-char-puissance")).to_be_visible()

    # 40 + 40 + 40 + 40 = 160: the rule's message at the characteristics, running sum shown.
    app.select_option("#uc-char-volonte", "40")
    expect(app.locator("[data-field=characteristics]")).to_have_text(
        "La somme des caractéristiques doit faire 150 (elle fait 160).")
    expect(app.locator("[data-testid=uc-sum]")).to_have_text("Somme : 160 sur 150")
    expect(app.locator("#uc-chars")).to_have_attribute("aria-invalid", "true")
    no_horizontal_scroll(app)
    app.select_option("#uc-char-puissance", "30")
    expect(app.locator("[data-field=characteristics]")).to_have_text("")
    expect(app.locator("[data-testid=uc-sum]")).to_have_text("Somme : 150 sur 150")
    # Required texts, each message at its own field until filled.
    expect(app.locator("[data-field=job]")).to_contain_text("obligatoire")
    expect(app.locator("#uc-job")).to_have_attribute("aria-invalid", "true")
    for field, text in (("job", "Cartographe"), ("origins", "Port-Sable"), ("story", "Perdue en mer, revenue."),
                        ("description", "Petite, tatouée"), ("don", "Sent toujours bon"), ("defaut", "Bavarde")):
        app.fill(f"#uc-{field}", text)
    expect(app.locator("[data-testid=uc-problem-count]")).to_have_text("Tout est en règle.")
    assert saved_document(app)["characters"][-1]["created"] is False
    app.click("#uc-finish-creation")
    expect(app.locator("[data-testid=uc-created]")).to_be_visible()
    # The engine (unicreon.character.finish) set `created` on the character itself.
    doc = saved_document(app)
    assert doc["characters"][-1]["created"] is True and "unicreon" not in doc["settings"]
    # The terrible secret stays hidden unless asked for.
    expect(app.locator("#uc-secret")).to_have_count(0)
    app.click("#uc-secret-toggle")
    app.fill("#uc-secret", "A coulé le navire du roi")
    app.click("#uc-secret-toggle")
    expect(app.locator("#uc-secret")).to_have_count(0)
    expect(app.get_by_text("A coulé le navire du roi")).to_have_count(0)
    # A skill with its level.
    app.fill("#uc-skill-name", "Navigation")
    app.select_option("#uc-skill-level", "bon")
    app.click("#uc-skill-add")
    expect(app.locator("[data-testid=uc-skills]")).to_contain_text("Navigation — Bon (+20)")

    # Shopping: a backpack (20 PO) and a bandage (5 PO); the axe (100 PO) is refused.
    expect(app.locator("[data-testid=uc-po]")).to_have_text("40")
    app.click("#uc-shop summary")
    app.click("[data-testid=uc-buy-sac_a_dos]")
    expect(app.locator("[data-testid=uc-po]")).to_have_text("20")
    app.click("[data-testid=uc-buy-bandage]")
    expect(app.locator("[data-testid=uc-po]")).to_have_text("15")
    expect(app.locator("[data-testid=uc-encumbrance]")).to_contain_text("1 PE sur 15 PE")
    app.click("[data-testid=uc-buy-hache]")
    expect(app.locator("[data-testid=uc-sheet-error]")).to_have_text("Pas assez de PO : il faut 100 PO, il en reste 15.")
    expect(app.locator("[data-testid=uc-po]")).to_have_text("15")
    no_horizontal_scroll(app)
    # A bandage has two uses: using one leaves one.
    bandage = app.locator("[data-testid=uc-item][data-ref=bandage]")
    expect(bandage.locator("[data-testid=uc-uses]")).to_have_text("2 utilisation(s) restante(s)")
    bandage.locator("[data-testid=uc-use]").click()
    expect(bandage.locator("[data-testid=uc-uses]")).to_have_text("1 utilisation(s) restante(s)")
    # The MJ's custom item (the example's fleuret [Agilité 2 PV]), given free and kept in the library.
    app.click("#uc-custom summary")
    app.fill("#uc-cu-name", "Fleuret d'Estelle")
    app.select_option("#uc-cu-cat", "weapon")
    app.fill("#uc-cu-value", "2")
    app.click("text=Donner cet objet")
    expect(app.locator("[data-testid=uc-inventory]")).to_contain_text("Fleuret d'Estelle")
    expect(app.locator("[data-testid=uc-inventory]")).to_contain_text("[Agilité 2 PV]")
    expect(app.locator("[data-testid=uc-library]")).to_contain_text("Fleuret d'Estelle")
    expect(app.locator("[data-testid=uc-po]")).to_have_text("15")
    no_horizontal_scroll(app)
    ana = next(c for c in saved_document(app)["characters"] if c["name"] == "Ana")
    assert [i["ref"] for i in ana["inventory"]] == ["sac_a_dos", "bandage", None]
    assert ana["inventory"][1]["uses"] == 1 and ana["secret"] == "A coulé le navire du roi"
    # Selling the half-used bandage at the price the MJ says.
    bandage.locator("[data-testid=uc-sell]").click()
    app.fill("#uc-sell-i2", "2")
    app.click("[data-testid=uc-sell-confirm]")
    expect(app.locator("[data-testid=uc-po]")).to_have_text("17")
    expect(app.locator("[data-testid=uc-item][data-ref=bandage]")).to_have_count(0)
    # In play, PO no longer have to add up to the starting 40.
    expect(app.locator("[data-testid=uc-problem-count]")).to_have_text("Tout est en règle.")

    # A Perception test, Difficile, with the skill: 40 + 10 − 20 = 30 → d66 ≥ 30 is 2/3.
    app.click("#uc-go-test")
    app.select_option("#uc-t-char", "perception")
    app.select_option("#uc-t-diff", "difficile")
    app.select_option("#uc-t-skill", "0")
    expect(app.locator("[data-testid=uc-odds]")).to_have_attribute("data-target", "30")
    expect(app.locator("[data-testid=uc-odds-success]")).to_have_attribute("data-p", "2/3")
    expect(app.locator("[data-testid=uc-result]")).to_have_count(0)  # odds first, no dice yet
    expect(app.locator("[data-testid=uc-odds] .odds-table")).to_contain_text("Bof (réel 1–2)")
    no_horizontal_scroll(app)
    app.click("#uc-roll")
    result = app.locator("[data-testid=uc-result]")
    expect(result).to_be_visible()
    expect(result.locator(".die")).to_have_count(2)
    raw = int(result.get_attribute("data-raw"))
    assert (result.get_attribute("data-success") == "true") == (raw >= 30)
    expect(app.locator("[data-testid=uc-verdict]")).to_have_text(
        re.compile(r"^\s*Réussite — (Bof|Bien|Top)" if raw >= 30 else r"^\s*Échec\s*$"))
    # Opposition: the odds then the roll, both d66 shown.
    expect(app.locator("[data-testid=uc-opp-odds]")).to_be_visible()
    app.click("#uc-oppose")
    expect(app.locator("[data-testid=uc-opp-result] .die")).to_have_count(4)
    no_horizontal_scroll(app)
    log = saved_document(app)["log"]
    assert [e["system"] for e in log[-2:]] == ["unicreon", "unicreon"]
    assert log[-2]["who"] == "Ana" and log[-2]["result"]["total"] == raw
    assert isinstance(log[-2]["request"]["seed"], int)


def test_fight_a_canide_then_reload_and_end(app):
    doc = saved_document(app)
    doc["characters"].append(character("uc-bea", "Béa"))
    app.evaluate("d => localStorage.setItem('tablee.document', JSON.stringify(d))", doc)
    app.reload()
    wait_engine(app)
    go(app, "#/unicreon/combat")
    app.click("#uc-new-combat")
    app.click("[data-testid=uc-add-pc]")
    app.click("[data-testid=uc-add-beast-canides]")
    fighters = app.locator("[data-testid=uc-fighter]")
    expect(fighters).to_have_count(2)
    expect(fighters.nth(1)).to_contain_text("Canidé")
    expect(fighters.nth(1)).to_contain_text("6/6 PV")
    # Initiative odds before the roll: Béa Agilité 40 → 1/2; the MJ (canidé Agilité 30) → 2/3.
    odds = app.locator("[data-testid=uc-init-odds]")
    expect(odds.locator("[data-p='1/2']")).to_have_count(1)
    expect(odds.locator("[data-p='2/3']")).to_have_count(1)
    no_horizontal_scroll(app)
    app.click("#uc-initiative")
    expect(app.locator("[data-testid=uc-order] li")).to_have_count(2)
    expect(app.locator("[data-testid=uc-whose]")).to_contain_text("À qui le tour")
    no_horizontal_scroll(app)

    # Whoever plays first engages then attacks; the odds show before the roll.
    expect(app.locator("[data-testid=uc-actions-left]")).to_have_text("2 action(s) restante(s)")
    app.click("#uc-engage")
    expect(app.locator("[data-testid=uc-actions-left]")).to_have_text("1 action(s) restante(s)")
    expect(app.locator("[data-testid=uc-attack-odds]")).to_be_visible()
    expect(app.locator("[data-testid=uc-odds-hit]")).to_have_attribute("data-p", re.compile(r"^\d+/\d+$"))
    defender = app.locator("#uc-a-defender").input_value()
    before = int(app.locator(f"[data-testid=uc-fighter][data-cid={defender}]").get_attribute("data-pv"))
    app.click("#uc-attack")
    result = app.locator("[data-testid=uc-attack-result]")
    expect(result.locator(".die")).to_have_count(4)
    lost = int(result.get_attribute("data-pv-lost"))
    expect(app.locator(f"[data-testid=uc-fighter][data-cid={defender}]")).to_have_attribute("data-pv", str(before - lost))
    expect(app.locator("[data-testid=uc-no-actions]")).to_be_visible()
    no_horizontal_scroll(app)
    app.click("#uc-next")
    expect(app.locator("[data-testid=uc-actions-left]").first).to_have_text("2 action(s) restante(s)")

    # Reload: the fight, the characters and the log are as they were.
    saved = saved_document(app)
    app.reload()
    wait_engine(app)
    expect(app.locator("[data-testid=uc-phase]")).to_have_attribute("data-phase", "fight")
    expect(app.locator(f"[data-testid=uc-fighter][data-cid={defender}]")).to_have_attribute("data-pv", str(before - lost))
    after = saved_document(app)
    assert after["systems"]["unicreon"] == saved["systems"]["unicreon"]
    assert after["characters"] == saved["characters"] and after["log"] == saved["log"]
    kinds = [e["kind"] for e in after["log"] if e["system"] == "unicreon"]
    assert kinds == ["unicreon.initiative", "unicreon.attack"]

    # Ending the fight writes the PV back onto Béa's sheet.
    combat = after["systems"]["unicreon"]["combat"]
    bea_pv = next(c["pv"] for c in combat["combatants"] if c["character_id"] == "uc-bea")
    app.click("#uc-end-combat")
    expect(app.locator("[data-testid=uc-phase]")).to_have_attribute("data-phase", "over")
    bea = next(c for c in saved_document(app)["characters"] if c["id"] == "uc-bea")
    assert bea["pv"] == bea_pv
    go(app, "#/unicreon/character/uc-bea")
    expect(app.locator("[data-testid=uc-pv]")).to_have_text(str(bea_pv))
    no_horizontal_scroll(app)
    go(app, "#/unicreon")
    # A duplicate keeps the flag: `created` is part of the character.
    app.locator("[data-testid=uc-char][data-id=uc-bea]").get_by_role("button", name="Dupliquer").click()
    expect(app.locator("[data-testid=uc-char]")).to_have_count(2)
    copied = saved_document(app)["characters"][-1]
    assert copied["created"] is True and copied["id"] != "uc-bea"
    expect(app.locator("[data-testid=uc-char]").nth(1)).not_to_contain_text("En création")
    app.click("#uc-reference summary")
    expect(app.locator("[data-testid=uc-ref-beasts]")).to_contain_text("Canidés")
    no_horizontal_scroll(app)
