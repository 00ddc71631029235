"""Point Zéro in a real browser at 360 px: a sheet with a bad value refused at its field, the
lock test (Mécanique/ADR[17], one die sacrificed) with its exact odds before the roll, an
opposition against an NPC, the MJ's secret threshold, Tension points up to Tension critique
(Surpassement refused, with the reason), and a reload that finds everything as it was.
Odds shown are checked against the rules package itself; a logged roll replays from its seed."""

from __future__ import annotations

from fractions import Fraction

import pytest
from playwright.sync_api import expect

from browser_support import axe_findings, new_table, no_horizontal_scroll, saved_document, wait_engine, wait_saved_where
from first_evening_support import sheet
from tablee.api import handle
from tablee.systems.pointzero import resolution as R

pytestmark = pytest.mark.slow


def go(page, route: str) -> None:
    page.goto(page.url.split("#")[0] + route)


def open_more(page) -> None:
    """Unfold a test page's rarer settings (folds them in "Plus d'options")."""
    more = page.locator("[data-testid=more-options]")
    if more.get_attribute("open") is None:
        more.locator("summary").click()
    expect(more).to_have_attribute("open", "")


def wait_doc(page, predicate: str) -> None:
    """Wait until the saved document satisfies a JS predicate on `d` (one that throws on a
    document not saved yet, a character created and not yet written, keeps waiting: a bare
    wait_for_function stops at the first exception)."""
    wait_saved_where(page, predicate, timeout=40_000)


def set_level(page, selector: str, value: str) -> None:
    page.fill(selector, value)
    page.press(selector, "Tab")


MIRA = "d.characters.find(c => c.system === 'pointzero')"


def test_lock_opposition_tension_critique_and_reload(app):
    go(app, "#/pointzero")
    expect(app.get_by_role("heading", name="Point Zéro", exact=True)).to_be_visible()
    no_horizontal_scroll(app)
    app.fill("#pz-new-name", "Mira")
    app.click("#pz-create")
    expect(app.locator("#pz-attr-1-level")).to_be_visible()

    # Adresse 4; a level of 12 is refused at its field and the saved sheet keeps 4.
    set_level(app, "#pz-attr-1-level", "4")
    wait_doc(app, f"{MIRA}.attributes[1].level === 4")
    set_level(app, "#pz-attr-1-level", "12")
    expect(app.locator("[data-field='attributes.1.level']")).to_have_text("Le niveau doit être un nombre entier de 0 à 10.")
    expect(app.locator("#pz-attr-1-level")).to_have_attribute("aria-invalid", "true")
    expect(app.locator("[data-testid=pz-sheet-status]")).to_contain_text("non enregistrée")
    assert saved_document(app)["characters"][0]["attributes"][1]["level"] == 4
    assert axe_findings(app) == []
    set_level(app, "#pz-attr-1-level", "4")
    expect(app.locator("[data-field='attributes.1.level']")).to_have_text("")
    # Skills: Mécanique 6, Discrétion 5.
    for i, (name, level) in enumerate((("Mécanique", "6"), ("Discrétion", "5"))):
        app.fill("#pz-new-skill", name)
        app.click("#pz-add-skill")
        expect(app.locator(f"#pz-skill-{i}-level")).to_be_visible()
        set_level(app, f"#pz-skill-{i}-level", level)
        wait_doc(app, f"{MIRA}.skills.length === {i + 1} && {MIRA}.skills[{i}].level === {level}")
    no_horizontal_scroll(app)

    # The lock: Mécanique/ADR[17] = Difficile 15 + 2 (half-light), one die sacrificed.
    app.click("#pz-to-test")
    app.select_option("#pz-t-attr", "1")
    app.select_option("#pz-t-diff", "difficile")
    open_more(app)
    app.click("#pz-mod-legere_defavorable-plus")
    expect(app.locator("[data-testid=pz-notation]")).to_have_text("Mécanique/ADR[17]")
    expect(app.locator("[data-testid=pz-surpassement]")).to_have_attribute("data-allowed", "0,1,2")
    app.check("#pz-sacrifice-1")
    lock = R.test_odds(R.plan_test("skill", 4, 6, sacrifice=1), 17)
    expect(app.locator("[data-testid=pz-odds-success]")).to_have_attribute("data-p", lock["success"]["p"])
    expect(app.locator("[data-testid=pz-odds-crit-failure]")).to_have_attribute("data-p", "1/7776")
    expect(app.locator("[data-testid=pz-compare] tbody tr")).to_have_count(3)
    no_horizontal_scroll(app)
    assert axe_findings(app) == []
    app.click("#pz-roll")
    result = app.locator("[data-testid=pz-result]")
    expect(result).to_be_visible()
    expect(app.locator("[data-testid=pz-result] [data-testid=pz-die]")).to_have_count(5)
    expect(app.locator("[data-testid=pz-result] [data-kept=true]")).to_have_count(4)
    wait_doc(app, "d.log.some(e => e.kind === 'pointzero.test')")
    entry = next(e for e in saved_document(app)["log"] if e["kind"] == "pointzero.test")
    assert entry["label"].startswith("Mécanique/ADR[17]") and entry["request"]["test"]["sacrifice"] == 1
    replay = handle(entry["request"])  # the logged request replays: same dice, same total
    assert replay["result"]["total"] == entry["result"]["total"] == int(result.get_attribute("data-total"))
    kept = [d["value"] for d in replay["result"]["dice"] if d["kept"]]
    assert replay["result"]["total"] == sum(kept) + 2

    # An opposition: Mira's Discrétion/ADR against a guard's Vigilance 3 / PER 3.
    app.select_option("#pz-t-skill", "1")
    app.fill("#pz-o-name", "Garde")
    app.press("#pz-o-name", "Tab")
    opp = R.opposition_odds(R.plan_test("skill", 4, 5), R.plan_test("skill", 3, 3))
    expect(app.locator("[data-testid=pz-opp-a]")).to_have_attribute("data-p", opp["a_wins"]["p"])
    expect(app.locator("[data-testid=pz-opp-b]")).to_have_attribute("data-p", opp["b_wins"]["p"])
    assert Fraction(opp["a_wins"]["p"]) + Fraction(opp["b_wins"]["p"]) == 1  # a tie goes to the higher skill
    app.click("#pz-oppose")
    expect(app.locator("[data-testid=pz-opp-result]")).to_be_visible()
    wait_doc(app, "d.log.some(e => e.kind === 'pointzero.opposition')")
    no_horizontal_scroll(app)

    # The MJ sets a secret threshold of 2.
    go(app, "#/pointzero/mj")
    app.select_option("#pz-mj-threshold-input", "2")
    app.click("#pz-mj-threshold-save")
    wait_doc(app, "d.systems.pointzero && d.systems.pointzero.threshold === 2")
    expect(app.locator("[data-testid=pz-mj-threshold]")).to_have_text("2")
    no_horizontal_scroll(app)
    assert axe_findings(app) == []

    # Players see the gauge, never the threshold.
    go(app, "#/pointzero")
    expect(app.locator("[data-testid=pz-gauge]")).to_have_attribute("data-gauge", "0")
    expect(app.locator("main")).not_to_contain_text("Seuil")
    app.get_by_role("link", name="Faire un test").first.click()

    # A Tension point: +2 dice declared before the roll (8 dice, up to 4 sacrificed).
    app.select_option("#pz-t-skill", "0")
    app.select_option("#pz-t-attr", "1")
    app.check("#pz-t-tension")
    expect(app.locator("[data-testid=pz-surpassement]")).to_have_attribute("data-allowed", "0,1,2,3,4")
    app.check("#pz-sacrifice-0")
    app.click("#pz-roll")
    wait_doc(app, "d.systems.pointzero?.entries.length === 1")
    expect(app.locator("[data-testid=pz-gauge]")).to_have_attribute("data-gauge", "1")
    expect(app.locator("[data-testid=pz-result] [data-testid=pz-die]")).to_have_count(8)
    # A second point reaches the threshold: Tension critique, Surpassement refused with the reason.
    app.check("#pz-t-tension")
    app.click("#pz-roll")
    wait_doc(app, "d.systems.pointzero?.entries.length === 2")
    expect(app.locator("[data-testid=pz-critical]")).to_be_visible()
    expect(app.locator("[data-testid=pz-surpassement]")).to_have_attribute("data-allowed", "0")
    expect(app.locator("[data-testid=pz-surpassement-refused]")).to_have_text(
        "Tension critique : le Surpassement n'est plus possible.")
    expect(app.locator("#pz-sacrifice-1")).to_have_count(0)
    no_horizontal_scroll(app)
    # The roll's log entry is saved by its own write after the state's: wait for both.
    wait_doc(app, "d.log.filter(e => e.kind === 'pointzero.test').length === 3")
    before = saved_document(app)

    # Reload: everything as it was.
    app.reload()
    wait_engine(app)
    expect(app.locator("[data-testid=pz-gauge]")).to_have_attribute("data-gauge", "2")
    expect(app.locator("[data-testid=pz-critical]")).to_be_visible()
    expect(app.locator("[data-testid=pz-surpassement]")).to_have_attribute("data-allowed", "0")
    after = saved_document(app)
    assert after["characters"] == before["characters"]
    assert after["log"] == before["log"] and after["systems"] == before["systems"]
    assert len([e for e in after["log"] if e["system"] == "pointzero"]) == 4
    go(app, "#/pointzero/mj")
    expect(app.locator("[data-testid=pz-mj-threshold]")).to_have_text("2")
    expect(app.locator("[data-testid=pz-mj-gauge]")).to_have_text("2")


def seed_table(app_with, chars: list[dict]):
    """The app opened on a new table holding these characters: one engine boot."""
    return app_with(new_table(chars))


def test_skill_at_zero_meticuleux_other_use_and_new_scenario(app_with):
    app = seed_table(app_with, [sheet("pz-ana", "Ana", [("Informatique", 0), ("Vigilance", 5)], ["Méticuleux"])])
    go(app, "#/pointzero/test/pz-ana")
    # A skill at 0 is not rolled: the attribute test is offered instead.
    expect(app.locator("[data-testid=pz-odds-error]")).to_contain_text("Une compétence à 0 ne se lance pas")
    expect(app.locator("#pz-roll")).to_be_disabled()
    app.click("#pz-to-attribute")
    expect(app.locator("[data-testid=pz-notation]")).to_have_text("VIG[10]")
    expect(app.locator("[data-testid=pz-odds-success]")).to_have_attribute(
        "data-p", R.test_odds(R.plan_test("attribute", 3), 10)["success"]["p"])
    # Méticuleux: Vigilance 5 / ADR 2, then keep the two lowest dice instead of the best.
    open_more(app)
    app.check("#pz-kind-skill")
    app.select_option("#pz-t-skill", "1")
    app.select_option("#pz-t-attr", "1")
    app.check("#pz-sacrifice-0")
    app.click("#pz-roll")
    expect(app.locator("[data-testid=pz-result] [data-kept=true]")).to_have_count(2)
    app.click("#pz-choose-keep")
    dice = app.locator("[data-testid=pz-result] button[data-testid=pz-die]")
    expect(dice).to_have_count(5)
    for i in range(5):
        if dice.nth(i).get_attribute("aria-pressed") == "true":
            dice.nth(i).click()
    values = [int(dice.nth(i).inner_text()) for i in range(5)]
    lowest = sorted(range(5), key=lambda i: (values[i], i))[:2]
    for i in lowest:
        dice.nth(i).click()
    app.click("#pz-keep-apply")
    expect(app.locator("[data-testid=pz-total]")).to_have_text(str(sum(values[i] for i in lowest)))
    wait_doc(app, "d.log.some(e => e.request.keep && e.request.keep.length === 2)")
    entry = saved_document(app)["log"][-1]
    assert handle(entry["request"])["result"]["total"] == entry["result"]["total"]  # replays with the keep choice
    # A bad NPC level is refused at its field; the previous one stays.
    app.fill("#pz-o-attr-level", "14")
    app.press("#pz-o-attr-level", "Tab")
    expect(app.locator("#pz-o-attr-level-error")).to_contain_text("Un nombre entier de 0 à 10")
    expect(app.locator("#pz-o-attr-level")).to_have_attribute("aria-invalid", "true")
    expect(app.locator("[data-testid=pz-opp-odds]")).to_be_visible()

    # Another use of a Tension point, recorded as free text; then a new scenario empties the gauge.
    go(app, "#/pointzero")
    # Duplicate (every field travels, a new id), then delete the copy after a confirmation.
    app.get_by_role("button", name="Dupliquer Ana").click()
    wait_doc(app, "d.characters.length === 2")
    copy = saved_document(app)["characters"][1]
    assert copy["name"] == "Copie d'Ana" and copy["id"] != "pz-ana" and copy["skills"] == saved_document(app)["characters"][0]["skills"]
    app.get_by_role("button", name="Supprimer Copie d'Ana").click()
    app.click("[data-testid=pz-confirm-delete]")
    wait_doc(app, "d.characters.length === 1")
    app.click("#pz-other-add")
    expect(app.locator("#pz-other-error")).to_contain_text("Décrivez l'usage")
    app.select_option("#pz-other-who", "pz-ana")
    app.fill("#pz-other-note", "Trouver un indice")
    app.click("#pz-other-add")
    wait_doc(app, "d.systems.pointzero?.entries.length === 1")
    expect(app.locator("[data-testid=pz-gauge]")).to_have_attribute("data-gauge", "1")
    assert saved_document(app)["systems"]["pointzero"]["entries"] == [
        {"kind": "other", "who": "Ana", "note": "Trouver un indice"}]
    no_horizontal_scroll(app)
    assert axe_findings(app) == []
    go(app, "#/pointzero/mj")
    app.select_option("#pz-mj-next", "4")
    app.click("#pz-mj-new")
    app.click("#pz-mj-new-yes")
    wait_doc(app, "d.systems.pointzero?.scenario === 2")
    assert saved_document(app)["systems"]["pointzero"] == {"threshold": 4, "scenario": 2, "entries": []}
    # English is one click away; game terms keep their French names.
    app.click("#lang-toggle")
    expect(app.get_by_role("heading", name="Point Zéro — GM's screen")).to_be_visible()
    expect(app.locator("[data-testid=pz-mj-threshold]")).to_have_text("4")
