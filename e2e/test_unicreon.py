"""Unicreon in a real browser at 360 px: creation with the rule message at its field (a sum of
160), the terrible secret hidden by default, shopping (PO down, a refusal when too poor), an
item's uses counting down, a test whose exact odds show before the d66, and a fight against a
canidé from the bestiary (initiative, engage, a passe d'armes with its odds, PV change) that
survives a reload and writes the PV back onto the character when it ends; the table rules of issue
8 (the defender's penalty in the odds, initiative round the table's seating order, equipment
chosen at creation, curing). Every read of the saved document waits for the state it checks
(``saved_when``), never for a delay."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from browser_support import new_table, no_horizontal_scroll, saved_document, wait_engine, wait_saved
from unicreon_sheets import character, duel_state, go, seed_document, with_items

pytestmark = pytest.mark.slow


def open_more(page) -> None:
    """Unfold a test page's rarer settings (folds them in "Plus d'options")."""
    more = page.locator("[data-testid=more-options]")
    if more.get_attribute("open") is None:
        more.locator("summary").click()
    expect(more).to_have_attribute("open", "")


def saved_when(page, predicate: str) -> dict:
    """The saved document once ``predicate`` (a JS function of it) holds: waits for the state
    itself, never for a delay, and never reads a document still being saved."""
    page.wait_for_function(
        f"() => {{ const t = localStorage.getItem('tablee.document'); return t !== null && ({predicate})(JSON.parse(t)); }}"
    )
    return saved_document(page)


def test_create_shop_and_test_with_odds_before_the_roll(app):
    go(app, "#/unicreon")
    expect(app.get_by_role("heading", name="Unicreon", exact=True)).to_be_visible()
    no_horizontal_scroll(app)
    app.fill("#uc-new-name", "Ana")
    app.click("#uc-create")
    expect(app.locator("#uc-char-puissance")).to_be_visible()

    # A new sheet shows no message before anything is typed.
    expect(app.locator("[data-field=job]")).to_have_text("")
    expect(app.locator("#uc-job")).to_have_attribute("aria-invalid", "false")
    # 40 + 40 + 40 + 40 = 160: the running sum at once, the rule's message at the
    # characteristics once the player leaves them.
    app.focus("#uc-char-volonte")
    app.select_option("#uc-char-volonte", "40")
    expect(app.locator("[data-testid=uc-sum]")).to_have_text("Somme : 160 sur 150")
    expect(app.locator("[data-field=characteristics]")).to_have_text("")
    app.focus("#uc-job")
    expect(app.locator("[data-field=characteristics]")).to_have_text(
        "La somme des caractéristiques doit faire 150 (elle fait 160).")
    expect(app.locator("#uc-chars")).to_have_attribute("aria-invalid", "true")
    no_horizontal_scroll(app)
    app.select_option("#uc-char-puissance", "30")
    expect(app.locator("[data-field=characteristics]")).to_have_text("")
    expect(app.locator("[data-testid=uc-sum]")).to_have_text("Somme : 150 sur 150")
    # Required texts: a message at its own field once left empty, until filled.
    app.focus("#uc-origins")
    expect(app.locator("[data-field=job]")).to_contain_text("obligatoire")
    expect(app.locator("#uc-job")).to_have_attribute("aria-invalid", "true")
    expect(app.locator("[data-field=origins]")).to_have_text("")
    for field, text in (("job", "Cartographe"), ("origins", "Port-Sable"), ("story", "Perdue en mer, revenue."),
                        ("description", "Petite, tatouée"), ("don", "Sent toujours bon"), ("defaut", "Bavarde")):
        app.fill(f"#uc-{field}", text)
    expect(app.locator("[data-testid=uc-problem-count]")).to_have_text("Tout est en règle.")
    doc = saved_when(app, "d => d.characters.some((c) => c.name === 'Ana' && c.defaut === 'Bavarde')")
    assert doc["characters"][-1]["created"] is False
    app.click("#uc-finish-creation")
    expect(app.locator("[data-testid=uc-created]")).to_be_visible()
    # The engine (unicreon.character.finish) set `created` on the character itself.
    doc = saved_when(app, "d => d.characters.some((c) => c.name === 'Ana' && c.created)")
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
    # Too dear: marked before anyone presses (disabled, the reason beside the button).
    expect(app.locator("[data-testid=uc-buy-hache]")).to_be_disabled()
    expect(app.locator("#uc-dear-hache")).to_have_text("Trop cher : il manque 85 PO")
    expect(app.locator("[data-testid=uc-buy-hache]")).to_have_attribute("aria-describedby", "uc-dear-hache")
    expect(app.locator("[data-testid=uc-po]")).to_have_text("15")
    no_horizontal_scroll(app)
    # A bandage has two uses: using one leaves one.
    bandage = app.locator("[data-testid=uc-item][data-ref=bandage]")
    expect(bandage.locator("[data-testid=uc-uses]")).to_have_text("2 utilisations restantes")
    # At full PV the engine refuses (no use wasted); the refusal shows beside the item.
    bandage.locator("[data-testid=uc-use]").click()
    expect(bandage.locator("[data-testid=uc-item-error]")).to_contain_text("déjà tous ses PV (12/12)")
    expect(bandage.locator("[data-testid=uc-uses]")).to_have_text("2 utilisations restantes")
    app.fill("#uc-amount", "1")
    app.click("#uc-damage")
    expect(app.locator("[data-testid=uc-pv]")).to_have_text("11")
    bandage.locator("[data-testid=uc-use]").click()
    expect(bandage.locator("[data-testid=uc-uses]")).to_have_text("1 utilisation restante")
    expect(app.locator("[data-testid=uc-pv]")).to_have_text("12")
    # The MJ's custom item (the example's fleuret [Agilité 2 PV]), given free and kept in the library.
    app.click("#uc-custom summary")
    app.fill("#uc-cu-name", "Fleuret d'Estelle")
    app.select_option("#uc-cu-cat", "weapon")
    app.fill("#uc-cu-value", "2")
    app.fill("#uc-cu-cost", "500")
    app.click("text=Donner cet objet")
    expect(app.locator("[data-testid=uc-inventory]")).to_contain_text("Fleuret d'Estelle")
    expect(app.locator("[data-testid=uc-inventory]")).to_contain_text("[Agilité 2 PV]")
    expect(app.locator("[data-testid=uc-library]")).to_contain_text("Fleuret d'Estelle")
    expect(app.locator("[data-testid=uc-po]")).to_have_text("15")
    # Buying it again from the library is refused, and the refusal shows beside that entry.
    entry = app.locator("[data-testid=uc-library] li").first
    entry.get_by_role("button", name="Acheter (500 PO)").click()
    expect(entry.locator("[data-testid=uc-item-error]")).to_contain_text("Pas assez de PO : il faut 500 PO")
    expect(app.locator("[data-testid=uc-po]")).to_have_text("15")
    no_horizontal_scroll(app)
    saved = saved_when(app, "d => d.characters.some((c) => c.name === 'Ana' && c.inventory.length === 3)")
    ana = next(c for c in saved["characters"] if c["name"] == "Ana")
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
    open_more(app)
    app.select_option("#uc-t-skill", "0")
    expect(app.locator("[data-testid=uc-odds]")).to_have_attribute("data-target", "30")
    expect(app.locator("[data-testid=uc-odds-success]")).to_have_attribute("data-p", "2/3")
    expect(app.locator("[data-testid=uc-result]")).to_have_count(0)  # odds first, no dice yet
    expect(app.locator("[data-testid=uc-odds-table] .odds-table")).to_contain_text("Bof (réel 1–2)")
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
    # The opposition's log entry is saved after its result shows: wait for it, not for a delay.
    log = saved_when(app, "d => d.log.filter((e) => e.system === 'unicreon').length === 2")["log"]
    assert [e["system"] for e in log[-2:]] == ["unicreon", "unicreon"]
    assert log[-2]["who"] == "Ana" and log[-2]["result"]["total"] == raw
    assert isinstance(log[-2]["request"]["seed"], int)


def test_fight_a_canide_then_reload_and_end(app_with):
    app = app_with(new_table([character("uc-bea", "Béa")]), "unicreon/combat")
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
    expect(app.locator("[data-testid=uc-actions-left]")).to_have_text("2 actions restantes")
    # Guidance, not an error: no error colour before anything went wrong.
    expect(app.locator("[data-testid=uc-must-engage]")).to_have_class("uc-guide")
    app.click("#uc-engage")
    expect(app.locator("[data-testid=uc-actions-left]")).to_have_text("1 action restante")
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
    expect(app.locator("[data-testid=uc-actions-left]").first).to_have_text("2 actions restantes")

    # Reload: the fight, the characters and the log are as they were (once the attack's log entry
    # and the next turn are saved).
    saved = saved_when(
        app,
        "d => d.log.some((e) => e.kind === 'unicreon.attack') && d.systems.unicreon.combat.last === null",
    )
    app.reload()
    wait_engine(app)
    expect(app.locator("[data-testid=uc-phase]")).to_have_attribute("data-phase", "fight")
    expect(app.locator(f"[data-testid=uc-fighter][data-cid={defender}]")).to_have_attribute("data-pv", str(before - lost))
    after = saved_when(app, "d => d.systems.unicreon.combat.phase === 'fight'")
    assert after["systems"]["unicreon"] == saved["systems"]["unicreon"]
    assert after["characters"] == saved["characters"] and after["log"] == saved["log"]
    kinds = [e["kind"] for e in after["log"] if e["system"] == "unicreon"]
    assert kinds == ["unicreon.initiative", "unicreon.attack"]

    # Ending the fight writes the PV back onto Béa's sheet.
    combat = after["systems"]["unicreon"]["combat"]
    bea_pv = next(c["pv"] for c in combat["combatants"] if c["character_id"] == "uc-bea")
    app.click("#uc-end-combat")
    expect(app.locator("[data-testid=uc-phase]")).to_have_attribute("data-phase", "over")
    saved = saved_when(app, "d => d.systems.unicreon.combat.phase === 'over'")
    bea = next(c for c in saved["characters"] if c["id"] == "uc-bea")
    assert bea["pv"] == bea_pv
    go(app, "#/unicreon/character/uc-bea")
    expect(app.locator("[data-testid=uc-pv]")).to_have_text(str(bea_pv))
    no_horizontal_scroll(app)
    go(app, "#/unicreon")
    # A duplicate keeps the flag: `created` is part of the character.
    app.locator("[data-testid=uc-char][data-id=uc-bea]").get_by_role("button", name="Dupliquer").click()
    expect(app.locator("[data-testid=uc-char]")).to_have_count(2)
    copied = saved_when(app, "d => d.characters.length === 2")["characters"][-1]
    assert copied["created"] is True and copied["id"] != "uc-bea"
    expect(app.locator("[data-testid=uc-char]").nth(1)).not_to_contain_text("En création")
    app.click("#uc-reference summary")
    expect(app.locator("[data-testid=uc-ref-beasts]")).to_contain_text("Canidés")
    no_horizontal_scroll(app)


LONG = "Marie-Éléonore de Villeneuve-Saint-Georges"


def test_long_name_everywhere_surprise_keyboard_sheet_pv_in_a_fight_and_poison(app_with):
    """Every Unicreon screen at 360 px with a long name; a surprise round played with the keyboard
    alone; the last passe d'armes back after a reload; PV lost in the fight shown on the list and
    the sheet ("en combat"), a bandage used on the sheet reaching the fighter, the end keeping it;
    a poison used on another character."""
    marie = with_items(character("uc-marie", LONG), "sac_a_dos", "bandage", "poison")
    app = seed_document(app_with, [marie, character("uc-bea", "Béa")])
    go(app, "#/unicreon")
    no_horizontal_scroll(app)
    row = app.locator("[data-testid=uc-char][data-id=uc-marie]")
    expect(row.get_by_role("button", name=f"Dupliquer {LONG}")).to_have_count(1)
    expect(row.get_by_role("button", name=f"Supprimer {LONG}")).to_have_count(1)
    go(app, "#/unicreon/character/uc-marie")
    expect(app.locator("[data-testid=uc-pv]")).to_have_text("12")
    no_horizontal_scroll(app)
    go(app, "#/unicreon/test/uc-marie")
    app.select_option("#uc-o-who", "uc-bea")
    expect(app.locator("[data-testid=uc-opp-odds]")).to_be_visible()
    no_horizontal_scroll(app)
    app.click("#uc-oppose")
    expect(app.locator("[data-testid=uc-opp-result] .die")).to_have_count(4)
    app.click("#uc-roll")
    expect(app.locator("[data-testid=uc-result]")).to_be_visible()
    no_horizontal_scroll(app)

    # The tracker with the keyboard only: Tab to a control, Enter/Space to press it.
    go(app, "#/unicreon/combat")
    app.focus("#uc-new-combat")
    app.keyboard.press("Enter")
    add_pc = app.locator("[data-testid=uc-add-pc]", has_text=LONG)
    add_pc.focus()
    app.keyboard.press("Enter")
    expect(app.locator("[data-testid=uc-fighter]")).to_have_count(1)
    expect(app.locator("[data-testid=uc-add-beast-canides]")).to_be_enabled()
    app.locator("[data-testid=uc-add-beast-canides]").focus()
    app.keyboard.press("Enter")
    expect(app.locator("[data-testid=uc-fighter]")).to_have_count(2)
    no_horizontal_scroll(app)
    app.locator(".uc-surprise summary").focus()
    app.keyboard.press("Enter")
    app.locator(".uc-surprise label.check", has_text=LONG).locator("input").focus()
    app.keyboard.press("Space")
    app.locator(".uc-surprise button").focus()
    app.keyboard.press("Enter")
    expect(app.locator("[data-testid=uc-phase]")).to_have_attribute("data-phase", "surprise")
    expect(app.locator("[data-testid=uc-order] li")).to_have_count(1)
    expect(app.locator("[data-testid=uc-whose]")).to_contain_text(LONG)
    expect(app.locator("[data-testid=uc-must-engage]")).to_have_class("uc-guide")
    no_horizontal_scroll(app)
    expect(app.locator("#uc-engage")).to_be_enabled()
    app.focus("#uc-engage")
    app.keyboard.press("Enter")
    expect(app.locator("[data-testid=uc-actions-left]")).to_have_text("1 action restante")
    expect(app.locator("#uc-attack")).to_be_enabled()
    app.focus("#uc-attack")
    app.keyboard.press("Enter")
    result = app.locator("[data-testid=uc-attack-result]")
    expect(result.locator(".die")).to_have_count(4)
    verdict = result.locator(".uc-verdict").inner_text()
    assert re.fullmatch(r"(Touché|Coup paré|Attaque ratée)\u00a0: .+ l'emporte\.", verdict), verdict
    no_horizontal_scroll(app)
    # The last passe d'armes is in the stored fight: once saved, a reload shows it again.
    wait_saved(app, "d => Boolean(d.systems.unicreon.combat.last)")
    app.reload()
    wait_engine(app)
    expect(app.locator("[data-testid=uc-attack-result] .uc-verdict")).to_have_text(verdict)
    no_horizontal_scroll(app)
    expect(app.locator("#uc-next")).to_be_enabled()
    app.focus("#uc-next")
    app.keyboard.press("Enter")
    expect(app.locator("[data-testid=uc-phase]")).to_have_attribute("data-phase", "setup")
    expect(app.locator("[data-testid=uc-attack-result]")).to_have_count(0)
    expect(app.locator("#uc-initiative")).to_be_enabled()
    app.focus("#uc-initiative")
    app.keyboard.press("Enter")
    expect(app.locator("[data-testid=uc-phase]")).to_have_attribute("data-phase", "fight")

    # Marie loses 3 PV in the fight: the list and the sheet say so while the fight runs.
    marie_fighter = app.locator("[data-testid=uc-fighter]").first
    marie_fighter.locator(".uc-adjust summary").click()
    for _ in range(3):
        marie_fighter.get_by_role("button", name=re.compile("^Retirer 1 PV")).click()
    expect(marie_fighter).to_have_attribute("data-pv", "9")
    go(app, "#/unicreon")
    expect(row).to_contain_text("9/12 PV")
    expect(row).to_contain_text("en combat")
    go(app, "#/unicreon/character/uc-marie")
    expect(app.locator("[data-testid=uc-pv]")).to_have_text("9")
    expect(app.locator("[data-testid=uc-in-combat]")).to_be_visible()
    no_horizontal_scroll(app)
    bandage = app.locator("[data-testid=uc-item][data-ref=bandage]")
    bandage.locator("[data-testid=uc-use]").click()
    expect(app.locator("[data-testid=uc-pv]")).to_have_text("10")
    saved = saved_when(
        app,
        "d => d.characters.find((c) => c.id === 'uc-marie').inventory.find((i) => i.ref === 'bandage').uses === 1",
    )
    combat = saved["systems"]["unicreon"]["combat"]
    assert next(c["pv"] for c in combat["combatants"] if c["character_id"] == "uc-marie") == 10
    # The poison needs a victim, then afflicts her.
    poison = app.locator("[data-testid=uc-item][data-ref=poison]")
    expect(poison.locator("[data-testid=uc-use]")).to_be_disabled()
    app.select_option("#uc-poison-target", "uc-bea")
    poison.locator("[data-testid=uc-use]").click()
    expect(app.locator("[data-testid=uc-sheet-status]")).to_contain_text("Béa est empoisonné·e")
    saved = saved_when(app, "d => d.characters.find((c) => c.id === 'uc-bea').conditions.length === 1")
    bea = next(c for c in saved["characters"] if c["id"] == "uc-bea")
    assert bea["conditions"] == [{"kind": "poison", "name": "", "diagnosed": False}]
    go(app, "#/unicreon/combat")
    app.click("#uc-end-combat")
    expect(app.locator("[data-testid=uc-phase]")).to_have_attribute("data-phase", "over")
    saved = saved_when(app, "d => d.systems.unicreon.combat.phase === 'over'")
    marie = next(c for c in saved["characters"] if c["id"] == "uc-marie")
    assert marie["pv"] == 10
    no_horizontal_scroll(app)
    go(app, "#/unicreon/character/uc-marie")
    expect(app.locator("[data-testid=uc-pv]")).to_have_text("10")
    expect(app.locator("[data-testid=uc-in-combat]")).to_have_count(0)


def test_escape_and_zero_pv_then_the_end_writes_the_down_state_back(app_with):
    from tablee.systems.unicreon import combat as cb
    from tablee.systems.unicreon import combat_state as cs

    bea = character("uc-bea", "Béa")
    bea["pv"] = 1
    state = cb.add_character(cs.new_state(), bea)
    state = cb.add_npcs(state, beast="canides")
    pc, wolf = (c["cid"] for c in state["combatants"])
    state = cb.initiative_from_dice(state, {pc: [6, 6]}, [1, 1])
    state = cb.next_turn(cb.next_turn(cb.engage(state, pc, wolf)))  # round 2: Béa, 2 actions, engaged
    app = seed_document(app_with, [bea], state)
    go(app, "#/unicreon/combat")
    # Escape with two actions (it cannot fail): no longer engaged, whole turn spent.
    app.click(".uc-escape summary")
    app.select_option("#uc-e-mode", "two_actions")
    expect(app.locator(".uc-escape")).to_contain_text("100")
    app.click(".uc-escape button")
    expect(app.locator("[data-testid=uc-announce]")).to_have_text("Fuite réussie : Béa n'est plus au contact.")
    expect(app.locator("[data-testid=uc-no-actions]")).to_be_visible()
    expect(app.locator(f"[data-testid=uc-fighter][data-cid={pc}]")).not_to_contain_text("Au contact")
    no_horizontal_scroll(app)
    # 0 PV: down until the MJ chooses; she picks unconscious; the wolf dies.
    fighter = app.locator(f"[data-testid=uc-fighter][data-cid={pc}]")
    fighter.locator(".uc-adjust summary").click()
    fighter.get_by_role("button", name=re.compile("^Retirer 1 PV")).click()
    expect(fighter).to_have_attribute("data-pv", "0")
    expect(fighter).to_contain_text("À terre (0 PV)")
    app.select_option(f"#uc-down-{pc}", "unconscious")
    expect(fighter).to_contain_text("Sans connaissance")
    wolf_row = app.locator(f"[data-testid=uc-fighter][data-cid={wolf}]")
    wolf_row.locator(".uc-adjust summary").click()
    app.select_option(f"#uc-down-{wolf}", "dead")
    expect(wolf_row).to_contain_text("Mort")
    go(app, "#/unicreon")
    expect(app.locator("[data-testid=uc-char][data-id=uc-bea]")).to_contain_text("Sans connaissance")
    go(app, "#/unicreon/combat")
    app.click("#uc-end-combat")
    expect(app.locator("[data-testid=uc-phase]")).to_have_attribute("data-phase", "over")
    doc = saved_when(app, "d => d.systems.unicreon.combat.phase === 'over'")
    saved = next(c for c in doc["characters"] if c["id"] == "uc-bea")
    assert (saved["pv"], saved["down"]) == (0, "unconscious")
    go(app, "#/unicreon/character/uc-bea")
    expect(app.locator("[data-testid=uc-down]")).to_have_text("Sans connaissance")
    no_horizontal_scroll(app)


def test_the_defenders_penalty_shows_in_the_passe_odds(app_with):
    """Béa (couteau long, Agilité 40: target 40) against a PNJ moyen (Agilité 40). At Moyen she hits
    on 495 of the 1296 d66 pairs (55/144); a surprised defender tests at Difficile and cannot win
    on a failed test: 510 pairs (85/216); one more step from the MJ: 187/432. The odds say what
    the penalty changes against the defender at Moyen."""
    state, _, _ = duel_state(character("uc-bea", "Béa"))
    app = seed_document(app_with, [character("uc-bea", "Béa")], state)
    go(app, "#/unicreon/combat")
    app.check("#uc-a-weapon-i1")
    hit = app.locator("[data-testid=uc-odds-hit]")
    expect(hit).to_have_attribute("data-p", "55/144")
    expect(app.locator("[data-testid=uc-defender-penalty]")).to_have_count(0)
    app.check("#uc-a-surprise")
    expect(hit).to_have_attribute("data-p", "85/216")
    penalty = app.locator("[data-testid=uc-defender-penalty]")
    expect(penalty).to_have_attribute("data-steps", "1")
    expect(penalty.locator("[data-testid=uc-odds-hit-at-moyen]")).to_have_attribute("data-p", "55/144")
    expect(app.locator("[data-testid=uc-attack-odds]")).to_contain_text("Défense 1 cran plus difficile")
    app.click(".uc-more summary")
    app.select_option("#uc-a-dmalus", "1")
    expect(hit).to_have_attribute("data-p", "187/432")
    expect(penalty).to_have_attribute("data-steps", "2")
    no_horizontal_scroll(app)


def test_a_dressed_infection_and_a_healed_poison_leave_the_sheet(app_with):
    """An infected wound dressed with a bandage ends (no diagnosis needed); the MJ ends a poison:
    both leave the sheet and the saved character."""
    zoe = with_items(character("uc-zoe", "Zoé"), "sac_a_dos", "bandage")
    zoe["conditions"] = [{"kind": "infection", "name": "Morsure", "diagnosed": False},
                         {"kind": "poison", "name": "", "diagnosed": False}]
    app = seed_document(app_with, [zoe])
    go(app, "#/unicreon/character/uc-zoe")
    conditions = app.locator("[data-testid=uc-condition]")
    expect(conditions).to_have_count(2)
    expect(conditions.nth(1).locator("[data-testid=uc-dress]")).to_have_count(0)  # a poison is not dressed
    conditions.first.locator("[data-testid=uc-dress]").click()
    expect(app.locator("[data-testid=uc-sheet-status]")).to_contain_text("l'infection est terminée")
    expect(conditions).to_have_count(1)
    expect(conditions.first).to_have_attribute("data-kind", "poison")
    saved = saved_when(app, "d => d.characters.find((c) => c.id === 'uc-zoe').conditions.length === 1")
    zoe = next(c for c in saved["characters"] if c["id"] == "uc-zoe")
    assert zoe["conditions"] == [{"kind": "poison", "name": "", "diagnosed": False}]
    assert next(i for i in zoe["inventory"] if i["ref"] == "bandage")["uses"] == 1
    conditions.first.get_by_role("button", name="C'est guéri (décision de la MJ) : Poison").focus()
    app.keyboard.press("Enter")
    expect(app.locator("[data-testid=uc-conditions]")).to_have_count(0)
    saved = saved_when(app, "d => d.characters.find((c) => c.id === 'uc-zoe').conditions.length === 0")
    assert next(c for c in saved["characters"] if c["id"] == "uc-zoe")["conditions"] == []
    no_horizontal_scroll(app)


def test_initiative_starts_at_the_best_success_and_goes_round_the_table(app_with):
    """Béa, Ana and a canidé (the MJ's seat): the MJ moves her seat between Béa and Ana with the
    keyboard; the initiative then starts at the highest raw result among the successes and goes
    on in the seating order, failures included (not sorted by raw result)."""
    app = seed_document(app_with, [character("uc-bea", "Béa"), character("uc-ana", "Ana")])
    go(app, "#/unicreon/combat")
    app.click("#uc-new-combat")
    for name in ("Béa", "Ana"):
        app.locator("[data-testid=uc-add-pc]", has_text=name).click()
        expect(app.locator("[data-testid=uc-fighter]", has_text=name)).to_have_count(1)
    app.click("[data-testid=uc-add-beast-canides]")
    seats = app.locator("[data-testid=uc-seating] li")
    mj = "La MJ (tous les PNJ)"
    expect(seats.locator(".uc-grow")).to_have_text(["Béa", "Ana", mj])
    expect(seats.first.locator("[data-testid=uc-seat-up]")).to_be_disabled()
    up = app.get_by_role("button", name=f"Monter {mj} d'une place")
    up.focus()
    app.keyboard.press("Enter")
    expect(seats.locator(".uc-grow")).to_have_text(["Béa", mj, "Ana"])
    expect(up).to_be_focused()  # the keyboard stays on the seat that moved
    expect(app.locator("[data-testid=uc-announce]")).to_have_text(f"Autour de la table : Béa, {mj}, Ana.")
    saved = saved_when(app, "d => d.systems.unicreon.combat.seating.length === 3 && d.systems.unicreon.combat.seating[1] === 'mj'")
    seating = saved["systems"]["unicreon"]["combat"]["seating"]
    no_horizontal_scroll(app)

    app.click("#uc-initiative")
    expect(app.locator("[data-testid=uc-phase]")).to_have_attribute("data-phase", "fight")
    combat = saved_when(app, "d => d.systems.unicreon.combat.phase === 'fight'")["systems"]["unicreon"]["combat"]
    rolls = {c["cid"]: c["initiative"] for c in combat["combatants"] if c["side"] == "pc"}
    rolls["mj"] = combat["npc_initiative"]
    pool = [e for e in seating if rolls[e]["success"]] or seating
    starter = max(pool, key=lambda e: (rolls[e]["raw"], -seating.index(e)))
    i = seating.index(starter)
    assert combat["order"] == seating[i:] + seating[:i]
    names = {"mj": mj, **{c["cid"]: c["name"] for c in combat["combatants"] if c["side"] == "pc"}}
    expect(app.locator("[data-testid=uc-order] li")).to_have_text([names[e] for e in combat["order"]])
    # The seats stay editable during the fight, and the order follows the table.
    expect(seats).to_have_count(3)
    no_horizontal_scroll(app)


def test_equipment_is_chosen_at_creation_unless_the_table_pays_for_it(app):
    """A character in creation chooses an axe (100 PO) and keeps his 40 PO; the table setting
    "pay at creation" turns the choice back into purchases: the axe is then too dear and the
    sheet says the PO do not add up."""
    go(app, "#/unicreon")
    app.fill("#uc-new-name", "Rui")
    app.click("#uc-create")
    expect(app.locator("#uc-char-puissance")).to_be_visible()
    app.click("#uc-shop summary")
    expect(app.locator("#uc-shop summary")).to_have_text("Choisir l'équipement")
    axe = app.locator("[data-testid=uc-buy-hache]")
    expect(axe).to_have_text("Choisir")
    axe.click()
    expect(app.locator("[data-testid=uc-sheet-status]")).to_have_text("Choisi : Hache. Les 40 PO restent pour le jeu.")
    expect(app.locator("[data-testid=uc-item][data-ref=hache]")).to_have_count(1)
    expect(app.locator("[data-testid=uc-po]")).to_have_text("40")
    expect(app.locator("[data-field=po]")).to_have_text("")
    saved = saved_when(app, "d => d.characters.some((c) => c.name === 'Rui' && c.inventory.length === 1)")
    rui = next(c for c in saved["characters"] if c["name"] == "Rui")
    assert rui["po"] == 40 and rui["inventory"][0]["ref"] == "hache" and rui["created"] is False
    no_horizontal_scroll(app)

    go(app, "#/unicreon")
    app.check("#uc-creation-pay")
    saved_when(app, "d => d.systems.unicreon && d.systems.unicreon.creation_pay === true")
    app.get_by_role("link", name="Rui", exact=True).click()
    expect(app.locator("[data-field=po]")).to_have_text(
        "Le personnage commence avec 40 PO : il reste 40 PO pour 100 PO d'achats.")
    app.click("#uc-shop summary")
    expect(app.locator("[data-testid=uc-shop-mode]")).to_contain_text("la table a choisi de payer")
    expect(app.locator("[data-testid=uc-buy-hache]")).to_be_disabled()
    expect(app.locator("#uc-dear-hache")).to_have_text("Trop cher : il manque 60 PO")
    no_horizontal_scroll(app)
