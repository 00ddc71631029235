"""The test pages of the five systems at 360 px and 1280 px: the common setup, the odds
summary and the roll button within the first phone screen; no horizontal scroll; no exact fraction
broken over two lines; two columns on a laptop (the odds to the right of the setup, the character's
key numbers beside the test); after a keyboard roll the focus is on the result, and the roll button
is one Shift+Tab away and rolls again; the settings come back after a reload; a logged roll replays
identically ("Vérifier / rejouer"), and the seed is shown only there. Every wait is on a state
(a rendered result, a saved log entry), never on a delay."""

from __future__ import annotations

import os
from dataclasses import dataclass

import pytest
from playwright.sync_api import expect

from browser_support import (
    axe_findings,
    goto_route,
    new_table,
    no_horizontal_scroll,
    saved_document,
    wait_engine,
    wait_log,
)


@dataclass(frozen=True)
class Page:
    system: str
    cid: str
    roll: str  # the roll (or draw) button
    result: str  # the result section
    odds: str  # the odds summary
    setting: str  # a common setting (a select) …
    value: str  # … and a value other than its default
    # Choices the rules make core, shown unfolded on the first screen before the odds (Point
    # Zéro's Tension point and Surpassement, announced before the roll): on a 740 px phone the
    # odds and the roll button then come just below the first screen, right after the setup.
    core: str | None = None


PAGES = {
    "unicreon": Page("unicreon", "t13-uc", "#uc-roll", "[data-testid=uc-result]", "[data-testid=uc-odds]", "#uc-t-diff", "difficile"),
    "pointzero": Page("pointzero", "t13-pz", "#pz-roll", "[data-testid=pz-result]", "[data-testid=pz-odds]", "#pz-t-diff", "difficile",
                      core="#pz-t-tension"),
    "systmj": Page("systmj", "t13-sj", "#sj-roll", "[data-testid=sj-result]", "[data-testid=sj-odds]", "#sj-t-mod", "ardu"),
    "versality": Page("versality", "t13-vs", "#vs-draw", "#vs-hand-title", "[data-testid=vs-odds]", "#vs-test-diff", "complexe"),
    "theorem": Page("theorem", "t13-th", "#th-draw", "[data-testid=th-chain], [data-testid=th-result], [data-testid=th-decide]",
                    "[data-testid=th-odds]", "#th-modifier", "-2"),
}


def character(system: str, cid: str) -> dict:
    if system == "unicreon":
        return {
            "id": cid, "system": "unicreon", "name": "Ana", "created": True, "story": "Gardienne de phare.",
            "origins": "Nord", "job": "Escrimeuse", "description": "Grande", "don": "Nyctalope", "defaut": "Têtue",
            "secret": "", "characteristics": {"puissance": 20, "agilite": 40, "perception": 40, "volonte": 50},
            "skills": [{"name": "Escalade", "level": "bon"}], "pv": 12, "pv_max": 12, "po": 0, "conditions": [],
            "down": None, "ignore_encumbrance": False, "important_npc": False, "inventory": [],
        }
    if system == "pointzero":
        return {
            "id": cid, "system": "pointzero", "name": "Ana",
            "attributes": [{"code": "VIG", "name": "Vigueur", "level": 3}, {"code": "ADR", "name": "Adresse", "level": 2},
                           {"code": "PER", "name": "Perception", "level": 3}, {"code": "COG", "name": "Cognition", "level": 2}],
            "skills": [{"name": "Vigilance", "level": 4}], "atouts": [], "notes": "",
        }
    if system == "versality":
        deck = [{"kind": k, "origin": "base"} for k in ("oui-et", "oui", "oui-mais", "oui-mais")]
        deck += [{"kind": k, "origin": "creation"} for k in ("oui-et", "oui", "non-mais", "non-mais")]
        return {
            "id": cid, "system": "versality", "name": "Ana", "created": True,
            "powers": [{"text": "Télékinésie", "approved": True}], "forces": ["Agile"], "faiblesses": ["Naïve"],
            "traits_approved": True, "characteristics": {"physique": 2, "mental": 0, "personnalite": 1},
            "skills": {"traquer": 3, "survivre": 1, "terroriser": 0, "combattre": 1, "soulager": 0,
                       "comprendre": 0, "fureter": 0, "resister": 0},
            "deck": deck, "wounds": {"physique": 0, "mental": 0, "personnalite": 0},
            "incapacitated": False, "heal_used": False, "improvement_points": 0,
        }
    from tablee.api import handle

    r = handle({"op": f"{system}.character.new", "id": cid, "name": "Ana"})
    assert "error" not in r, r
    c = r["character"]
    if system == "systmj":
        c["skills"]["detection"] = 45  # a skill worth rolling (0 is an automatic failure)
    return c


def open_test(app_with, p: Page):
    """The app opened (one engine boot) on a table holding this system's character, on its test page."""
    app = app_with(new_table([character(p.system, p.cid)]))
    goto_route(app, f"{p.system}/test/{p.cid}")
    expect(app.locator(p.odds)).to_be_visible()
    expect(app.locator(p.roll)).to_be_enabled()
    return app


def bottom(app, selector: str) -> float:
    box = app.locator(selector).first.bounding_box()
    assert box is not None, selector
    return box["y"] + box["height"]


def fractions_on_one_line(app) -> None:
    """Every exact fraction of the odds tables is one line high (never "59/10" / "8"); a fraction too
    long for the phone is folded behind its percentage (views/ui.js probability), which is one line."""
    heights = app.evaluate("""() => [...document.querySelectorAll('.odds-table td.exact, .odds-table .prob-more > summary')]
      .filter((td) => td.offsetParent !== null)
      .map((td) => { const s = getComputedStyle(td); const line = parseFloat(s.lineHeight) || 1.45 * parseFloat(s.fontSize);
        const range = document.createRange(); range.selectNodeContents(td);
        return [td.textContent, range.getBoundingClientRect().height, line]; })""")
    assert heights, "no exact fraction on the page"
    for text, height, line in heights:
        assert height <= line * 1.2, f"{text!r} wraps: {height}px for a {line}px line"


def laptop_two_columns(app, p: Page) -> None:
    """At 1280 px: the odds to the right of the setup, the key numbers beside the test."""
    app.set_viewport_size({"width": 1280, "height": 800})
    expect(app.locator("[data-testid=test-sheet]")).to_be_visible()
    if os.environ.get("T13_SHOT"):
        app.screenshot(path=f"/tmp/t13-{p.system}-1280.png", full_page=True)
    setup = app.locator(p.setting).bounding_box()
    odds = app.locator(p.odds).bounding_box()
    assert odds["x"] >= setup["x"] + setup["width"], (setup, odds)
    assert bottom(app, p.roll) <= 800
    no_horizontal_scroll(app, 1280)
    fractions_on_one_line(app)
    assert axe_findings(app) == []


def verify_replays(app, p: Page, seed: int) -> None:
    """The seed only behind "Vérifier / rejouer": on the result, then on its log entry."""
    result = app.locator(p.result)
    expect(result).not_to_contain_text("numéro du tirage")
    result.get_by_role("button", name="Vérifier / rejouer").click()
    out = result.locator("[data-testid=verify-out]")
    expect(out).to_contain_text("Résultat vérifié : identique.")
    expect(out).to_contain_text(f"numéro du tirage : {seed}")
    goto_route(app, "log")
    entry = app.locator("[data-testid=log-entry]").first
    expect(entry).not_to_contain_text("numéro du tirage")
    entry.get_by_role("button", name="Vérifier / rejouer").click()
    out = entry.locator("[data-testid=verify-out]")
    expect(out).to_have_attribute("data-status", "same")
    expect(out).to_contain_text("Résultat vérifié : identique.")
    no_horizontal_scroll(app)


def log_replays_from_the_deck(app, seed: int) -> None:
    """A draw from a deck as it stood is logged with that deck: the log replays it too."""
    goto_route(app, "log")
    entry = app.locator("[data-testid=log-entry]").first
    expect(entry).not_to_contain_text("numéro du tirage")
    entry.get_by_role("button", name="Vérifier / rejouer").click()
    out = entry.locator("[data-testid=verify-out]")
    expect(out).to_have_attribute("data-status", "same")
    expect(out).to_contain_text(f"numéro du tirage : {seed}")


@pytest.mark.parametrize("system", list(PAGES))
def test_test_page_phone_laptop_keyboard_settings_and_verify(page, app_with, system):
    p = PAGES[system]
    page.set_viewport_size({"width": 360, "height": 740})
    app = open_test(app_with, p)
    if os.environ.get("T13_SHOT"):
        app.screenshot(path=f"/tmp/t13-{system}-360.png", full_page=True)
    # The common case fits the first screen: setup, odds summary, roll button.
    assert bottom(app, p.setting) <= 740
    if p.core:
        expect(app.locator(p.core)).to_be_visible()
        assert bottom(app, p.core) <= 740
    else:
        assert bottom(app, p.odds) <= 740
        assert bottom(app, p.roll) <= 740
    no_horizontal_scroll(app)
    # Every detail open (the rarer settings, the distributions): still no sideways scroll, and
    # no exact fraction breaks.
    app.evaluate("() => document.querySelectorAll('main details').forEach((d) => { d.open = true; })")
    no_horizontal_scroll(app)
    fractions_on_one_line(app)
    laptop_two_columns(app, p)
    app.set_viewport_size({"width": 360, "height": 740})

    # The setting is remembered for this character (outside the table document).
    app.select_option(p.setting, p.value)
    expect(app.locator(p.roll)).to_be_enabled()
    app.wait_for_function("v => (localStorage.getItem('tablee.prefs') ?? '').includes(v)", arg=p.value)
    before = saved_document(app)
    assert "prefs" not in before and p.value not in str(before.get("settings"))
    app.reload()
    wait_engine(app)
    expect(app.locator(p.setting)).to_have_value(p.value)
    expect(app.locator(p.roll)).to_be_enabled()

    # Keyboard: Enter on the roll button, the focus lands on the result (never on body).
    app.locator(p.roll).focus()
    app.keyboard.press("Enter")
    app.wait_for_function(
        "sel => { const a = document.activeElement; return a && a !== document.body && [...document.querySelectorAll(sel)].some((r) => r.contains(a)); }",
        arg=p.result,
    )
    if system == "versality":
        # The drawn cards have the focus; resolving puts it on the result, which is logged.
        app.click("#vs-resolve")
        app.wait_for_function("() => document.activeElement?.id === 'vs-result-title'")
    doc = wait_log(app, len(before["log"]) + 1)
    no_horizontal_scroll(app)
    assert axe_findings(app) == []
    if system in ("versality", "theorem"):
        log_replays_from_the_deck(app, doc["log"][-1]["request"]["seed"])
        return
    # Shift+Tab from the result reaches the roll button, and Enter rolls again.
    app.keyboard.press("Shift+Tab")
    expect(app.locator(p.roll)).to_be_focused()
    app.keyboard.press("Enter")
    doc = wait_log(app, len(before["log"]) + 2)
    app.wait_for_function(
        "sel => [...document.querySelectorAll(sel)].some((r) => r.contains(document.activeElement))", arg=p.result)
    verify_replays(app, p, doc["log"][-1]["request"]["seed"])
