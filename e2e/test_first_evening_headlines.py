"""The first evening, the odds again (a phone, 360×740): on every system's test page, every table
agrees with the headline, and both with the engine's exact answer, for the system's core options
including those that change the dice (a bonus, a played arcane, a force, a skill). Point Zéro's
page has its own test in e2e/test_first_evening_odds.py.

Each check reads the exact fractions the page carries (`data-p` on the headline and on every
row of the shared distribution table, static/js/views/dice-ui.js) and compares them, as
`Fraction`s, with the engine called in Python on the same request: the engine is the oracle,
and the page must show the same numbers in each of its places.

And long fractions (a Théorem chain over 56 cards runs to 40 digits) never overflow on the
phone: the percentage shows, the fraction unfolds on a tap or from the keyboard, and screen
readers read it in the summary."""

from __future__ import annotations

from fractions import Fraction

from playwright.sync_api import expect

from browser_support import goto_route, new_table, no_horizontal_scroll, ok, versality_character
from first_evening_support import systmj_character, theorem_table
from tablee.systems.systmj.data import MODIFIERS as SJ_MODIFIERS

# The fractions a page shows: the headline's and every distribution table's rows (in order).
READ_PAGE = """([headline, table]) => ({
  headline: headline ? [...document.querySelectorAll(headline)].map(e => e.dataset.p) : [],
  rows: [...document.querySelectorAll(table + ' table.odds-table tbody tr')].map(r => r.dataset.p),
})"""


def page_fractions(page, headline: str | None, table: str) -> dict:
    return page.evaluate(READ_PAGE, [headline, table])


def fractions(values) -> list[Fraction]:
    return [Fraction(v) for v in values]


def test_systmj_headline_and_outcome_table_agree_with_the_engine_for_each_bonus(app_with):
    """The success chance (headline) is the sum of the four success rows of the outcome table
    (critique, notable, moyenne, de justesse), and every row is the engine's, for the MJ's
    bonuses and maluses of the text's table and a value of the MJ's own."""
    state = ok({"op": "systmj.state.new"})["state"]
    app = app_with(new_table([systmj_character()], {"systmj": state}))
    goto_route(app, "systmj/test/sj-ada")
    app.select_option("#sj-t-pick", "skill:detection")
    order = ["critical_success", "notable", "moyenne", "justesse", "failure", "critical_failure"]
    cases = [("normal", 0), ("tres_facile", SJ_MODIFIERS["tres_facile"]), ("ardu", SJ_MODIFIERS["ardu"]), ("custom", 7)]
    for key, value in cases:
        app.select_option("#sj-t-mod", key)
        if key == "custom":
            app.fill("#sj-t-custom", str(value))
            app.press("#sj-t-custom", "Tab")
        request = {"op": "systmj.test.odds", "score": 47}
        if value:
            request["modifiers"] = [{"source": "mj", "value": value, "label": key}]
        oracle = ok(request)
        expect(app.get_by_test_id("sj-odds")).to_have_attribute("data-effective", str(47 + value))
        expect(app.get_by_test_id("sj-odds-success")).to_have_attribute("data-p", oracle["success"]["fraction"])
        by = {r["outcome"]: r["fraction"] for r in oracle["rows"]}
        seen = page_fractions(app, "[data-testid=sj-odds-success]", "[data-testid=sj-odds-table]")
        assert seen["rows"] == [by[k] for k in order], key
        rows = fractions(seen["rows"])
        assert Fraction(seen["headline"][0]) == sum(rows[:4]), key
        assert sum(rows) == 1
    no_horizontal_scroll(app)


# ------------------------------------------------------------------ Versality
def test_versality_inline_odds_and_outcome_table_agree_with_the_engine_with_force_and_faiblesse(app_with):
    """The odds line above the draw button (each possible outcome) and the outcome table after it
    are the engine's final outcomes, for each difficulty and with a force or a faiblesse (which
    change what is drawn)."""
    ana = versality_character("vs-ana", "Ana")
    app = app_with(new_table([ana]))
    goto_route(app, "versality/test/vs-ana")
    app.select_option("#vs-test-char", "physique")
    app.select_option("#vs-test-skill", "combattre")
    more = app.get_by_test_id("more-options")
    if more.get_attribute("open") is None:
        more.locator("summary").click()
    cases = [("facile", False, False), ("facile", True, False), ("complexe", False, True), ("conventionnelle", True, True)]
    for difficulty, force, faiblesse in cases:
        app.select_option("#vs-test-diff", difficulty)
        app.locator("#vs-force").set_checked(force)
        app.locator("#vs-faiblesse").set_checked(faiblesse)
        oracle = ok({"op": "versality.test.odds", "character": ana, "characteristic": "physique", "skill": "combattre",
                     "difficulty": difficulty, "force": force, "faiblesse": faiblesse})
        rule = app.get_by_test_id("vs-rule")
        expect(rule).to_have_attribute("data-count", str(oracle["count"]))
        expect(rule).to_have_attribute("data-rule", oracle["rule"])
        final = oracle["final"]
        shown = [r for r in final if r["fraction"] != "0/1"]
        inline = app.locator("[data-testid=vs-odds] .vs-fractions li")
        expect(inline).to_have_count(len(shown))
        for r in shown:
            expect(app.locator(f".vs-fractions li[data-outcome={r['outcome']}]")).to_have_attribute("data-p", r["fraction"])
        # The table's rows, in the engine's order, once the page shows this request's odds.
        want = [r["fraction"] for r in final]
        app.wait_for_function(
            "w => JSON.stringify([...document.querySelectorAll('[data-testid=vs-odds-table] tbody tr')]"
            ".map(r => r.dataset.p)) === JSON.stringify(w)", arg=want)
        assert sum(fractions(want)) == 1
    no_horizontal_scroll(app)


def test_theorem_level_line_level_table_and_value_table_agree_with_the_engine(app_with):
    """The levels above the draw button (headline), the level table and the drawn-value table are
    the engine's, for a sphere, a skill, a modifier, an exploit and with an arcane played for its
    value (which replaces the drawn chain); the levels add up to 1 and each level is the sum of
    the value rows it covers."""
    josh, state = theorem_table()
    app = app_with(new_table([josh], {"theorem": state}))
    goto_route(app, "theorem/test/th-josh")
    more = app.get_by_test_id("more-options")
    if more.count() and more.get_attribute("open") is None:
        more.locator("summary").click()
    cases = [
        ("animalite", "Escalade", 0, 0, False),
        ("humanite", "", -2, 0, False),
        ("divinite", "Escalade", 0, 2, False),
        ("animalite", "Escalade", 0, 0, True),
    ]
    for sphere, skill, modifier, exploit, arcane in cases:
        app.select_option("#th-sphere", sphere)
        app.select_option("#th-skill", skill)
        app.select_option("#th-modifier", str(modifier))
        app.select_option("#th-exploit", str(exploit))
        app.locator("#th-arcane-odds").set_checked(arcane)
        request = {"op": "theorem.action.odds", "state": state, "character": josh, "sphere": sphere,
                   "modifier": modifier, "exploit": exploit, "retest": False, "arcane": arcane}
        if skill:
            request["skill"] = skill
        oracle = ok(request)
        expect(app.get_by_test_id("th-odds")).to_have_attribute("data-base", str(oracle["base"]))
        levels = [r["fraction"] for r in reversed(oracle["levels"])]
        app.wait_for_function(
            "w => JSON.stringify([...document.querySelectorAll('[data-testid=th-level-odds] li')].map(e => e.dataset.p))"
            " === JSON.stringify(w)", arg=levels)
        seen = page_fractions(app, "[data-testid=th-level-odds] li", "[data-testid=th-level-table]")
        assert seen["rows"] == levels == seen["headline"]
        assert sum(fractions(levels)) == 1
        values = page_fractions(app, None, ".th-value-odds")["rows"]
        assert values == [r["fraction"] for r in oracle["value"]]
        assert sum(fractions(values)) == 1
        # Each level is the sum of the drawn values whose score (base + value) falls in its band
        # of the success table ("7) Modificateurs et réussites"): a brute-force oracle.
        bands = sorted(state["success_table"], key=lambda r: r["min"])
        by_level = dict.fromkeys(["grande", "moyenne", "normale", "echec"], Fraction(0))
        for r in oracle["value"]:
            score = oracle["base"] + r["value"]
            level = next((b["level"] for b in reversed(bands) if score >= b["min"]), "echec")
            by_level[level] += Fraction(r["fraction"])
        shown = {r["level"]: Fraction(r["fraction"]) for r in oracle["levels"]}
        assert shown == by_level
    no_horizontal_scroll(app)


def test_long_fractions_fold_behind_the_percentage_on_a_phone_and_open_from_the_keyboard(app_with):
    """Théorem's odds over 56 cards (fractions of 20 to 40 digits): in the level table and the
    value table, each long fraction is a percentage whose fraction a tap or the keyboard unfolds;
    nothing overflows its box at 360 px, folded or unfolded, and the summary carries the
    fraction for screen readers."""
    josh, state = theorem_table()
    app = app_with(new_table([josh], {"theorem": state}))
    goto_route(app, "theorem/test/th-josh")
    table = app.get_by_test_id("th-level-table")
    folded = table.locator("details.prob-more")
    expect(folded).to_have_count(4)  # the four levels, each fraction longer than a phone line
    first = folded.first
    fraction = first.get_attribute("data-p")
    assert len(fraction) > 20
    expect(first).not_to_have_attribute("open", "")
    # Screen readers read the fraction in the summary, without opening it.
    expect(first.locator("summary .visually-hidden")).to_have_text(f" ({fraction})")
    # Keyboard: Tab reaches the summary, Enter unfolds the fraction.
    first.locator("summary").focus()
    expect(first.locator("summary")).to_be_focused()
    app.keyboard.press("Enter")
    expect(first).to_have_attribute("open", "")
    expect(first.locator(".frac-line")).to_have_text(fraction)
    expect(first.locator(".frac-line")).to_be_visible()
    # Unfold every long fraction on the page (value table too), then nothing overflows.
    app.locator(".th-value-odds > summary").click()
    app.evaluate("() => document.querySelectorAll('details.prob-more').forEach(d => { d.open = true; })")
    over = app.evaluate("""() => [...document.querySelectorAll(
        'details.prob-more, details.prob-more .frac-line, .odds-table td, [data-testid=th-level-odds] li')]
        .filter(e => e.offsetParent !== null && e.scrollWidth > e.clientWidth + 1)
        .map(e => e.className + ' ' + e.scrollWidth + '>' + e.clientWidth)""")
    assert over == []
    boxes = app.evaluate("""() => [...document.querySelectorAll('.odds-table-box, .odds-scroll')]
        .filter(e => e.offsetParent !== null && e.scrollWidth > e.clientWidth + 1).map(e => e.className)""")
    assert boxes == []
    no_horizontal_scroll(app)


def test_versality_odds_line_uses_the_shared_probability_and_fits_a_phone(app_with):
    """Versality's odds line (what its outcome bar opens onto) shows each outcome as the shared
    probability (percentage, fraction beside it or on demand) and nothing in it overflows at 360 px."""
    ana = versality_character("vs-ana", "Ana")
    app = app_with(new_table([ana]))
    goto_route(app, "versality/test/vs-ana")
    app.select_option("#vs-test-char", "physique")
    app.select_option("#vs-test-skill", "combattre")
    app.select_option("#vs-test-diff", "facile")
    item = app.locator(".vs-fractions li[data-outcome=oui-et]")
    expect(item).to_have_attribute("data-p", "13/28")
    app.locator("[data-testid=vs-odds-bar] > summary").click()  # the outcome bar opens onto the list
    expect(item).to_be_visible()
    expect(item.locator(".prob[data-p='13/28']")).to_contain_text("(13/28)")
    over = app.evaluate("""() => [...document.querySelectorAll('.vs-fractions li, .vs-fractions .prob')]
        .filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.textContent)""")
    assert over == []
    no_horizontal_scroll(app)


# ------------------------------------------------------------------ Unicreon
def test_unicreon_headline_and_band_table_agree_with_the_engine_with_a_skill(app_with):
    """The success chance is the sum of the band rows (all but the failure row), the failure row
    its complement, and every row the engine's, with and without the character's skill and for
    each difficulty."""
    from unicreon_sheets import character

    bea = character("uc-bea", "Béa")
    bea["skills"] = [{"name": "Escrime", "level": "bon"}]
    app = app_with(new_table([bea]))
    goto_route(app, "unicreon/test/uc-bea")
    cases = [("agilite", "moyen", ""), ("agilite", "moyen", "0"), ("puissance", "difficile", "0"), ("volonte", "facile", "")]
    for characteristic, difficulty, skill in cases:
        app.select_option("#uc-t-char", characteristic)
        app.select_option("#uc-t-diff", difficulty)
        app.select_option("#uc-t-skill", skill)
        test = {"characteristic": characteristic, "difficulty": difficulty, "bonus": 0, "malus": 0}
        if skill:
            test["skill"] = "bon"
        oracle = ok({"op": "unicreon.test.odds", "test": test, "character": bea})
        expect(app.get_by_test_id("uc-odds")).to_have_attribute("data-target", str(oracle["target"]))
        expect(app.get_by_test_id("uc-odds-success")).to_have_attribute("data-p", oracle["success"]["p"])
        seen = page_fractions(app, "[data-testid=uc-odds-success]", "[data-testid=uc-odds-table]")
        want = [oracle["bands"][b]["p"] for b in ("bof", "bien", "top")] + [oracle["failure"]["p"]]
        assert seen["rows"] == want
        rows = fractions(seen["rows"])
        assert Fraction(seen["headline"][0]) == sum(rows[:-1]) == 1 - rows[-1]
    no_horizontal_scroll(app)


def test_the_dice_trays_long_fractions_fold_too(app):
    """The shared distribution table folds long fractions wherever it is used: 12d10 on the dice
    tray has fractions of a trillion (1/1000000000000), each shown as its percentage, the
    fraction in the summary for screen readers and unfolded on demand, within the phone's width."""
    app.fill("#dice-expr", "12d10")
    rows = app.locator("#odds tbody tr")
    expect(rows).to_have_count(109)  # 12 to 120
    expect(rows.first).to_have_attribute("data-p", "1/1000000000000")
    first = rows.first.locator("details.prob-more")
    expect(first.locator("summary .visually-hidden")).to_have_text(" (1/1000000000000)")
    first.locator("summary").focus()
    app.keyboard.press("Enter")
    expect(first.locator(".frac-line")).to_have_text("1/1000000000000")
    app.evaluate("() => document.querySelectorAll('#odds details.prob-more').forEach(d => { d.open = true; })")
    over = app.evaluate("""() => [...document.querySelectorAll('#odds details.prob-more, #odds .frac-line, #odds td, #odds .odds-scroll')]
        .filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.className + ' ' + e.scrollWidth + '>' + e.clientWidth)""")
    assert over == []
    no_horizontal_scroll(app)
