"""The first evening, round two: sharing from where you are, and the log.

- "Partager" on a character sheet, under a dice roll and on a log entry opens the share page
  with that thing chosen and its link made (before: only from the share page's list).
- Opening a link shows what it holds while the rules engine is still starting (before: a
  blank "Lecture du lien…" until the engine was up, 4–7 s), and after the import a link leads
  to what was imported.
- The log draws its latest 50 entries and more on demand (before: all 1000 at once).
- A Versality test and Théorem draws are verified and replayed from the log like dice (before:
  "cannot be replayed from the log"); an entry without its deck (a player's share) says so.

Tables are seeded in storage (built with the real engine in CPython) rather than clicked
through creation.
"""

from __future__ import annotations

import base64
import json
import re
import sys
import zlib

import pytest
from playwright.sync_api import expect

from browser_support import (
    ROOT,
    goto_route,
    no_horizontal_scroll,
    ok,
    open_table,
    saved_document,
    wait_engine,
    wait_saved,
)
from browser_support import versality_character as vs_character

sys.path.insert(0, str(ROOT / "tools"))

from bench_table import saved_table

RUNTIME = re.compile(r".*/static/vendor/(pyscript|pyodide)/.*")


def table(characters=(), log=(), systems=None) -> dict:
    doc = ok({"op": "store.new", "name": "Soirée d'essai", "language": "fr"})["document"]
    doc["characters"] = list(characters)
    doc["log"] = list(log)
    doc["systems"] = systems or {}
    return ok({"op": "store.open", "document": doc})["document"]




def unpack(url: str) -> dict:
    text = url.split("#/share/", 1)[1]
    return json.loads(zlib.decompress(base64.urlsafe_b64decode(text + "=" * (-len(text) % 4)), -15))


def pack(envelope: dict) -> str:
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    raw = c.compress(json.dumps(envelope).encode()) + c.flush()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def made_link(page) -> str:
    field = page.locator("#share-link")
    expect(field).to_have_value(re.compile(r"#/share/[A-Za-z0-9_-]+$"))
    return field.input_value()


# ------------------------------------------------------------------ 8. sharing from where you are
def test_share_from_a_sheet_a_roll_and_a_log_entry(page, site, guarded):
    alice = ok({"op": "pointzero.character.new", "id": "pz-alice", "name": "Alice Moreau"})["character"]
    open_table(page, site, table([alice]), "pointzero/character/pz-alice")

    # On the sheet: "Partager" (named for a screen reader) opens the share page with the link made.
    share = page.get_by_role("link", name="Partager Alice Moreau")
    expect(share).to_be_visible()
    no_horizontal_scroll(page)
    share.click()
    expect(page.locator("#share-what")).to_have_value("character:pz-alice")
    assert unpack(made_link(page)) == {"app": "tablee", "kind": "character", "v": 1, "data": alice}

    # Under a roll's result on the dice tray.
    goto_route(page, "tray")
    page.fill("#dice-expr", "3d6")
    page.click("#roll-button")
    doc = wait_saved(page, "d => d.log.length === 1")
    entry = doc["log"][0]
    page.locator("#roll-result").get_by_role("link", name="Partager 3d6").click()
    expect(page.locator("#share-what")).to_have_value(f"entry:{entry['id']}")
    shared = unpack(made_link(page))["data"]
    assert shared["id"] == entry["id"] and shared["result"]["total"] == entry["result"]["total"]

    # On a log entry older than the ten the share page lists: it is offered and chosen too.
    log = saved_table(characters=0, log=30)["log"]
    doc = saved_document(page)
    doc["log"] = log
    open_table(page, site, doc, "log")
    old = log[5]
    entries = page.locator("#log-list > li")
    expect(entries).to_have_count(30)
    target = entries.nth(len(log) - 1 - 5)
    expect(target.locator("strong")).to_have_text(old["label"])
    target.get_by_role("link", name=f"Partager {old['label']}").click()
    expect(page.locator("#share-what")).to_have_value(f"entry:{old['id']}")
    assert unpack(made_link(page))["data"]["id"] == old["id"]


@pytest.mark.fresh_context  # it holds the runtime's requests: no service worker may answer them
def test_a_link_shows_what_it_holds_before_the_engine_then_leads_to_the_import(page, site, guarded):
    alice = ok({"op": "pointzero.character.new", "id": "pz-alice", "name": "Alice Moreau"})["character"]
    url = site + "#/share/" + pack({"app": "tablee", "kind": "character", "v": 1, "data": alice})
    held = []
    released = {"now": False}

    def hold(route):
        if released["now"]:
            route.continue_()
        else:
            held.append(route)

    page.route(RUNTIME, hold)
    page.goto(url)
    # The runtime is held: the engine cannot have checked anything, yet the link is read.
    expect(page.get_by_test_id("share-summary")).to_have_text("Ce lien contient le personnage Alice Moreau (Point Zéro).")
    assert page.evaluate("document.documentElement.dataset.engine") == "loading"
    expect(page.locator("#share-import")).to_be_disabled()
    expect(page.get_by_test_id("share-checking")).to_contain_text("Vérification du contenu")
    assert page.url.endswith("#/share")
    assert saved_document(page) is None or saved_document(page)["characters"] == []

    released["now"] = True
    for route in held:
        try:
            route.continue_()
        except Exception:
            pass
    wait_engine(page)
    expect(page.locator("#share-import")).to_be_enabled()
    page.click("#share-import")
    expect(page.get_by_test_id("share-done")).to_have_text("Alice Moreau a été importé.")
    wait_saved(page, "d => d.characters.length === 1")
    link = page.get_by_test_id("share-imported-link")
    expect(link).to_have_text("Ouvrir la fiche du personnage Alice Moreau")
    link.click()
    expect(page).to_have_url(re.compile(r"#/pointzero/character/pz-alice$"))
    expect(page.locator("main h1")).to_contain_text("Alice Moreau")


# ------------------------------------------------------------------ 9. the log
def test_the_log_draws_the_latest_entries_and_more_on_demand(page, site, guarded):
    doc = saved_table(characters=0, log=1000)
    open_table(page, site, doc, "log")
    entries = page.locator("#log-list > li")
    expect(entries).to_have_count(50)
    expect(page.get_by_test_id("log-count")).to_have_text("1000 entrées, les 50 plus récentes affichées.")
    newest = doc["log"][-1]
    expect(entries.first.locator("strong")).to_have_text(newest["label"])
    no_horizontal_scroll(page)
    more = page.get_by_test_id("log-more")
    expect(more).to_have_text("Afficher les 50 suivantes")
    more.click()
    expect(entries).to_have_count(100)
    # Keyboard users go on from the first entry just drawn.
    expect(entries.nth(50)).to_be_focused()
    expect(entries.nth(99).locator("strong")).to_have_text(doc["log"][-100]["label"])
    # A new roll comes on top; what was shown stays shown.
    goto_route(page, "tray")
    page.click("#roll-button")
    wait_saved(page, "d => d.log[d.log.length - 1].id !== arg", newest["id"])
    goto_route(page, "log")
    expect(entries).to_have_count(100)


def verify(entry) -> None:
    entry.locator(".verify-button").click()
    expect(entry.get_by_test_id("verify-out")).to_have_attribute("data-status", "same")
    expect(entry.get_by_test_id("verify-out")).to_contain_text("identique")


def test_versality_and_theorem_draws_are_replayed_from_the_log(page, site, guarded):
    ana = vs_character("vs-ana", "Ana")
    open_table(page, site, table([ana]), "versality/test/vs-ana")
    # Worst of 3 twice, then 7 cards from a draw pile of 6: the discard is reshuffled mid-draw.
    page.select_option("#vs-test-char", "mental")
    page.select_option("#vs-test-skill", "comprendre")
    page.select_option("#vs-test-diff", "facile")
    for difficulty, count in (("facile", 3), ("facile", 3), ("epique", 7)):
        page.select_option("#vs-test-diff", difficulty)
        page.click("#vs-draw")
        expect(page.locator("[data-testid=hand-card]")).to_have_count(count)
        page.click("#vs-resolve")
        expect(page.locator("[data-testid=vs-result]")).to_be_visible()
    doc = wait_saved(page, "d => d.log.length === 3")
    logged = doc["log"][2]
    assert len(logged["request"]["deck"]["draw"]) == 6 and logged["request"]["count"] == 7
    # The test's result replays its draw (the reshuffle included) and shares its log entry.
    result = page.get_by_test_id("vs-result")
    result.locator(".verify-button").click()
    expect(result.get_by_test_id("verify-out")).to_have_attribute("data-status", "same")
    share = result.get_by_role("link", name=f"Partager {logged['label']}")
    expect(share).to_have_attribute("data-share", f"entry:{logged['id']}")

    # Théorem: an opposition and a chase round from the shared deck.
    goto_route(page, "theorem/chase")
    page.click("#th-opp-draw")
    expect(page.get_by_test_id("th-opp-result")).to_be_visible()
    page.click("#th-chase-start")
    page.click("#th-chase-round")
    doc = wait_saved(page, "d => d.log.length === 5")
    assert [e["kind"] for e in doc["log"]] == ["versality.test"] * 3 + ["theorem.opposition", "theorem.chase"]

    goto_route(page, "log")
    entries = page.locator("#log-list > li")
    expect(entries).to_have_count(5)
    for i in range(5):
        verify(entries.nth(i))

    # A tampered deck is caught; an entry without its deck (as a player's share carries it)
    # says it cannot be replayed.
    doc = saved_document(page)
    tampered = json.loads(json.dumps(doc["log"][3]))
    tampered["id"] = "log-tampered"
    deck = tampered["request"]["deck"]["draw"]
    deck[0], deck[1] = deck[1], deck[0]
    stripped = ok({"op": "store.share", "kind": "entry", "data": doc["log"][4], "audience": "player"})["data"]
    stripped["id"] = "log-stripped"
    assert "deck" not in stripped["request"]
    doc["log"] += [tampered, stripped]
    open_table(page, site, doc, "log")
    expect(entries).to_have_count(7)
    entries.nth(0).locator(".verify-button").click()
    expect(entries.nth(0).get_by_test_id("verify-out")).to_have_attribute("data-status", "unavailable")
    entries.nth(1).locator(".verify-button").click()
    expect(entries.nth(1).get_by_test_id("verify-out")).to_have_attribute("data-status", "different")


@pytest.fixture
def browser_context_args(browser_context_args):
    return {**browser_context_args, "viewport": {"width": 360, "height": 740}}
