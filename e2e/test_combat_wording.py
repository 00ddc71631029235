"""Combat and MJ screens, at 360 px and 1280 px: a Unicreon passe d'armes played with
forced seeds (found with the rules package itself: seed 5 is a parry, seed 0 a hit for 2 PV)
whose successful defence is never shown in the failure colour and whose damage line says
"−2 PV → 10 PV restants sur 12"; the weapon the character holds chosen by default (not the first
of her list); disabled buttons that say why as their accessible description (a Versality healer
in incapacité, a SYSTMJ attack with no target, an attacker hors de combat); the tracker beside
the exchange and the MJ screens' panels side by side at 1280 px, one column with no horizontal
scroll at 360 px. Every wait is for the state checked, never a delay."""

from __future__ import annotations

import re

from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from playwright.sync_api import expect

from browser_support import (
    force_next_seed,
    goto_route,
    no_horizontal_scroll,
    put_table,
    saved_document,
    seed,
    wait_saved,
)
from browser_support import versality_character as vs_character

WIDTHS = [360, 1280]

# The seeds of the passe d'armes below (Béa, Agilité 40, couteau long, against a PNJ moyen):
# checked against the rules package in test_the_forced_seeds_are_what_the_rules_say.
PARRY_SEED = 5
HIT_SEED = 0


def uc_item(uid: str, ref: str, carried: str) -> dict:
    from tablee.systems.unicreon.data import CATALOGUE

    return {"uid": uid, "ref": ref, "name": "", **CATALOGUE[ref], "carried": carried}


def uc_character(cid: str, name: str) -> dict:
    """A created Unicreon character: an épée courte in her bag (first of the list), a couteau
    long in hand, a leather armour in the bag."""
    return {
        "id": cid, "system": "unicreon", "name": name, "created": True, "story": "Gardienne de phare.",
        "origins": "Le nord", "job": "Escrimeuse", "description": "Grande", "don": "Voit dans le noir",
        "defaut": "A peur des chats", "secret": "",
        "characteristics": {"puissance": 20, "agilite": 40, "perception": 40, "volonte": 50},
        "skills": [], "pv": 12, "pv_max": 12, "po": 0, "conditions": [], "down": None,
        "ignore_encumbrance": True, "important_npc": False,
        "inventory": [uc_item("w0", "epee_courte", "bag"), uc_item("i1", "couteau_long", "hand")],
    }


def duel(bea: dict) -> tuple[dict, str, str]:
    """Béa against a PNJ moyen, in contact since round 1 (initiative dice forced): round 2, her
    turn, both actions left."""
    from tablee.systems.unicreon import combat as cb
    from tablee.systems.unicreon import combat_state as cs

    state = cb.add_npcs(cb.add_character(cs.new_state(), bea), tier="moyen")
    pc, foe = (c["cid"] for c in state["combatants"])
    state = cb.engage(cb.initiative_from_dice(state, {pc: [6, 6]}, [1, 1]), pc, foe)
    return cb.next_turn(cb.next_turn(state)), pc, foe


def described_by(page, selector: str) -> str:
    """The text of the elements a control's aria-describedby names (its accessible description)."""
    return page.evaluate(
        """s => { const el = document.querySelector(s); const ids = (el.getAttribute('aria-describedby') || '').split(/\\s+/);
          return ids.map((id) => document.getElementById(id)?.textContent.trim() ?? '').join(' ').trim(); }""",
        selector,
    )


def color_of(page, selector: str) -> str:
    return page.evaluate("s => getComputedStyle(document.querySelector(s)).color", selector)


def css_var_color(page, name: str) -> str:
    """A custom property of the page resolved to the computed rgb() form."""
    return page.evaluate(
        """n => { const p = document.createElement('p'); p.style.color = `var(${n})`; document.body.append(p);
          const c = getComputedStyle(p).color; p.remove(); return c; }""",
        name,
    )


# Layout predicates on two elements' boxes, in the page: a layout is waited for (a panel may
# still be filling when it becomes visible: a loaded CI run read the Théorem MK screen's two
# columns stacked for a moment), never read once.
BESIDE_JS = """([l, r]) => {
  const a = document.querySelector(l)?.getBoundingClientRect(), b = document.querySelector(r)?.getBoundingClientRect();
  return Boolean(a && b && b.x >= a.x + a.width - 1 && Math.abs(a.y - b.y) < 40);
}"""
STACKED_JS = """([f, s]) => {
  const a = document.querySelector(f)?.getBoundingClientRect(), b = document.querySelector(s)?.getBoundingClientRect();
  return Boolean(a && b && b.y >= a.y + a.height - 1);
}"""


def _settles(page, js: str, first: str, second: str) -> bool:
    try:
        page.wait_for_function(js, arg=[first, second], timeout=10_000)
    except PlaywrightTimeoutError:
        return False
    return True


def beside(page, left: str, right: str) -> bool:
    """``right`` starts to the right of ``left``'s end and their tops are level (same row), once
    the layout settles (at most 10 s)."""
    return _settles(page, BESIDE_JS, left, right)


def stacked(page, first: str, second: str) -> bool:
    """``second`` starts below ``first``'s end, once the layout settles (at most 10 s)."""
    return _settles(page, STACKED_JS, first, second)


def test_the_forced_seeds_are_what_the_rules_say():
    """The oracle of the browser test: the rules package itself, on the same state and seeds."""
    from tablee.api import handle

    state, pc, foe = duel(uc_character("uc-bea", "Béa"))
    parry = handle({"op": "unicreon.combat.attack", "state": state, "attacker": pc, "defender": foe, "weapon": "i1",
                    "seed": PARRY_SEED})["exchange"]
    assert (parry["hit"], parry["attacker"]["success"], parry["defender"]["success"]) == (False, True, True)
    hit = handle({"op": "unicreon.combat.attack", "state": state, "attacker": pc, "defender": foe, "weapon": "i1",
                  "seed": HIT_SEED})
    assert (hit["exchange"]["hit"], hit["exchange"]["pv_lost"], hit["defender_pv"]) == (True, 2, 10)


def test_unicreon_passe_parry_colour_damage_line_held_weapon_and_layout(page, app_with):
    page.set_viewport_size({"width": WIDTHS[0], "height": 900})
    bea = uc_character("uc-bea", "Béa")
    state, _, _ = duel(bea)
    app = seed(app_with, [bea], {"unicreon": {"combat": state, "custom_items": []}})
    goto_route(app, "unicreon/combat")
    # The couteau long is in her hand: chosen, not the épée courte first in her list (in the bag).
    expect(app.locator("#uc-a-weapon-i1")).to_be_checked()
    expect(app.locator("[data-testid=uc-attack-odds]")).to_be_visible()
    expect(app.locator("#uc-attack")).to_be_enabled()

    # Seed 5: the attack succeeds, the defence does better: a parry.
    force_next_seed(app, PARRY_SEED)
    app.click("#uc-attack")
    doc = wait_saved(app, "d => d.log.some(e => e.kind === 'unicreon.attack')")
    assert doc["log"][-1]["request"]["seed"] == PARRY_SEED
    verdict = app.locator("[data-testid=uc-verdict]")
    expect(verdict).to_have_attribute("data-winner", "defender")
    expect(verdict).to_have_text("Coup paré : PNJ moyen l'emporte.")
    expect(verdict).not_to_have_class(re.compile(r"\boutcome-bad\b"))
    assert color_of(app, "[data-testid=uc-verdict]") != css_var_color(app, "--bad")
    expect(app.locator("[data-testid=uc-damage-line]")).to_have_text("PNJ moyen : aucun dégât, 12 PV sur 12.")
    expect(app.locator("[data-testid=uc-side-defender]")).to_contain_text("l'emporte")
    expect(app.locator("[data-testid=uc-announce]")).to_have_text("Coup paré par PNJ moyen : aucun dégât.")
    # No gendered agreement in what a passe says.
    assert "atteint" not in app.locator("main").inner_text()

    # Seed 0, her second action: a hit for 2 PV, the damage line says what is left of what.
    force_next_seed(app, HIT_SEED)
    app.click("#uc-attack")
    wait_saved(app, "d => d.log.filter(e => e.kind === 'unicreon.attack').length === 2")
    expect(verdict).to_have_attribute("data-winner", "attacker")
    expect(app.locator("[data-testid=uc-damage-line]")).to_have_text(
        "PNJ moyen : dégâts 2, absorbés 0 → −2 PV → 10 PV restants sur 12.")
    expect(app.locator("[data-testid=uc-announce]")).to_have_text("Touché : PNJ moyen −2 PV → 10 PV restants sur 12.")
    assert saved_document(app)["log"][-1]["result"]["summary"].startswith("Touché\u00a0: PNJ moyen −2 PV → 10 PV restants sur 12.")

    # The tracker (turn and fighters) beside the exchange at 1280 px, below it on a phone.
    for width in WIDTHS:  # one engine start: the page is resized
        app.set_viewport_size({"width": width, "height": 900})
        expect(app.locator("[data-testid=uc-fighters]")).to_be_visible()
        if width >= 1280:
            assert beside(app, "[data-testid=uc-exchange-col]", "[data-testid=uc-tracker-col]")
        else:
            assert stacked(app, ".uc-action-card", ".uc-fighters-card")
        no_horizontal_scroll(app, width)


def test_unicreon_buttons_say_why_they_are_disabled(page, app_with):
    """A tracker with nobody in it: the initiative and the end of the fight say why they wait."""
    page.set_viewport_size({"width": WIDTHS[0], "height": 900})
    from tablee.systems.unicreon import combat_state as cs

    app = seed(app_with, [], {"unicreon": {"combat": cs.new_state(), "custom_items": []}})
    goto_route(app, "unicreon/combat")
    for width in WIDTHS:  # one engine start: the page is resized
        app.set_viewport_size({"width": width, "height": 900})
        for sel in ("#uc-initiative", "#uc-end-combat"):
            expect(app.locator(sel)).to_be_disabled()
            expect(app.locator(sel)).to_have_accessible_description("Ajoutez d'abord des combattants.")
        no_horizontal_scroll(app, width)


def test_an_incapacitated_healer_says_why_and_the_mj_screen_sits_side_by_side(page, app_with):
    page.set_viewport_size({"width": WIDTHS[0], "height": 900})
    dan = vs_character("vs-dan", "Dan")
    dan["incapacitated"] = True
    dan["wounds"] = {"physique": 2, "mental": 1, "personnalite": 0}
    app = seed(app_with, [vs_character("vs-ana", "Ana"), dan])
    goto_route(app, "versality/character/vs-dan")
    button = app.locator("#vs-heal-test")
    for width in WIDTHS:  # one engine start: the page is resized
        app.set_viewport_size({"width": width, "height": 900})
        expect(button).to_be_disabled()
        expect(button).to_have_accessible_description(re.compile("En incapacité"))
        assert "incapacité" in described_by(app, "#vs-heal-test")
        no_horizontal_scroll(app, width)

    # The MJ screen behind its switch: its panels in two columns from 60rem, one on a phone.
    app.set_viewport_size({"width": WIDTHS[0], "height": 900})
    goto_route(app, "versality/mj")
    app.get_by_role("button", name=re.compile("^Je suis MJ")).click()
    panels = app.locator("[data-testid=vs-mj-split] > *")
    for width in WIDTHS:
        app.set_viewport_size({"width": width, "height": 900})
        expect(panels.first).to_be_visible()
        assert panels.count() >= 2
        if width >= 1280:
            assert beside(app, "[data-testid=vs-mj-split] > :nth-child(1)", "[data-testid=vs-mj-split] > :nth-child(2)")
        else:
            assert stacked(app, "[data-testid=vs-mj-split] > :nth-child(1)", "[data-testid=vs-mj-split] > :nth-child(2)")
        no_horizontal_scroll(app, width)


def systmj_table() -> tuple[dict, list[dict]]:
    """Aldo (Force 60) holding a bow (EQ-00001, first of the library) and a sword (EQ-00002,
    corps-à-corps), Brune (PV 30, PA 0) with nothing; a round of Action & Mouvement revealed
    (Aldo: Action, Brune: Mouvement)."""
    from tablee.api import handle

    state = handle({"op": "systmj.state.new"})["state"]
    aldo = handle({"op": "systmj.entity.new", "id": "sj-aldo", "name": "Aldo"})["character"]
    brune = handle({"op": "systmj.entity.new", "id": "sj-brune", "name": "Brune"})["character"]
    aldo["attributes"].update(force=60, resistance=50, rapidite=50, agilite=40)
    aldo["pv_max"], aldo["language"] = 20, "Commun"
    brune["attributes"].update(force=40, resistance=40, agilite=50)
    brune["pv_max"], brune["language"] = 30, "Commun"
    for name, cat, dmg in (("Arc court", "trait", [1, 2, 3]), ("Épée longue", "corps_a_corps", [2, 4, 6])):
        card = {"family": "equipement", "name": name, "types": ["arme"], "categories": [cat], "att": 10, "damage": dmg}
        state = handle({"op": "systmj.card.save", "state": state, "card": card})["state"]
    for number in ("EQ-00001", "EQ-00002"):
        r = handle({"op": "systmj.card.give", "state": state, "character": aldo, "number": number})
        state, aldo = r["state"], r["character"]
    state = handle({"op": "systmj.round.start", "state": state, "characters": [aldo, brune]})["state"]
    # The round binds the combat (3.2, 3.3): Aldo revealed Action, so he may attack.
    for cid, choice in (("sj-aldo", "action"), ("sj-brune", "mouvement")):
        state = handle({"op": "systmj.round.choose", "state": state, "entity": cid, "choice": choice})["state"]
    state = handle({"op": "systmj.round.reveal", "state": state})["state"]
    return state, [aldo, brune]


def hit_seed(state: dict, aldo: dict, brune: dict) -> tuple[int, dict]:
    """A seed whose attack in force (sword, no defence) hits, found by the rules package."""
    from tablee.api import handle

    sword = next(c for c in state["library"]["cards"] if c["number"] == "EQ-00002")

    def fighter(c, aware=None):
        f = {"id": c["id"], "attributes": c["attributes"], "dissimulation": 0, "detection": 0, "pv": c["pv_max"], "pa": 0}
        return f if aware is None else {**f, "aware": aware}

    for seed_value in range(200):
        req = {"op": "systmj.combat.exchange", "kind": "force", "attacker": fighter(aldo), "defender": fighter(brune, True),
               "defence": "none", "weapon": sword, "seed": seed_value,
               "subject": {"session": 1, "attacker": aldo["id"], "defender": brune["id"], "items": ["EQ-00002"]}}
        r = handle(req)
        if r["outcome"] == "hit":
            return seed_value, r
    raise AssertionError("no hit in 200 seeds")


def test_systmj_held_weapon_why_disabled_damage_line_and_layout(page, app_with):
    from tablee.api import handle

    page.set_viewport_size({"width": WIDTHS[0], "height": 900})
    state, (aldo, brune) = systmj_table()
    app = seed(app_with, [aldo, brune], {"systmj": state})
    goto_route(app, "systmj/combat")
    attack = app.locator("#sj-attack")
    # No target yet: the button says why.
    expect(attack).to_be_disabled()
    expect(attack).to_have_accessible_description("Choisissez l'attaquant et la cible.")
    app.select_option("#sj-att-who", "sj-aldo")
    # The sword he holds for a melee attack, not the bow first in the library.
    expect(app.locator("#sj-att-weapon")).to_have_value("EQ-00002")
    app.select_option("#sj-att-kind", "ranged")
    expect(app.locator("#sj-att-weapon")).to_have_value("EQ-00001")
    app.select_option("#sj-att-kind", "force")
    expect(app.locator("#sj-att-weapon")).to_have_value("EQ-00002")
    app.select_option("#sj-def-who", "sj-brune")
    expect(app.locator("[data-testid=sj-combat-odds]")).to_be_visible()
    expect(attack).to_be_enabled()

    value, expected = hit_seed(state, aldo, brune)
    force_next_seed(app, value)
    attack.click()
    doc = wait_saved(app, "d => d.log.some(e => e.kind === 'systmj.combat.exchange')")
    entry = next(e for e in doc["log"] if e["kind"] == "systmj.combat.exchange")
    replay = handle(entry["request"])
    assert replay["outcome"] == expected["outcome"] == "hit"
    dmg = replay["damage"]
    outcome = app.locator("[data-testid=sj-combat-outcome]")
    expect(outcome).to_have_text("Touché : Aldo l'emporte.")
    expect(outcome).to_have_attribute("data-winner", "attacker")
    expect(outcome).to_have_class(re.compile(r"\boutcome-neutral\b"))
    d6 = next(s for s in replay["steps"] if s["step"] == "damage")["d6"]
    expect(app.locator("[data-testid=sj-damage-line]")).to_have_text(
        f"d6 {d6} → {dmg['amount']} dégâts : −{dmg['from_pa']} PA puis −{dmg['from_pv']} PV → "
        f"{dmg['pv']} PV sur 30, {dmg['pa']} PA restants.")

    for width in WIDTHS:  # two engine starts instead of four: the page is resized
        app.set_viewport_size({"width": width, "height": 900})
        if width >= 1280:
            assert beside(app, "[data-testid=sj-combat-split] > :nth-child(1)", "[data-testid=sj-combat-split] > :nth-child(2)")
        else:
            assert stacked(app, "[data-testid=sj-combat-split] > :nth-child(1)", "[data-testid=sj-combat-split] > :nth-child(2)")
        no_horizontal_scroll(app, width)

    # Aldo at 0 PV in the round: hors de combat, and the button says so.
    doc = saved_document(app)
    for e in doc["systems"]["systmj"]["rounds"]["entities"]:
        if e["id"] == "sj-aldo":
            e["pv"] = 0
    put_table(app, doc)
    app.select_option("#sj-att-who", "sj-aldo")
    app.select_option("#sj-def-who", "sj-brune")
    expect(attack).to_be_disabled()
    expect(attack).to_have_accessible_description("Aldo est hors de combat (0 PV) : pas d'attaque.")


def test_the_mj_screens_use_the_width_and_fit_a_phone(app):
    """Point Zéro's MJ screen, Théorem's MK screen and SYSTMJ's Chronoste: two columns of panels
    from 60rem (shared .split), one column with no horizontal scroll at 360 px."""
    for width, (route, split, panel) in ((w, r) for w in WIDTHS for r in (  # one engine start: the page is resized
        ("pointzero/mj", "pz-mj-split", "#pz-mj-gauge-title"),
        ("theorem/mk", "th-mk-split", "[data-testid=th-mk-hand]"),
        ("systmj/chronoste", "sj-chronoste-split", "[data-testid=sj-now]"),
    )):
        app.set_viewport_size({"width": width, "height": 900})
        goto_route(app, route)
        expect(app.locator(panel)).to_be_visible()
        first, second = (f"[data-testid={split}] > :nth-child({n})" for n in (1, 2))
        expect(app.locator(second)).to_be_visible()
        if width >= 1280:
            assert beside(app, first, second), route
        else:
            assert stacked(app, first, second), route
        no_horizontal_scroll(app, width)
