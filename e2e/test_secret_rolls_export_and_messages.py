"""Small points a person met at the table, each where it could fail: a secret roll on one device,
the export's file name and confirmation, and the wording and layout of a few messages."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from browser_support import MJ_MODE_ON, goto_route, new_table, no_horizontal_scroll, ok, wait_engine, wait_saved

APP = "const { app } = await import(new URL('static/js/app.js', location.href).href);"


def test_an_mj_alone_hides_a_tray_roll_from_the_players(page, app_with):
    """"Cacher aux joueurs" on the dice tray, with no live table: the roll is kept in the MJ's
    log, marked secret, and a copy of the table shared for the players leaves it out."""
    page.add_init_script(MJ_MODE_ON)
    app_with(new_table(), "tray")
    hide = page.get_by_role("checkbox", name="Cacher aux joueurs")
    hide.check()
    page.fill("#dice-expr", "3d6")
    page.click("#roll-button")
    saved = wait_saved(page, "(d) => d.log.length === 1")
    assert saved["log"][0]["to"] == "mj"
    # a roll left visible is logged for everyone
    hide.uncheck()
    page.click("#roll-button")
    saved = wait_saved(page, "(d) => d.log.length === 2")
    assert "to" not in saved["log"][1]
    shared = page.evaluate(
        f"async (doc) => {{ {APP} return app.call({{ op: 'store.share', kind: 'table', audience: 'player', data: doc }}); }}",
        saved,
    )
    assert [e["id"] for e in shared["data"]["log"]] == [saved["log"][1]["id"]], shared
    goto_route(page, "log")
    expect(page.get_by_test_id("log-to")).to_have_text(["jet secret"])


def test_a_player_device_has_no_secret_roll(app):
    """Without "Je suis MJ" on the device, no roll is hidden: there is nobody to hide it from."""
    app.evaluate("localStorage.setItem('tablee.mj-mode', 'off')")
    app.reload()
    wait_engine(app)
    expect(app.locator("#roll-button")).to_be_enabled()
    expect(app.locator("#roll-secret")).to_have_count(0)


def test_the_export_keeps_the_letters_of_the_name_and_confirms_itself(page, app_with):
    """The file was `tablee-Soire-e-The-orem-….json` (each accent a "-") and nothing said the
    export happened: the letters stay, their accents go, and a notice names the file."""
    app_with(new_table(name="Soirée Théorem"), "table")
    with page.expect_download() as info:
        page.click("#export-table")
    name = info.value.suggested_filename
    assert re.fullmatch(r"tablee-Soiree-Theorem-\d{4}-\d{2}-\d{2}\.json", name), name
    expect(page.locator("#notices .notice[role=status]").filter(has_text=name)).to_have_text(
        re.compile(f"Fichier enregistré dans les téléchargements de l'appareil\u00a0: «\u00a0{re.escape(name)}\u00a0»"))


def test_unicreon_a_choice_refused_for_the_characteristics_says_so_with_them(page, app_with):
    """While the characteristics do not add up to 150, choosing equipment is refused: the sum's
    message was shown under the armour. It is now with the characteristics, and the armour's
    line points to it."""
    page.set_viewport_size({"width": 360, "height": 800})
    rui = ok({"op": "unicreon.character.new", "id": "uc-rui", "name": "Rui"})["character"]
    app_with(new_table([rui]), "unicreon/character/uc-rui")
    page.select_option("#uc-char-puissance", "50")
    expect(page.get_by_test_id("uc-sum")).to_contain_text("160")
    page.click("#uc-shop summary")
    page.get_by_test_id("uc-buy-armure_cuir").click()
    refusal = page.get_by_test_id("uc-chars-refusal")
    expect(refusal).to_have_text("La somme des caractéristiques doit faire 150 (elle fait 160).")
    expect(page.locator("#uc-chars").get_by_test_id("uc-chars-refusal")).to_have_count(1)
    item = page.get_by_test_id("uc-buy-armure_cuir").locator("xpath=ancestor::li[1]")
    expect(item.get_by_test_id("uc-item-error")).to_contain_text("Refusé : les caractéristiques doivent d'abord faire 150")
    item.get_by_role("button", name="Aller aux caractéristiques").click()
    expect(page.locator("#uc-char-puissance")).to_be_focused()
    no_horizontal_scroll(page)


def _table_link(site: str, doc: dict) -> str:
    """A link sharing ``doc`` for the players, as the share page writes it."""
    from share_links import payload

    return site + "#/share/" + payload({"app": "tablee", "kind": "table", "v": 1, "audience": "player", "data": doc})


def test_importing_onto_an_empty_table_warns_of_nothing_and_english_lists_with_a_colon(page, app_with, site):
    """A brand-new player was warned that importing replaces "Ma table", which held nothing; and
    English listed "2 characters : Alice, Bruno" with the French space before the colon."""
    mj_table = new_table([ok({"op": "pointzero.character.new", "id": f"pz-{n}", "name": n})["character"]
                          for n in ("Alice", "Bruno")], name="Soirée")
    app_with(new_table(), "home")
    page.goto(_table_link(site, mj_table))
    expect(page.get_by_test_id("share-table-warning")).to_have_text(
        "Votre table actuelle est encore vide\u00a0: l'importation ne vous fait rien perdre.")
    expect(page.locator("main")).to_contain_text("2 personnages\u00a0: Alice, Bruno")
    page.evaluate("localStorage.setItem('tablee.language', 'en')")
    page.goto(site + "#/tray")
    page.reload()
    wait_engine(page)
    page.goto(_table_link(site, mj_table))
    expect(page.locator("main")).to_contain_text("2 characters: Alice, Bruno")
    # a table that holds something is named in the warning
    page.goto(site + "#/tray")
    page.click("#roll-button")
    wait_saved(page, "(d) => d.log.length === 1")
    page.goto(_table_link(site, mj_table))
    expect(page.get_by_test_id("share-table-warning")).to_contain_text("Importing replaces the current table")


def test_a_long_table_name_keeps_the_language_switch_on_a_phone(page, app_with):
    """At 360 px a long table name pushed "English" past the right edge (a sideways scroll): the
    header's tools shrank below their words. A name with no space, the longest case, in both
    languages: the switch is whole and on screen, the name cut with an ellipsis."""
    page.set_viewport_size({"width": 360, "height": 740})
    name = "Campagnedhiverdesterresbrulees" * 2
    app_with(new_table(name=name), "home")
    for label in ("English", "Français"):
        toggle = page.locator("#lang-toggle")
        expect(toggle).to_have_text(label)
        expect(page.locator("#table-name")).to_have_text(name)
        box = toggle.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 360, box
        assert page.evaluate("() => { const b = document.getElementById('lang-toggle'); return b.scrollWidth <= b.clientWidth; }")
        no_horizontal_scroll(page)
        assert page.evaluate("() => { const e = document.getElementById('table-name'); return e.scrollWidth > e.clientWidth; }")
        toggle.click()


def test_a_change_the_pre_save_check_refuses_names_the_field_as_the_page_labels_it(page, app_with):
    """The page's own check before a save (the published character schemas) refused with
    « characters.0.attributes.1.level » : valeur trop grande: it now reads as the engine's
    refusals do, in the page's language, the field named by its label."""
    ana = ok({"op": "pointzero.character.new", "id": "pz-ana", "name": "Ana"})["character"]
    app_with(new_table([ana]), "pointzero")
    change = """async (value) => { APP
      const accepted = app.update((doc) => { doc.characters[0].attributes[1].level = value; });
      return [accepted, app.refusal?.text ?? null]; }""".replace("APP", APP)
    assert page.evaluate(change, 99) == [False, "Modification refusée — Niveau\u00a0: 10 au plus. Rien n'a été enregistré."]
    assert page.evaluate(change, "x") == [False, "Modification refusée — Niveau\u00a0: un nombre entier. Rien n'a été enregistré."]
    saved = wait_saved(page, "(d) => d.characters.length === 1")
    assert saved["characters"][0]["attributes"][1]["level"] == 2  # nothing changed
