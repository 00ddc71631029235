"""The foundation in a real browser: engine, tray, odds, log, offline, safety, layout."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from browser_support import ROOT, goto_route, saved_document, wait_engine, wait_log, wait_saved

XSS_NAME = "<img src=x onerror=alert(1)>"


def roll(page, expr: str) -> None:
    page.fill("#dice-expr", expr)
    page.click("#roll-button")


def test_engine_ready_in_french_with_english_one_click_away(app):
    expect(app.locator("html")).to_have_attribute("lang", "fr")
    expect(app.locator("#engine-status")).to_have_text("Moteur de règles : prêt")
    expect(app.get_by_role("heading", name="Lancer de dés")).to_be_visible()
    app.click("#lang-toggle")
    expect(app.locator("html")).to_have_attribute("lang", "en")
    expect(app.get_by_role("heading", name="Dice roller")).to_be_visible()
    wait_saved(app, "d => d.language === 'en'")
    app.reload()
    wait_engine(app)
    expect(app.get_by_role("heading", name="Dice roller")).to_be_visible()


def test_tray_shows_odds_then_every_die_kept_and_dropped(app):
    app.fill("#dice-expr", "6d6kh4+2")
    expect(app.locator("#odds-title")).to_contain_text("6d6kh4+2")
    # 6d6kh4+2 runs from 6 to 26: one row per total.
    expect(app.locator("#odds tbody tr")).to_have_count(21)
    app.fill("#at-least", "20")
    expect(app.locator("#at-least-odds")).to_contain_text("au moins 20")
    app.click("#roll-button")
    dice = app.locator("#roll-result li.die")
    expect(dice).to_have_count(6)
    expect(app.locator("#roll-result li.die[data-kept=false]")).to_have_count(2)
    kept = [int(v) for v in app.locator("#roll-result li.die[data-kept=true]").all_inner_texts()]
    dropped = [int(v) for v in app.locator("#roll-result li.die[data-kept=false]").all_inner_texts()]
    assert min(kept) >= max(dropped)
    assert int(app.inner_text("[data-testid=total]")) == sum(kept) + 2


def test_quick_buttons_and_d100_read_00_to_99(app):
    app.click("button.quick[data-expr=d100]")  # a preset rolls at once
    expect(app.locator("#dice-expr")).to_have_value("d100")
    expect(app.locator("#odds tbody tr")).to_have_count(100)
    expect(app.locator("#odds tbody tr").first.locator("th")).to_have_text("0")
    wait_log(app, 1)
    expect(app.locator("#roll-result li.die")).to_have_count(2)
    total = int(app.inner_text("[data-testid=total]"))
    tens, units = (int(v) for v in app.locator("#roll-result li.die").all_inner_texts())
    assert total == 10 * tens + units and 0 <= total <= 99


def test_bad_expression_gets_a_clear_message_and_no_roll(app):
    app.fill("#dice-expr", "3d6+")
    expect(app.locator("#dice-error")).not_to_be_empty()
    app.fill("#dice-expr", "500d6")
    expect(app.locator("#dice-error")).to_contain_text("100")
    app.click("#roll-button")
    expect(app.locator("#dice-error")).to_contain_text("100")
    # A good roll after it: the button is busy until the refused one is answered, so once
    # this one is saved the refused one has long been answered, and it logged nothing.
    roll(app, "2d6")
    log = wait_log(app, 1)["log"]
    assert [e["request"]["expr"] for e in log] == ["2d6"]
    # Messages about a count take the singular or the plural, as French does.
    messages = app.evaluate(
        """() => import("./static/js/i18n.js").then(({ errorMessage }) => [1, 3].map((count) =>
            errorMessage({ code: "versality.char.not_finished", params: { count, field: "powers" } })))"""
    )
    assert "1 problème à régler" in messages[0] and "3 problèmes à régler" in messages[1]


def test_log_survives_a_reload_and_exports(app):
    roll(app, "3d6")
    total = app.inner_text("[data-testid=total]")
    wait_log(app, 1)
    goto_route(app, "log")
    expect(app.locator("#log-list li")).to_have_count(1)
    app.reload()
    wait_engine(app)
    expect(app.locator("#log-list li")).to_have_count(1)
    expect(app.locator("#log-list li .log-total")).to_have_text(total)
    with app.expect_download() as info:
        app.click("#export-log")
    exported = json.loads(open(info.value.path(), encoding="utf-8").read())
    assert exported["log"][0]["request"]["expr"] == "3d6"
    assert exported["log"][0]["result"]["total"] == int(total)


@pytest.mark.fresh_context
def test_offline_after_first_visit(app, context):
    app.evaluate("navigator.serviceWorker.ready.then(() => true)")
    app.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=60_000)
    context.set_offline(True)
    try:
        app.reload()
        wait_engine(app)
        roll(app, "2d6")
        expect(app.locator("#roll-result li.die")).to_have_count(2)
    finally:
        context.set_offline(False)


def test_a_table_name_is_text_never_markup(app):
    dialogs = []
    app.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    goto_route(app, "table")
    app.fill("#table-name-input", XSS_NAME)
    app.press("#table-name-input", "Enter")
    app.locator("#table-name-input").blur()
    expect(app.locator("#table-name")).to_have_text(XSS_NAME)
    assert app.locator("header img").count() == 0
    wait_saved(app, "(d, name) => d.name === name", XSS_NAME)
    app.reload()
    wait_engine(app)
    expect(app.locator("#table-name")).to_have_text(XSS_NAME)
    assert app.locator("img[src=x]").count() == 0
    assert dialogs == []


def test_importing_a_corrupted_file_keeps_the_table(app, tmp_path):
    roll(app, "d20")
    before = wait_log(app, 1)
    goto_route(app, "table")
    broken = tmp_path / "table.json"
    broken.write_text('{"schema": 1, "app": "tablee", "name": ')
    app.set_input_files("#import-table", str(broken))
    expect(app.locator("#import-error")).to_contain_text("table.json")
    foreign = tmp_path / "foreign.json"
    # unreadable as a table at all (a bad part alone would be kept apart, "à réparer")
    foreign.write_text(json.dumps({"schema": "1", "app": "tablee", "name": "X", "language": "fr", "characters": "oops",
                                   "log": [], "systems": {}, "settings": {}}))
    app.set_input_files("#import-table", str(foreign))
    expect(app.locator("#import-error")).to_contain_text("refusé")
    assert saved_document(app) == before


def test_import_replaces_only_after_consent_and_keeps_a_backup(app, tmp_path):
    roll(app, "d20")
    original = wait_log(app, 1)  # the roll's log entry is saved before we copy the table
    other = dict(original, name="Autre table", log=[])
    path = tmp_path / "autre.json"
    path.write_text(json.dumps(other))
    goto_route(app, "table")
    with app.expect_event("dialog") as asked:
        app.set_input_files("#import-table", str(path))
    # confirm() blocks the page: once dismissed, the import handler has returned.
    asked.value.dismiss()
    assert saved_document(app) == original
    expect(app.locator("#table-name")).not_to_have_text("Autre table")
    app.once("dialog", lambda d: d.accept())
    app.set_input_files("#import-table", str(path))
    expect(app.locator("#table-name")).to_have_text("Autre table")
    expect(app.locator("#backup-list li")).to_have_count(1)
    backups = app.evaluate(
        "Object.keys(localStorage).filter(k => k.startsWith('tablee.backup.')).map(k => localStorage.getItem(k))"
    )
    assert json.loads(backups[0]) == original


def test_a_corrupted_saved_blob_is_backed_up_not_lost(page, site, guarded):
    page.goto(site)
    wait_engine(page)  # the first boot has saved its fresh table: nothing will overwrite ours
    page.evaluate("localStorage.setItem('tablee.document', '{not json')")
    page.reload()
    wait_engine(page)
    expect(page.locator(".notice.error")).to_contain_text("sauvegarde")
    assert wait_saved(page, "d => d.schema === 1")["schema"] == 1
    backups = page.evaluate(
        "Object.keys(localStorage).filter(k => k.startsWith('tablee.backup.')).map(k => localStorage.getItem(k))"
    )
    assert backups == ["{not json"]


def test_a_schema0_table_is_migrated(page, site, guarded):
    fixture = (ROOT / "tests" / "fixtures" / "table-schema0.json").read_text()
    page.goto(site)
    wait_engine(page)
    page.evaluate("raw => localStorage.setItem('tablee.document', raw)", fixture)
    page.reload()
    wait_engine(page)
    doc = wait_saved(page, "d => d.schema === 1")
    assert doc["name"] == json.loads(fixture)["title"]
    assert len(doc["log"]) == len(json.loads(fixture)["rolls"])


def test_every_view_fits_360px_without_horizontal_scroll(app):
    app.fill("#dice-expr", "100d6")  # the widest odds table
    expect(app.locator("#odds tbody tr")).to_have_count(501)
    assert app.evaluate("document.documentElement.scrollWidth") <= 360
    roll(app, "20d6kh10")
    expect(app.locator("#roll-result li.die")).to_have_count(20)
    wait_log(app, 1)
    for route in ("home", "tray", "log", "table", "about"):
        goto_route(app, route)
        width = app.evaluate("document.documentElement.scrollWidth")
        assert width <= 360, f"#/{route} scrolls horizontally ({width}px)"


def test_about_credits_the_five_systems(app):
    app.goto(app.url.split("#")[0] + "#/about")
    for name, credit in [
        ("SYSTMJ", "Dubos"),
        ("Versality", "Alban Damien"),
        ("Point Zéro", "non indiqués"),
        ("Théorem", "non indiqués"),
        ("Unicreon", "Amaury Bouchard"),
    ]:
        card = app.locator("article", has=app.get_by_role("heading", name=name, exact=True))
        expect(card).to_contain_text(credit)
    assert re.search(r"CC BY 4\.0", app.inner_text("#about-unicreon"))


def test_a_new_version_waits_for_the_user_then_replaces_the_old_cache(app, new_version):
    app.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=60_000)
    # The precache only: the engine's memory snapshot has a cache of its own (tablee-snapshot).
    app_caches = "caches.keys().then(k => k.filter(n => n !== 'tablee-snapshot'))"
    old = app.evaluate(app_caches)
    assert len(old) == 1 and old[0].startswith("tablee-")
    roll(app, "d6")
    wait_log(app, 1)
    new_version("next")
    app.evaluate("navigator.serviceWorker.getRegistration().then(r => r.update())")
    notice = app.locator(".notice", has_text="nouvelle version")
    expect(notice).to_be_visible(timeout=60_000)
    # The new version is installed beside the old one, which stays in charge until the user agrees.
    assert sorted(app.evaluate(app_caches)) == [old[0], old[0] + "next"]
    app.wait_for_function("() => navigator.serviceWorker.getRegistration().then(r => r.waiting !== null)")
    with app.expect_navigation(timeout=60_000):
        notice.get_by_role("button", name="Mettre à jour").click()
    wait_engine(app)
    app.wait_for_function(f"() => {app_caches}.then(k => k.length === 1 && k[0].endsWith('next'))", timeout=30_000)
    assert app.evaluate(app_caches) == [old[0] + "next"]
    assert len(saved_document(app)["log"]) == 1  # the table survived the update


def test_a_hostile_deeply_nested_import_is_refused_and_the_engine_lives_on(app, tmp_path):
    before = saved_document(app)
    hostile = tmp_path / "deep.json"
    hostile.write_text(
        '{"schema":1,"app":"tablee","name":"x","language":"fr","characters":[],"log":[],"systems":{},'
        '"settings":{"x":' + "[" * 5000 + "]" * 5000 + "}}"
    )
    goto_route(app, "table")
    # Too deep is a fault of the record that holds it (here the settings): the import offers the
    # rest of the table with that record set apart "à réparer"; declined, nothing changes.
    with app.expect_event("dialog") as asked:
        app.set_input_files("#import-table", str(hostile))
    dialog = asked.value
    assert "gardé à part" in dialog.message, dialog.message
    dialog.dismiss()
    assert saved_document(app) == before
    goto_route(app, "tray")
    roll(app, "2d6")
    expect(app.locator("#roll-result li.die")).to_have_count(2)
    expect(app.locator("#engine-status")).to_have_text("Moteur de règles : prêt")
