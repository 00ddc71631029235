"""A log entry written in French reads in English on an English page, and the reverse: the entry
keeps the catalogue keys its label was worded from (static/js/views/log-words.js), and the log
page and the home summary say it in the page's language (log entries written in French do not
stay French on an English page)."""

from __future__ import annotations

import random

from playwright.sync_api import expect

from browser_support import goto_route, new_table, wait_saved
from browser_support import versality_character as character
from tablee.systems.versality import state as versality_state


def versality_test(page, characteristic: str, skill: str, difficulty: str, logged: int) -> dict:
    """One Versality test on Ana's page (draw, then resolve), waited for in the saved log."""
    goto_route(page, "versality/test/vs-ana")
    page.select_option("#vs-test-char", characteristic)
    page.select_option("#vs-test-skill", skill)
    page.select_option("#vs-test-diff", difficulty)
    page.click("#vs-draw")
    if page.locator("[data-testid=hand-card]").count() > 1:
        page.locator("[data-testid=hand-card]").first.click()
    expect(page.locator("#vs-resolve")).to_be_enabled()
    page.click("#vs-resolve")
    expect(page.locator("[data-testid=vs-result]")).to_be_visible()
    return wait_saved(page, "(d, n) => d.log.length === n && Array.isArray(d.log[n - 1].label_words)", logged)


def switch_language(page, to: str) -> None:
    toggle = page.locator("#lang-toggle")
    expect(toggle).to_have_text(to)
    toggle.click()
    expect(toggle).not_to_have_text(to)


def test_a_french_entry_reads_in_english_and_an_english_one_in_french(app_with):
    ana = character("vs-ana", "Ana")
    state = versality_state.build_deck(versality_state.new_state(), ana, random.Random(5))
    page = app_with(new_table([ana], {"versality": state}), "versality")

    doc = versality_test(page, "personnalite", "combattre", "conventionnelle", 1)
    assert doc["log"][0]["label"] == "Personnalité + Combattre · Conventionnelle (−2)"
    assert doc["log"][0]["words_lang"] == "fr"

    switch_language(page, "English")
    goto_route(page, "log")
    entry = page.locator("[data-testid=log-entry] header strong")
    expect(entry).to_have_text(["Ana · Personality + Fight · Conventional (−2)"])
    goto_route(page, "home")
    expect(page.get_by_test_id("home-last-roll")).to_contain_text("Ana · Personality + Fight · Conventional (−2)")

    doc = versality_test(page, "mental", "comprendre", "facile", 2)
    assert doc["log"][1]["label"] == "Mental + Understand · Easy (−1)"
    assert doc["log"][1]["words_lang"] == "en"
    # The saved labels are as each page wrote them: the first one is still French.
    assert doc["log"][0]["label"] == "Personnalité + Combattre · Conventionnelle (−2)"

    switch_language(page, "Français")
    goto_route(page, "log")
    expect(entry).to_have_text([
        "Ana · Mental + Comprendre · Facile (−1)",
        "Ana · Personnalité + Combattre · Conventionnelle (−2)",
    ])
