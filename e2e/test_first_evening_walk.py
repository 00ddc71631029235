"""The first evening, a new MJ's walk of the five systems (a phone, 360×740, unless a test says
otherwise): what read wrong or sat wrong on the page.

- Numbers: French says "0 point", "0 compétence" (Point Zéro's gauge and list said "0 points",
  "0 compétences"); a negative number in a formula has a true minus ("= −2", not "= -2");
  a d100 or d66 in the log is one number ("d100 : 08", not "d100: 0 8").
- Sentences: Versality's odds line no longer tells a one-card draw to "keep the best card", nor
  says twice that the worst card applies; Théorem's unnamed sides are "Premier camp" / "Second
  camp", never "A l'emporte."; a draw's log label shows no "+ 0" modifier ("Discrétion 0" read
  as a skill at 0); SYSTMJ's automatic outcome is recorded by a button that says there is no
  roll; the home page says "pions" like the Versality pages.
- English: a label and its value take an English colon ("Failure: 21 %", not "Failure : 21 %");
  Unicreon's last-action line, written in French, follows the page into English.
- Layout: the header shows the table's name whole; SYSTMJ's checkboxes sit beside their names;
  a Théorem field beside one with a help line is not stretched taller.
- Rounds two and three: forms, dates and words in both languages. The changes named in the undo
  bar are in e2e/test_first_evening_undo_names.py.
"""

from __future__ import annotations

import re

from playwright.sync_api import expect

from browser_support import (
    goto_route,
    new_table,
    no_horizontal_scroll,
    ok,
    saved_document,
    versality_character,
    wait_saved,
)
from first_evening_support import sj_entity, theorem_joshua


def test_pointzero_says_0_point_and_0_competence(app_with):
    c = ok({"op": "pointzero.character.new", "id": "pz-eve", "name": "Ève"})["character"]
    c["skills"] = []
    app = app_with(new_table([c]), "pointzero")
    expect(app.get_by_test_id("pz-gauge-points")).to_have_text("0")
    expect(app.get_by_test_id("pz-gauge")).to_contain_text("0 point dans la jauge")
    expect(app.locator("main")).to_contain_text("0 compétence")
    expect(app.locator("main")).not_to_contain_text("0 compétences")


def test_versality_odds_line_says_each_rule_once_and_formula_has_a_true_minus(app_with):
    app = app_with(new_table([versality_character("vs-nadia", "Nadia")]), "versality/test/vs-nadia")
    app.select_option("#vs-test-char", "physique")  # 2
    app.select_option("#vs-test-skill", "combattre")  # 1
    app.select_option("#vs-test-diff", "conventionnelle")  # −2: 1 card, it applies
    rule = app.get_by_test_id("vs-rule")
    expect(rule).to_have_attribute("data-count", "1")
    expect(app.get_by_test_id("vs-odds-best")).to_have_count(0)
    app.select_option("#vs-test-diff", "facile")  # −1: 2 cards, the player chooses
    expect(rule).to_have_attribute("data-count", "2")
    expect(app.get_by_test_id("vs-odds-best")).to_be_visible()
    app.select_option("#vs-test-diff", "epique")  # −5: 2 + 1 − 5 = −2, 4 cards, the worst applies
    expect(rule).to_have_attribute("data-rule", "worst")
    expect(app.get_by_test_id("vs-score")).to_have_text("2 + 1 − 5 − 0 (blessures) = −2")
    odds = app.get_by_test_id("vs-odds").inner_text()
    assert odds.count("pire") == 1, odds


def test_the_log_reads_a_d100_and_a_d66_as_one_number(app_with):
    def entry(n: int, kind: str, dice: list[int]) -> dict:
        return {"id": f"e{n}", "at": "2026-11-27T08:00:0{n}Z", "kind": "roll", "system": None, "who": "Aldric",
                "label": kind, "request": {"expr": kind}, "result": {"total": dice[0] * 10 + dice[1], "terms": [
                    {"kind": kind, "text": kind, "sign": 1, "dice": [{"value": v, "kept": True} for v in dice]}]}}

    app = app_with(new_table(log=[entry(1, "d100", [0, 8]), entry(2, "d66", [2, 3])]), "log")
    entries = app.get_by_test_id("log-entry")
    expect(entries).to_have_count(2)
    expect(app.locator("main")).to_contain_text("2 entrées.")
    expect(entries.nth(0)).to_contain_text("d66 : 23")
    expect(entries.nth(1)).to_contain_text("d100 : 08")
    expect(app.locator("main")).not_to_contain_text("0 8")


def test_theorem_unnamed_sides_and_a_draw_without_modifier_read_as_french(app_with):
    app = app_with(new_table([theorem_joshua()]), "theorem/chase")
    app.click("#th-opp-draw")
    result = app.get_by_test_id("th-opp-result")
    expect(result).to_contain_text(re.compile(r"(Premier|Second) camp l'emporte|Égalité"))
    expect(result).not_to_contain_text("A l'emporte")
    expect(result).to_contain_text("Premier camp :")
    goto_route(app, "theorem/test/th-josh")
    app.select_option("#th-skill", index=1)
    expect(app.locator("#th-draw")).to_be_enabled()
    app.click("#th-draw")
    doc = wait_saved(app, "d => d.log.some((e) => e.kind === 'theorem.draw')")
    label = next(e["label"] for e in doc["log"] if e["kind"] == "theorem.draw")
    assert label.endswith("Animalité + Discrétion"), label


def test_systmj_automatic_outcome_button_says_there_is_no_roll(app_with):
    c = ok({"op": "systmj.character.new", "id": "sj-ada", "name": "Ada"})["character"]
    app = app_with(new_table([c]), "systmj/test/sj-ada")
    expect(app.get_by_test_id("sj-odds")).to_have_attribute("data-automatic", re.compile(".+"))
    expect(app.locator("#sj-roll")).to_have_text("Noter le résultat (sans jet)")


def test_home_names_versality_tokens_as_its_pages_do(app_with):
    app = app_with(new_table(), "home")
    versality = app.locator("[data-testid=home-system][data-system=versality]")
    expect(versality).to_contain_text("pions et échelle de catastrophe du ou de la MJ")
    expect(versality).not_to_contain_text("jetons")


def test_english_odds_take_an_english_colon(app_with):
    app = app_with(new_table([theorem_joshua()], language="en"), "theorem/test/th-josh")
    levels = app.get_by_test_id("th-level-odds").locator("li")
    expect(levels).to_have_count(4)
    for text in levels.all_inner_texts():
        assert not re.search(r"\s:\s", text) and re.search(r"\S: \d", text), text


def test_unicreon_last_action_line_follows_the_page_into_english(app_with):
    """The last action's line was written once, in French, and stayed on the English page (then
    it went away on a switch); it is now said again in the language shown."""
    from unicreon_sheets import character

    app = app_with(new_table([character("uc-lina", "Lina")]), "unicreon/combat")
    app.click("#uc-new-combat")
    app.get_by_role("button", name="+ Lina").click()
    announce = app.get_by_test_id("uc-announce")
    expect(announce).to_have_text("Ajouté : Lina.")
    app.click("#lang-toggle")
    expect(app.locator("html")).to_have_attribute("lang", "en")
    expect(app.locator("main h1")).to_have_text("Combat")
    expect(announce).to_have_text("Added: Lina.")


def test_unicreon_negative_threshold_has_a_true_minus(app_with):
    from unicreon_sheets import character

    lina = character("uc-lina", "Lina")
    lina["characteristics"] = {"puissance": 50, "agilite": 20, "perception": 50, "volonte": 30}
    lina["skills"] = [{"name": "Tir à l'arc", "level": "bon"}]
    app = app_with(new_table([lina]), "unicreon/test/uc-lina")
    app.select_option("#uc-t-char", "agilite")
    app.select_option("#uc-t-diff", "facile")
    app.select_option("#uc-t-skill", index=1)
    expect(app.locator("#uc-t-diff option[value=facile]")).to_have_text("Facile (−10)")
    odds = app.get_by_test_id("uc-odds")
    expect(odds).to_have_attribute("data-target", "-10")
    expect(odds).to_contain_text("= −10 (d66 ≥ −10)")
    expect(odds).not_to_contain_text("-10")


def test_the_header_shows_the_table_name_whole_on_a_phone(app_with):
    app = app_with(new_table(), "home")
    name = app.locator("#table-name")
    expect(name).to_have_text("Ma table")
    assert name.evaluate("e => e.scrollWidth <= e.clientWidth"), name.evaluate("e => [e.scrollWidth, e.clientWidth]")


def test_systmj_checkboxes_sit_beside_their_names(app_with):
    sj = [ok({"op": "systmj.character.new", "id": f"sj-{n}", "name": n})["character"] for n in ("Aldric", "Gobelin")]
    app = app_with(new_table(sj), "systmj/combat")
    picks = app.get_by_test_id("sj-pick")
    expect(picks).to_have_count(2)
    # Each box on the line of its name: their centres within a few pixels.
    offsets = picks.evaluate_all("""xs => xs.map((x) => {
      const box = x.getBoundingClientRect(), range = document.createRange();
      const words = [...x.parentElement.childNodes].filter((n) => n.nodeType === 3 && n.textContent.trim());
      range.selectNodeContents(words[words.length - 1]);
      const text = range.getBoundingClientRect();
      return Math.abs((box.top + box.bottom) / 2 - (text.top + text.bottom) / 2);
    })""")
    assert max(offsets) <= 4, offsets


def test_theorem_field_beside_a_help_line_is_not_stretched(app_with):
    # "Points de réalité" beside "Dés de Ka" (which has a help line under its input).
    app = app_with(new_table([theorem_joshua()]), "theorem/character/th-josh")
    expect(app.locator("#th-des-ka")).to_be_visible()
    boxes = app.locator("#th-realite, #th-des-ka").evaluate_all(
        "xs => xs.map((x) => [Math.round(x.getBoundingClientRect().top), Math.round(x.getBoundingClientRect().height)])")
    assert boxes[0] == boxes[1], boxes


def test_an_odds_table_says_impossible_and_certain_in_words(app):
    """An odds table's row that cannot happen (a Versality "Non, et…" out of reach, a Unicreon
    failure below the lowest d66) read "0 % 0/1": it now reads like every headline,
    "impossible (0 %)", and a sure one "certain"; the others keep their percentage and fraction."""
    rows = app.evaluate("""async () => {
      const { renderDistribution } = await import('./static/js/views/dice-ui.js');
      const { render } = await import('./static/vendor/lit-html/lit-html.js');
      const box = document.createElement('div');
      document.getElementById('main').append(box);
      render(renderDistribution([{ label: 'Échec', p: '0/1', percent: 0 }, { label: 'Réussite', p: '1/1', percent: 100 },
        { label: 'Moitié', p: '1/2', percent: 50 }], 'Résultat'), box);
      return [...box.querySelectorAll('tbody tr')].map((tr) => [tr.dataset.p, tr.innerText.replace(/\\s+/g, ' ').trim()]);
    }""")
    assert rows[0] == ["0/1", "Échec impossible (0 %)"]
    assert rows[1][0] == "1/1" and "0/1" not in rows[1][1] and "1/1" not in rows[1][1]
    assert rows[2] == ["1/2", "Moitié 50 % 1/2"]


# ------------------------------------------------------------------ the walk, round three
def test_systmj_combat_says_reveal_first_once_and_drops_a_result_of_another_exchange(app_with):
    """During a round not yet revealed, "Révélez d'abord les choix du tour." was on screen twice
    (under the attack button, and as the odds' refusal above it); and a counter-attack's result
    stayed under the next exchange's form (the form went back to a plain attack at once, and the
    result stayed there through the next rounds)."""
    from browser_support import force_next_seed
    from systmj_fight import fighter, seed_for
    from systmj_fight import sj_entity as fighting

    aldo = fighting("sj-aldo", "Aldo", force=30, resistance=30, rapidite=30)
    brune = fighting("sj-brune", "Brune", force=50, resistance=50, rapidite=50)
    state = ok({"op": "systmj.state.new"})["state"]
    state = ok({"op": "systmj.round.start", "state": state, "characters": [aldo, brune]})["state"]
    for cid in ("sj-aldo", "sj-brune"):
        state = ok({"op": "systmj.round.choose", "state": state, "entity": cid, "choice": "action"})["state"]
    app = app_with(new_table([aldo, brune], {"systmj": state}), "systmj/combat")
    app.select_option("#sj-att-who", "sj-aldo")
    app.select_option("#sj-def-who", "sj-brune")
    card = app.get_by_test_id("sj-attack-card")
    expect(card).to_have_attribute("data-odds", "error")  # the engine refused the odds: not revealed
    expect(app.locator("#sj-attack")).to_have_accessible_description("Révélez d'abord les choix du tour.")
    assert app.locator("main").inner_text().count("Révélez d'abord") == 1

    # Revealed: Aldo attacks and fails, Brune counter-attacks and hits.
    app.click("#sj-round-reveal")
    expect(app.locator("#sj-attack")).to_be_enabled()
    base = {"op": "systmj.combat.exchange", "kind": "force", "attacker": fighter(aldo), "defender": fighter(brune, True),
            "defence": "none", "subject": {"session": 1, "attacker": "sj-aldo", "defender": "sj-brune", "items": []}}
    force_next_seed(app, seed_for(base, "counter_attack"))
    app.click("#sj-attack")
    app.click("#sj-counter")
    counter = {**base, "attacker": fighter(brune), "defender": fighter(aldo, True), "counter": True,
               "subject": {"session": 1, "attacker": "sj-brune", "defender": "sj-aldo", "items": []}}
    force_next_seed(app, seed_for(counter, "hit"))
    app.click("#sj-attack")
    outcome = app.get_by_test_id("sj-combat-outcome")
    expect(outcome).to_have_attribute("data-winner", "attacker")
    # The result stays with its own exchange: the counter-attack's form, its button saying it was played.
    expect(app.get_by_test_id("sj-counter-note")).to_be_visible()
    expect(app.locator("#sj-attack")).to_have_accessible_description("Contre-attaque jouée : passez à l'échange suivant.")
    # The next exchange (Brune's own Action) shows no result of the one before.
    app.click("#sj-next-exchange")
    expect(app.locator("#sj-def-kind")).to_be_visible()
    expect(outcome).to_have_count(0)
    # Nor does the next round show the result of an attack of this one.
    app.select_option("#sj-def-kind", "esquive")
    app.click("#sj-attack")
    expect(outcome).to_have_count(1)
    app.click("#sj-round-next")
    expect(app.locator("#sj-round-title")).to_have_text("Tour 2")
    expect(outcome).to_have_count(0)


def test_the_chronoste_writes_a_french_date_and_an_english_one_and_a_tables_own_months_as_written(app_with):
    """The Chronoste read "1 Janvier" in French and kept the French months in English. The default
    calendar (the Gregorian months, rules README, SYSTMJ) now reads in the interface's language,
    "1er janvier" (an ordinal for the first, the month in lower case in a sentence) and
    "1 January"; the months a table named itself are shown as it wrote them."""
    app = app_with(new_table([sj_entity("sj-lea", "Léa")]), "systmj/chronoste")
    now = app.get_by_test_id("sj-now")
    expect(now).to_have_text("1er janvier, an 1 — 08:00 (jour)")
    expect(app.get_by_test_id("sj-time")).to_have_text("1er janvier, an 1 — 08:00 (jour)")
    app.fill("#sj-c-amount", "1")
    app.select_option("#sj-c-unit", "days")
    app.click("#sj-c-advance")
    expect(now).to_have_text("2 janvier, an 1 — 08:00 (jour)")
    expect(app.get_by_test_id("sj-history")).to_contain_text("2 janvier, an 1 — 08:00")
    app.click("#lang-toggle")
    expect(now).to_have_text("2 January, year 1 — 08:00 (day)")
    app.locator("details summary").click()
    expect(app.locator("#sj-c-month option").first).to_have_text("January")
    # The calendar saved as shown stays the default one: back in French, French months.
    expect(app.locator("#sj-c-months")).to_have_value(re.compile(r"^January \(31\)\nFebruary \(28\)"))
    app.get_by_role("button", name="Save the calendar").click()
    # (The engine's changes run in turn: the advance is written after the calendar.)
    app.click("#sj-c-advance")
    doc = wait_saved(app, "d => d.systems.systmj.chronoste.day === 3")
    assert [m["name"] for m in doc["systems"]["systmj"]["chronoste"]["months"]][:2] == ["Janvier", "Février"]
    app.click("#lang-toggle")
    expect(now).to_have_text("3 janvier, an 1 — 08:00 (jour)")
    # A table's own months, as written.
    app.fill("#sj-c-months", "\n".join(f"{name} (30)" for name in ("Germinal", "Floréal", "Prairial")))
    app.get_by_role("button", name="Enregistrer le calendrier").click()
    expect(now).to_have_text("3 Germinal, an 1 — 08:00 (jour)")
    app.click("#lang-toggle")
    expect(now).to_have_text("3 Germinal, year 1 — 08:00 (day)")


def test_a_new_systmj_weapon_card_is_not_an_everyday_object_too(app_with):
    """A new Équipement card had "Objet usuel" ticked: a weapon made by ticking "Arme" was an
    everyday object too. A card's type is what the person states (000, 4.1 field 2, cumulative):
    a new card starts with none, and saving it without one is refused at that field."""
    app = app_with(new_table([sj_entity("sj-lea", "Léa")]), "systmj/cards")
    app.get_by_role("button", name="Créer une carte Équipement").click()
    form = app.get_by_test_id("sj-card-form")
    expect(form.locator("input[name=types]")).to_have_count(3)
    expect(form.locator("input[name=types]:checked")).to_have_count(0)
    app.fill("#sj-cf-name", "Épée courte")
    app.click("#sj-card-save")
    expect(app.get_by_test_id("sj-card-error")).to_have_text("Cochez au moins un type pour cette carte.")
    expect(form.locator("fieldset", has=app.locator("input[name=types]"))).to_have_attribute("aria-invalid", "true")
    form.locator("input[name=types][value=arme]").check()
    form.locator("input[name=categories][value=corps_a_corps]").check()
    app.click("#sj-card-save")
    doc = wait_saved(app, "d => (d.systems.systmj?.library?.cards ?? []).length === 1")
    card = doc["systems"]["systmj"]["library"]["cards"][0]
    assert (card["types"], card["categories"]) == (["arme"], ["corps_a_corps"])


def test_the_home_page_says_tours_like_the_systmj_pages(app_with):
    """The home page said "rounds" where SYSTMJ's combat page says "Tour 1" (the rule text plays
    Action & Mouvement "par tours", 000 3.2): one French word."""
    app = app_with(new_table(), "home")
    systmj = app.locator("[data-testid=home-system][data-system=systmj]")
    expect(systmj).to_contain_text("usure, tours et combat")
    expect(app.locator("main")).to_contain_text("choix cachés des tours")
    expect(app.locator("main")).not_to_contain_text("round")


def test_pointzero_result_lists_the_dice_kept_and_adds_them_only_when_there_is_a_sum(app_with):
    """Point Zéro's result read "Dés gardés 11 = 11": the sum of the kept dice shown as one term
    equal to itself. It now lists what it adds: each kept die, then the bonuses, "= total" only
    when there is more than one term; "Dé gardé" for one."""
    from first_evening_support import sheet

    ana = sheet("pz-ana", "Ana", [("Vigilance", 2), ("Discrétion", 1)], [])
    ana["attributes"].append({"code": "CHA", "name": "Charme", "level": 1})
    app = app_with(new_table([ana]), "pointzero/test/pz-ana")
    result, line = app.get_by_test_id("pz-result"), app.get_by_test_id("pz-sum")

    def roll(skill: str, attribute: str) -> list[int]:
        app.select_option("#pz-t-skill", skill)
        app.select_option("#pz-t-attr", attribute)
        count = len(saved_document(app)["log"])
        app.click("#pz-roll")
        doc = wait_saved(app, "(d, n) => d.log.length === n + 1", count)
        expect(result).to_have_attribute("data-total", str(doc["log"][-1]["result"]["total"]))
        return [int(x) for x in result.locator("[data-kept=true]").all_inner_texts()]

    kept = roll("0", "1")  # Vigilance 2, ADR 2: two dice, both kept
    expect(line).to_have_text(f"Dés gardés : {kept[0]} + {kept[1]} = {sum(kept)} · Difficulté 10")
    kept = roll("0", "4")  # Vigilance 2, CHA 1: two dice, the best kept
    expect(line).to_have_text(f"Dé gardé : {kept[0]} · Difficulté 10")
    kept = roll("1", "1")  # Discrétion 1, ADR 2: one die, kept, and +1 for the missing die
    expect(line).to_have_text(f"Dé gardé : {kept[0]} + 1 d'écart = {kept[0] + 1} · Difficulté 10")
    app.click("#lang-toggle")
    expect(line).to_have_text(f"Kept die: {kept[0]} + 1 difference = {kept[0] + 1} · Difficulty 10")


#: The choices of a page's selects whose words do not fit their box (the select shows them cut).
CUT_CHOICES = """() => [...document.querySelectorAll('main select')].filter((s) => s.offsetParent !== null).flatMap((s) => {
  const style = getComputedStyle(s), ctx = document.createElement('canvas').getContext('2d');
  ctx.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
  const room = s.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 20;
  return [...s.options].filter((o) => ctx.measureText(o.text).width > room).map((o) => `${s.id}: ${o.text}`);
})"""


def test_unicreon_creation_counts_errors_once_they_show_and_its_choices_fit_a_phone(app_with):
    """A fresh Unicreon sheet announced "6 erreurs à corriger" while no field said what was wrong:
    the count now comes when the player tries to finish, every problem then shown at its field.
    A skill read "Tir à l'arc (Bon (+20))", now "Tir à l'arc — Bon (+20)"; the weapon chosen for a
    passe d'armes was cut on a phone (a select, "Arbalète (avec malus) [Perception max 9 PV] ·
    portée 15 m (max 30 m)"), as were the custom weapon's damage and the opposition's choices."""
    from unicreon_sheets import character, duel_state, with_items

    lina = ok({"op": "unicreon.character.new", "id": "uc-lina", "name": "Lina"})["character"]
    bea = with_items(character("uc-bea", "Béa"), "arbalete", "arc_long")
    bea["skills"] = [{"name": "Tir à l'arc", "level": "bon"}]
    state, _, _ = duel_state(bea)
    app = app_with(new_table([lina, bea], {"unicreon": {"combat": state, "custom_items": []}}), "unicreon/character/uc-lina")
    count = app.get_by_test_id("uc-problem-count")
    expect(count).to_have_text("Fiche en création : « Terminer la création » la vérifie et montre sous chaque champ "
                               "ce qui reste à corriger.")
    shown = app.locator("main .field-error[data-field]").filter(has_text=re.compile(r"\S"))
    expect(shown).to_have_count(0)
    app.click("#uc-finish-creation")
    expect(count).to_have_text("6 erreurs à corriger avant de jouer (voir les messages sous les champs).")
    expect(shown).to_have_count(6)
    for field in ("story", "origins", "job", "description", "don", "defaut"):
        expect(app.locator(f"#uc-{field}")).to_have_attribute("aria-invalid", "true")
    # The custom weapon's damage choice fits the phone.
    app.locator("#uc-custom > summary").click()
    app.select_option("#uc-cu-cat", "weapon")
    expect(app.locator("#uc-cu-kind")).to_be_visible()
    assert app.evaluate(CUT_CHOICES) == []

    # The skill with its level, without nested brackets.
    goto_route(app, "unicreon/test/uc-bea")
    expect(app.locator("#uc-t-skill option").nth(1)).to_have_text("Tir à l'arc — Bon (+20)")
    app.select_option("#uc-t-skill", "0")
    app.click("#uc-roll")
    doc = wait_saved(app, "d => d.log.some((e) => e.kind === 'unicreon.test')")
    label = next(e["label"] for e in doc["log"] if e["kind"] == "unicreon.test")
    assert label.endswith("Tir à l'arc — Bon (+20)") and "(Bon (+20))" not in label, label
    assert app.evaluate(CUT_CHOICES) == []

    # The passe d'armes: each weapon a choice whose words wrap within the phone.
    goto_route(app, "unicreon/combat")
    weapon = app.get_by_role("group", name="Arme")
    expect(weapon.get_by_role("radio")).to_have_count(4)  # bare hands, the couteau long, two bows
    crossbow = weapon.locator("label").filter(has_text="Arbalète (avec malus)")
    expect(crossbow).to_contain_text("portée")
    boxes = weapon.locator("label").evaluate_all(
        "xs => xs.map((x) => [Math.round(x.getBoundingClientRect().right), x.scrollWidth <= x.clientWidth])")
    assert all(right <= 360 and whole for right, whole in boxes), boxes
    crossbow.click()
    expect(weapon.get_by_role("radio", name=re.compile("Arbalète"))).to_be_checked()
    assert app.evaluate(CUT_CHOICES) == []
    no_horizontal_scroll(app)


def test_theorem_opposition_says_why_the_winners_degree_is_lower_than_its_total(app_with):
    """A winning total of 32 read "Réussite normale" with no reason given. It is the rule (003,
    "3) Les actions d'opposition": the loser's success cases are taken off the winner's, a
    winner keeps at least a réussite normale): 32 is a grande réussite (3 cases), the other
    side's 17 a réussite moyenne (2 cases), 3 − 2 = 1 case. The result now says so."""
    state = ok({"op": "theorem.state.new", "seed": 8})["state"]  # its deck gives 20 then 5
    app = app_with(new_table([theorem_joshua()], systems={"theorem": state}), "theorem/chase")
    for key in ("a", "b"):
        app.fill(f"#th-{key}-base", "12")
        app.press(f"#th-{key}-base", "Tab")
    app.click("#th-opp-draw")
    result = app.get_by_test_id("th-opp-result")
    expect(result).to_have_attribute("data-winner", "a")
    expect(app.get_by_test_id("th-opp-why")).to_have_text(
        "En opposition, les cases de réussite du perdant sont déduites de celles du vainqueur : 3 − 2 = 1 case, "
        "soit une réussite normale.")
    sides = app.get_by_test_id("th-opp-side")
    expect(sides.nth(0)).to_have_text("Premier camp : 32 → Grande réussite, ramenée à : Réussite normale")
    expect(sides.nth(1)).to_have_text("Second camp : 17 → Réussite moyenne, mais l'opposition est perdue : Échec")
    app.click("#lang-toggle")
    expect(app.get_by_test_id("th-opp-why")).to_have_text(
        "In an opposition, the loser's success cases are taken off the winner's: 3 − 2 = 1 case, that is a Réussite normale.")


def test_theorem_screen_reader_lines_follow_the_switch_to_english(app_with):
    """The Théorem pages' screen-reader line (a visually hidden live region) was written once, in
    French, and stayed French on the English page; so did an unnamed side's name in an
    opposition's result. They are now said in the language shown (i18n.said)."""
    state = ok({"op": "theorem.state.new", "seed": 8})["state"]  # the draw pile starts with the reine de coupe
    app = app_with(new_table([theorem_joshua()], systems={"theorem": state}), "theorem/test/th-josh")
    app.select_option("#th-skill", index=1)
    expect(app.locator("#th-draw")).to_be_enabled()
    app.click("#th-draw")
    announce = app.get_by_test_id("th-announce")
    expect(announce).to_contain_text("Figure tirée")
    french = announce.inner_text()
    app.click("#lang-toggle")
    expect(app.locator("html")).to_have_attribute("lang", "en")
    expect(announce).to_contain_text("Figure drawn")
    assert announce.inner_text() != french

    goto_route(app, "theorem/chase")
    app.click("#th-opp-draw")
    expect(announce).to_contain_text(re.compile(r"(First|Second) side wins|tie", re.IGNORECASE))
    app.click("#lang-toggle")
    expect(app.locator("html")).to_have_attribute("lang", "fr")
    expect(announce).to_contain_text(re.compile(r"(Premier|Second) camp l'emporte|Égalité"))
    expect(app.get_by_test_id("th-opp-side").first).to_contain_text("Premier camp :")


def test_versality_creation_counts_its_rules_once_their_messages_show(app_with):
    """A fresh Versality sheet said "7 règles encore à respecter (voir les messages sous les
    champs)" while no field said anything: the count pointed at messages nowhere on the page. As
    on Unicreon's sheet (views/forms.js `count`), the line now says how to see them, and the count
    comes when the player tries to validate, every rule's message then under its field."""
    mira = ok({"op": "versality.character.new", "id": "vs-mira", "name": "Mira"})["character"]
    app = app_with(new_table([mira]), "versality/character/vs-mira")
    count = app.get_by_test_id("vs-problem-count")
    expect(count).to_have_text("Création en cours : « Valider la création » vérifie la fiche et montre sous chaque "
                               "champ ce qui reste à corriger.")
    shown = app.locator("main .field-error[data-field]").filter(has_text=re.compile(r"\S"))
    expect(shown).to_have_count(0)
    # One field left: its message shows, the others not yet; still no count.
    app.focus("#vs-power-0")
    app.focus("#vs-name")
    expect(shown).to_have_count(1)
    expect(app.locator("[data-field=powers]")).to_have_text("Le personnage doit avoir un pouvoir.")
    expect(count).not_to_contain_text(re.compile(r"\d"))
    app.click("#vs-validate")
    expect(count).to_have_text(re.compile(r"^\d+ règles encore à respecter \(voir les messages sous les champs\)\.$"))
    n = int(count.inner_text().split()[0])
    # As many messages at their fields as the count says (several at one field are <br>-parted).
    messages = app.evaluate("""() => [...document.querySelectorAll('main .field-error[data-field]')]
      .filter((p) => p.textContent.trim()).reduce((n, p) => n + 1 + p.querySelectorAll('br').length, 0)""")
    assert messages == n, (messages, n)
    no_horizontal_scroll(app)
    app.click("#lang-toggle")
    expect(count).to_have_text(re.compile(r"^\d+ rules still broken \(see the messages under the fields\)\.$"))


#: Where a box's words start, from its label: [box right, box top, box bottom, words left, words top].
BOX_AND_WORDS = """(label) => {
  const box = label.querySelector('input').getBoundingClientRect();
  const range = document.createRange();
  range.selectNodeContents(label);
  range.setStartAfter(label.querySelector('input'));
  const words = [...range.getClientRects()].find((r) => r.width > 4);
  return [box.right, box.top, box.bottom, words.left, words.top];
}"""


def test_the_share_pages_choice_of_audience_has_its_words_beside_its_radio(app_with):
    """On a phone, the share page's "Pour qui" showed each radio alone on its line, a tall empty
    box, with its words on the line below: the shared field style (padding, a field's height)
    applied to checkboxes and radios, and only the systems' own `label.check` undid it. A box's
    words now sit beside it wherever it is (app.css)."""
    app = app_with(new_table(), "share")
    labels = app.locator("fieldset.share-audience label")
    expect(labels).to_have_count(2)
    for i in range(2):
        right, top, bottom, left, words_top = labels.nth(i).evaluate(BOX_AND_WORDS)
        assert left > right and top - 4 <= words_top <= bottom, (i, right, top, bottom, left, words_top)
        assert bottom - top < 30, (i, top, bottom)  # a box, not a text field's height
    no_horizontal_scroll(app)


def test_more_options_shows_that_it_opens_and_parts_its_count(app_with):
    """Every test page's folded "Plus d'options" read as a bold heading in a box: as a flex box
    the summary had lost its disclosure triangle, and the space before its count ("Plus
    d'options(1 réglée)"). Both are back (app.css `.more-options`)."""
    eve = ok({"op": "pointzero.character.new", "id": "pz-eve", "name": "Ève"})["character"]
    eve["skills"] = []  # no skill: the attribute test is set, "(1 réglée)"
    app = app_with(new_table([eve]), "pointzero/test/pz-eve")
    summary = app.get_by_test_id("more-options").locator("summary")
    expect(summary).to_contain_text("1 réglée")
    marker = summary.evaluate("(s) => getComputedStyle(s, '::before').content")
    assert "▾" in marker, marker  # open: a setting is in it
    gap = summary.evaluate("""(s) => {
      const range = document.createRange();
      range.setStart(s, 0);
      range.setEndBefore(s.querySelector('span'));
      return s.querySelector('span').getBoundingClientRect().left - range.getBoundingClientRect().right;
    }""")
    assert gap >= 3, gap
    summary.click()
    assert "▸" in summary.evaluate("(s) => getComputedStyle(s, '::before').content")


def test_versality_in_english_names_its_cards_as_its_help_does(app_with):
    """In English, Versality's help said "Base: one oui-et, one oui, two oui-mais … oui-et 3"
    beside chips and buttons reading "Yes, and…", "+ Yes, but… (1 pt)", "+ No, but… (covers 3)":
    two names for one card, and only one of them explained. Game terms keep their French names
    in both languages (DESIGN.md), so the cards are "Oui, et…", "Non, mais…" there too."""
    mira = ok({"op": "versality.character.new", "id": "vs-mira", "name": "Mira"})["character"]
    app = app_with(new_table([mira]), "versality/character/vs-mira")
    app.click("#lang-toggle")
    expect(app.locator("html")).to_have_attribute("lang", "en")
    expect(app.locator("main")).to_contain_text("Base: one oui-et, one oui, two oui-mais")
    chips = app.get_by_test_id("vs-deck-card")
    expect(chips.first).to_contain_text("Oui, et…")
    expect(app.locator("main")).not_to_contain_text(re.compile(r"\b(Yes|No), (and|but)"))
    no_horizontal_scroll(app)


def test_a_granted_gain_in_english_takes_an_english_colon(app_with):
    """SYSTMJ's end-of-session review listed what was granted as "Personnalité : 50 → 55" on the
    English page: a French colon written into the template. It, Versality's result steps, a
    Théorem arcana's logged effect and the live table's lists now take the language's colon."""
    aldo = ok({"op": "systmj.entity.new", "id": "sj-aldo", "name": "Aldo"})["character"]
    aldo["attributes"]["personnalite"] = 55
    aldo["progress"] = [{"session": 1, "kind": "attribute", "target": "attribute", "key": "personnalite",
                         "before": 50, "after": 55, "note": "Fin de campagne"}]
    state = ok({"op": "systmj.state.new"})["state"]
    app = app_with(new_table([aldo], {"systmj": state}), "systmj/review")
    granted = app.get_by_test_id("sj-granted")
    expect(granted).to_contain_text("Personnalité : 50 → 55")
    app.click("#lang-toggle")
    expect(granted).to_contain_text("Personnalité: 50 → 55")
    no_horizontal_scroll(app)


def test_versality_draw_waits_for_a_validated_creation_and_says_where_to_validate(app_with):
    """A character whose creation was not validated: the test page said its deck could not be
    played yet, yet "Piocher" stayed enabled, and each press only printed the same refusal once
    more under it. The button is now disabled, described by that reason, and a link leads to
    the sheet where the creation is validated."""
    mira = ok({"op": "versality.character.new", "id": "vs-mira", "name": "Mira"})["character"]
    app = app_with(new_table([mira]), "versality/test/vs-mira")
    draw = app.locator("#vs-draw")
    expect(app.locator("#vs-odds-error")).to_contain_text("La création de ce personnage n'est pas validée")
    expect(draw).to_be_disabled()
    expect(draw).to_have_attribute("aria-describedby", "vs-odds-error")
    app.get_by_test_id("vs-to-creation").click()
    expect(app.locator("#vs-validate")).to_be_visible()
    no_horizontal_scroll(app)
