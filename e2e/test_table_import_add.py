"""The Table page for a real group: what keeps the table safe comes first, the last changes
read a week later and fold after a few lines, and an import can add to the table instead of
replacing it (views/import-add.js): the characters and systems' states ticked come in, a
clashing id is renamed, the current table is kept as a backup first, and replacing the whole
table stays available."""

from __future__ import annotations

import json
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


def file_of(name: str, data) -> dict:
    return {"name": name, "mimeType": "application/json", "buffer": json.dumps(data).encode()}


def backups(page) -> list[str]:
    return page.evaluate("() => Object.keys(localStorage).filter(k => k.startsWith('tablee.backup.'))")


def test_import_adds_the_ticked_characters_and_states_renaming_clashing_ids(app_with):
    from unicreon_sheets import character

    bea, ana = character("uc-bea", "Béa"), versality_character("vs-ana", "Ana")
    app = app_with(new_table([bea, ana]))
    goto_route(app, "table")

    # Export, import and backups come before the table's name and its last changes.
    top = lambda sel: app.locator(sel).bounding_box()["y"]  # noqa: E731
    assert top("#export-table") < top("#backups-title") < top("#table-name-input") < top("#undo-title")
    expect(app.locator("label[for=import-table]")).to_be_visible()  # replacing stays available

    # A friend's table: another Béa (same id), Ève of Point Zéro, a Théorem state.
    friend_bea = {**character("uc-bea", "Béa de Max"), "pv": 9}
    eve = ok({"op": "pointzero.character.new", "id": "pz-eve", "name": "Ève"})["character"]
    theorem = ok({"op": "theorem.state.new", "seed": 3})["state"]
    friend = new_table([friend_bea, eve], {"theorem": theorem}, name="Table de Max")
    before = backups(app)
    app.set_input_files("#import-add-file", file_of("max.json", friend))
    offer = app.get_by_test_id("import-add-offer")
    expect(offer).to_contain_text("Béa de Max")
    expect(offer.locator("input[data-id]")).to_have_count(2)
    assert saved_document(app)["characters"] == [bea, ana]  # reading the file changed nothing
    offer.locator("input[data-id=pz-eve]").uncheck()
    offer.locator("input[data-system=theorem]").check()
    app.click("#import-add-confirm")
    doc = wait_saved(app, "d => d.characters.length === 3")
    assert doc["name"] == "Ma table"
    assert doc["characters"][:2] == [bea, ana]  # the current table's characters untouched
    assert doc["characters"][2] == {**friend_bea, "id": "uc-bea-2"}
    assert doc["systems"]["theorem"] == theorem
    assert len(backups(app)) == len(before) + 1
    expect(app.get_by_test_id("import-add-done")).to_contain_text("uc-bea-2")

    # A player's exported character on its own is added too (its id is free: kept).
    app.set_input_files("#import-add-file", file_of("eve.json", eve))
    expect(app.get_by_test_id("import-add-offer")).to_contain_text("Ève")
    app.click("#import-add-confirm")
    doc = wait_saved(app, "d => d.characters.length === 4")
    assert doc["characters"][3] == eve

    # A file that is nothing to add is refused in words, and changes nothing.
    app.set_input_files("#import-add-file", file_of("log.json", {"app": "tablee", "kind": "log", "table": "x", "log": []}))
    expect(app.get_by_test_id("import-add-error")).not_to_be_empty()
    assert len(saved_document(app)["characters"]) == 4
    no_horizontal_scroll(app)


def test_the_last_changes_show_the_day_and_fold_after_a_few(app_with):
    app = app_with(new_table([]))
    goto_route(app, "table")
    name = app.locator("#table-name-input")
    for n in range(7):
        name.fill(f"Table {n}")
        name.press("Enter")
        wait_saved(app, "(d, a) => d.name === a", arg=f"Table {n}")
    entries = app.locator("[data-testid=undo-entry]")
    expect(app.locator("[data-testid=undo-list] [data-testid=undo-entry]")).to_have_count(5)
    more = app.get_by_test_id("undo-more")
    expect(more.locator("summary")).to_have_text("2 modifications de plus")
    expect(entries.nth(6)).to_be_hidden()
    more.locator("summary").click()
    expect(entries.nth(6)).to_be_visible()
    when = entries.first.locator("time").inner_text()
    # « mer. 2 déc., 21:05 »: the day, the date and the time, not the time alone.
    assert re.fullmatch(r"[a-zé]+\. \d{1,2} [a-zéû]+\.?, \d\d:\d\d", when), when
    no_horizontal_scroll(app)
