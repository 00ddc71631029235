"""A player's copy of the table and the device's language.

- A player's copy deals its hidden piles again: "Partager" → "Pour les joueurs" → the link opened
  on a fresh phone → "Remplacer" → Théorem → Table de jeu dealt 1, 2, 3… de bâton, in order (the
  share sorts the hidden piles, their order being the MJ's secret, and the import kept them so).
  Now the import deals them again from a fresh seed, and the page says the copy is not the MJ's.
- The language belongs to the device: an en-US browser starts in English; importing the MJ's
  French table keeps it English (the table's own language field switches nothing), across a
  reload too; a person's choice of French on that browser is kept.

Two devices are two browser contexts (e2e/test_share.py's Device: separate storage, guarded).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from browser_support import goto_route, ok, saved_document, wait_engine, wait_saved
from share_links import Device, make_link, table, unpack

IN_ORDER = [f"baton-0{i}" for i in range(1, 7)]


@pytest.fixture
def phones(browser, site, server):
    made: list[Device] = []

    def make(width: int = 360, locale: str = "fr-FR") -> Device:
        made.append(Device(browser, site, server, width, locale))
        return made[-1]

    yield make
    for d in made:
        d.close()


def theorem_table() -> dict:
    josh = ok({"op": "theorem.character.new", "id": "th-josh", "name": "Joshua"})["character"]
    josh["spheres"]["animalite"] = 4
    josh["skills"] = [{"name": "Discrétion", "level": 3}]
    state = ok({"op": "theorem.state.new", "seed": 3})["state"]
    return table("Soirée Théorem", [josh], {"theorem": state})


def draw_pile(doc: dict) -> list[str]:
    return doc["systems"]["theorem"]["deck"]["piles"]["draw"]["cards"]


def test_a_players_copy_of_the_table_is_dealt_again_when_imported(phones):
    mj, phone = phones(1280), phones(360)
    url = make_link(mj.open(doc=theorem_table()), "table")
    link = unpack(url)
    assert link["audience"] == "player"
    assert draw_pile(link["data"])[:6] == IN_ORDER  # the share hides the MJ's order by sorting it

    page = phone.open()
    page.goto(url)
    notice = page.get_by_test_id("share-players-copy")
    expect(notice).to_contain_text("Copie pour les joueurs")
    expect(notice).to_contain_text("mélangé à nouveau")
    expect(page.locator("#share-import")).to_be_enabled()
    page.click("#share-import")
    expect(page.get_by_test_id("share-done")).to_contain_text("ce ne sont pas ceux du ou de la MJ")
    dealt = draw_pile(wait_saved(page, "d => d.name === 'Soirée Théorem'"))
    assert sorted(dealt) == sorted(draw_pile(link["data"]))  # the same 56 cards…
    assert dealt[:6] != IN_ORDER and dealt != draw_pile(link["data"])  # …dealt again

    # Théorem → Table de jeu: the draw takes the top card of the dealt deck.
    goto_route(page, "theorem/test/th-josh")
    page.select_option("#th-skill", index=1)
    expect(page.locator("#th-draw")).to_be_enabled()
    page.click("#th-draw")
    after = wait_saved(page, "d => d.log.some((e) => e.kind === 'theorem.draw')")
    assert draw_pile(after) == dealt[1:]

    # The same link opened again is dealt from another fresh seed.
    page.goto(url)
    page.click("#share-import")
    expect(page.get_by_test_id("share-done")).to_be_visible()
    again = draw_pile(wait_saved(page, "d => d.log.length === 0"))
    assert sorted(again) == sorted(dealt) and again != dealt

    # The MJ's own copy (another device of the MJ) keeps the MJ's order, and says nothing of it.
    mine = make_link(mj.page, "table", audience="mj")
    assert unpack(mine)["audience"] == "mj"
    page.goto(mine)
    expect(page.locator("#share-import")).to_be_enabled()
    expect(page.get_by_test_id("share-players-copy")).to_have_count(0)
    page.click("#share-import")
    expect(page.get_by_test_id("share-done")).to_be_visible()
    theirs = draw_pile(saved_document(mj.page))
    kept = wait_saved(page, "(d, top) => d.systems.theorem.deck.piles.draw.cards.join() === top", ",".join(theirs))
    assert draw_pile(kept) == theirs


def test_an_english_phone_stays_english_after_importing_the_mjs_french_table(phones):
    mj = phones(1280)
    url = make_link(mj.open(doc=theorem_table()), "table")

    phone = phones(360, locale="en-US")
    page = phone.open()
    # An en-US browser starts in English (navigator.languages), its new table too.
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.locator("#lang-toggle")).to_have_text("Français")
    assert saved_document(page)["language"] == "en"

    page.goto(url)
    expect(page.get_by_test_id("share-summary")).to_have_text("This link holds the table “Soirée Théorem”.")
    expect(page.locator("#share-import")).to_be_enabled()
    page.click("#share-import")
    expect(page.get_by_test_id("share-done")).to_contain_text("Table “Soirée Théorem” imported.")
    saved = wait_saved(page, "d => d.name === 'Soirée Théorem'")
    assert saved["language"] == "fr"  # the table keeps its own field…
    expect(page.locator("html")).to_have_attribute("lang", "en")  # …the interface the device's
    goto_route(page, "theorem")
    expect(page.locator("main h1")).to_contain_text("Théorem")
    expect(page.locator("#lang-toggle")).to_have_text("Français")
    page.reload()
    wait_engine(page)
    expect(page.locator("html")).to_have_attribute("lang", "en")

    # The person chooses French on this English browser: kept, whatever table comes next.
    page.click("#lang-toggle")
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    assert page.evaluate("() => localStorage.getItem('tablee.language')") == "fr"
    page.reload()
    wait_engine(page)
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.locator("#lang-toggle")).to_have_text("English")
