"""The odds at a glance (a phone, 360×740): every test page shows one outcome bar beside its
headline (static/js/views/odds-bar.js), and each bar's segments are the engine's exact odds.

The engine called in Python on the same request is the oracle: a bar's segments (their
`data-p`, worst outcome to best) are the outcomes it gives, they add up to exactly 1, and each
is drawn as wide as its share of the bar. The exact fractions open from a tap or the keyboard,
screen readers read them in the bar's summary, and the comparisons (Point Zéro's Surpassements,
Théorem's exploits) are bars side by side, each the engine's answer for its option."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest
from playwright.sync_api import expect

from browser_support import goto_route, new_table, no_horizontal_scroll, ok, versality_character
from first_evening_support import pz_sheet, systmj_character, theorem_table
from odds_bar_reading import bar, nonzero


def wait_bar(page, selector: str, want: list[tuple[str, str]]) -> None:
    """Wait until the bar shows ``want`` (the page asks the engine again after each change)."""
    page.wait_for_function(
        "([sel, w]) => { const b = document.querySelector(sel); return b && JSON.stringify("
        "[...b.querySelectorAll('.ob-track .ob-seg')].map(s => [s.dataset.outcome, s.dataset.p])) === JSON.stringify(w); }",
        arg=[selector, [list(x) for x in want]])
    assert bar(page, selector) == want


def four(o: dict) -> list[tuple[str, str]]:
    """A Point Zéro test's four outcomes: a critical failure is a failure, a critical success a
    success (rule text "Réussites et échecs critiques")."""
    s, cf, cs = (Fraction(o[k]["p"]) for k in ("success", "critical_failure", "critical_success"))
    return nonzero([("critical_failure", cf), ("failure", 1 - s - cf), ("success", s - cs), ("critical_success", cs)])


@pytest.mark.slow
def test_every_test_page_shows_its_outcome_bar_with_the_engines_exact_odds(app_with):
    """One table with a character of each system, each test page in turn at 360 px."""
    from unicreon_sheets import character

    josh, th_state = theorem_table()
    bea = character("uc-bea", "Béa")
    ana = versality_character("vs-ana", "Ana")
    app = app_with(new_table([pz_sheet(), systmj_character(), ana, josh, bea],
                             {"systmj": ok({"op": "systmj.state.new"})["state"], "theorem": th_state}))

    # Point Zéro: the headline's bar, the Surpassements side by side, the margin's start.
    goto_route(app, "pointzero/test/pz-eve")
    app.select_option("#pz-t-diff", "moyen")
    app.locator("#pz-t-tension").check()
    spec = {"kind": "skill", "skill": 3, "attribute": 3, "difficulty": "moyen", "tension": True, "sacrifice": 0}
    oracle = ok({"op": "pointzero.test.odds", "test": spec})
    wait_bar(app, "[data-testid=pz-odds-bar]", four(oracle["odds"]))
    expect(app.get_by_test_id("pz-odds-success")).to_have_attribute("data-p", oracle["odds"]["success"]["p"])
    for row in oracle["comparison"]:
        assert bar(app, f"[data-testid=pz-compare-bars-{row['sacrifice']}]") == four(row)
    expect(app.locator("[data-testid=pz-compare-bars] li.ob-current")).to_have_attribute("data-key", "0")
    expect(app.get_by_test_id("pz-best-note")).to_contain_text("la plus forte chance de réussite")
    app.locator(".pz-margin > summary").click()
    starts = app.locator("[data-testid=pz-margin] tr.row-starts th")
    expect(starts).to_have_text("0")
    expect(app.get_by_test_id("pz-margin-starts")).to_be_visible()
    # The exact fractions: screen readers have them in the summary; a tap opens them.
    headline = app.get_by_test_id("pz-odds-bar")
    success = oracle["odds"]["success"]["p"]
    plain_failure = Fraction(oracle["odds"]["failure"]["p"]) - Fraction(oracle["odds"]["critical_failure"]["p"])
    expect(headline.locator("summary .visually-hidden")).to_contain_text(f"({plain_failure})")
    expect(headline.locator(".ob-exact")).to_be_hidden()
    headline.locator("summary").click()
    expect(headline.locator(".ob-exact li[data-outcome=failure]")).to_be_visible()
    assert Fraction(headline.locator(".ob-exact li[data-outcome=success]").get_attribute("data-p")) == (
        Fraction(success) - Fraction(oracle["odds"]["critical_success"]["p"]))
    # The opposition on the same page: its bar is its headline's numbers (the other side wins,
    # a perfect tie, this one wins), which e2e/test_pointzero_theorem_opposition_forms.py ties to the engine.
    expect(app.get_by_test_id("pz-opp-a")).to_have_attribute("data-p", re.compile(r"\d"))
    heads = {k: app.get_by_test_id(f"pz-opp-{k}").get_attribute("data-p") for k in ("a", "b", "tie")}
    assert bar(app, "[data-testid=pz-opp-bar]") == nonzero(
        [("b_wins", heads["b"]), ("perfect_tie", heads["tie"]), ("a_wins", heads["a"])])
    no_horizontal_scroll(app)

    # SYSTMJ: the six rows of a d100 test, worst to best.
    goto_route(app, "systmj/test/sj-ada")
    app.select_option("#sj-t-pick", "skill:detection")
    rows = {r["outcome"]: r["fraction"] for r in ok({"op": "systmj.test.odds", "score": 47})["rows"]}
    order = ["critical_failure", "failure", "justesse", "moyenne", "notable", "critical_success"]
    wait_bar(app, "[data-testid=sj-odds-bar]", nonzero((k, rows[k]) for k in order))
    no_horizontal_scroll(app)

    # Versality: the ladder from the critical failure to « Oui, et », keyboard opens it.
    goto_route(app, "versality/test/vs-ana")
    app.select_option("#vs-test-char", "physique")
    app.select_option("#vs-test-skill", "combattre")
    app.select_option("#vs-test-diff", "facile")
    final = ok({"op": "versality.test.odds", "character": ana, "characteristic": "physique", "skill": "combattre",
                "difficulty": "facile", "force": False, "faiblesse": False})["final"]
    wait_bar(app, "[data-testid=vs-odds-bar]", nonzero((r["outcome"], r["fraction"]) for r in reversed(final)))
    summary = app.locator("[data-testid=vs-odds-bar] > summary")
    summary.focus()
    app.keyboard.press("Enter")
    expect(app.locator("[data-testid=vs-odds-bar] .vs-fractions li[data-outcome=oui-et]")).to_be_visible()
    expect(app.locator("[data-testid=vs-odds-bar] .vs-fractions li[data-outcome=oui-et]")).to_contain_text("13/28")
    no_horizontal_scroll(app)

    # Théorem: the levels, and the exploits the character can pay compared side by side.
    goto_route(app, "theorem/test/th-josh")
    app.select_option("#th-sphere", "divinite")
    app.select_option("#th-skill", "")
    request = {"op": "theorem.action.odds", "state": th_state, "character": josh, "sphere": "divinite",
               "modifier": 0, "exploit": 0, "retest": False, "arcane": False}
    levels = ok(request)["levels"]
    wait_bar(app, "[data-testid=th-odds-bar]", nonzero((r["level"], r["fraction"]) for r in levels))
    app.locator("[data-testid=th-exploits] > summary").click()
    for n in range(min(josh["spheres"]["divinite"], josh["realite"]) + 1):
        want = nonzero((r["level"], r["fraction"]) for r in ok({**request, "exploit": n})["levels"])
        wait_bar(app, f"[data-testid=th-exploit-bars-{n}]", want)
    no_horizontal_scroll(app)

    # Unicreon: the failure, then each band of the résultat réel.
    goto_route(app, "unicreon/test/uc-bea")
    app.select_option("#uc-t-char", "agilite")
    app.select_option("#uc-t-diff", "moyen")
    test = {"characteristic": "agilite", "difficulty": "moyen", "bonus": 0, "malus": 0}
    uc = ok({"op": "unicreon.test.odds", "test": test, "character": bea})
    wait_bar(app, "[data-testid=uc-odds-bar]",
             nonzero([("failure", uc["failure"]["p"]), *((b, uc["bands"][b]["p"]) for b in ("bof", "bien", "top"))]))
    no_horizontal_scroll(app)


def test_an_attacks_bar_splits_the_hit_into_absorbed_and_not_and_compares_the_what_if(app_with):
    """Unicreon's passe d'armes: missed, hit but absorbed, hit through: the engine's 1296 pairs;
    with the defender's difficulty changed, the hit now and at Moyen as bars side by side."""
    from unicreon_sheets import character, duel_state, go, seed_document

    bea = character("uc-bea", "Béa")
    state, _, _ = duel_state(bea)
    app = seed_document(app_with, [bea], state)
    go(app, "#/unicreon/combat")
    app.check("#uc-a-weapon-i1")
    expect(app.get_by_test_id("uc-odds-hit")).to_have_attribute("data-p", "55/144")
    drawn = dict(bar(app, "[data-testid=uc-attack-bar]"))
    assert drawn["miss"] == "89/144"
    assert Fraction(drawn.get("absorbed", "0")) + Fraction(drawn.get("hit", "0")) == Fraction(55, 144)
    # The MJ's what-if: a surprised defender (one step harder) beside the same one at Moyen.
    app.check("#uc-a-surprise")
    expect(app.get_by_test_id("uc-odds-hit")).to_have_attribute("data-p", "85/216")
    assert bar(app, "[data-testid=uc-whatif-now]") == [("miss", "131/216"), ("hit", "85/216")]
    assert bar(app, "[data-testid=uc-whatif-moyen]") == [("miss", "89/144"), ("hit", "55/144")]
    expect(app.locator("[data-testid=uc-whatif] li.ob-current")).to_have_attribute("data-key", "now")
    no_horizontal_scroll(app)
