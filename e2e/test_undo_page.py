"""Annuler / Rétablir at the table (static/js/undo.js, app.undo): a deleted character, a
damage, a card play and a learning roll undone, from the bar shown after the change and from
the Table page, across a reload; the log says what was undone; an undo whose paths changed
since is refused; a second learning roll for the same skill in the same session is refused and
shown as done. Every table is seeded in storage (no clicking through creation)."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from browser_support import goto_route, new_table, saved_document, versality_character, wait_saved
from tablee.api import handle
from unicreon_sheets import character as uc_character

TOAST = "[data-testid=undo-toast]"
TOAST_ACTION = "[data-testid=undo-toast-action]"


def history(page) -> dict:
    return page.evaluate("JSON.parse(localStorage.getItem('tablee.undo') ?? '{\"undo\":[],\"redo\":[]}')")


def wait_history(page, predicate_js: str) -> dict:
    page.wait_for_function(
        "() => { const h = JSON.parse(localStorage.getItem('tablee.undo') ?? 'null'); return h !== null && ("
        + predicate_js + ")(h); }"
    )
    return history(page)


def without_log(doc: dict) -> dict:
    return {k: v for k, v in doc.items() if k != "log"}


def test_a_deleted_character_comes_back_in_its_place_even_after_a_reload(app_with):
    ana, bo, cy = (versality_character(f"vs-{n.lower()}", n) for n in ("Ana", "Bo", "Cy"))
    page = app_with(new_table([ana, bo, cy]), "versality")
    expect(page.locator("[data-testid=vs-char]")).to_have_count(3)
    page.locator("[data-testid=vs-char][data-id=vs-bo]").get_by_role("button", name="Supprimer").click()
    page.click("[data-testid=vs-confirm-delete]")
    wait_saved(page, "d => d.characters.length === 2")
    h = wait_history(page, "h => h.undo.length === 1")
    # The deletion is kept as Bo himself and his place, not as a copy of the table.
    assert h["undo"][0]["changes"] == [{"p": ["characters", {"id": "vs-bo"}], "b": bo, "i": 1}]
    expect(page.locator(TOAST)).to_contain_text("Personnage supprimé : Bo")

    # Across a reload, from the Table page.
    page.reload()
    goto_route(page, "table")
    entries = page.locator("[data-testid=undo-list] [data-testid=undo-entry]")
    expect(entries.first).to_contain_text("Personnage supprimé : Bo")
    page.click("#undo-last")
    doc = wait_saved(page, "d => d.characters.length === 3")
    assert [c["id"] for c in doc["characters"]] == ["vs-ana", "vs-bo", "vs-cy"]
    assert doc["characters"][1] == bo
    assert doc["log"][-1]["kind"] == "undo" and doc["log"][-1]["label"] == "Annulé\u00a0: Personnage supprimé\u00a0: Bo"
    # Rétablir deletes him again; the bar then offers to undo that.
    expect(page.locator("[data-testid=redo-list]")).to_contain_text("Bo")
    page.click("#redo-last")
    doc = wait_saved(page, "d => d.characters.length === 2")
    assert doc["log"][-1]["label"] == "Rétabli\u00a0: Personnage supprimé\u00a0: Bo"
    expect(page.locator(TOAST)).to_have_attribute("data-kind", "change")


def test_a_damage_is_undone_and_an_undo_whose_value_changed_since_is_refused(app_with):
    marie = uc_character("uc-marie", "Marie")
    page = app_with(new_table([marie]), "unicreon/character/uc-marie")
    page.fill("#uc-amount", "3")
    page.click("#uc-damage")
    expect(page.locator("[data-testid=uc-pv]")).to_have_text("9")
    wait_saved(page, "d => d.characters[0].pv === 9")
    expect(page.locator(TOAST)).to_contain_text("Fiche modifiée : Marie")
    page.click(TOAST_ACTION)
    expect(page.locator("[data-testid=uc-pv]")).to_have_text("12")
    doc = wait_saved(page, "d => d.characters[0].pv === 12")
    assert without_log(doc) == without_log(new_table([marie]))
    assert doc["log"][-1]["label"] == "Annulé\u00a0: Fiche modifiée\u00a0: Marie"
    # The bar now offers Rétablir: 12 → 9 again.
    expect(page.locator(TOAST)).to_have_attribute("data-kind", "undo")
    page.click(TOAST_ACTION)
    wait_saved(page, "d => d.characters[0].pv === 9")

    # A live peer (here: a write to the saved table that is not this tab's) sets her PV to 5:
    # undoing the damage (9 → 12) would erase that, so it is refused, said so, and nothing
    # changes.
    other = page.context.new_page()
    other.goto(page.url.split("#")[0] + "manifest.webmanifest")
    doc = saved_document(page)
    doc["characters"][0]["pv"] = 5
    other.evaluate("raw => localStorage.setItem('tablee.document', raw)", json.dumps(doc))
    page.bring_to_front()  # back to the app's tab (a tab behind another gets no animation frames)
    expect(page.locator("[data-testid=uc-pv]")).to_have_text("5")
    goto_route(page, "table")
    page.click("#undo-last")
    expect(page.locator("#save-refused")).to_contain_text("cette modification a été changée depuis")
    assert saved_document(page)["characters"][0]["pv"] == 5
    other.close()


def test_the_undo_bar_belongs_to_the_page_of_its_change(app_with):
    """The bar offering to undo a change stayed on screen for 15 s whatever the person did:
    on the journal, it named a sheet's damage. It belongs to the page the change was made on:
    gone once another page is shown, not back when the person returns, while the Table page
    still offers to undo the change. A change that opens a page itself (a character created
    opens its sheet) keeps its bar there."""
    marie = uc_character("uc-marie", "Marie")
    page = app_with(new_table([marie]), "unicreon/character/uc-marie")
    page.fill("#uc-amount", "3")
    page.click("#uc-damage")
    wait_saved(page, "d => d.characters[0].pv === 9")
    toast = page.locator(TOAST)
    expect(toast).to_contain_text("Fiche modifiée : Marie")
    # To the journal through the navigation, as a person goes: once the journal is shown, the
    # bar is gone (read at that moment: the old bar went away by itself 15 s later).
    page.locator("nav a[data-route=log]").click()
    page.wait_for_function(
        "() => document.querySelector('nav a[data-route=\"log\"][aria-current=\"page\"]') !== null"
        " && document.querySelector('main h1') !== null")
    assert toast.count() == 0, toast.inner_text()
    # The page took the focus (the main region), none left on a bar that went away.
    expect(page.locator("#main")).to_be_focused()
    page.go_back()
    expect(page.locator("[data-testid=uc-pv]")).to_have_text("9")
    assert toast.count() == 0
    goto_route(page, "table")
    expect(page.locator("[data-testid=undo-list] [data-testid=undo-entry]").first).to_contain_text("Fiche modifiée : Marie")
    assert toast.count() == 0
    # An undo made on the Table page has its bar there (Rétablir), until the person leaves.
    page.click("#undo-last")
    wait_saved(page, "d => d.characters[0].pv === 12")
    expect(toast).to_have_attribute("data-kind", "undo")
    goto_route(page, "unicreon")
    assert toast.count() == 0

    # A character created from the list opens its sheet: the bar of that creation is there.
    page.fill("#uc-new-name", "Nina")
    page.click("#uc-create")
    expect(page.locator("main h1")).to_contain_text("Nina")
    expect(toast).to_contain_text("Personnage ajouté : Nina")


def test_a_card_play_is_undone(app_with):
    ana = versality_character("vs-ana", "Ana")
    start = new_table([ana])
    page = app_with(start, "versality/test/vs-ana")
    page.select_option("#vs-test-char", "physique")
    page.select_option("#vs-test-skill", "combattre")
    page.select_option("#vs-test-diff", "facile")
    page.click("#vs-draw")
    expect(page.locator("[data-testid=hand-card]")).to_have_count(2)
    page.locator("[data-testid=hand-card]").nth(0).click()
    page.click("#vs-resolve")
    expect(page.locator("[data-testid=vs-result]")).to_be_visible()
    played = wait_saved(page, "d => JSON.stringify(d.systems) !== '{}' || d.characters[0].deck.length !== 8")
    assert without_log(played) != without_log(start)
    made = len(wait_history(page, "h => h.undo.length >= 1")["undo"])
    # Each change of the play undone, newest first, gives back the table as it was.
    goto_route(page, "table")
    for left in range(made - 1, -1, -1):
        page.click("#undo-last")
        wait_history(page, f"h => h.undo.length === {left}")
    doc = saved_document(page)
    assert without_log(doc) == without_log(start)
    assert [e["kind"] for e in doc["log"][-made:]] == ["undo"] * made


def test_a_learning_roll_is_once_per_skill_per_session_and_can_be_undone(app_with):
    aldo = handle({"op": "systmj.entity.new", "id": "sj-aldo", "name": "Aldo"})["character"]
    aldo["attributes"].update(intelligence=60, personnalite=50)
    aldo["skills"]["lire_ecrire"] = 30
    page = app_with(new_table([aldo]), "systmj/learning/sj-aldo")
    roll = page.locator("#sj-l-roll")
    expect(roll).to_be_enabled()
    expect(page.locator("[data-testid=sj-l-done]")).to_have_count(0)
    roll.click()
    doc = wait_saved(page, "d => d.characters[0].progress.length === 1")
    entry = doc["characters"][0]["progress"][0]
    assert entry["kind"] == "learning" and entry["key"] == "lire_ecrire"
    # The second roll for the same skill in the same session: shown as done, refused.
    expect(page.locator("[data-testid=sj-l-done]")).to_contain_text("un seul par compétence et par séance")
    expect(roll).to_be_disabled()
    # Undone, the roll never happened: the skill is back and the session's roll is open again.
    wait_history(page, "h => h.undo.length >= 1")
    goto_route(page, "table")
    page.click("#undo-last")
    doc = wait_saved(page, "d => d.characters[0].progress.length === 0")
    assert doc["characters"][0]["skills"]["lire_ecrire"] == 30
    goto_route(page, "systmj/learning/sj-aldo")
    expect(page.locator("#sj-l-roll")).to_be_enabled()
    expect(page.locator("[data-testid=sj-l-done]")).to_have_count(0)


def test_a_pouvoir_card_is_learned_once_per_session_even_pressed_twice_at_once(app_with):
    """Learning a Pouvoir card is the Apprentissage of 2.4 (4.4): one roll per session. Two
    presses in the same instant give one roll (the second asked on the table the first left, and
    refused by the engine), the card's score and the learner's progress written once; the page
    then shows the refusal and the button stays disabled."""
    aldo = handle({"op": "systmj.entity.new", "id": "sj-aldo", "name": "Aldo"})["character"]
    aldo["attributes"].update(intelligence=60, personnalite=50)
    state = handle({"op": "systmj.state.new"})["state"]
    saved = handle({"op": "systmj.card.save", "state": state,
                    "card": {"family": "pouvoir", "name": "Nécromancie", "types": ["magique"], "da": 1, "score": 40}})
    number = saved["card"]["number"]
    given = handle({"op": "systmj.card.give", "state": saved["state"], "character": aldo, "number": number})
    page = app_with(new_table([given["character"]], systems={"systmj": given["state"]}), "systmj/cards")
    learn = page.locator("[data-testid=sj-learn-roll]")
    expect(learn).to_be_enabled()
    expect(page.locator("[data-testid=sj-learn-odds]")).to_be_visible()
    learn.evaluate("b => { b.click(); b.click(); }")
    # The roll's log entry is a change of its own, saved after the card and the sheet.
    doc = wait_saved(page, "d => d.characters[0].progress.length === 1 && d.log.length > 0")
    expect(page.locator(f"[data-testid=sj-learn-error-{number}]")).to_contain_text("un seul jet par compétence et par séance")
    expect(learn).to_be_disabled()
    doc = saved_document(page)
    progress = doc["characters"][0]["progress"]
    assert [(p["kind"], p["target"], p["key"], p["session"]) for p in progress] == [("learning", "pouvoir", number, 1)]
    card = next(c for c in doc["systems"]["systmj"]["library"]["cards"] if c["number"] == number)
    assert card["score"] == progress[0]["after"]
    assert [e["kind"] for e in doc["log"]] == ["systmj.card.learn"]


def theorem_joshua() -> dict:
    c = handle({"op": "theorem.character.new", "id": "th-josh", "name": "Joshua"})["character"]
    c["spheres"]["animalite"] = 4
    c["skills"] = [{"name": "Discrétion", "level": 3}]
    return c


IN_VIEW = """() => {
  const bar = document.querySelector('[data-testid=undo-toast]');
  if (!bar) return null;
  const r = bar.getBoundingClientRect();
  const f = document.activeElement.getBoundingClientRect();
  const x = r.left + r.width / 2, y = r.top + r.height / 2;
  return {top: r.top, bottom: r.bottom, left: r.left, right: r.right, height: innerHeight, width: innerWidth,
          scrolled: scrollY, onTop: bar.contains(document.elementFromPoint(x, y)),
          focusedCovered: document.activeElement !== document.body && f.bottom > r.top && f.top < r.bottom
            && f.right > r.left && f.left < r.right};
}"""


@pytest.mark.parametrize("width", [360, 1280])
def test_the_undo_notice_is_on_screen_right_after_a_change_far_down_the_page(app_with, width):
    """« Annuler » was 972 px above the screen on a phone (537 px on a laptop) right after "Tirer une
    carte": the notice sat at the top of the page. It is now fixed at the bottom of the screen,
    clear of the control just pressed, reachable from the keyboard (Ctrl+Z) and in the polite
    live region of the page's notices."""
    page = app_with(new_table([theorem_joshua()]), "theorem/test/th-josh")
    page.set_viewport_size({"width": width, "height": 720})
    page.select_option("#th-skill", index=1)
    draw = page.locator("#th-draw")
    expect(draw).to_be_enabled()
    # Far down the page: the page is drawn whole (its deck and arcana below the button), then
    # scrolled to its end.
    page.wait_for_function("() => document.documentElement.scrollHeight > innerHeight + 400")
    page.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight)")
    page.wait_for_function("() => scrollY > 200")
    draw.click()
    bar = page.locator(TOAST)
    expect(bar).to_be_visible()
    expect(bar).to_contain_text("Annuler")
    # The page settles after the draw (the focus goes to the result, brought into view; the
    # notice keeps clear once it is at rest): wait for the notice clear of the focused control.
    page.wait_for_function(f"() => {{ const box = ({IN_VIEW})(); return box !== null && !box.focusedCovered; }}")
    box = page.evaluate(IN_VIEW)
    assert 0 <= box["top"] and box["bottom"] <= box["height"], box  # the notice is on screen
    assert 0 <= box["left"] and box["right"] <= box["width"], box
    assert box["onTop"], box  # nothing drawn over it
    assert not box["focusedCovered"], box  # nor over the control that made the change
    assert page.evaluate("() => document.querySelector('[data-testid=undo-toast]').closest('[aria-live=polite]') !== null")
    # From the keyboard, wherever the focus is: Ctrl+Z presses « Annuler ».
    expect(page.locator(TOAST_ACTION)).to_have_attribute("aria-keyshortcuts", "Control+Z Meta+Z")
    page.keyboard.press("Control+z")
    expect(bar).to_have_attribute("data-kind", "undo")
    wait_saved(page, "d => d.log.some((e) => e.kind === 'undo')")
    box = page.evaluate(IN_VIEW)
    assert 0 <= box["top"] and box["bottom"] <= box["height"], box
