"""Théorem's pending failed attempts, worded without an empty dash when no skill was used
("1 essai raté, sans compétence.", not "1 essai raté (—)."): on the test page and on the MK's
screen (static/js/systems/theorem/table.js and mk.js), in French and in English."""

from __future__ import annotations

from playwright.sync_api import expect

from browser_support import goto_route, ok, wait_engine
from share_links import table


def fails_table() -> dict:
    josh = ok({"op": "theorem.character.new", "id": "th-josh", "name": "Joshua"})["character"]
    ana = ok({"op": "theorem.character.new", "id": "th-ana", "name": "Ana"})["character"]
    state = ok({"op": "theorem.state.new", "seed": 3})["state"]
    state["fails"] = {"th-josh": {"skill": "", "count": 1}, "th-ana": {"skill": "Discrétion", "count": 2}}
    return table("Essais", [josh, ana], {"theorem": state})


def open_with(page, site: str, doc: dict) -> None:
    page.goto(site + "manifest.webmanifest")
    page.evaluate(
        "d => { localStorage.setItem('tablee.document', JSON.stringify(d)); localStorage.setItem('tablee.mj-mode', 'on'); }",
        doc,
    )
    page.goto(site)
    wait_engine(page)


def test_a_failed_attempt_without_a_skill_is_said_without_an_empty_dash(page, site, guarded):
    open_with(page, site, fails_table())
    goto_route(page, "theorem/test/th-josh")
    status = page.get_by_test_id("th-retest-status")
    expect(status).to_contain_text("1 essai raté, sans compétence.")
    expect(status).not_to_contain_text("—")
    goto_route(page, "theorem/test/th-ana")
    expect(page.get_by_test_id("th-retest-status")).to_contain_text("2 essais ratés (Discrétion).")

    goto_route(page, "theorem/mk")
    fails = page.locator(".th-fails")
    expect(fails).to_contain_text("1 essai raté, sans compétence.")
    expect(fails).to_contain_text("2 essais ratés (Discrétion).")
    expect(fails).not_to_contain_text("(—)")

    page.click("#lang-toggle")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.locator(".th-fails")).to_contain_text("1 failed attempt, without a skill.")
