"""In Chromium, at 360 px and 1280 px: the welcome a first visit lands on, the
navigation, the home page's import, the journal's spreadsheet export (bytes read from the
downloaded file), files of the wrong kind, and backups named by local date and time.

The browser runs in Pacific/Kiritimati (UTC+14): a local date and time there is never the UTC
one, so a label or a cell that shows UTC fails. The expected local values are computed here
with zoneinfo, not by the page's code."""

from __future__ import annotations

import csv
import datetime
import io
import json
import zoneinfo

import pytest
from playwright.sync_api import expect

from browser_support import goto_route, no_horizontal_scroll, saved_document, wait_engine, wait_saved

ZONE = "Pacific/Kiritimati"
SYSTEMS = [("systmj", "SYSTMJ"), ("unicreon", "Unicreon"), ("versality", "Versality"),
           ("pointzero", "Point Zéro"), ("theorem", "Théorem")]
TRICKY = 'Zoé "la; Rouge"\nbis'
FORMULA = "=HYPERLINK(\"http://x\";\"y\")"
FR_DAYS = ["lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche"]
FR_MONTHS = ["janv.", "févr.", "mars", "avr.", "mai", "juin", "juil.", "août", "sept.", "oct.", "nov.", "déc."]


@pytest.fixture
def browser_context_args(browser_context_args):
    return {**browser_context_args, "timezone_id": ZONE}


# A test that checks both widths starts the engine once, at 360 px, and resizes its page.
WIDTHS = (360, 1280)


def sized(page, width: int) -> None:
    page.set_viewport_size({"width": width, "height": 740 if width == 360 else 800})


def local(iso: str) -> datetime.datetime:
    return datetime.datetime.fromisoformat(iso.replace("Z", "+00:00")).astimezone(zoneinfo.ZoneInfo(ZONE))


def entry(n: int, who: str | None, label: str, total, at: str, system=None) -> dict:
    e = {"id": f"log-{n}", "at": at, "kind": "roll", "system": system, "label": label,
         "request": {"op": "roll", "expr": "2d6", "seed": 12345 + n},
         "result": {"total": total, "terms": [{"text": "2d6", "dice": [{"value": 3, "kept": True}, {"value": 4, "kept": True}]}]}}
    if who is not None:
        e["who"] = who
    return e


def table(name: str = "Soirée d'hiver", **changes) -> dict:
    doc = {"schema": 1, "app": "tablee", "name": name, "language": "fr", "characters": [], "log": [],
           "systems": {}, "settings": {}}
    doc.update(changes)
    return doc


def open_home(page, site) -> None:
    page.goto(site)
    wait_engine(page)
    expect(page.get_by_role("heading", name="Bienvenue à la table", level=1)).to_be_visible()


def import_on_home(page, path) -> None:
    page.once("dialog", lambda d: d.accept())
    page.set_input_files("#home-import", str(path))


# --------------------------------------------------------------------------- the welcome
def test_an_empty_profile_lands_on_the_welcome(page, site, guarded):
    sized(page, 360)
    open_home(page, site)
    pitch = page.locator("[data-testid=home-pitch] p")
    expect(pitch).to_have_count(2)
    text = " ".join(pitch.all_inner_texts())
    for words in ("cinq jeux de rôle français", "chances exactes", "hors ligne", "n'envoie rien"):
        assert words in text, words
    cards = page.locator("[data-testid=home-system]")
    expect(cards).to_have_count(5)
    for i, (sid, name) in enumerate(SYSTEMS):
        card = cards.nth(i)
        expect(card).to_have_attribute("data-system", sid)
        expect(card.get_by_role("link", name=name, exact=True)).to_have_attribute("href", f"#/{sid}")
        expect(card.locator("[data-testid=home-count]")).to_have_text("Aucun personnage à cette table.")
        expect(card).to_contain_text("Jouable :")
    # the three next steps: a character in each system, the dice tray, an import
    expect(page.locator("[data-testid=home-create-link]")).to_have_count(5)
    expect(page.locator("#home-tray-link")).to_have_attribute("href", "#/tray")
    expect(page.locator("label[for=home-import]")).to_have_text("Importer une table…")
    expect(page.locator("[data-testid=home-summary]")).to_have_count(0)  # nothing to continue yet
    # "Accueil" first in the navigation, marked as the current page
    first = page.locator("#app-nav a").first
    expect(first).to_have_text("Accueil")
    expect(first).to_have_attribute("aria-current", "page")
    for width in WIDTHS:
        sized(page, width)
        systems = page.locator("[data-testid=home-systems]").bounding_box()
        steps = page.locator("[data-testid=home-next]").bounding_box()
        if width == 360:
            no_horizontal_scroll(page, 360)
            assert systems["y"] >= steps["y"] + steps["height"] - 1  # one column, the next step first
            assert steps["y"] < 740  # it starts on the first screen
        else:
            mj = page.locator("[data-testid=home-mj]").bounding_box()
            assert systems["x"] >= steps["x"] + steps["width"] - 1  # side by side
            assert abs(steps["y"] - mj["y"]) < 80  # the MJ's choice beside the next step, the systems under it
            assert steps["y"] + steps["height"] < 800  # all of it on the first screen
    # an unknown route lands here too, and English is one click away
    page.goto(site + "#/nowhere")
    expect(first).to_have_attribute("aria-current", "page")
    page.click("#lang-toggle")
    expect(page.get_by_role("heading", name="Welcome to the table", level=1)).to_be_visible()
    expect(first).to_have_text("Home")


def test_each_system_link_opens_its_page(page, site, guarded):
    sized(page, 360)
    open_home(page, site)
    for width in WIDTHS:
        sized(page, width)
        if width != WIDTHS[0]:  # back home from the tray, by the navigation
            page.locator("#app-nav a").first.click()
            expect(page.get_by_role("heading", name="Bienvenue à la table", level=1)).to_be_visible()
        for sid, name in SYSTEMS:
            page.locator(f"[data-testid=home-system][data-system={sid}]").get_by_role("link", name=name, exact=True).click()
            expect(page.locator(f'#app-nav a[data-route="{sid}"]')).to_have_attribute("aria-current", "page")
            expect(page.locator("main h1")).to_be_visible()
            expect(page.get_by_role("heading", name="Bienvenue à la table")).to_have_count(0)
            page.locator("#app-nav a").first.click()
            expect(page.get_by_role("heading", name="Bienvenue à la table", level=1)).to_be_visible()
        page.click("#home-tray-link")
        expect(page.get_by_role("heading", name="Lancer de dés")).to_be_visible()


def test_the_navigation_fits_and_holds_every_page(page, site, guarded):
    sized(page, 360)
    open_home(page, site)
    routes = page.eval_on_selector_all("#app-nav a", "links => links.map(a => a.dataset.route)")
    assert routes == ["home", "tray", "log", "systmj", "unicreon", "versality", "pointzero", "theorem", "table", "share", "live", "about"]
    for width in WIDTHS:
        sized(page, width)
        goto_route(page, "home")
        nav = page.locator("#app-nav")
        box = nav.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= width
        for route in ("theorem", "about", "tray"):
            goto_route(page, route)
            no_horizontal_scroll(page, width)
            # the current page's link is marked and in sight inside the navigation
            link = page.locator(f'#app-nav a[data-route="{route}"]')
            expect(link).to_have_attribute("aria-current", "page")
            page.wait_for_function(
                """r => { const nav = document.getElementById('app-nav').getBoundingClientRect();
                    const a = document.querySelector(`#app-nav a[data-route="${r}"]`).getBoundingClientRect();
                    return a.left >= nav.left - 1 && a.right <= nav.right + 1; }""",
                arg=route,
            )
        # Every link in sight at every width (it wraps, nothing hides past a scrolling edge), in
        # at most three compact rows on a phone.
        assert page.evaluate("(() => { const n = document.getElementById('app-nav'); return n.scrollWidth <= n.clientWidth; })()")
        assert box["height"] < (130 if width == 360 else 70), width


# ------------------------------------------------------------------- import and returning
def test_import_from_the_home_page_then_the_table_is_summarised(page, site, guarded, tmp_path):
    sized(page, 360)
    open_home(page, site)
    before = saved_document(page)
    doc = table(log=[entry(1, "Zoé", "Perception", 7, "2026-11-22T20:47:05.000Z", system="unicreon")])
    path = tmp_path / "soiree.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    import_on_home(page, path)
    expect(page.locator("[data-testid=home-import-ok]")).to_contain_text("Soirée d'hiver")
    expect(page.locator("#table-name")).to_have_text("Soirée d'hiver")
    saved = wait_saved(page, "d => d.name === \"Soirée d'hiver\"")
    assert saved["log"] == doc["log"]
    backups = page.evaluate("Object.keys(localStorage).filter(k => k.startsWith('tablee.backup.')).map(k => localStorage.getItem(k))")
    assert [json.loads(b) for b in backups] == [before]
    # a returning table: its summary, the last roll with its local time, and where to continue
    summary = page.locator("[data-testid=home-summary]")
    expect(summary).to_contain_text("Votre table : Soirée d'hiver")
    expect(summary).to_contain_text("1 jet au journal")
    when = local("2026-11-22T20:47:05.000Z")
    expect(page.locator("[data-testid=home-last-roll]")).to_contain_text("Dernier jet : Zoé · Perception = 7")
    expect(page.locator("[data-testid=home-last-roll]")).to_contain_text(f"{when.day} {FR_MONTHS[when.month - 1]} {when.year}, {when:%H:%M}")
    # a character made in Unicreon shows in its system's count and gives a "continue" link
    goto_route(page, "unicreon")
    page.fill("#uc-new-name", "Béa")
    page.click("#uc-create")
    wait_saved(page, "d => d.characters.length === 1")
    page.locator("#app-nav a").first.click()
    for width in WIDTHS:
        sized(page, width)
        expect(page.locator("[data-testid=home-system][data-system=unicreon] [data-testid=home-count]")).to_have_text("1 personnage à cette table.")
        expect(summary).to_contain_text("1 personnage (Unicreon 1)")
        expect(page.locator("[data-testid=home-continue]")).to_have_attribute("href", "#/unicreon")
        if width == 360:
            no_horizontal_scroll(page, 360)


def test_files_of_the_wrong_kind_say_what_they_are_and_change_nothing(page, site, guarded, tmp_path):
    open_home(page, site)
    goto_route(page, "table")
    before = saved_document(page)
    cases = {
        "journal.json": (json.dumps({"app": "tablee", "kind": "log", "table": "Ma table", "log": []}),
                         "est l'export du journal (table « Ma table », 0 jet), pas une table"),
        "a-reparer.json": (json.dumps({"kind": "character", "path": "characters[0]", "problems": [], "data": {}}),
                           "est un élément « à réparer » exporté"),
        "perso.json": (json.dumps({"id": "u1", "system": "unicreon", "name": "Béa"}), "est un personnage seul (« Béa », Unicreon)"),
        "autre.json": (json.dumps({"app": "notes", "items": []}), "contient les données d'une autre application (notes)"),
        "vide.json": ("  \n", "est vide"),
        "journal.csv": ("\ufeffDate;Heure;Jeu;Personnage;Jet;Total;Résultat;Dés\r\n", "est l'export tableur du journal"),
        "notes.csv": ("a;b\r\n1;2\r\n", "est un tableau (CSV)"),
    }
    for name, (text, expected) in cases.items():
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        page.set_input_files("#import-table", str(path))
        expect(page.locator("#import-error")).to_contain_text(f"« {name} » {expected}")
        expect(page.locator("#import-error")).to_contain_text("Rien n'a été changé")
    png = tmp_path / "photo.png"
    png.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(64))
    page.set_input_files("#import-table", str(png))
    expect(page.locator("#import-error")).to_contain_text("« photo.png » est une image (PNG), pas une table")
    # JSON that is no table, with no "app" to say whose: the engine refuses it, and the message
    # says it is another application's data instead of naming the first missing field
    other = tmp_path / "config.json"
    other.write_text(json.dumps({"theme": "dark", "fontSize": 12}))
    page.set_input_files("#import-table", str(other))
    expect(page.locator("#import-error")).to_contain_text("« config.json » contient les données d'une autre application, pas une table")
    assert saved_document(page) == before
    assert page.evaluate("Object.keys(localStorage).filter(k => k.startsWith('tablee.backup.'))") == []


# ------------------------------------------------------------------------ spreadsheet export
def test_the_journal_exports_as_a_french_spreadsheet(page, site, guarded, tmp_path):
    open_home(page, site)
    log = [entry(1, TRICKY, "Perception", 7, "2026-11-22T20:47:05.000Z", system="unicreon"),
           entry(2, FORMULA, "-2d6", -3, "2026-11-22T21:00:00.000Z"),
           entry(3, None, "d100", 42, "2026-11-23T09:59:59.000Z")]
    path = tmp_path / "t.json"
    path.write_text(json.dumps(table(log=log)), encoding="utf-8")
    import_on_home(page, path)
    expect(page.locator("#table-name")).to_have_text("Soirée d'hiver")
    goto_route(page, "log")
    with page.expect_download() as info:
        page.click("#export-log-csv")
    download = info.value
    assert download.suggested_filename.endswith(".csv")
    raw = open(download.path(), "rb").read()
    header = "Date;Heure;Jeu;Personnage;Jet;Total;Résultat;Dés\r\n".encode()
    assert raw.startswith(b"\xef\xbb\xbf" + header)
    text = raw.decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(text, newline=""), delimiter=";"))
    assert rows[0] == ["Date", "Heure", "Jeu", "Personnage", "Jet", "Total", "Résultat", "Dés"]
    assert len(rows) == 4 and all(len(r) == 8 for r in rows)
    first = local(log[0]["at"])
    assert rows[1][:6] == [f"{first:%d/%m/%Y}", f"{first:%H:%M:%S}", "Unicreon", TRICKY, "Perception", "7"]
    assert rows[1][7] == "2d6: 3 4"
    # user text that a spreadsheet would run as a formula is neutralised, a negative total stays a number
    assert rows[2][3] == "'" + FORMULA and rows[2][4] == "'-2d6" and rows[2][5] == "-3"
    assert rows[2][2] == "Plateau de dés"
    assert rows[3][0] == f"{local(log[2]['at']):%d/%m/%Y}" and rows[3][3] == ""
    # numbers are written bare (no quotes) so the spreadsheet reads them as numbers
    records = text.split("\r\n")  # the name's own line break is a bare "\n", inside its quotes
    assert ";7;" in records[1] and ";-3;" in records[2] and ";42;" in records[3]
    assert records[1].startswith(f"{first:%d/%m/%Y};{first:%H:%M:%S};Unicreon;\"Zoé \"\"la; Rouge\"\"\nbis\";")
    # the spreadsheet file imported by mistake is recognised
    goto_route(page, "table")
    page.set_input_files("#import-table", download.path())
    expect(page.locator("#import-error")).to_contain_text("est l'export tableur du journal")


def test_the_english_export_has_english_headers(page, site, guarded, tmp_path):
    open_home(page, site)
    path = tmp_path / "t.json"
    doc = table(language="en", log=[entry(1, "Al", "Roll", 5, "2026-11-22T20:47:05.000Z")])
    path.write_text(json.dumps(doc), encoding="utf-8")
    import_on_home(page, path)
    # The language is the device's (an imported table's own field switches nothing): chosen here.
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    page.click("#lang-toggle")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    goto_route(page, "log")
    with page.expect_download() as info:
        page.click("#export-log-csv")
    raw = open(info.value.path(), "rb").read()
    assert raw.startswith(b"\xef\xbb\xbfDate,Time,Game,Character,Roll,Total,Result,Dice\r\n")
    when = local("2026-11-22T20:47:05.000Z")
    assert f"{when:%Y-%m-%d},{when:%H:%M:%S},Dice tray,Al,Roll,5,,2d6: 3 4\r\n".encode() in raw


# ------------------------------------------------------------------------------ backups
def test_a_backup_is_labelled_by_local_date_and_time_with_its_summary(page, site, guarded):
    sized(page, 360)
    open_home(page, site)
    key = "tablee.backup.2026-11-22T20:47:00.000Z"
    old = table(name="Vieille table",
                characters=[{"id": "a", "system": "unicreon", "name": "A"}, {"id": "b", "system": "versality", "name": "B"}],
                log=[entry(1, "Zoé", "Perception", 7, "2026-11-22T20:40:00.000Z")])
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [key, json.dumps(old)])
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", ["tablee.backup.2026-11-21T10:00:00.000Z", "{not json"])
    goto_route(page, "table")
    items = page.locator("#backup-list li")
    expect(items).to_have_count(2)
    when = local("2026-11-22T20:47:00.000Z")  # Monday 23 Nov 2026, 10:47 in Kiritimati
    label = f"{FR_DAYS[when.weekday()]} {when.day} {FR_MONTHS[when.month - 1]} {when.year}, {when:%H:%M}"
    expect(items.first.locator("[data-testid=backup-when]")).to_have_text(label)
    expect(items.first.locator("[data-testid=backup-summary]")).to_have_text(
        "Vieille table · 2 personnages · dernier jet : Zoé · Perception = 7")
    expect(items.nth(1).locator("[data-testid=backup-summary]")).to_contain_text("pas une table Tablée lisible")
    with page.expect_download() as info:
        items.first.get_by_role("button", name="Télécharger").click()
    assert info.value.suggested_filename == f"tablee-sauvegarde-Vieille-table-{when:%Y-%m-%d_%Hh%M}.json"
    assert json.loads(open(info.value.path(), encoding="utf-8").read()) == old
    for width in WIDTHS:
        sized(page, width)
        if width == 360:
            no_horizontal_scroll(page, 360)
        else:
            # the table page uses the width: the transfer and the backups side by side
            transfer = page.locator("section[aria-labelledby=transfer-title]").bounding_box()
            backups = page.locator("section[aria-labelledby=backups-title]").bounding_box()
            assert backups["x"] >= transfer["x"] + transfer["width"] - 1
    page.click("#lang-toggle")
    wait_saved(page, "d => d.language === 'en'")
    expect(items.first.locator("[data-testid=backup-when]")).to_have_text(
        f"{when:%A}, {when.day} {when:%b} {when.year}, {when:%H:%M}")
    expect(items.first.locator("[data-testid=backup-summary]")).to_have_text(
        "Vieille table · 2 characters · last roll: Zoé · Perception = 7")


def test_the_log_page_uses_the_width(page, site, guarded, tmp_path):
    sized(page, 360)
    open_home(page, site)
    log = [entry(i, "Zoé", f"Jet {i}", i, f"2026-11-22T20:4{i}:00.000Z") for i in range(1, 5)]
    path = tmp_path / "t.json"
    path.write_text(json.dumps(table(log=log)), encoding="utf-8")
    import_on_home(page, path)
    expect(page.locator("#table-name")).to_have_text("Soirée d'hiver")
    goto_route(page, "log")
    entries = page.locator("#log-list li")
    expect(entries).to_have_count(4)
    for width in WIDTHS:
        sized(page, width)
        a, b = entries.nth(0).bounding_box(), entries.nth(1).bounding_box()
        if width == 360:
            no_horizontal_scroll(page, 360)
            assert b["y"] > a["y"]
        else:
            assert abs(b["y"] - a["y"]) < 1 and b["x"] > a["x"]
