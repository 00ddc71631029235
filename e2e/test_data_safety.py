"""A saved table is never lost, in Chromium: each way it was lost, reproduced (writes
the loader refused, backups that were not there, two tabs, ids that broke pages, a stack of
save notices), the "à réparer" area, two tabs alternating 20 changes, and a render fuzz of
documents the loader accepts (every route, no page error)."""

from __future__ import annotations

import json
import os
import re
import sys

import pytest
from playwright.sync_api import expect

from browser_support import ROOT, saved_document, wait_engine, wait_saved

sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "py"))

DOC_KEY = "tablee.document"
BACKUPS_JS = "Object.keys(localStorage).filter(k => k.startsWith('tablee.backup.')).sort()"


#: The tests that hold the runtime's requests run with no service worker, in a context of their
#: own: a cached copy would answer the requests they hold (the offline behaviour has its own
#: tests in test_shell.py).
NO_SERVICE_WORKER = pytest.mark.browser_context_args(service_workers="block")


def go(page, route: str) -> None:
    page.goto(page.url.split("#")[0] + route)


def raw_saved(page) -> str | None:
    return page.evaluate("k => localStorage.getItem(k)", DOC_KEY)


def put_saved(page, doc) -> None:
    """Save `doc` (or raw text) as the table and reload: the next boot opens it."""
    raw = doc if isinstance(doc, str) else json.dumps(doc, ensure_ascii=False, separators=(",", ":"))
    page.evaluate("([k, raw]) => localStorage.setItem(k, raw)", [DOC_KEY, raw])
    page.reload()
    wait_engine(page)


def fill_storage(page, room: int) -> None:
    """Fill localStorage with other keys until it is full but for about `room` characters."""
    page.evaluate(
        """room => {
          localStorage.setItem('filler.room', 'r'.repeat(room));
          let i = 0;
          for (const size of [1000000, 100000, 10000, 1000, 100, 10, 1]) {
            const chunk = 'f'.repeat(size);
            for (;;) { try { localStorage.setItem('filler.' + (i++), chunk); } catch { break; } }
          }
          localStorage.removeItem('filler.room');
        }""",
        room,
    )


def free_storage(page) -> None:
    page.evaluate("Object.keys(localStorage).filter(k => k.startsWith('filler.')).forEach(k => localStorage.removeItem(k))")


def roll(page, expr: str = "2d6") -> None:
    if "#/tray" not in page.url:  # the site lands on the home page
        go(page, "#/tray")
    page.fill("#dice-expr", expr)
    page.click("#roll-button")


def unicreon(cid: str, name, **changes) -> dict:
    c = {
        "id": cid, "system": "unicreon", "name": name, "created": True, "story": "Une histoire.",
        "origins": "Le nord", "job": "Guide", "description": "Grande", "don": "Voit loin", "defaut": "Têtue",
        "secret": "", "characteristics": {"puissance": 20, "agilite": 40, "perception": 40, "volonte": 50},
        "skills": [], "pv": 12, "pv_max": 12, "po": 0, "inventory": [], "conditions": [], "down": None,
        "ignore_encumbrance": False, "important_npc": False,
    }
    c.update(changes)
    return c


def versality(cid: str, name: str) -> dict:
    deck = [{"kind": k, "origin": "base"} for k in ("oui-et", "oui", "oui-mais", "oui-mais")]
    return {
        "id": cid, "system": "versality", "name": name, "created": False, "powers": [], "forces": [],
        "faiblesses": [], "traits_approved": False,
        "characteristics": {"physique": 0, "mental": 0, "personnalite": 0},
        "skills": {k: 0 for k in ("traquer", "survivre", "terroriser", "combattre", "soulager", "comprendre",
                                  "fureter", "resister")},
        "deck": deck, "wounds": {"physique": 0, "mental": 0, "personnalite": 0},
        "incapacitated": False, "heal_used": False, "improvement_points": 0,
    }


def table(**changes) -> dict:
    doc = {"schema": 1, "app": "tablee", "name": "Campagne", "language": "fr", "characters": [], "log": [],
           "systems": {}, "settings": {}}
    doc.update(changes)
    return doc


def reload_keeps_table(page, name: str = "Campagne") -> dict:
    """After a reload the same table is open: nothing set aside, no backup made."""
    page.reload()
    wait_engine(page)
    expect(page.locator("#table-name")).to_have_text(name)
    assert page.evaluate(BACKUPS_JS) == []
    doc = saved_document(page)
    assert "quarantine" not in doc
    return doc


# ---------------------------------------------------------------- 1. writes the loader refused


def test_clearing_a_unicreon_name_is_refused_at_the_field(app):
    put_saved(app, table(characters=[unicreon("u1", "Béa")]))
    go(app, "#/unicreon/character/u1")
    app.fill("#uc-name", "")
    assert saved_document(app)["characters"][0]["name"] == "Béa"  # never written...
    expect(app.locator("[data-testid=refusal][data-at=uc-name]")).to_contain_text("ne peut pas rester vide")
    app.fill("#uc-name", "Béatrice")
    wait_saved(app, "d => d.characters[0].name === 'Béatrice'")
    expect(app.locator("[data-testid=refusal][data-at=uc-name]")).to_have_text("")
    assert [c["name"] for c in reload_keeps_table(app)["characters"]] == ["Béatrice"]


def test_a_long_versality_name_is_held_to_the_stores_limit(app):
    go(app, "#/versality")
    app.fill("#vs-new-name", "Nadia")
    app.click("#vs-create")
    app.fill("#vs-name", "N" * 90)
    wait_saved(app, "d => d.characters[0].name.startsWith('NNN')")
    assert len(saved_document(app)["characters"][0]["name"]) == 80
    expect(app.locator("#vs-name")).to_have_attribute("maxlength", "80")
    app.reload()
    wait_engine(app)
    assert app.evaluate(BACKUPS_JS) == []
    assert [len(c["name"]) for c in saved_document(app)["characters"]] == [80]


def test_creating_a_versality_character_without_a_name_is_refused(app):
    go(app, "#/versality")
    before = raw_saved(app)
    app.click("#vs-create")
    expect(app.locator("[data-testid=refusal][data-at=vs-new-name]")).to_contain_text("Donnez un nom au personnage pour le créer")
    assert raw_saved(app) == before
    assert saved_document(app)["characters"] == []


def test_a_41st_unicreon_skill_is_refused(app):
    skills = [{"name": f"Art {i}", "level": "moyen"} for i in range(40)]
    put_saved(app, table(characters=[unicreon("u1", "Béa", skills=skills)]))
    go(app, "#/unicreon/character/u1")
    app.fill("#uc-skill-name", "Une de trop")
    app.click("#uc-skill-add")
    expect(app.locator("[data-testid=refusal][data-at=uc-skill-name]")).to_contain_text("40 au plus")
    assert len(saved_document(app)["characters"][0]["skills"]) == 40
    assert len(reload_keeps_table(app)["characters"][0]["skills"]) == 40


RUNTIME = re.compile(r".*/static/vendor/(pyscript|pyodide)/.*")


@NO_SERVICE_WORKER
def test_a_41st_unicreon_skill_is_refused_before_the_engine_starts(page, site, guarded):
    """The systems' character schemas guard the first render (static/vendor/store-limits.json,
    the set-up's store.limits answer), not only once the engine answered: with the runtime held
    back, the 41st skill is refused at its field and nothing is written."""
    held = []
    page.route(RUNTIME, lambda route: held.append(route))
    page.goto(site + "manifest.webmanifest")  # same origin, not the app: seed the table first
    skills = [{"name": f"Art {i}", "level": "moyen"} for i in range(40)]
    raw = json.dumps(table(characters=[unicreon("u1", "Béa", skills=skills)]), ensure_ascii=False)
    page.evaluate("([k, raw]) => localStorage.setItem(k, raw)", [DOC_KEY, raw])
    page.goto(site + "#/unicreon/character/u1")
    page.fill("#uc-skill-name", "Une de trop")
    page.click("#uc-skill-add")
    expect(page.locator("[data-testid=refusal][data-at=uc-skill-name]")).to_contain_text("40 au plus")
    assert page.evaluate("document.documentElement.dataset.engine") != "ready"
    assert len(saved_document(page)["characters"][0]["skills"]) == 40
    assert raw_saved(page) == raw  # not even rewritten
    for route in held:
        route.abort()


def test_rolls_never_push_a_big_table_past_the_size_limit(app):
    pad = "x" * 19_500
    log = [{"id": f"old-{i}", "at": "2026-01-01T10:00:00.000Z", "kind": "roll", "system": None, "label": "d6",
            "request": {"op": "roll", "expr": "d6", "seed": i}, "result": {"total": 1, "pad": pad}} for i in range(102)]
    over = len(json.dumps(table(log=log), ensure_ascii=False, separators=(",", ":"))) - 1_999_000
    log[-1]["result"]["pad"] = pad[over:]
    put_saved(app, table(log=log))
    assert 1_998_000 < len(raw_saved(app)) <= 1_999_000  # a valid table 1 000 characters below the limit
    for i in range(4):
        roll(app, "30d6")
        wait_saved(app, "(d, n) => d.log.filter(e => !e.id.startsWith('old-')).length === n", i + 1)
    raw = raw_saved(app)
    assert len(raw) <= 2_000_000
    doc = reload_keeps_table(app)
    assert sum(1 for e in doc["log"] if not e["id"].startswith("old-")) == 4
    assert doc["log"][0]["id"] != "old-0"  # the oldest went first


# ---------------------------------------------------------------- 2. backups that exist


def test_setting_a_newer_table_aside_with_storage_full_replaces_nothing(app):
    newer = json.dumps({"schema": 99, "app": "tablee", "name": "Futur", "pad": "y" * 50_000})
    app.evaluate("([k, raw]) => localStorage.setItem(k, raw)", [DOC_KEY, newer])
    fill_storage(app, room=5_000)  # a fresh table fits, the 50 000-character backup does not
    app.reload()
    wait_engine(app)
    expect(app.locator("#notices")).to_contain_text("rien n'a été remplacé")
    expect(app.get_by_role("button", name="Télécharger la table enregistrée")).to_be_visible()
    expect(app.locator("#save-state")).to_have_attribute("data-state", "blocked")
    assert raw_saved(app) == newer
    app.click("#lang-toggle")  # anything touched: still nothing written over it
    roll(app, "d6")
    expect(app.locator("#roll-result li.die")).to_have_count(1)
    assert raw_saved(app) == newer
    assert app.evaluate(BACKUPS_JS) == []


def test_import_with_storage_full_replaces_nothing(app, tmp_path):
    put_saved(app, table(settings={"notes": "z" * 40_000}))
    original = raw_saved(app)
    path = tmp_path / "autre.json"
    path.write_text(json.dumps(table(name="Autre")))
    go(app, "#/table")
    fill_storage(app, room=2_000)
    app.on("dialog", lambda d: d.accept())
    app.set_input_files("#import-table", str(path))
    expect(app.locator("[data-testid=replace-failed]")).to_contain_text("rien n'a été remplacé")
    assert raw_saved(app) == original
    expect(app.locator("#table-name")).to_have_text("Campagne")
    # with room again the same import goes through, the old table in a backup read back
    free_storage(app)
    app.set_input_files("#import-table", str(path))
    expect(app.locator("#table-name")).to_have_text("Autre")
    backups = app.evaluate(f"{BACKUPS_JS}.map(k => localStorage.getItem(k))")
    assert backups == [original]


def test_backups_are_bounded_oldest_first_and_sized(app, tmp_path):
    old = {f"tablee.backup.2020-01-{d:02d}T00:00:00.000Z": json.dumps(table(name=f"Vieille {d}")) for d in range(1, 11)}
    app.evaluate("old => { for (const [k, v] of Object.entries(old)) localStorage.setItem(k, v); }", old)
    path = tmp_path / "autre.json"
    path.write_text(json.dumps(table(name="Autre")))
    go(app, "#/table")
    app.on("dialog", lambda d: d.accept())
    app.set_input_files("#import-table", str(path))
    expect(app.locator("#table-name")).to_have_text("Autre")
    keys = app.evaluate(BACKUPS_JS)
    assert len(keys) == 8
    assert keys[0] == "tablee.backup.2020-01-04T00:00:00.000Z"  # the three oldest went
    assert json.loads(app.evaluate("k => localStorage.getItem(k)", keys[-1]))["name"] != "Vieille 10"
    expect(app.locator("#backup-list li")).to_have_count(8)
    expect(app.locator("#backup-list li").first).to_contain_text("Ko")
    expect(app.locator("[data-testid=storage-usage]")).to_contain_text("libres")


def test_storage_warning_shows_well_before_full(app):
    go(app, "#/table")
    expect(app.locator("[data-testid=storage-warning]")).to_have_count(0)
    app.evaluate("localStorage.setItem('other.app', 'o'.repeat(3600000))")
    app.reload()
    wait_engine(app)
    expect(app.locator("[data-testid=storage-warning]")).to_be_visible()


@NO_SERVICE_WORKER
def test_an_older_table_is_not_overwritten_when_the_engine_did_not_start(page, site, guarded):
    fixture = (ROOT / "tests" / "fixtures" / "table-schema0.json").read_text()
    page.goto(site)
    wait_engine(page)
    page.evaluate("([k, raw]) => localStorage.setItem(k, raw)", [DOC_KEY, fixture])
    held = []

    def hold(route):  # never answered: the engine cannot start
        held.append(route)

    page.route("**/py/worker.py", hold)
    go(page, "#/tray")  # the reload opens the dice tray (the site lands on its home page)
    page.reload()
    expect(page.locator("#save-state")).to_have_attribute("data-state", "waiting")
    page.click("#lang-toggle")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    roll_box = page.locator("#dice-expr")
    expect(roll_box).to_be_visible()
    assert raw_saved(page) == fixture
    # once the engine can start, the table is migrated, its old text kept in a backup
    page.unroute("**/py/worker.py")
    page.reload()
    wait_engine(page)
    wait_saved(page, "d => d.schema === 1")
    assert page.evaluate(f"{BACKUPS_JS}.map(k => localStorage.getItem(k))") == [fixture]


# ---------------------------------------------------------------- 3. two tabs


@pytest.mark.slow
def test_two_tabs_alternating_twenty_changes_lose_none(context, site, guarded):
    pages = [context.new_page(), context.new_page()]
    for p in pages:
        p.goto(site)
        wait_engine(p)
    rolls = 0
    for i in range(20):
        p = pages[i % 2]
        # The person acts in the tab in front of them (a tab behind another gets no animation
        # frames, and Playwright's click waits for two of them: seconds per click).
        p.bring_to_front()
        if i % 5 == 4:
            go(p, "#/versality")
            p.fill("#vs-new-name", f"Perso {i}")
            p.click("#vs-create")
            wait_saved(p, "(d, name) => d.characters.some(c => c.name === name)", f"Perso {i}")
        else:
            roll(p, f"{i + 1}d6")
            rolls += 1
            wait_saved(p, "(d, n) => d.log.length === n", rolls)
    doc = saved_document(pages[0])
    assert sorted(c["name"] for c in doc["characters"]) == [f"Perso {i}" for i in (14, 19, 4, 9)]
    assert len(doc["log"]) == 16
    # the other tab shows the latest table without a reload
    go(pages[1], "#/log")
    expect(pages[1].locator("#log-list li.log-entry")).to_have_count(16)


# ---------------------------------------------------------------- 4. ids are data


def test_hostile_ids_import_and_every_versality_page_works(app, tmp_path):
    chars = [versality(cid, f"Perso {i}") for i, cid in enumerate(("constructor", "toString", "__proto__"))]
    path = tmp_path / "ids.json"
    path.write_text(json.dumps(table(characters=chars)))
    go(app, "#/table")
    app.on("dialog", lambda d: d.accept())
    app.set_input_files("#import-table", str(path))
    wait_saved(app, "d => d.characters.length === 3")
    go(app, "#/versality")
    expect(app.locator("[data-testid=vs-char]")).to_have_count(3)
    for cid in ("constructor", "toString", "__proto__"):
        go(app, f"#/versality/character/{cid}")
        expect(app.locator("#vs-name")).to_be_visible()
        go(app, f"#/versality/test/{cid}")
        expect(app.locator("h1")).to_be_visible()
    go(app, "#/versality/mj")
    expect(app.locator("h1")).to_be_visible()
    go(app, "#/versality")
    app.reload()
    wait_engine(app)
    expect(app.locator("[data-testid=vs-char]")).to_have_count(3)
    expect(app.locator("[data-testid=render-failed]")).to_have_count(0)


def test_a_numeric_name_is_set_apart_and_shown_never_a_blank_page(page, site, guarded):
    page.goto(site)
    wait_engine(page)
    page.evaluate("([k, raw]) => localStorage.setItem(k, raw)",
                  [DOC_KEY, json.dumps(table(characters=[unicreon("u1", 12345), unicreon("u2", "Cal")]))])
    go(page, "#/unicreon")
    page.reload()
    wait_engine(page)
    expect(page.locator("[data-testid=quarantine-banner]")).to_contain_text("1 personnage de ce jeu est à réparer")
    expect(page.locator("[data-testid=uc-char]")).to_have_count(1)
    wait_saved(page, "d => (d.quarantine || []).length === 1")
    # repaired on the Table page: edited as JSON, checked by the engine, put back
    go(page, "#/table")
    item = page.locator("[data-testid=quarantine-item]")
    expect(item).to_have_count(1)
    expect(item).to_contain_text("Personnage")
    page.click("[data-testid=quarantine-edit]")
    draft = json.loads(page.input_value("#quarantine-draft"))
    draft["name"] = ""
    page.fill("#quarantine-draft", json.dumps(draft))
    page.click("[data-testid=quarantine-save]")
    expect(page.locator("#quarantine-error")).to_contain_text("Toujours refusé")
    draft["name"] = "Douze"
    page.fill("#quarantine-draft", json.dumps(draft))
    page.click("[data-testid=quarantine-save]")
    wait_saved(page, "d => !d.quarantine && d.characters.length === 2")
    go(page, "#/unicreon")
    expect(page.locator("[data-testid=uc-char]")).to_have_count(2)
    expect(page.locator("[data-testid=quarantine-banner]")).to_have_count(0)


def test_a_bad_record_hides_nothing_and_can_be_deleted(app):
    doc = table(characters=[unicreon("u1", "Béa"), versality("v1", "N" * 90)],
                log=[{"id": "bad"}], systems={"zz": {"x": 1}})
    put_saved(app, doc)
    wait_saved(app, "d => (d.quarantine || []).length === 3")
    saved = saved_document(app)
    assert [c["id"] for c in saved["characters"]] == ["u1"]
    assert [q["data"] for q in saved["quarantine"]] == [doc["characters"][1], {"id": "bad"}, {"x": 1}]
    go(app, "#/versality")
    expect(app.locator("[data-testid=quarantine-banner]")).to_be_visible()
    go(app, "#/table")
    expect(app.locator("[data-testid=quarantine-item]")).to_have_count(3)
    app.on("dialog", lambda d: d.accept())
    app.locator("[data-testid=quarantine-delete]").last.click()
    wait_saved(app, "d => d.quarantine.length === 2")


def test_a_backup_with_a_bad_record_can_be_restored(app):
    bad = table(name="Ancienne", characters=[unicreon("u1", "")])
    app.evaluate("raw => localStorage.setItem('tablee.backup.2020-01-01T00:00:00.000Z', raw)", json.dumps(bad))
    go(app, "#/table")
    app.on("dialog", lambda d: d.accept())
    app.get_by_role("button", name="Restaurer").click()
    expect(app.locator("#table-name")).to_have_text("Ancienne")
    wait_saved(app, "d => d.name === 'Ancienne' && d.quarantine.length === 1")


# ---------------------------------------------------------------- 5. one save state


def test_failed_saves_show_one_persistent_state_until_a_save_works(app):
    roll(app, "d6")
    wait_saved(app, "d => d.log.length === 1")
    fill_storage(app, room=0)
    for _ in range(12):
        roll(app, "20d6")
        expect(app.locator("#save-state")).to_have_attribute("data-state", "failed")
    expect(app.locator("#notices > *")).to_have_count(1)
    expect(app.locator("#save-state")).to_contain_text("Non enregistré — exportez")
    free_storage(app)
    roll(app, "d6")
    expect(app.locator("#save-state")).to_have_count(0)
    wait_saved(app, "d => d.log.length === 14")


# ---------------------------------------------------------------- render fuzz

RENDER_COUNT = int(os.environ.get("TABLEE_RENDER_FUZZ", "60"))
ROUTES = ("#/home", "#/tray", "#/log", "#/table", "#/about", "#/unicreon", "#/versality", "#/versality/mj")


WALK_ROUTES = """async (routes) => {
  const frame = () => new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)));
  const bad = [];
  for (const route of routes) {
    if (location.hash !== route) {
      const changed = new Promise((done) => window.addEventListener('hashchange', done, { once: true }));
      location.hash = route;
      await changed;
    }
    await frame();
    const main = document.getElementById('main');
    if (!main || main.childElementCount === 0) bad.push([route, 'empty']);
    if (document.querySelector('[data-testid=render-failed]')) bad.push([route, 'render-failed']);
  }
  return bad;
}"""


@pytest.mark.slow
def test_every_accepted_document_renders_every_route(app):
    """Documents from the loader fuzz (tests/store_fuzz.py) that store.open accepts, shown as if
    another tab saved them: every route renders, with no page error and no failed render."""
    from store_fuzz import documents
    from tablee.errors import RulesError
    from tablee.store import open_document

    shown = 0
    for value in documents(11, RENDER_COUNT * 2):
        try:
            doc, _, _ = open_document(value)
        except RulesError:
            continue
        routes = list(ROUTES)
        for c in doc["characters"][:2]:
            routes += [f"#/{c['system']}/character/{c['id']}", f"#/{c['system']}/test/{c['id']}"]
        app.evaluate(
            """([k, raw]) => { localStorage.setItem(k, raw);
              window.dispatchEvent(new StorageEvent('storage', {key: k, newValue: raw})); }""",
            [DOC_KEY, json.dumps(doc)],
        )
        app.wait_for_function("n => document.getElementById('table-name').textContent === n", arg=doc["name"])
        # Every route in turn in the page (one round trip per document, not three per route):
        # each waits for its hashchange and the frame after it, then is read.
        bad = app.evaluate(WALK_ROUTES, routes)
        assert bad == [], (doc["name"], bad)
        shown += 1
        if shown >= RENDER_COUNT:
            break
    assert shown == RENDER_COUNT
